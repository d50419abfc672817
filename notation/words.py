"""Words of the notation: how a section token is cut into cards, calls and comments.

Shared by the section readers (``sections.py``): the word patterns, small
caches of words already read, file positions inside a token, and the entries
built without their dataclass ``__init__`` (a frozen dataclass ``__init__``
costs about three times as much, and a record holds some fifty entries).
"""

from __future__ import annotations

import re
import threading
from dataclasses import fields

from lark import Token

from .values import ALL_CARDS, HAND_KEYS, Call, CallKind, Card, Seat, canonical_hand_order
from .errors import RecordSyntaxError
from .record import (Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Source, Trick,
                     hands_in_seat_order, tags_in_export_order)

context = threading.local()
"""``line_offset``: the lines of the file before the record being parsed (set by the parser)."""

A_CARD = "a card (e.g. JH, 10S)"
A_SEAT = "a seat (N, E, S or W)"
END_OF_LINE = "a comment or the end of the line"
TAKING_CALL = "a call of the taking (pass, take or a suit)"
AUCTION_CALL = "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)"


class Problem(Exception):
    """The first word of a section that does not fit, with what was expected there."""

    def __init__(self, pos: Pos, problem: str, text: str, expected: str = "",
                 kind: type[RecordSyntaxError] = RecordSyntaxError) -> None:
        super().__init__(problem)
        self.pos, self.problem, self.text, self.expected, self.kind = pos, problem, text, expected, kind


def unexpected(pos: Pos, word: str, expected: str) -> Problem:
    if not word:
        return Problem(pos, "unexpected end of the line", "", expected)
    return Problem(pos, f'unexpected "{word[:30]}"', word, expected)


# --- values built without their dataclass __init__ -----------------------------------------

_FIELDS = {CardEntry: ("card", "seat", "declaration", "annotation", "comments", "pos"),
           CallEntry: ("call", "seat", "annotation", "comments", "pos"),
           Trick: ("plays", "comments", "pos"), Pos: ("line", "column"), Hand: ("seat", "cards", "comments", "pos"),
           Source: ("text", "first_line", "last_line", "index", "byte_offset"),
           Record: ("tags", "comments", "hands", "turned", "taking", "auction", "announcements", "tricks", "claim",
                    "stopped", "source", "turned_comments", "turned_pos", "turned_unknown")}
for _cls, _names in _FIELDS.items():  # fail loudly if the model changes under the fast path
    assert tuple(f.name for f in fields(_cls)) == _names, f"update words._FIELDS for {_cls.__name__}"

# A frozen dataclass sets each field through ``object.__setattr__``, and even slot descriptors cost a
# C call per field.  A "draft" is a plain class with the very same slots: its ``__init__`` fills them
# at the speed of ordinary attribute stores, then turns the object into the model class (CPython
# allows ``__class__`` assignment between classes of identical slot layout).  Calling a draft
# class thus returns a finished, frozen model value, in about half the time; a "blank" (a draft
# without ``__init__``, filled inline by the caller) saves the call too.


class _PosDraft:
    __slots__ = _FIELDS[Pos]

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column
        self.__class__ = Pos  # type: ignore[assignment]


class _CardEntryDraft:
    __slots__ = _FIELDS[CardEntry]

    def __init__(self, card: Card | None, seat: Seat | None, declaration: str | None, annotation: str | None,
                 comments: tuple[str, ...], pos: Pos | None) -> None:
        self.card = card
        self.seat = seat
        self.declaration = declaration
        self.annotation = annotation
        self.comments = comments
        self.pos = pos
        self.__class__ = CardEntry  # type: ignore[assignment]


class _CallEntryDraft:
    __slots__ = _FIELDS[CallEntry]

    def __init__(self, call: Call, seat: Seat | None, annotation: str | None, comments: tuple[str, ...],
                 pos: Pos | None) -> None:
        self.call = call
        self.seat = seat
        self.annotation = annotation
        self.comments = comments
        self.pos = pos
        self.__class__ = CallEntry  # type: ignore[assignment]


class _TrickDraft:
    __slots__ = _FIELDS[Trick]

    def __init__(self, plays: tuple[CardEntry, ...], comments: tuple[str, ...], pos: Pos | None) -> None:
        self.plays = plays
        self.comments = comments
        self.pos = pos
        self.__class__ = Trick  # type: ignore[assignment]


class _HandDraft:
    __slots__ = _FIELDS[Hand]

    def __init__(self, seat: Seat, cards: tuple[Card | None, ...] | None, comments: tuple[str, ...],
                 pos: Pos | None) -> None:
        self.seat = seat
        self.cards = cards
        self.comments = comments
        self.pos = pos
        self.__class__ = Hand  # type: ignore[assignment]


class _RecordDraft:
    __slots__ = _FIELDS[Record]

    def __init__(self, tags: tuple[tuple[str, str], ...], comments: tuple[str, ...], hands: tuple[Hand, ...],
                 turned: Card | None, taking: tuple[CallEntry, ...] | None, auction: tuple[CallEntry, ...] | None,
                 announcements: tuple[Announcement, ...], tricks: tuple[Trick, ...], claim: Claim | None,
                 stopped: bool, turned_comments: tuple[str, ...], turned_pos: Pos | None,
                 turned_unknown: bool) -> None:
        self.tags = tags_in_export_order(tags)  # what Record.__post_init__ does
        self.comments = comments
        self.hands = hands_in_seat_order(hands)
        self.turned = turned
        self.taking = taking
        self.auction = auction
        self.announcements = announcements
        self.tricks = tricks
        self.claim = claim
        self.stopped = stopped
        self.source = None
        self.turned_comments = turned_comments
        self.turned_pos = turned_pos
        self.turned_unknown = turned_unknown
        self.__class__ = Record  # type: ignore[assignment]


