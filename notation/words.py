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

from .cards import Call, CallKind, Card, Seat
from .errors import RecordSyntaxError
from .record import CallEntry, CardEntry, MeldKind, Pos, Trick

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

_new = object.__new__
_set = object.__setattr__
_FIELDS = {CardEntry: ("card", "seat", "declaration", "annotation", "comments", "pos"),
           CallEntry: ("call", "seat", "annotation", "comments", "pos"),
           Trick: ("plays", "comments", "pos"), Pos: ("line", "column")}
for _cls, _names in _FIELDS.items():  # fail loudly if the model changes under the fast path
    assert tuple(f.name for f in fields(_cls)) == _names, f"update sections._FIELDS for {_cls.__name__}"


def make_pos(line: int, column: int) -> Pos:
    pos = _new(Pos)
    _set(pos, "line", line)
    _set(pos, "column", column)
    return pos


def card_entry(card, seat, declaration, annotation, comments, pos) -> CardEntry:
    entry = _new(CardEntry)
    _set(entry, "card", card)
    _set(entry, "seat", seat)
    _set(entry, "declaration", declaration)
    _set(entry, "annotation", annotation)
    _set(entry, "comments", comments)
    _set(entry, "pos", pos)
    return entry


def call_entry(call, seat, annotation, comments, pos) -> CallEntry:
    entry = _new(CallEntry)
    _set(entry, "call", call)
    _set(entry, "seat", seat)
    _set(entry, "annotation", annotation)
    _set(entry, "comments", comments)
    _set(entry, "pos", pos)
    return entry


def make_trick(plays, comments, pos) -> Trick:
    trick = _new(Trick)
    _set(trick, "plays", plays)
    _set(trick, "comments", comments)
    _set(trick, "pos", pos)
    return trick


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
