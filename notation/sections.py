"""Read each section of a record word by word: the callbacks of the grammar.

The grammar hands over a whole section as one token (the tag-pair lines, the
hand lines, the calls, the announcements, the play); the builder below reads
its words, gives each card and call its exact position in the file, attaches
comments and annotations, and raises ``Problem`` (turned into a
``RecordSyntaxError`` by the parser) at the first word that does not fit.

Values are built without ``__init__`` (``_card_entry``...) for the entries without ``__post_init__``:
a frozen dataclass ``__init__`` costs about three times as much, and a record
holds some fifty entries.
"""

from __future__ import annotations

import re
import threading
from dataclasses import fields

from lark import Token, Transformer

from .cards import Call, CallKind, Card, NotationError, Seat
from .errors import DealError, RecordSyntaxError
from .record import (Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Trick)
from .scan import unescape

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


def _unexpected(pos: Pos, word: str, expected: str) -> Problem:
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


def _pos(line: int, column: int) -> Pos:
    pos = _new(Pos)
    _set(pos, "line", line)
    _set(pos, "column", column)
    return pos


def _card_entry(card, seat, declaration, annotation, comments, pos) -> CardEntry:
    entry = _new(CardEntry)
    _set(entry, "card", card)
    _set(entry, "seat", seat)
    _set(entry, "declaration", declaration)
    _set(entry, "annotation", annotation)
    _set(entry, "comments", comments)
    _set(entry, "pos", pos)
    return entry


def _call_entry(call, seat, annotation, comments, pos) -> CallEntry:
    entry = _new(CallEntry)
    _set(entry, "call", call)
    _set(entry, "seat", seat)
    _set(entry, "annotation", annotation)
    _set(entry, "comments", comments)
    _set(entry, "pos", pos)
    return entry


def _trick(plays, comments, pos) -> Trick:
    trick = _new(Trick)
    _set(trick, "plays", plays)
    _set(trick, "comments", comments)
    _set(trick, "pos", pos)
    return trick


class _Where:
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
        return _pos(self.line, offset - self.line_start + 1)


# --- words -------------------------------------------------------------------------------------

_WORD = re.compile(r"(\n)|\{([^}]*)\}|;([^\n]*)|([^\s{;]+)")  # 1 line end, 2-3 comments, 4 a word
_ANNOTATION = r"(!!|\?\?|!\?|\?!|!|\?)"
_CARD = r"(\?\?|(?:10|[789TJQKARDVtjqkardv])[SHDCshdc♠♥♦♣♤♡♢♧])"
_SEAT_PREFIX = r"(?:([NESWOneswo]):)?"
_PLAYED = re.compile(_SEAT_PREFIX + _CARD + _ANNOTATION + "?")
_CALL = re.compile(_SEAT_PREFIX + r"(.+?)" + _ANNOTATION + "?")
_CARD_ONLY = re.compile(_CARD + _ANNOTATION + "?")
_NUMBER = re.compile(r"(\d+)\.")
_SEATS = {s.value: s for s in Seat} | {s.value.lower(): s for s in Seat} | {"O": Seat.WEST, "o": Seat.WEST}
_MELDS = {"tierce": MeldKind.TIERCE, "quarte": MeldKind.QUARTE, "cinquante": MeldKind.QUARTE,
          "quinte": MeldKind.QUINTE, "cent": MeldKind.QUINTE, "carre": MeldKind.CARRE, "carré": MeldKind.CARRE}
_TAKING_KINDS = frozenset({CallKind.PASS, CallKind.TAKE, CallKind.NAME})
_AUCTION_KINDS = frozenset({CallKind.PASS, CallKind.BID, CallKind.CAPOT, CallKind.GENERALE,
                            CallKind.COINCHE, CallKind.SURCOINCHE})
_CACHE_LIMIT = 5000
_INVALID = ()  # cached answer for a word that is not valid


def _cached(cache: dict, word: str, read) -> tuple:
    hit = cache.get(word)
    if hit is None:
        hit = read(word)
        if len(cache) < _CACHE_LIMIT:
            cache[word] = hit
    return hit


