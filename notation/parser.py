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

from dataclasses import dataclass
from typing import Iterator

from lark import Lark
from lark.exceptions import UnexpectedInput

from .diagnose import describe_failure
from .errors import EncodingError, LimitError, RecordSyntaxError
from .record import Record, Source
from .scan import Input, RawRecord, split_records
from .sections import SectionBuilder
from .words import Problem, context

_PARSER = Lark.open("belote.lark", rel_to=__file__, parser="lalr", transformer=SectionBuilder())


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
    source = Source(raw.text, raw.first_line, raw.last_line, raw.index, raw.byte_offset)
    if raw.problem is not None:
        return ParseResult(raw.index, None, (_reading_error(raw),), source)
    text = raw.grammar_text()
    context.line_offset = raw.first_line - 1
    try:
        record = _PARSER.parse(text)
    except (Problem, UnexpectedInput) as exc:
        return ParseResult(raw.index, None, (_syntax_error(exc, raw, text),), source)
    object.__setattr__(record, "source", source)
    return ParseResult(raw.index, record, (), source)


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
