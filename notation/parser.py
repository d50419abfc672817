"""Read Belote records: a streaming reader over files, one record at a time.

``parse(source)`` yields a ``ParseResult`` per record, good or bad, and never
raises for bad input: one broken record never stops the next.
``parse_record(text)`` reads exactly one record and raises
``RecordSyntaxError`` (or a subclass) on the first error.

The grammar (``belote.lark``, Lark LALR) fixes the order of the sections and
hands each section over as one token; ``sections.py`` reads the words of each
section, with exact positions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from lark import Lark
from lark.exceptions import UnexpectedInput

from .diagnose import describe_failure
from .errors import EncodingError, LimitError, RecordSyntaxError
from .exported import read_plain_tags
from .record import Record, Source
from .scan import Input, RawRecord, split_records
from .sections import SectionBuilder
from .words import Problem, comment_text, context, make_source

_BUILDER = SectionBuilder()
_PARSER = Lark.open("belote.lark", rel_to=__file__, parser="lalr", transformer=_BUILDER)

# A record in export form, whose sections are exactly the tokens the grammar would cut: one section
# per keyword, every line starting with its keyword (or a trick number), every {comment} closed on its
# own line, no comment line but the record's (one {comment} a line, after the tag pairs).  Such a
# record skips Lark (a quarter of the reading time) and goes straight to the same section readers;
# any other record goes through the grammar.  tests/test_parser.py checks that both agree.
_LINE = r"(?:[^\n{;]++|\{[^}\n]*+\})*+(?:;[^\n]*+)?"
_TAG = r'\[[A-Za-z0-9_]++ "(?:[^"\\\n]++|\\["\\])*+"\]'
_CANONICAL = re.compile(
    rf"(?:(?P<tags>{_TAG}(?:\n{_TAG})*+)\n\n?)?"
    r"(?P<comments>(?:\{[^}\n]*\}\n)*)"
    rf"(?:(?P<hands>hand {_LINE}(?:\nhand {_LINE})*)\n)?"
    rf"(?:(?P<turned>turned {_LINE})\n)?"
    rf"(?:(?P<taking>taking {_LINE})\n|(?P<auction>auction {_LINE})\n)?"
    rf"(?:(?P<announces>announce {_LINE}(?:\nannounce {_LINE})*)\n)?"
    rf"(?:(?P<play>play(?:\n[0-9]{_LINE})*)\n(?:(?P<claim>claim {_LINE})\n|(?P<star>\*)\n)?)?")


class _Section:
    """What the section readers use of a Lark token: its text and where it starts (line in the record, column)."""

    __slots__ = ("value", "line", "column")

    def __init__(self, value: str, line: int) -> None:
        self.value, self.line, self.column = value, line, 1


def _read_canonical(text: str) -> Record | None:
    """The record read without the grammar when ``text`` is in export form, else None."""
    match = _CANONICAL.fullmatch(text)
    if match is None:
        return None
    sections: dict[str, _Section] = {}
    line, last = 1, 0
    for name, value in match.groupdict().items():
        if value:
            start = match.start(name)
            line += text.count("\n", last, start)
            last = start
            sections[name] = _Section(value, line)
    build = _BUILDER
    comments = [comment_text(comment[1:-1]) for comment in match["comments"].split("\n")[:-1]]
    tags = sections.get("tags")
    if tags is not None and "\\" not in tags.value:  # the regex above checked the tag lines: no escape, plain
        head = (tuple(read_plain_tags(tags.value)), tuple(comments))
    else:
        head = build.head(([tags] if tags is not None else []) + comments)
    hands = build.hands([sections["hands"]] if "hands" in sections else [])
    turned = build.turned([sections["turned"]]) if "turned" in sections else None
    bidding = (build.taking([sections["taking"]]) if "taking" in sections else
               build.auction([sections["auction"]]) if "auction" in sections else None)
    announces = build.announces([sections["announces"]] if "announces" in sections else [])
    play = None
    if "play" in sections:
        ending = (build.claim([sections["claim"]]) if "claim" in sections else
                  build.stopped([]) if "star" in sections else None)
        play = build.play([sections["play"], ending])
    return build.start([head, hands, turned, bidding, announces, play])


@dataclass(frozen=True, slots=True)
class ParseResult:
    """One record of a file: the record, or ``None`` with the error that stopped it."""

    index: int
    record: Record | None
    errors: tuple[RecordSyntaxError, ...]
    source: Source

    @property
    def ok(self) -> bool:
        return self.record is not None and not self.errors


class _ParseResultDraft:
    """Builds a ``ParseResult`` at the cost of plain stores (see the drafts of ``words.py``)."""

    __slots__ = ("index", "record", "errors", "source")

    def __init__(self, index: int, record: Record | None, errors: tuple[RecordSyntaxError, ...],
                 source: Source) -> None:
        self.index = index
        self.record = record
        self.errors = errors
        self.source = source
        self.__class__ = ParseResult  # type: ignore[assignment]


assert _ParseResultDraft.__slots__ == tuple(ParseResult.__dataclass_fields__), "update _ParseResultDraft"


def parse(source: Input) -> Iterator[ParseResult]:
    """Every record of ``source``: a str (the text itself), bytes, a path, or a text or binary stream."""
    for raw in split_records(source):
        yield read_raw(raw)


def parse_file(path_or_stream: Input) -> Iterator[ParseResult]:
    """Like ``parse``, but a ``str`` names a file (read in binary: exact byte offsets)."""
    if isinstance(path_or_stream, str):
        with open(path_or_stream, "rb") as stream:
            yield from parse(stream)
    else:
        yield from parse(path_or_stream)


def parse_record(text: str) -> Record:
    """Exactly one record; raise ``RecordSyntaxError`` on its first error, or if there is none or several."""
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


def read_raw(raw: RawRecord) -> ParseResult:
    """Parse one record as cut by the splitter."""
    source = make_source(raw.text, raw.first_line, raw.last_line, raw.index, raw.byte_offset)
    if raw.problem is not None:
        return ParseResult(raw.index, None, (_reading_error(raw),), source)
    text = raw.grammar_text()
    context.line_offset = raw.first_line - 1
    try:
        record = _read_canonical(text)
        if record is None:
            record = _PARSER.parse(text)
    except (Problem, UnexpectedInput) as exc:
        return ParseResult(raw.index, None, (_syntax_error(exc, raw, text),), source)
    object.__setattr__(record, "source", source)
    return _ParseResultDraft(raw.index, record, (), source)  # type: ignore[return-value]


def _source_line(raw: RawRecord, line: int) -> str:
    i = line - raw.first_line
    return raw.lines[i] if 0 <= i < len(raw.lines) else ""


def _syntax_error(exc: Exception, raw: RawRecord, text: str) -> RecordSyntaxError:
    """A Lark or section exception as a RecordSyntaxError located in the file."""
    if isinstance(exc, Problem):
        line, column, problem, found, expected, kind = (exc.pos.line, exc.pos.column, exc.problem, exc.text,
                                                        exc.expected, exc.kind)
    else:
        assert isinstance(exc, UnexpectedInput)
        line, column, problem, found, expected = describe_failure(exc, text)
        line += raw.first_line - 1
        kind = RecordSyntaxError
    return kind(problem, record_index=raw.index, line=line, column=column, text=found, expected=expected,
                source_line=_source_line(raw, line))


def _reading_error(raw: RawRecord) -> RecordSyntaxError:
    problem = raw.problem
    assert problem is not None
    common = dict(record_index=raw.index, line=problem.line, column=problem.column,
                  source_line=_source_line(raw, problem.line))
    if problem.kind == "encoding":
        return EncodingError(f"{problem.message} at byte {problem.byte_offset}", byte_offset=problem.byte_offset,
                             expected="UTF-8 text", **common)
    return LimitError(problem.message, **common)
