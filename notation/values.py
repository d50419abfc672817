"""The domain values of Belote: suits, ranks, cards, seats, teams, denominations, calls.

Every value is small and immutable, and its ``str()`` is its canonical notation
(a ``Card`` prints ``JH``, a ``Call`` prints ``80H`` or ``coinche``), the way
python-chess's ``Move`` prints ``g1f3``. The lenient parsers (``Card.parse``,
``Call.parse``, ...) accept what people type when they transcribe a game:
``10S``, ``jh``, ``V♥`` (French ranks R D V for K Q J), suit symbols.

Cards are interned: ``Card.parse``, ``Card.from_index`` and ``Card.of`` always
return one of the 32 shared instances, and ``card.index`` (0..31, suit-major in
S H D C order, natural rank order 7..A inside a suit) lets the engine work on
bit masks.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable


class NotationError(ValueError):
    """A token that is not valid notation; ``text`` is the offending text."""

    def __init__(self, message: str, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class _Value(enum.Enum):
    """A base of the enums below: members are singletons compared by identity, so they
    hash by identity too, in C, instead of ``Enum.__hash__`` (a Python call that hashes
    the name), which the engine pays in every seat- or suit-keyed lookup."""

    __hash__ = object.__hash__

    # ``str()`` and f-strings give the notation; ``_value_`` (enum's own attribute) rather
    # than ``.value`` (a descriptor call), since writers and messages do it for every card.
    def __str__(self) -> str:
        return self._value_  # type: ignore[no-any-return]

    def __format__(self, spec: str) -> str:
        return format(self._value_, spec)


class Suit(_Value):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    _index: int  # an annotation, not a member: set below

    @property
    def index(self) -> int:
        return self._index  # set below: an attribute, not a dict lookup on the enum's hash

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def plural(self) -> str:
        """English name in the plural, for messages: ``hearts``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return _SUIT_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise NotationError(f"not a suit: {text!r} (expected S H D C or ♠ ♥ ♦ ♣)", text) from None



SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
for _suit, _i in _SUIT_INDEX.items():
    _suit._index = _i
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in SUITS} | {sym: s for s, sym in _SUIT_SYMBOL.items()} | {
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}


class Rank(_Value):
    """Ranks in natural order (7 8 9 10 J Q K A), the order of sequences."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    _index: int  # an annotation, not a member: set below

    @property
    def index(self) -> int:
        """Position in natural order: 7 is 0, ace is 7."""
        return self._index  # set below: an attribute, not a dict lookup on the enum's hash

    @classmethod
    def parse(cls, text: str) -> Rank:
        try:
            return _RANK_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise NotationError(
                f"not a rank: {text!r} (expected A K Q J T 9 8 7, 10, or French R D V)", text
            ) from None



RANKS: tuple[Rank, ...] = tuple(Rank)
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
for _rank, _i in _RANK_INDEX.items():
    _rank._index = _i
# French ranks: Roi, Dame, Valet. "10" is accepted for the ten.
_RANK_BY_TEXT = {r.value: r for r in RANKS} | {"10": Rank.TEN, "R": Rank.KING, "D": Rank.QUEEN, "V": Rank.JACK}


@dataclass(frozen=True, slots=True)
class Card:
    """A card; ``str()`` is rank then suit: ``JH``, ``TS``, ``7C``."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return self.suit.index * 8 + self.rank.index

    @property
    def mask(self) -> int:
        return 1 << self.index

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return _CARDS[suit.index * 8 + rank.index]

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``JH``, ``10s``, ``T♠``, ``V♥``; raise ``NotationError`` otherwise."""
        card = _CARD_BY_TEXT.get(text)
        if card is not None:
            return card
        cleaned = text.strip()
        if len(cleaned) < 2:
            raise NotationError(f"not a card: {text!r} (expected rank then suit, e.g. JH or 10S)", text)
        try:
            return cls.of(Rank.parse(cleaned[:-1]), Suit.parse(cleaned[-1]))
        except NotationError as exc:
            raise NotationError(f"not a card: {text!r}: {exc}", text) from None

    def pretty(self) -> str:
        """Rank and suit symbol, for messages: ``9♥``, ``10♠``."""
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return self.rank._value_ + self.suit._value_  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)  # by index
ALL_CARDS: tuple[Card, ...] = _CARDS
_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in _CARDS}

UNKNOWN_CARD = "??"
"""Notation of a card that is not known (ISS Skat's ``??``); modelled as ``None``."""


# Sort keys of the canonical hand order, by id(): the 32 cards are interned, and
# hashing a Card would hash two enums. An unknown card (None) sorts last.
HAND_KEYS: dict[int, int] = {id(card): card.suit.index * 8 + 7 - card.rank.index for card in _CARDS}
HAND_KEYS[id(None)] = 32


_CARD_INDEX: dict[int, int] = {id(card): index for index, card in enumerate(_CARDS)}


def card_index(card: Card) -> int:
    """``card.index``, found by identity for the 32 interned cards (no enum property calls)."""
    index = _CARD_INDEX.get(id(card))
    return card.index if index is None else index


def hand_sort_key(card: Card | None) -> int:
    key = HAND_KEYS.get(id(card))
    return key if key is not None else card.suit.index * 8 + 7 - card.rank.index  # type: ignore[union-attr]


def canonical_hand_order(cards: Iterable[Card | None]) -> tuple[Card | None, ...]:
    """Suits S H D C, ranks descending in natural order (A K Q J T 9 8 7), unknown cards last."""
    return tuple(sorted(cards, key=hand_sort_key))


class Team(_Value):
    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.NORTH, Seat.SOUTH) if self is Team.NS else (Seat.EAST, Seat.WEST)

    @classmethod
    def parse(cls, text: str) -> Team:
        key = text.strip().upper()
        if key in ("NS", "SN"):
            return Team.NS
        if key in ("EW", "WE"):
            return Team.EW
        raise NotationError(f"not a side: {text!r} (expected NS or EW)", text)