def _read_played(word: str) -> tuple:
    match = _PLAYED.fullmatch(word)
    if match is None:
        return _INVALID
    seat, card, annotation = match.groups()
    return (_SEATS[seat] if seat else None, None if card == "??" else Card.parse(card), annotation)


def _read_card(word: str) -> tuple:
    match = _CARD_ONLY.fullmatch(word)
    if match is None:
        return _INVALID
    return (None if match.group(1) == "??" else Card.parse(match.group(1)), match.group(2))


def _read_call(word: str) -> tuple:
    match = _CALL.fullmatch(word)
    if match is None:
        return _INVALID
    seat, text, annotation = match.groups()
    try:
        call = Call.parse(text.replace("é", "e").replace("É", "E"))
    except ValueError:
        return _INVALID
    return (_SEATS[seat] if seat else None, call, annotation)


_played_cache: dict[str, tuple] = {}
_card_cache: dict[str, tuple] = {}
_call_cache: dict[str, tuple] = {}


def _comment(text: str) -> str:
    return text.strip()


# --- tag pairs ---------------------------------------------------------------------------------

_TAG_ITEM = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\["\\])*)"[ \t]*\]'
                       r"|\{([^}]*)\}|;([^\n]*)|\s+|(\S)")
_TAG_NAME = re.compile(r"\[[ \t]*([A-Za-z0-9_]*)[ \t]*")


def _tag_problem(value: str, start: int, where: _Where) -> Problem:
    """Why the text at ``start`` is not a tag pair: which part is wrong."""
    if value[start] != "[":
        end = re.compile(r"[^\s{;]*").match(value, start).end()
        return _unexpected(where.pos(start), value[start:max(end, start + 1)], f"a tag pair or {END_OF_LINE}")
    match = _TAG_NAME.match(value, start)
    at = match.end()
    if not match.group(1):
        return _unexpected(where.pos(at), value[at:at + 1].strip(), "a tag name (letters, digits or _)")
    if value[at:at + 1] != '"':
        return _unexpected(where.pos(at), value[at:at + 1].strip(), "a tag value in double quotes")
    i = at + 1
    while i < len(value) and value[i] != "\n":
        if value[i] == "\\":
            if value[i + 1:i + 2] not in ('"', "\\"):
                return Problem(where.pos(i), f'unexpected "{value[i:i + 2]}"', value[i:i + 2],
                               'only \\" and \\\\ escapes in a tag value')
            i += 2
        elif value[i] == '"':
            break
        else:
            i += 1
    else:
        return Problem(where.pos(at), "a tag value that is never closed", '"', 'a closing " on the same line')
    close = re.compile(r"[ \t]*").match(value, i + 1).end()
    return _unexpected(where.pos(close), value[close:close + 1].strip(), '"]" to close the tag pair')


# --- the builder -------------------------------------------------------------------------------


