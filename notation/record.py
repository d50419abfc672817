"""The model of one Belote record: what the parser builds and the writer prints.

The model holds what was written, not what the rules make of it: seats a
transcriber left out stay ``None``, an unknown card is ``None``, a record may
break every rule of the game. The engine (``replayer``) judges it.

Positions (``pos``) and the source text are kept for error messages but take no
part in equality, so ``parse(str(record)) == record`` holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from .values import ANNOTATIONS, DECLARATIONS, Call, Card, MeldKind, Seat, canonical_hand_order
from .writer import write_record

TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "Deal", "North", "East", "South", "West",
                               "Dealer", "Variant", "Rules", "Target", "Score", "Result")
"""Known tags, in export order; other tags follow them in the order given."""

_ROSTER_RANK = {name: i for i, name in enumerate(TAG_ROSTER)}
_OTHER = len(TAG_ROSTER)


@dataclass(frozen=True, slots=True)
class Pos:
    """A 1-based line and column in the source text."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class CallEntry:
    """One call of the taking or the auction, as written."""

    call: Call
    seat: Seat | None = None
    annotation: str | None = None
    comments: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One card played; ``card`` is ``None`` when written ``??``.

    ``declaration`` is ``"belote"`` or ``"rebelote"`` when the player said it
    with this card.
    """

    card: Card | None
    seat: Seat | None = None
    declaration: str | None = None
    annotation: str | None = None
    comments: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Trick:
    """The cards of one trick in play order; ``comments`` belong to the trick as a whole."""

    plays: tuple[CardEntry, ...]
    comments: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Hand:
    """A seat's cards as dealt: 8 after the second distribution, 5 in a void
    classic deal (the notation reads 1 to 8; the validator checks the count);
    ``cards`` is ``None`` for a hand written ``-`` (not known)."""

    seat: Seat
    cards: tuple[Card | None, ...] | None
    comments: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Held in canonical order (unknown cards last) so that equality ignores
        # the order in which a transcriber wrote the cards.
        if self.cards is not None:
            object.__setattr__(self, "cards", canonical_hand_order(self.cards))


@dataclass(frozen=True, slots=True)
class Announcement:
    """A meld declared by ``seat`` with the cards that make it."""

    seat: Seat
    kind: MeldKind
    cards: tuple[Card, ...]
    annotation: str | None = None
    comments: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` claimed every remaining trick for its side."""

    seat: Seat
    comments: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: its raw text and its line range (1-based, inclusive)."""

    text: str
    first_line: int
    last_line: int
    index: int = 0  # 0-based position of the record in its file
    byte_offset: int | None = None  # where the record starts in its file, when read from bytes


@dataclass(frozen=True, slots=True)
class Record:
    """One deal: tag pairs, the deal, the taking or auction, announcements, play."""

    tags: tuple[tuple[str, str], ...] = ()
    comments: tuple[str, ...] = ()  # comments between the tags and the body
    hands: tuple[Hand, ...] = ()  # in seat order N E S W, only the seats written
    turned: Card | None = None  # classic belote: the turned card
    taking: tuple[CallEntry, ...] | None = None  # classic belote: both rounds
    auction: tuple[CallEntry, ...] | None = None  # coinche / contrée
    announcements: tuple[Announcement, ...] = ()
    tricks: tuple[Trick, ...] = ()
    claim: Claim | None = None
    stopped: bool = False  # the play was stopped on purpose ("*")
    source: Source | None = field(default=None, compare=False, repr=False)
    turned_comments: tuple[str, ...] = ()  # comments after the turned card
    turned_pos: Pos | None = field(default=None, compare=False)
    turned_unknown: bool = False  # "turned ??": a card was turned but is not known (``turned`` is None)

    def __post_init__(self) -> None:
        # Tags in export order and hands in seat order, so that a record equals the parse of its own export.
        object.__setattr__(self, "tags", tags_in_export_order(self.tags))
        object.__setattr__(self, "hands", hands_in_seat_order(self.hands))

    # --- tags -----------------------------------------------------------------

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-sensitive, as in PGN)."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.tags)

    @property
    def dealer(self) -> Seat | None:
        return _seat_or_none(self.tag("Dealer"))

    @property
    def variant(self) -> str | None:
        return variant_name(self.tag("Variant"))

    @property
    def rules_text(self) -> str | None:
        return self.tag("Rules")

    @property
    def result(self) -> tuple[int, int] | None:
        """The recorded deal score as (NS, EW), or ``None`` when absent or ``?``."""
        return parse_score_pair(self.tag("Result"))

    @property
    def score(self) -> tuple[int, int] | None:
        """The recorded match score before the deal as (NS, EW)."""
        return parse_score_pair(self.tag("Score"))

    def player(self, seat: Seat) -> str | None:
        return self.tag(seat.full_name)

    # --- deal -----------------------------------------------------------------

    def hand(self, seat: Seat) -> tuple[Card | None, ...] | None:
        """The seat's cards as written, ``None`` when the hand is absent or ``-``."""
        for hand in self.hands:
            if hand.seat is seat:
                return hand.cards
        return None

    @property
    def plays(self) -> tuple[CardEntry, ...]:
        return tuple(entry for trick in self.tricks for entry in trick.plays)

    def __str__(self) -> str:
        return write_record(self)


def tags_in_export_order(tags: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The roster's tags in roster order, then the others as given (a stable sort, done only when needed)."""
    tags = tuple(tags)
    ranks = [_ROSTER_RANK.get(pair[0], _OTHER) for pair in tags]
    return tags if ranks == sorted(ranks) else tuple(sorted(tags, key=lambda pair: _ROSTER_RANK.get(pair[0], _OTHER)))


def variant_name(value: str | None) -> str | None:
    """A ``Variant`` tag's value as the rules look it up (trimmed, lower case), None when absent."""
    return value.strip().lower() if value else None


def hands_in_seat_order(hands: Iterable[Hand]) -> tuple[Hand, ...]:
    hands = tuple(hands)
    seats = [hand.seat.index for hand in hands]
    return hands if seats == sorted(seats) else tuple(sorted(hands, key=lambda hand: hand.seat.index))


_SCORE_PAIR = re.compile(r"^\s*(-?\d+)\s*-\s*(-?\d+)\s*$")


def parse_score_pair(text: str | None) -> tuple[int, int] | None:
    """``"92-70"`` -> ``(92, 70)``; ``None`` for a missing, ``?`` or malformed value."""
    if not text:
        return None
    match = _SCORE_PAIR.match(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def _seat_or_none(text: str | None) -> Seat | None:
    if not text:
        return None
    try:
        return Seat.parse(text)
    except ValueError:
        return None
