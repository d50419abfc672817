"""Read Belote records: a streaming reader over files, one record at a time.

``parse(source)`` yields a ``ParseResult`` per record, good or bad, and never
raises for bad input: one broken record never stops the next.
``parse_record(text)`` reads exactly one record and raises
``RecordSyntaxError`` (or a subclass) on the first error.

The grammar (``belote.lark``, Lark LALR) uses coarse tokens; the callbacks
below re-scan each token with the item patterns to build the entries, each
with its exact line and column in the file.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Iterator

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .cards import Call, CallKind, Card, NotationError, Seat
from .diagnose import describe_failure
from .errors import DealError, EncodingError, LimitError, RecordSyntaxError
from .record import (Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Source,
                     Trick)
from .scan import Input, RawRecord, TAG_PAIR, split_records, unescape

_ANNOTATION = r"(?:!!|\?\?|!\?|\?!|!|\?)"
_CARD = r"(?:\?\?|(?:10|[789TJQKARDVtjqkardv])[SHDCshdc♠♥♦♣♤♡♢♧])"
_TRICK_ITEM = re.compile(
    rf"(?P<num>\d+)\.|(?:(?P<seat>[NESWOneswo]):)?(?P<card>{_CARD})(?P<ann>{_ANNOTATION})?"
    r"(?:[ \t]+(?P<decl>(?i:belote|rebelote)))?|\{(?P<brace>[^}]*)\}|;(?P<semi>.*)")
_CALL_ITEM = re.compile(
    rf"(?:(?P<seat>[NESWOneswo]):)?(?P<word>[^\s!?{{;]+?)(?P<ann>{_ANNOTATION})?(?=\s|$)")
_HEAD = re.compile(r"\S+[ \t]+(\S)[ \t]+(\S+)")
_CARD_WITH_ANNOTATION = re.compile(rf"({_CARD})({_ANNOTATION})?")
_WORD = re.compile(r"\S+")
_SEATS = {s.value: s for s in Seat} | {s.value.lower(): s for s in Seat} | {"O": Seat.WEST, "o": Seat.WEST}
_MELDS = {"tierce": MeldKind.TIERCE, "quarte": MeldKind.QUARTE, "cinquante": MeldKind.QUARTE,
          "quinte": MeldKind.QUINTE, "cent": MeldKind.QUINTE, "carre": MeldKind.CARRE, "carré": MeldKind.CARRE}
_TAKING_KINDS = frozenset({CallKind.PASS, CallKind.TAKE, CallKind.NAME})
_AUCTION_KINDS = frozenset({CallKind.PASS, CallKind.BID, CallKind.CAPOT, CallKind.GENERALE,
                            CallKind.COINCHE, CallKind.SURCOINCHE})


@dataclass(frozen=True, slots=True)
class ParseResult:
    """One record of a file: the record, or ``None`` with the errors that stopped it."""

    index: int
    record: Record | None
    errors: tuple[RecordSyntaxError, ...]
    source: Source

    @property
    def ok(self) -> bool:
        return self.record is not None and not self.errors


class _Problem(Exception):
    """Raised inside the grammar callbacks; turned into a RecordSyntaxError with the record's context."""

    def __init__(self, pos: Pos, problem: str, text: str, expected: str = "",
                 kind: type[RecordSyntaxError] = RecordSyntaxError) -> None:
        super().__init__(problem)
        self.pos, self.problem, self.text, self.expected, self.kind = pos, problem, text, expected, kind


_context = threading.local()  # line_offset: lines of the file before the record


def _pos(token: Token, at: int = 0) -> Pos:
    """The file position of ``token.value[at]``."""
    text = token.value
    newline = text.rfind("\n", 0, at)
    if newline < 0:
        return Pos(token.line + _context.line_offset, token.column + at)
    return Pos(token.line + text.count("\n", 0, at) + _context.line_offset, at - newline)


def _card(text: str) -> Card | None:
    return None if text == "??" else Card.parse(text)


def _comment(token: Token) -> str:
    return token.value[1:-1].strip() if token.type == "COMMENT" else token.value[1:].strip()