class SectionBuilder(Transformer):
    """Inline callbacks of ``belote.lark``: each returns the model value of its rule."""

    def comment(self, children: list[Token]) -> str:
        token = children[0]
        return _comment(token.value[1:-1] if token.type == "COMMENT" else token.value[1:])

    def head(self, children: list) -> tuple[tuple, tuple]:
        tags: list[tuple[str, str]] = []
        comments: list[str] = []
        for child in children:
            if type(child) is str:
                comments.append(child)
                continue
            value = child.value
            for m in _TAG_ITEM.finditer(value):
                kind = m.lastindex  # the value's group (2) closes last in a tag pair
                if kind == 2:
                    tags.append((m.group(1), unescape(m.group(2))))
                elif kind == 3 or kind == 4:
                    comments.append(_comment(m.group(kind)))
                elif kind == 5:
                    raise _tag_problem(value, m.start(), _Where(child))
        return tuple(tags), tuple(comments)

    def hands(self, children: list) -> tuple[Hand, ...]:
        hands: list[list] = []  # [seat, cards or None, comments, pos, [(card, pos)]]
        for child in children:
            if type(child) is str:
                hands[-1][2].append(child)
            else:
                _read_hand_lines(child, hands)
        return _check_deal(hands)

    def turned(self, children: list) -> tuple[Card | None, Pos, tuple[str, ...]]:
        token = children[0]
        where = _Where(token)
        card, pos, comments = _INVALID, None, []
        for m in _WORD.finditer(token.value):
            kind = m.lastindex
            if kind == 2 or kind == 3:
                comments.append(_comment(m.group(kind)))
            elif kind == 4 and m.start() > 0:
                word = m.group(4)
                if pos is not None:
                    raise _unexpected(where.pos(m.start()), word, END_OF_LINE)
                pos = where.pos(m.start())
                read = _cached(_card_cache, word, _read_card)
                if read is _INVALID or read[1] is not None:
                    raise _unexpected(pos, word, A_CARD)
                card = read[0]
        if pos is None:
            raise Problem(where.pos(len(token.value)), "unexpected end of the line", "", A_CARD)
        return card, pos, tuple(comments) + tuple(children[1:])

    def taking(self, children: list) -> tuple[str, tuple[CallEntry, ...]]:
        return "taking", _read_calls(children, _TAKING_KINDS, TAKING_CALL)

    def auction(self, children: list) -> tuple[str, tuple[CallEntry, ...]]:
        return "auction", _read_calls(children, _AUCTION_KINDS, AUCTION_CALL)

    def announces(self, children: list) -> tuple[Announcement, ...]:
        found: list[list] = []  # [seat, kind, cards, annotation, comments, pos]
        for child in children:
            if type(child) is str:
                found[-1][4].append(child)
            else:
                _read_announce_lines(child, found)
        return tuple(Announcement(seat, kind, tuple(cards), annotation, tuple(comments), pos)
                     for seat, kind, cards, annotation, comments, pos in found)

    def play(self, children: list) -> tuple[tuple[Trick, ...], Claim | None, bool]:
        tricks = _read_tricks(children[0])
        ending = children[1]
        return tricks, (ending if isinstance(ending, Claim) else None), ending == "*"

    def claim(self, children: list) -> Claim:
        token = children[0]
        where = _Where(token)
        seat, pos, comments = None, None, []
        for m in _WORD.finditer(token.value):
            kind = m.lastindex
            if kind == 2 or kind == 3:
                comments.append(_comment(m.group(kind)))
            elif kind == 4 and m.start() > 0:
                word = m.group(4)
                if seat is not None:
                    raise _unexpected(where.pos(m.start()), word, END_OF_LINE)
                pos = where.pos(m.start())
                seat = _SEATS.get(word)
                if seat is None:
                    raise _unexpected(pos, word, A_SEAT)
        if seat is None:
            raise Problem(where.pos(len(token.value)), "unexpected end of the line", "", A_SEAT)
        return Claim(seat, tuple(comments) + tuple(children[1:]), pos)

    def stopped(self, children: list) -> str:
        return "*"

    def start(self, children: list) -> Record:
        (tags, comments), hands, turned, bidding, announcements, play = children
        tricks, claim, stopped = play if play is not None else ((), None, False)
        turned_card, turned_pos, turned_comments = turned if turned is not None else (None, None, ())
        taking = bidding[1] if bidding is not None and bidding[0] == "taking" else None
        auction = bidding[1] if bidding is not None and bidding[0] == "auction" else None
        return Record(tags=tags, comments=comments, hands=hands, turned=turned_card, taking=taking,
                      auction=auction, announcements=announcements, tricks=tricks, claim=claim,
                      stopped=stopped, turned_comments=turned_comments, turned_pos=turned_pos)


# --- sections ----------------------------------------------------------------------------------