class Seat(_Value):
    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    _index: int  # an annotation, not a member: set below

    @property
    def index(self) -> int:
        """N 0, E 1, S 2, W 3: clockwise order."""
        return self._index  # set below: an attribute, not a dict lookup on the enum's hash

    @property
    def team(self) -> Team:
        return Team.NS if self in (Seat.NORTH, Seat.SOUTH) else Team.EW

    @property
    def partner(self) -> Seat:
        return SEATS[(self.index + 2) % 4]

    def next(self, clockwise: bool) -> Seat:
        """The next player: clockwise N E S W, counter-clockwise N W S E."""
        return SEATS[(self.index + (1 if clockwise else 3)) % 4]

    @property
    def full_name(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return _SEAT_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise NotationError(f"not a seat: {text!r} (expected N E S W)", text) from None



SEATS: tuple[Seat, ...] = tuple(Seat)
_SEAT_INDEX = {seat: i for i, seat in enumerate(SEATS)}
for _seat, _i in _SEAT_INDEX.items():
    _seat._index = _i
_SEAT_BY_TEXT = {s.value: s for s in SEATS} | {s.name: s for s in SEATS} | {"O": Seat.WEST}


class Denomination(_Value):
    """What a contract is played in: one of the four suits, no trumps or all trumps."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    NO_TRUMPS = "SA"
    ALL_TRUMPS = "TA"

    @property
    def suit(self) -> Suit | None:
        return None if self in (Denomination.NO_TRUMPS, Denomination.ALL_TRUMPS) else Suit(self.value)

    @property
    def is_suit(self) -> bool:
        return self.suit is not None

    @classmethod
    def of_suit(cls, suit: Suit) -> Denomination:
        return Denomination(suit.value)

    @classmethod
    def parse(cls, text: str) -> Denomination:
        key = text.strip().upper()
        if key in _DENOMINATION_ALIASES:
            return _DENOMINATION_ALIASES[key]
        try:
            return cls.of_suit(Suit.parse(key))
        except NotationError:
            raise NotationError(
                f"not a denomination: {text!r} (expected S H D C, ♠ ♥ ♦ ♣, SA or TA)", text
            ) from None

    def pretty(self) -> str:
        suit = self.suit
        return suit.symbol if suit else self.value



_DENOMINATION_ALIASES = {"SA": Denomination.NO_TRUMPS, "NT": Denomination.NO_TRUMPS,
                         "TA": Denomination.ALL_TRUMPS, "AT": Denomination.ALL_TRUMPS}


class CallKind(_Value):
    PASS = "pass"
    TAKE = "take"  # classic, round 1: the turned card's suit is trump
    NAME = "name"  # classic, round 2: a denomination is named
    BID = "bid"  # coinche: value + denomination
    CAPOT = "capot"  # coinche: all 8 tricks
    GENERALE = "generale"  # coinche: the bidder alone takes all 8 tricks
    CAPOT_BELOTE = "capotbelote"  # coinche: a capot, and the takers' belote too
    GENERALE_BELOTE = "generalebelote"  # coinche: a générale, and the takers' belote too
    COINCHE = "coinche"
    SURCOINCHE = "surcoinche"


_CALL_WORDS = {
    "pass": CallKind.PASS, "p": CallKind.PASS, "passe": CallKind.PASS, "-": CallKind.PASS,
    "take": CallKind.TAKE, "prend": CallKind.TAKE, "pris": CallKind.TAKE,
    "coinche": CallKind.COINCHE, "contre": CallKind.COINCHE, "x": CallKind.COINCHE,
    "surcoinche": CallKind.SURCOINCHE, "surcontre": CallKind.SURCOINCHE, "xx": CallKind.SURCOINCHE,
}
# Longest first: "capotbeloteH" is no capot in the denomination "beloteH".
_LADDER_WORDS = {"capotbelote": CallKind.CAPOT_BELOTE, "generalebelote": CallKind.GENERALE_BELOTE,
                 "généralebelote": CallKind.GENERALE_BELOTE, "capot": CallKind.CAPOT,
                 "generale": CallKind.GENERALE, "générale": CallKind.GENERALE}
_LADDER_KINDS = (CallKind.CAPOT, CallKind.GENERALE, CallKind.CAPOT_BELOTE, CallKind.GENERALE_BELOTE)
_PRETTY_LADDER = {CallKind.CAPOT_BELOTE: "capot belote", CallKind.GENERALE_BELOTE: "generale belote"}


BID_DIGITS = 4
"""A bid's value has at most this many digits: no contract is worth 10,000 points, and a bounded
value keeps every score the rules make of it a small integer."""


@dataclass(frozen=True, slots=True)
class Call:
    """A call of the taking or the auction.

    ``str()``: ``pass``, ``take``, ``H`` (a suit named in round 2), ``80H``,
    ``110SA``, ``capotH``, ``generaleTA``, ``capotbeloteH``, ``generalebeloteH``,
    ``coinche``, ``surcoinche``.
    """

    kind: CallKind
    denomination: Denomination | None = None
    value: int | None = None

    def __post_init__(self) -> None:
        needs_denomination = self.kind is CallKind.NAME or self.kind is CallKind.BID or self.kind in _LADDER_KINDS
        if needs_denomination != (self.denomination is not None):
            raise ValueError(f"a {self.kind.value} call {'needs' if needs_denomination else 'takes no'} denomination")
        if (self.kind is CallKind.BID) != (self.value is not None):
            raise ValueError("only a bid has a value")

    @property
    def is_bid(self) -> bool:
        """A call that sets a contract in the coinche auction (a value, capot, générale, or
        either with belote)."""
        return self.kind is CallKind.BID or self.kind in _LADDER_KINDS

    @classmethod
    def parse(cls, text: str) -> Call:
        word = text.strip()
        lowered = word.lower()
        kind = _CALL_WORDS.get(lowered)
        if kind is not None:
            return _SIMPLE_CALLS[kind]
        for prefix, kind in _LADDER_WORDS.items():
            if lowered.startswith(prefix) and len(word) > len(prefix):
                return cls(kind, Denomination.parse(word[len(prefix):]))
        digits = len(word) - len(word.lstrip("0123456789"))
        if digits and digits < len(word):
            if digits > BID_DIGITS:
                raise NotationError(f"bid value out of range: {word[:digits]} (at most {BID_DIGITS} digits)", text)
            return cls(CallKind.BID, Denomination.parse(word[digits:]), int(word[:digits]))
        try:
            return cls(CallKind.NAME, Denomination.parse(word))
        except NotationError:
            raise NotationError(
                f"not a call: {text!r} (expected pass, take, a suit, a bid such as 80H or 110SA, "
                "capotH, generaleH, capotbeloteH, generalebeloteH, coinche or surcoinche)", text) from None

    def pretty(self) -> str:
        if self.kind is CallKind.BID:
            assert self.denomination is not None
            return f"{self.value}{self.denomination.pretty()}"
        if self.denomination is not None:
            prefix = "" if self.kind is CallKind.NAME else _PRETTY_LADDER.get(self.kind, self.kind.value) + " "
            return prefix + self.denomination.pretty()
        return self.kind.value

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            return f"{self.value}{self.denomination}"
        if self.kind is CallKind.NAME:
            return str(self.denomination)
        if self.denomination is not None:
            return f"{self.kind.value}{self.denomination}"
        return self.kind.value


PASS = Call(CallKind.PASS)
TAKE = Call(CallKind.TAKE)
COINCHE = Call(CallKind.COINCHE)
SURCOINCHE = Call(CallKind.SURCOINCHE)
_SIMPLE_CALLS = {CallKind.PASS: PASS, CallKind.TAKE: TAKE, CallKind.COINCHE: COINCHE,
                 CallKind.SURCOINCHE: SURCOINCHE}


ANNOTATIONS: tuple[str, ...] = ("!!", "??", "!?", "?!", "!", "?")
"""Annotation glyphs, as in PGN: good, mistake, brilliant, blunder, interesting, dubious."""

DECLARATIONS: tuple[str, ...] = ("belote", "rebelote")
"""Words said when a trump king or queen is played."""


class MeldKind(_Value):
    TIERCE = "tierce"  # 3 in sequence
    QUARTE = "quarte"  # 4 in sequence ("cinquante")
    QUINTE = "quinte"  # 5 or more in sequence ("cent")
    CARRE = "carre"  # four of a kind