class _Builder(Transformer):
    """Inline callbacks of the grammar: each returns the model value of its rule."""

    def comment(self, children: list[Token]) -> str:
        return _comment(children[0])

    def head(self, children: list) -> tuple[tuple, tuple]:
        tags: list[tuple[str, str]] = []
        comments: list[str] = []
        for child in children:
            if isinstance(child, Token):
                tags.extend((name, unescape(value)) for name, value in TAG_PAIR.findall(child.value))
            else:
                comments.append(child)
        return tuple(tags), tuple(comments)

    def hand(self, children: list) -> tuple[Hand, list[tuple[Card, Pos]]]:
        token = children[0]
        match = _HEAD.match(token.value)
        seat = _SEATS[match.group(1)]
        pos = _pos(token)
        if match.group(2) == "-":
            return Hand(seat, None, tuple(children[1:]), pos), []
        placed = [(_card(m.group()), _pos(token, m.start())) for m in _WORD.finditer(token.value, match.start(2))]
        if len(placed) != 8:
            at = placed[8][1] if len(placed) > 8 else pos
            text = token.value[at.column - pos.column:].split()[0] if len(placed) > 8 else token.value
            raise _Problem(at, f"hand {seat} has {len(placed)} cards", text, "8 cards (or - for an unknown hand)",
                           DealError)
        cards = tuple(card for card, _ in placed)
        return Hand(seat, cards, tuple(children[1:]), pos), [(c, p) for c, p in placed if c is not None]

    def hands(self, children: list) -> tuple[Hand, ...]:
        seen: dict[Seat, Hand] = {}
        dealt: dict[Card, Seat] = {}
        for hand, placed in children:
            if len(seen) == 4:
                raise _Problem(hand.pos, "a fifth hand", "hand", "at most 4 hands, one per seat", DealError)
            if hand.seat in seen:
                raise _Problem(hand.pos, f"a second hand for seat {hand.seat}", "hand",
                               "one hand per seat", DealError)
            seen[hand.seat] = hand
            for card, pos in placed:
                if card in dealt:
                    raise _Problem(pos, f"{card} is dealt twice (hand {dealt[card]} and hand {hand.seat})",
                                   str(card), "each card in one hand only", DealError)
                dealt[card] = hand.seat
        return tuple(hand for hand, _ in children)

    def turned(self, children: list) -> tuple[Card | None, Pos, tuple[str, ...]]:
        token = children[0]
        word = token.value.split()[1]
        return _card(word), _pos(token, token.value.rindex(word)), tuple(children[1:])

    def calls(self, children: list) -> list[list]:
        entries: list[list] = []  # [call, seat, annotation, comments, pos, text]
        waiting: list[str] = []
        for child in children:
            if not isinstance(child, Token):
                (entries[-1][3] if entries else waiting).append(child)
                continue
            for m in _CALL_ITEM.finditer(child.value):
                seat = m.group("seat")
                word = m.group("word")
                pos = _pos(child, m.start("word"))
                try:
                    call = Call.parse(word.replace("é", "e").replace("É", "E"))
                except NotationError:
                    raise _Problem(pos, f'unexpected "{word}"', word, "a call") from None
                entries.append([call, _SEATS[seat] if seat else None, m.group("ann"), waiting, pos, word])
                waiting = []
        if waiting:
            raise _Problem(_pos(children[0]), "a comment with no call", "{", "a call")
        return entries

    def taking(self, children: list) -> tuple[str, tuple[CallEntry, ...]]:
        return "taking", _call_entries(children[1], _TAKING_KINDS, "a call of the taking (pass, take or a suit)")

    def auction(self, children: list) -> tuple[str, tuple[CallEntry, ...]]:
        return "auction", _call_entries(
            children[1], _AUCTION_KINDS, "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)")

    def announces(self, children: list) -> tuple[Announcement, ...]:
        return tuple(children)

    def announce(self, children: list) -> Announcement:
        token = children[0]
        match = _HEAD.match(token.value)
        kind_word = match.group(2).lower()
        cards: list[Card] = []
        annotation = None
        for m in _WORD.finditer(token.value, match.end()):
            card_match = _CARD_WITH_ANNOTATION.fullmatch(m.group())
            card = _card(card_match.group(1))
            if card is None:
                raise _Problem(_pos(token, m.start()), 'an unknown card "??" in an announcement', "??",
                               "a known card (e.g. JH, 10S)")
            cards.append(card)
            annotation = card_match.group(2)
        return Announcement(_SEATS[match.group(1)], _MELDS[kind_word], tuple(cards), annotation,
                            tuple(children[1:]), _pos(token, match.start(2)))

    def play(self, children: list) -> tuple[list[Trick], Claim | None, bool]:
        tricks: list[Trick] = []
        waiting: list[str] = []
        for child in children[1:-1]:
            if isinstance(child, Token):
                tricks.append(_trick(child, len(tricks) + 1, waiting))
                waiting = []
            elif tricks:
                last = tricks[-1]
                tricks[-1] = Trick(last.plays, last.comments + (child,), last.pos)
            else:
                waiting.append(child)
        if waiting:
            raise _Problem(_pos(children[0]), "a comment with no trick", "{", "a trick")
        ending = children[-1]
        return tricks, (ending if isinstance(ending, Claim) else None), ending == "*"

    def claim(self, children: list) -> Claim:
        token = children[0]
        return Claim(_SEATS[token.value.split()[1]], tuple(children[1:]), _pos(token, token.value.rindex(token.value.split()[1])))

    def stopped(self, children: list) -> str:
        return "*"

    def start(self, children: list) -> Record:
        (tags, comments), hands, turned, bidding, announcements, play = children
        tricks, claim, stopped = play if play is not None else ((), None, False)
        turned_card, turned_pos, turned_comments = turned if turned is not None else (None, None, ())
        taking = bidding[1] if bidding is not None and bidding[0] == "taking" else None
        auction = bidding[1] if bidding is not None and bidding[0] == "auction" else None
        return Record(tags=tags, comments=comments, hands=hands, turned=turned_card, taking=taking,
                      auction=auction, announcements=announcements, tricks=tuple(tricks), claim=claim,
                      stopped=stopped, turned_comments=turned_comments, turned_pos=turned_pos)


