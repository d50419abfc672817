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

from .values import ANNOTATIONS, DECLARATIONS, Call, Card, MeldKind, Seat, canonical_hand_order, card_index
from .errors import RecordSyntaxError
from .lexer import UNKNOWN
from .reader import RecordData, place, read_record
from .writer import TAG_ROSTER, tags_in_export_order, write_record



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
        return seat_or_none(self.tag("Dealer"))

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

    def data(self, index: int = 0, places: bool = True) -> RecordData:
        """The record as plain data (what the reader gives, what the validator and the writer
        read): the same values, each item placed at its ``pos`` (nowhere when it has none),
        the tags where its source has them; without ``places``, placed nowhere (cheaper)."""
        at = _at if places else _nowhere
        data = RecordData(text="", first_line=0, index=index, columns=True)
        data.tags = list(self.tags)
        data.tag_places = _tag_places(self) if places else [0] * len(self.tags)
        data.comments = list(self.comments)
        data.hands = [(hand.seat, None if hand.cards is None else [_index(card) for card in hand.cards],
                       at(hand.pos), list(hand.comments)) for hand in self.hands]
        if self.turned is not None or self.turned_unknown:
            data.turned = _index(self.turned)
            data.turned_place = at(self.turned_pos)
        data.turned_comments = list(self.turned_comments)
        calls = self.taking if self.taking is not None else self.auction
        data.bidding = "taking" if self.taking is not None else "auction" if self.auction is not None else None
        for i, entry in enumerate(calls or ()):
            data.calls.append((entry.call, entry.seat, entry.annotation, at(entry.pos)))
            if entry.comments:
                data.call_comments[i] = list(entry.comments)
        data.announcements = [(a.seat, a.kind, tuple(_index(card) for card in a.cards), a.annotation, at(a.pos),
                               list(a.comments)) for a in self.announcements]
        for number, trick in enumerate(self.tricks):
            data.tricks.append((len(data.plays), at(trick.pos)))
            if trick.comments:
                data.trick_comments[number] = list(trick.comments)
            for play in trick.plays:
                if play.declaration:
                    data.declarations[len(data.plays)] = play.declaration
                if play.comments:
                    data.play_comments[len(data.plays)] = list(play.comments)
                data.plays.append((_index(play.card), play.seat, play.annotation, at(play.pos)))
        if self.claim is not None:
            data.claim = (self.claim.seat, at(self.claim.pos), list(self.claim.comments))
        data.stopped = self.stopped
        return data


def _index(card: Card | None) -> int:
    return UNKNOWN if card is None else card_index(card)


def _at(pos: Pos | None) -> int:
    return 0 if pos is None else place(pos.line, pos.column)


def _nowhere(pos: Pos | None) -> int:
    return 0


def _tag_places(record: Record) -> list[int]:
    """Where the record's source text has its tags (read again), else nowhere."""
    if record.source is not None:
        try:
            read = read_record(record.source.text, record.source.first_line)
        except RecordSyntaxError:
            read = None
        if read is not None and read.tags == list(record.tags):
            return [place(*read.tag_at(at)) for at in read.tag_places]  # type: ignore[misc]
    return [0] * len(record.tags)


def variant_name(value: str | None) -> str | None:
    """A ``Variant`` tag's value as the rules look it up (trimmed, lower case), None when absent."""
    return value.strip().lower() if value else None


def hands_in_seat_order(hands: Iterable[Hand]) -> tuple[Hand, ...]:
    hands = tuple(hands)
    seats = [hand.seat.index for hand in hands]
    return hands if seats == sorted(seats) else tuple(sorted(hands, key=lambda hand: hand.seat.index))


SCORE_DIGITS = 6
"""A score in a Result or Score tag has at most this many digits (ASCII only): no deal or match
scores a million, and a bounded number always fits the archive's integer columns."""
_SCORE_PAIR = re.compile(r"^\s*(-?[0-9]{1,%d})\s*-\s*(-?[0-9]{1,%d})\s*$" % (SCORE_DIGITS, SCORE_DIGITS), re.ASCII)


def parse_score_pair(text: str | None) -> tuple[int, int] | None:
    """``"92-70"`` -> ``(92, 70)``; ``None`` for a missing, ``?`` or malformed value, or a
    number out of range (more than ``SCORE_DIGITS`` digits)."""
    if not text:
        return None
    match = _SCORE_PAIR.match(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def seat_or_none(text: str | None) -> Seat | None:
    """The seat a tag names (``N``, ``North``...), None when it names none."""
    if not text:
        return None
    try:
        return Seat.parse(text)
    except ValueError:
        return None