def _read_hand_lines(token: Token, hands: list[list]) -> None:
    """``hand <seat> <8 cards | ->`` lines, with comments after them."""
    value = token.value
    if "{" not in value and ";" not in value and "\t" not in value:
        fast = _fast_hand_lines(token)
        if fast is not None:
            hands.extend(fast)
            return
    where = _Where(token)
    state = "keyword"
    for m in _WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 1:
            _end_hand_line(hands[-1], state, where, m.start())
            state = "keyword"
        elif kind != 4:
            hands[-1][2].append(_comment(m.group(kind)))
        elif state == "keyword":
            hands.append([None, [], [], where.pos(m.start()), []])
            state = "seat"
        else:
            word, hand = m.group(4), hands[-1]
            if state == "seat":
                pos = where.pos(m.start())
                hand[0] = _SEATS.get(word)
                if hand[0] is None:
                    raise _unexpected(pos, word, A_SEAT)
                state = "cards"
            elif state == "cards" and word == "-" and not hand[1]:
                hand[1] = None
                state = "done"
            elif state == "cards":
                read = _cached(_card_cache, word, _read_card)
                if read is _INVALID or read[1] is not None:
                    raise _unexpected(where.pos(m.start()), word, f"{A_CARD}, ?? or the end of the hand")
                if len(hand[1]) == 8:
                    raise Problem(where.pos(m.start()), f"a ninth card in hand {hand[0]}", word, "8 cards in a hand", DealError)
                hand[1].append(read[0])
                if read[0] is not None:
                    hand[4].append((read[0], token, m.start()))
            else:
                raise _unexpected(where.pos(m.start()), word, END_OF_LINE)
    _end_hand_line(hands[-1], state, where, len(token.value))


def _fast_hand_lines(token: Token) -> list[list] | None:
    """Plain hand lines of 8 cards, read without positions for the cards; None if any line is not plain."""
    hands = []
    line_number = token.line + context.line_offset
    column = token.column
    for line in token.value.split("\n"):
        words = line.split()
        if len(words) != 10 or (seat := _SEATS.get(words[1])) is None:
            return None
        cards = []
        for word in words[2:]:
            read = _card_cache.get(word)
            if read is None:
                read = _cached(_card_cache, word, _read_card)
            if read is _INVALID or read[1] is not None:
                return None
            cards.append(read[0])
        placed = [(card, token, None) for card in cards if card is not None]
        hands.append([seat, cards, [], _pos(line_number, column + len(line) - len(line.lstrip())), placed])
        line_number, column = line_number + 1, 1
    return hands


def _card_offset(token: Token, card: Card, line: int) -> int:
    """Where ``card`` is written on the ``line`` (of the file) of a run of hand lines, for an error."""
    start = 0
    for _ in range(line - token.line - context.line_offset):
        start = token.value.index("\n", start) + 1
    end = token.value.find("\n", start)
    for m in _WORD.finditer(token.value, start, end if end >= 0 else len(token.value)):
        if m.lastindex == 4 and _cached(_card_cache, m.group(4), _read_card)[:1] == (card,):
            return m.start()
    return start


def _end_hand_line(hand: list, state: str, where: _Where, offset: int) -> None:
    if state == "seat":
        raise Problem(where.pos(offset), "unexpected end of the line", "", A_SEAT)
    if state == "cards" and len(hand[1]) != 8:
        raise Problem(hand[3], f"hand {hand[0]} has {len(hand[1])} cards", "hand",
                      "8 cards (or - for an unknown hand)", DealError)


def _check_deal(hands: list[list]) -> tuple[Hand, ...]:
    """At most four hands, one per seat, no card in two hands."""
    seen: list[Seat] = []
    dealt: dict[int, Seat] = {}  # by id(): cards are interned, and hashing a Card hashes two enums
    for seat, cards, comments, pos, placed in hands:
        if len(seen) == 4:
            raise Problem(pos, "a fifth hand", "hand", "at most 4 hands, one per seat", DealError)
        if seat in seen:
            raise Problem(pos, f"a second hand for seat {seat}", "hand", "one hand per seat", DealError)
        seen.append(seat)
        for card, token, offset in placed:
            if id(card) in dealt:
                if offset is None:  # read by the fast path: find the card again
                    offset = _card_offset(token, card, pos.line)
                raise Problem(_Where(token).pos(offset), f"{card} is dealt twice (hands {dealt[id(card)]} and {seat})",
                              str(card), "each card in one hand only", DealError)
            dealt[id(card)] = seat
    return tuple(Hand(seat, None if cards is None else tuple(cards), tuple(comments), pos)
                 for seat, cards, comments, pos, _ in hands)