def _call_entries(entries: list[list], allowed: frozenset[CallKind], expected: str) -> tuple[CallEntry, ...]:
    result = []
    for call, seat, annotation, comments, pos, word in entries:
        if call.kind not in allowed:
            raise _Problem(pos, f'unexpected "{word}"', word, expected)
        result.append(CallEntry(call, seat, annotation, tuple(comments), pos))
    return tuple(result)


def _trick(token: Token, number: int, comments: list[str]) -> Trick:
    plays: list[list] = []  # [card, seat, declaration, annotation, comments, pos]
    comments = list(comments)
    for m in _TRICK_ITEM.finditer(token.value):
        card = m.group("card")
        if card is not None:
            if len(plays) == 4:
                raise _Problem(_pos(token, m.start("card")), f"a fifth card in trick {number}", card,
                               "at most 4 cards in a trick (a trick is one line)")
            seat, decl = m.group("seat"), m.group("decl")
            plays.append([_card(card), _SEATS[seat] if seat else None, decl.lower() if decl else None,
                          m.group("ann"), [], _pos(token, m.start("card"))])
        elif m.group("num") is not None:
            if int(m.group("num")) != number:
                raise _Problem(_pos(token, m.start()), f'unexpected trick number "{m.group()}"', m.group(),
                               f"trick number {number}. (or none)")
        else:
            text = m.group("brace") if m.group("brace") is not None else m.group("semi")
            if m.group("semi") is not None or not plays:
                comments.append(text.strip())
            else:
                plays[-1][4].append(text.strip())
    entries = tuple(CardEntry(card, seat, decl, ann, tuple(notes), pos)
                    for card, seat, decl, ann, notes, pos in plays)
    return Trick(entries, tuple(comments), _pos(token))


_PARSER = Lark.open("belote.lark", rel_to=__file__, parser="lalr", transformer=_Builder())


def _error(exc: Exception, raw: RawRecord, text: str) -> RecordSyntaxError:
    """Turn a Lark or callback exception into a RecordSyntaxError located in the file."""
    if isinstance(exc, _Problem):
        line, column = exc.pos.line, exc.pos.column
        problem, found, expected, kind = exc.problem, exc.text, exc.expected, exc.kind
    else:
        assert isinstance(exc, UnexpectedInput)
        line, column, problem, found, expected = describe_failure(exc, text)
        line += raw.first_line - 1
        kind = RecordSyntaxError
    source_line = raw.lines[line - raw.first_line] if 0 <= line - raw.first_line < len(raw.lines) else ""
    return kind(problem, record_index=raw.index, line=line, column=column, text=found, expected=expected,
                source_line=source_line)


def _problem_error(raw: RawRecord) -> RecordSyntaxError:
    problem = raw.problem
    assert problem is not None
    source_line = raw.lines[problem.line - raw.first_line] if 0 <= problem.line - raw.first_line < len(raw.lines) else ""
    common = dict(record_index=raw.index, line=problem.line, column=problem.column, source_line=source_line)
    if problem.kind == "encoding":
        return EncodingError(f"{problem.message} at byte {problem.byte_offset}", byte_offset=problem.byte_offset,
                             text="", expected="UTF-8 text", **common)
    return LimitError(problem.message, text="", expected="", **common)


def _read(raw: RawRecord) -> ParseResult:
    source = Source(raw.text, raw.first_line, raw.last_line, raw.index, raw.byte_offset)
    if raw.problem is not None:
        return ParseResult(raw.index, None, (_problem_error(raw),), source)
    text = raw.grammar_text()
    _context.line_offset = raw.first_line - 1
    try:
        record = _PARSER.parse(text)
    except (_Problem, UnexpectedInput) as exc:
        return ParseResult(raw.index, None, (_error(exc, raw, text),), source)
    object.__setattr__(record, "source", source)
    return ParseResult(raw.index, record, (), source)


def parse(source: Input) -> Iterator[ParseResult]:
    """Every record of ``source`` (text, bytes, a path, or a text or binary stream), one at a time."""
    for raw in split_records(source):
        yield _read(raw)


def parse_file(path_or_stream: Input) -> Iterator[ParseResult]:
    """Like ``parse``, but a ``str`` is a file name (opened in binary: exact byte offsets)."""
    if isinstance(path_or_stream, str):
        with open(path_or_stream, "rb") as stream:
            yield from parse(stream)
    else:
        yield from parse(path_or_stream)


def parse_record(text: str) -> Record:
    """Exactly one record; raise ``RecordSyntaxError`` on its first error (or if there is none or several)."""
    results = parse(text)
    first = next(results, None)
    if first is None:
        raise RecordSyntaxError("no record", expected="a record")
    if first.errors:
        raise first.errors[0]
    second = next(results, None)
    if second is not None:
        raise RecordSyntaxError("a second record", record_index=1, line=second.source.first_line,
                                expected="a single record", source_line=second.source.text.split("\n", 1)[0])
    assert first.record is not None
    return first.record
