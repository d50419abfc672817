"""The words of the notation: how a line is cut into words and comments, and what each word means.

Every spelling the notation accepts is defined here once: tag pairs, cards, seats, calls,
melds, annotations, keywords, trick numbers, comments. The reader (``reader.py``), the
splitter (``splitter.py``) and the Lark grammar's tests use these definitions; the grammar
(``belote.lark``) states the same words formally, and ``tests/notation/test_grammar.py``
checks that the two agree.

A line is cut with ``str.split`` when it holds no comment, which is what the notation's
rule (words are separated by blanks; ``{`` and ``;`` start comments) comes to on such a
line, and with ``TOKEN`` otherwise. Words are decoded through small caches: a file repeats
the same few hundred words (``S:KH``, ``80H``...), and a dictionary look-up is what reading
a word should cost.
"""

from __future__ import annotations

import re

from .values import (ALL_CARDS, ANNOTATIONS, Call, CallKind, MeldKind, NotationError, Seat)

# --- tag pairs ---------------------------------------------------------------------------------

TAG_NAME = r"[A-Za-z0-9_]++"
TAG_VALUE = r'"([^"\\\n]*+(?:\\["\\][^"\\\n]*+)*+)"'  # (runs of plain characters between escapes: fewer steps)
TAG_PAIR = re.compile(rf"\[[ \t]*+({TAG_NAME})[ \t]*+{TAG_VALUE}[ \t]*+\]")
"""``[Name "value"]``: only ``\\"`` and ``\\\\`` escapes; spaces and tabs around the name and value."""
TAG_START = re.compile(rb'[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"')
"""A line that starts a tag pair (bytes): where the splitter may end a record."""
TAG_ITEM = re.compile(rf"{TAG_PAIR.pattern}|\{{([^}}]*)\}}|;(.*)|\s+|(\S)")
"""The items of a line of tag pairs: a pair (groups 1, 2), a comment (3, 4), blanks, anything else (5)."""
_UNESCAPE = re.compile(r'\\(["\\])')


def unescape(value: str) -> str:
    """A tag value as written between its quotes, its escapes undone."""
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


# --- words and comments ------------------------------------------------------------------------

TOKEN = re.compile(r"\{[^}]*\}?|;.*|[^\s{;]+")
"""A word, a ``{...}`` comment (unclosed at the end of a text) or a ``;`` comment, on a line."""
TOKEN_STARTS = re.compile(r"\{[^}]*\}?|;.*|[^\s{;]+|(?=\n)")


def words(line: str) -> list[str]:
    """The words and comments of a line, in order (a comment keeps its ``{}`` or ``;``)."""
    if "{" in line or ";" in line:
        return TOKEN.findall(line)
    return line.split()


def word_columns(line: str) -> list[int]:
    """The 0-based offset of each item ``words(line)`` gives, for a position shown to people."""
    return [m.start() for m in TOKEN.finditer(line)]


def comment_open(line: str, open_: bool = False, quotes: bool = False) -> bool:
    """Whether a ``{`` comment is still open at the end of ``line`` (``open_``: one was open at
    its start). ``;`` outside a comment ends the line; with ``quotes`` (a line of tag pairs),
    ``{`` and ``;`` inside a quoted tag value are text."""
    return open_comment(line, open_, quotes) is not None


def open_comment(line: str, open_: bool = False, quotes: bool = False) -> int | None:
    """Where the ``{`` of a comment still open at the end of ``line`` is (-1: it was open at the
    start of the line), None when no comment is open there (see ``comment_open``)."""
    start = -1 if open_ else None
    in_string = escaped = False
    for offset, char in enumerate(line):
        if start is not None:
            if char == "}":
                start = None
        elif in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"' and quotes:
            in_string = True
        elif char == "{":
            start = offset
        elif char == ";":
            break
    return start


def comment_text(token: str) -> str:
    """The text of a comment token: ``{ text }`` or ``; text``, without its marks and outer blanks."""
    if token[0] == "{":
        return token[1:-1].strip() if token.endswith("}") else token[1:].strip()
    return token[1:].strip()


def is_comment(token: str) -> bool:
    return token[0] == "{" or token[0] == ";"


# --- what a word means ---------------------------------------------------------------------------

UNKNOWN = -1
"""The index of a card written ``??`` (not known)."""

_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
SEAT_WORDS: dict[str, Seat] = {seat.value: seat for seat in _SEATS} | {seat.value.lower(): seat for seat in _SEATS} | {
    "O": Seat.WEST, "o": Seat.WEST}
"""A seat: ``N E S W`` in either case, and ``O`` (ouest) for West."""

_RANK_WORDS = {"7": 0, "8": 1, "9": 2, "10": 3, "T": 3, "J": 4, "V": 4, "Q": 5, "D": 5, "K": 6, "R": 6, "A": 7}
_SUIT_WORDS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
CARD_WORDS: dict[str, int] = {"??": UNKNOWN} | {
    rank_text + suit_text: 8 * suit + rank
    for rank_word, rank in _RANK_WORDS.items() for rank_text in {rank_word, rank_word.lower()}
    for suit_word, suit in _SUIT_WORDS.items() for suit_text in {suit_word, suit_word.lower()}}
