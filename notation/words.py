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

from .cards import ALL_CARDS, HAND_KEYS, Call, CallKind, Card, Seat, canonical_hand_order
from .errors import RecordSyntaxError
from .record import CallEntry, CardEntry, Hand, MeldKind, Pos, Trick

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
_FIELDS = {CardEntry: ("card", "seat", "declaration", "annotation", "comments", "pos"),
           CallEntry: ("call", "seat", "annotation", "comments", "pos"),
           Trick: ("plays", "comments", "pos"), Pos: ("line", "column"), Hand: ("seat", "cards", "comments", "pos")}
for _cls, _names in _FIELDS.items():  # fail loudly if the model changes under the fast path
    assert tuple(f.name for f in fields(_cls)) == _names, f"update sections._FIELDS for {_cls.__name__}"


# Each slot set through its own descriptor: a quarter faster than ``object.__setattr__`` by name.
POS_SLOTS = _POS_LINE, _POS_COLUMN = tuple(Pos.__dict__[name].__set__ for name in _FIELDS[Pos])
CARD_SLOTS = tuple(CardEntry.__dict__[name].__set__ for name in _FIELDS[CardEntry])
_CALL_SLOTS = tuple(CallEntry.__dict__[name].__set__ for name in _FIELDS[CallEntry])
_TRICK_SLOTS = tuple(Trick.__dict__[name].__set__ for name in _FIELDS[Trick])
_HAND_SLOTS = tuple(Hand.__dict__[name].__set__ for name in _FIELDS[Hand])


def make_pos(line: int, column: int) -> Pos:
    pos = _new(Pos)
    _POS_LINE(pos, line)
    _POS_COLUMN(pos, column)
    return pos


def card_entry(card, seat, declaration, annotation, comments, pos, _slots=CARD_SLOTS) -> CardEntry:
    entry = _new(CardEntry)
    _slots[0](entry, card)
    _slots[1](entry, seat)
    _slots[2](entry, declaration)
    _slots[3](entry, annotation)
    _slots[4](entry, comments)
    _slots[5](entry, pos)
    return entry


def call_entry(call, seat, annotation, comments, pos, _slots=_CALL_SLOTS) -> CallEntry:
    entry = _new(CallEntry)
    _slots[0](entry, call)
    _slots[1](entry, seat)
    _slots[2](entry, annotation)
    _slots[3](entry, comments)
    _slots[4](entry, pos)
    return entry


def make_hand(seat, cards, comments, pos, _slots=_HAND_SLOTS) -> Hand:
    """A ``Hand`` whose cards (a list, or None) are put in canonical order, as ``Hand.__post_init__`` does."""
    hand = _new(Hand)
    _slots[0](hand, seat)
    if cards is not None:
        keys = [HAND_KEYS.get(id(card), -1) for card in cards]  # -1: a card not interned (not from parse)
        cards = tuple(cards) if -1 not in keys and keys == sorted(keys) else canonical_hand_order(cards)
    _slots[1](hand, cards)
    _slots[2](hand, comments)
    _slots[3](hand, pos)
    return hand


def make_trick(plays, comments, pos, _slots=_TRICK_SLOTS) -> Trick:
    trick = _new(Trick)
    _slots[0](trick, plays)
    _slots[1](trick, comments)
    _slots[2](trick, pos)
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
_CANONICAL_PLAYED = r" (?:([NESW]):)?(\?\?|[AKQJT987][SHDC])" + _ANNOTATION + "?(?: (belote|rebelote))?"
CANONICAL_TRICK = re.compile(r"(\d+)\." + _CANONICAL_PLAYED + "(?:" + _CANONICAL_PLAYED + "(?:" + _CANONICAL_PLAYED
                             + "(?:" + _CANONICAL_PLAYED + ")?)?)?(?: ;([^\n]*))?")
"""A trick line in export form: number, one to four cards (groups of 4 each), an optional ``;`` comment."""
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