def _read_calls(children: list, allowed: frozenset[CallKind], expected: str) -> tuple[CallEntry, ...]:
    """The calls after ``taking`` or ``auction``, over one or more lines."""
    token = children[0]
    where = _Where(token)
    entries: list[list] = []  # [call, seat, annotation, comments, pos]
    waiting: list[str] = []  # comments before the first call belong to it
    for m in _WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 2 or kind == 3:
            (entries[-1][3] if entries else waiting).append(_comment(m.group(kind)))
        elif kind == 4 and m.start() > 0:
            word = m.group(4)
            read = _cached(_call_cache, word, _read_call)
            if read is _INVALID or read[1].kind not in allowed:
                offset = m.start() + (2 if len(word) > 2 and word[1] == ":" else 0)
                raise _unexpected(where.pos(offset), word[offset - m.start():], expected)
            entries.append([read[1], read[0], read[2], waiting, where.pos(m.start() + (2 if read[0] else 0))])
            waiting = []
    for comment in children[1:]:
        (entries[-1][3] if entries else waiting).append(comment)
    if waiting:
        raise Problem(where.pos(len(token.value)), "a comment with no call", "", expected)
    return tuple(_call_entry(call, seat, annotation, tuple(comments), pos)
                 for call, seat, annotation, comments, pos in entries)


def _read_announce_lines(token: Token, found: list[list]) -> None:
    """``announce <seat> <meld> <cards>[annotation]`` lines."""
    where = _Where(token)
    state = "keyword"
    for m in _WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 1:
            _end_announce_line(found[-1], state, where, m.start())
            state = "keyword"
        elif kind != 4:
            found[-1][4].append(_comment(m.group(kind)))
        elif state == "keyword":
            found.append([None, None, [], None, [], None])
            state = "seat"
        else:
            word, pos, entry = m.group(4), where.pos(m.start()), found[-1]
            if state == "seat":
                entry[0] = _SEATS.get(word)
                if entry[0] is None:
                    raise _unexpected(pos, word, A_SEAT)
                state = "kind"
            elif state == "kind":
                entry[1] = _MELDS.get(word.lower())
                if entry[1] is None:
                    raise _unexpected(pos, word, "tierce, quarte, quinte or carre")
                entry[5] = pos
                state = "cards"
            elif state == "cards" and entry[3] is None:
                read = _cached(_card_cache, word, _read_card)
                if read is _INVALID or read[0] is None:
                    raise _unexpected(pos, word, f"{A_CARD} or the end of the announcement")
                entry[2].append(read[0])
                entry[3] = read[1]
            else:
                raise _unexpected(pos, word, END_OF_LINE)
    _end_announce_line(found[-1], state, where, len(token.value))


def _end_announce_line(entry: list, state: str, where: _Where, offset: int) -> None:
    expected = {"seat": A_SEAT, "kind": "tierce, quarte, quinte or carre"}.get(state)
    if state == "cards" and not entry[2]:
        expected = A_CARD
    if expected is not None:
        raise Problem(where.pos(offset), "unexpected end of the line", "", expected)


def _read_tricks(token: Token) -> tuple[Trick, ...]:
    """The play: one trick per line, ``[n.] [seat:]card[annotation] [belote|rebelote] {comment} ...``.

    Lines without comments or tabs take a fast path; from the first other
    line on, the play is read word by word.
    """
    value = token.value
    tricks: list[Trick] = []
    offset = value.find("\n") + 1
    if offset == 0 or value[4:offset].strip():
        return _read_tricks_slowly(token, 0, tricks)
    line_number = token.line + context.line_offset + 1
    while offset < len(value):
        end = value.find("\n", offset)
        if end < 0:
            end = len(value)
        line = value[offset:end]
        if "{" in line or ";" in line or "\t" in line or not _fast_trick_line(line, line_number, tricks):
            return _read_tricks_slowly(token, offset, tricks)
        offset, line_number = end + 1, line_number + 1
    return tuple(tricks)