class _SourceDraft:
    __slots__ = _FIELDS[Source]

    def __init__(self, text: str, first_line: int, last_line: int, index: int, byte_offset: int | None) -> None:
        self.text = text
        self.first_line = first_line
        self.last_line = last_line
        self.index = index
        self.byte_offset = byte_offset
        self.__class__ = Source  # type: ignore[assignment]


class PosBlank:
    """An empty draft ``Pos``, for the hottest loop to fill inline (no ``__init__`` call is cheaper still)."""

    __slots__ = _FIELDS[Pos]


class CardEntryBlank:
    """An empty draft ``CardEntry``, for the hottest loop to fill inline."""

    __slots__ = _FIELDS[CardEntry]


class TrickBlank:
    """An empty draft ``Trick``, for the hottest loop to fill inline."""

    __slots__ = _FIELDS[Trick]


# The builders of the readers: called like the model classes, they return model values.
make_pos = _PosDraft
card_entry = _CardEntryDraft
call_entry = _CallEntryDraft
make_trick = _TrickDraft
make_record = _RecordDraft
make_source = _SourceDraft
make_sorted_hand = _HandDraft  # for cards already in canonical order


def make_hand(seat: Seat, cards: list[Card | None] | None, comments: tuple[str, ...], pos: Pos | None) -> Hand:
    """A ``Hand`` whose cards (a list, or None) are put in canonical order, as ``Hand.__post_init__`` does."""
    if cards is not None:
        keys = [HAND_KEYS.get(id(card), -1) for card in cards]  # -1: a card not interned (not from parse)
        cards = tuple(cards) if -1 not in keys and keys == sorted(keys) else canonical_hand_order(cards)
    return _HandDraft(seat, cards, comments, pos)  # type: ignore[return-value]


class Where:
    """File positions of offsets in a token, read forwards."""

    __slots__ = ("value", "line", "line_start", "last")

    def __init__(self, token: Token) -> None:
        self.value = token.value
        self.line = token.line + context.line_offset
        self.line_start = 1 - token.column  # offset of column 1 of the current line
        self.last = 0

    def pos(self, offset: int) -> Pos:
        lines = self.value.count("\n", self.last, offset)
        if lines:
            self.line += lines
            self.line_start = self.value.rfind("\n", self.last, offset) + 1
        self.last = offset
        return make_pos(self.line, offset - self.line_start + 1)


# --- words -------------------------------------------------------------------------------------

WORD = re.compile(r"(\n)|\{([^}]*)\}|;([^\n]*)|([^\s{;]+)")  # 1 line end, 2-3 comments, 4 a word
_ANNOTATION = r"(!!|\?\?|!\?|\?!|!|\?)"
_CARD = r"(\?\?|(?:10|[789TJQKARDVtjqkardv])[SHDCshdc♠♥♦♣♤♡♢♧])"
_SEAT_PREFIX = r"(?:([NESWOneswo]):)?"
_PLAYED = re.compile(_SEAT_PREFIX + _CARD + _ANNOTATION + "?")
_CALL = re.compile(_SEAT_PREFIX + r"(.+?)" + _ANNOTATION + "?")
_CARD_ONLY = re.compile(_CARD + _ANNOTATION + "?")
NUMBER = re.compile(r"(\d+)\.")
CARDS: dict[str, Card | None] = {str(card): card for card in ALL_CARDS} | {"??": None}
SEATS = {s.value: s for s in Seat} | {s.value.lower(): s for s in Seat} | {"O": Seat.WEST, "o": Seat.WEST}
MELDS = {"tierce": MeldKind.TIERCE, "quarte": MeldKind.QUARTE, "cinquante": MeldKind.QUARTE,
          "quinte": MeldKind.QUINTE, "cent": MeldKind.QUINTE, "carre": MeldKind.CARRE, "carré": MeldKind.CARRE}
TAKING_KINDS = frozenset({CallKind.PASS, CallKind.TAKE, CallKind.NAME})
AUCTION_KINDS = frozenset({CallKind.PASS, CallKind.BID, CallKind.CAPOT, CallKind.GENERALE,
                            CallKind.COINCHE, CallKind.SURCOINCHE})
_CACHE_LIMIT = 5000
INVALID = ()  # cached answer for a word that is not valid


def cached(cache: dict, word: str, read) -> tuple:
    hit = cache.get(word)
    if hit is None:
        hit = read(word)
        if len(cache) < _CACHE_LIMIT:
            cache[word] = hit
    return hit


def read_played(word: str) -> tuple:
    match = _PLAYED.fullmatch(word)
    if match is None:
        return INVALID
    seat, card, annotation = match.groups()
    return (SEATS[seat] if seat else None, None if card == "??" else Card.parse(card), annotation)


def read_card(word: str) -> tuple:
    match = _CARD_ONLY.fullmatch(word)
    if match is None:
        return INVALID
    return (None if match.group(1) == "??" else Card.parse(match.group(1)), match.group(2))


def read_call(word: str) -> tuple:
    match = _CALL.fullmatch(word)
    if match is None:
        return INVALID
    seat, text, annotation = match.groups()
    try:
        call = Call.parse(text.replace("é", "e").replace("É", "E"))
    except ValueError:
        return INVALID
    return (SEATS[seat] if seat else None, call, annotation)


played_cache: dict[str, tuple] = {}
card_cache: dict[str, tuple] = {}
call_cache: dict[str, tuple] = {}


def comment_text(text: str) -> str:
    return text.strip()