"""A card: rank then suit in any case (``10`` or ``T`` for the ten, French ``R D V``, suit symbols),
to its index (``Card.index``), or ``??`` to ``UNKNOWN``."""

KEYWORDS = ("hand", "turned", "taking", "auction", "announce", "play", "claim")
"""Words that start a line of their section, in any case."""
MELD_WORDS: dict[str, MeldKind] = {"tierce": MeldKind.TIERCE, "quarte": MeldKind.QUARTE,
                                   "cinquante": MeldKind.QUARTE, "quinte": MeldKind.QUINTE,
                                   "cent": MeldKind.QUINTE, "carre": MeldKind.CARRE, "carré": MeldKind.CARRE}
"""A meld, in lower case (``word.lower()``)."""
DECLARATION_WORDS = ("belote", "rebelote")
"""Said with the trump king or queen, after the card, in any case."""
TAKING_KINDS = frozenset({CallKind.PASS, CallKind.TAKE, CallKind.NAME})
AUCTION_KINDS = frozenset({CallKind.PASS, CallKind.BID, CallKind.CAPOT, CallKind.GENERALE, CallKind.CAPOT_BELOTE,
                           CallKind.GENERALE_BELOTE, CallKind.COINCHE, CallKind.SURCOINCHE})

# Words read before: a file repeats a few hundred. Only words that mean something are kept, so
# a hostile file of distinct bad words cannot grow the caches (there are some 25,000 played words).
KNOWN_PLAYS: dict[str, tuple[int, Seat | None, str | None]] = {}
"""The played words read so far (``played`` fills it): the reader looks a whole line up at once."""
_CALLS: dict[str, tuple[Call, Seat | None, str | None]] = {}
_MAX_CACHED = 20_000  # words kept in each cache: a file uses a few hundred; a crafted one may try millions
_ANNOTATED = re.compile(r"(.+?)(!!|\?\?|!\?|\?!|!|\?)?")


def _split_seat(word: str) -> tuple[Seat | None, str] | None:
    """``W:80H`` -> (West, ``80H``); None for an unknown seat before the colon."""
    if len(word) > 2 and word[1] == ":":
        seat = SEAT_WORDS.get(word[0])
        return None if seat is None else (seat, word[2:])
    return None, word


def _split_annotation(word: str, whole: dict) -> tuple[str, str | None] | None:
    """(the word, its annotation) such that the word is in ``whole`` (longest word first:
    ``????`` is the unknown card annotated ``??``); None when no reading fits."""
    if word in whole:
        return word, None
    for glyph in ANNOTATIONS:
        if word.endswith(glyph) and word[:-len(glyph)] in whole:
            return word[:-len(glyph)], glyph
    return None


def played(word: str) -> tuple[int, Seat | None, str | None] | None:
    """A played card ``[seat:]card[annotation]``: (card index or UNKNOWN, seat or None, annotation)."""
    found = KNOWN_PLAYS.get(word)
    if found is None:
        parts = _split_seat(word)
        card = None if parts is None else _split_annotation(parts[1], CARD_WORDS)
        if parts is None or card is None:
            return None
        if len(KNOWN_PLAYS) >= _MAX_CACHED:
            KNOWN_PLAYS.clear()
        found = KNOWN_PLAYS[word] = (CARD_WORDS[card[0]], parts[0], card[1])
    return found


def card(word: str) -> tuple[int, str | None] | None:
    """A card with an optional annotation (a hand, an announcement, the turned card)."""
    found = played(word)
    return None if found is None or found[1] is not None else (found[0], found[2])


def call(word: str, kinds: frozenset[CallKind]) -> tuple[Call, Seat | None, str | None] | None:
    """A call ``[seat:]call[annotation]`` of one of ``kinds``: (call, seat or None, annotation)."""
    found = _CALLS.get(word)
    if found is None:
        parts = _split_seat(word)
        if parts is None:
            return None
        text = _ANNOTATED.fullmatch(parts[1])
        try:
            value = Call.parse(text.group(1).replace("é", "e").replace("É", "E"))  # type: ignore[union-attr]
        except NotationError:
            return None
        if len(_CALLS) >= _MAX_CACHED:  # spellings are many (any bid value, case, seat, annotation): stay bounded
            _CALLS.clear()
        found = _CALLS[word] = (value, parts[0], text.group(2))  # type: ignore[union-attr]
    return found if found[0].kind in kinds else None


def call_out_of_range(word: str) -> str:
    """Why a word that looks like a bid is no call: its value has too many digits; "" otherwise."""
    text = _ANNOTATED.fullmatch(word)
    try:
        Call.parse(text.group(1) if text else word)
    except NotationError as error:
        if str(error.args[0]).startswith("bid value out of range"):
            return str(error.args[0])
    return ""


def trick_number(word: str) -> int | None:
    """``3.`` -> 3 (ASCII digits only), else None."""
    if word[-1:] == "." and word[:-1].isdigit() and word.isascii():
        return int(word[:-1])
    return None


def card_text(index: int) -> str:
    """The canonical text of a card index (``??`` for UNKNOWN)."""
    return "??" if index == UNKNOWN else str(ALL_CARDS[index])