def _fast_trick_line(line: str, line_number: int, tricks: list[Trick]) -> bool:
    """Read a plain trick line into ``tricks``; False (and nothing read) if it needs the full reader."""
    plays: list[CardEntry] = []
    column, trick_pos, numbered = 1, None, False
    for word in line.split(" "):
        if not word:
            column += 1
            continue
        read = _played_cache.get(word)
        if read is None:
            read = _cached(_played_cache, word, _read_played)
        if read is _INVALID:
            if word[-1] == "." and word[:-1].isdigit() and not plays and not numbered:
                if int(word[:-1]) != len(tricks) + 1:
                    return False
                numbered, trick_pos = True, _pos(line_number, column)
            elif (word == "belote" or word == "rebelote") and plays and plays[-1].declaration is None:
                _set(plays[-1], "declaration", word)
            else:
                return False
        elif len(plays) == 4:
            return False
        else:
            pos = _pos(line_number, column + 2 if read[0] is not None else column)
            plays.append(_card_entry(read[1], read[0], None, read[2], (), pos))
            if trick_pos is None:
                trick_pos = pos
        column += len(word) + 1
    if not plays:
        return False
    tricks.append(_trick(tuple(plays), (), trick_pos))
    return True


def _read_tricks_slowly(token: Token, start: int, tricks: list[Trick]) -> tuple[Trick, ...]:
    """The play from offset ``start`` on, word by word."""
    where = _Where(token)
    where.pos(start)
    waiting: list[str] = []  # comments before the first trick
    plays: list[list] | None = None  # the trick being read: [card, seat, declaration, annotation, comments, pos]
    trick_comments: list[str] = []
    trick_pos = None

    def close(offset: int) -> None:
        nonlocal plays, trick_comments
        if plays is not None:
            if not plays:
                raise Problem(where.pos(offset), "unexpected end of the trick", "", A_CARD)
            entries = tuple(_card_entry(c, s, d, a, tuple(notes), p) for c, s, d, a, notes, p in plays)
            tricks.append(_trick(entries, tuple(trick_comments), trick_pos))
        plays, trick_comments = None, []

    for m in _WORD.finditer(token.value, start):
        kind = m.lastindex
        if kind == 1:
            close(m.start())
        elif kind == 2 or kind == 3:
            text = _comment(m.group(kind))
            if plays is None:
                if tricks:
                    last = tricks[-1]
                    tricks[-1] = _trick(last.plays, last.comments + (text,), last.pos)
                else:
                    waiting.append(text)
            elif kind == 2 and plays:
                plays[-1][4].append(text)
            else:
                trick_comments.append(text)
        elif m.start() > 0:
            word = m.group(4)
            read = _cached(_played_cache, word, _read_played)
            if read is not _INVALID:
                pos = where.pos(m.start() + (2 if read[0] else 0))
                if plays is None:
                    plays, trick_comments, trick_pos = [], waiting, pos
                    waiting = []
                if len(plays) == 4:
                    raise Problem(pos, f"a fifth card in trick {len(tricks) + 1}", word,
                                  "at most 4 cards in a trick (one trick per line)")
                plays.append([read[1], read[0], None, read[2], [], pos])
                continue
            pos = where.pos(m.start())
            lowered = word.lower()
            if lowered in ("belote", "rebelote"):
                if not plays or plays[-1][2] is not None or plays[-1][4]:
                    raise _unexpected(pos, word, A_CARD)
                plays[-1][2] = lowered
            elif (number := _NUMBER.fullmatch(word)) is not None:
                if plays:
                    close(m.start())
                if plays is not None or int(number.group(1)) != len(tricks) + 1:
                    raise _unexpected(pos, word, f"trick number {len(tricks) + 1}. (or none)")
                plays, trick_comments, trick_pos = [], waiting, pos
                waiting = []
            else:
                offset = 2 if len(word) > 2 and word[1] == ":" and word[0] in _SEATS else 0
                raise _unexpected(where.pos(m.start() + offset), word[offset:], f"{A_CARD} or the end of the trick")
    close(len(token.value))
    if waiting:
        raise Problem(where.pos(len(token.value)), "a comment with no trick", "", "a trick")
    return tuple(tricks)
