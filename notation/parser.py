"""Read Belote records: files into records, one at a time.

``parse(source)`` yields a ``ParseResult`` for every record of a file, good or bad, and
never raises for bad input: one broken record never stops the next. ``parse_record(text)``
reads exactly one record and raises ``RecordSyntaxError`` (or a subclass) at its first
error. A result holds the record as read (``data``, what the validator works on) and builds
the ``Record`` model when it is asked for (``record``).
"""

from __future__ import annotations

from typing import Iterator

from .builder import to_record
from .errors import EncodingError, LimitError, RecordSyntaxError
from .reader import RecordData, read_record
from .record import Record, Source
from .splitter import Input, RawRecord, split_records


class ParseResult:
    """One record of a file: what was read of it, or the error that stopped it."""

    __slots__ = ("index", "data", "errors", "source", "_record")

    def __init__(self, index: int, data: RecordData | None, errors: tuple[RecordSyntaxError, ...],
                 source: Source) -> None:
        self.index, self.data, self.errors, self.source = index, data, errors, source
        self._record: Record | None = None

    @property
    def ok(self) -> bool:
        return self.data is not None and not self.errors

    @property
    def record(self) -> Record | None:
        """The ``Record`` (with positions and source), built on first use; None for a record with an error."""
        if self._record is None and self.data is not None:
            self._record = to_record(self.data, source=self.source)
        return self._record

    def __repr__(self) -> str:
        return f"ParseResult(index={self.index}, ok={self.ok}, errors={self.errors!r})"


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
    """Exactly one record; raise ``RecordSyntaxError`` at its first error, or when the text holds
    no record or several."""
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
    """Read one record as the splitter cut it."""
    source = Source(raw.text, raw.first_line, raw.last_line, raw.index, raw.byte_offset)
    if raw.problem is not None:
        return ParseResult(raw.index, None, (_cutting_error(raw),), source)
    try:
        data = read_record(raw.text, raw.first_line, raw.index, raw.escapes)
    except RecordSyntaxError as error:
        return ParseResult(raw.index, None, (error,), source)
    return ParseResult(raw.index, data, (), source)


def _cutting_error(raw: RawRecord) -> RecordSyntaxError:
    problem = raw.problem
    assert problem is not None
    lines = raw.text.split("\n")
    at = problem.line - raw.first_line
    common = dict(record_index=raw.index, line=problem.line, column=problem.column,
                  source_line=lines[at] if 0 <= at < len(lines) else "")
    if problem.kind == "encoding":
        return EncodingError(f"{problem.message} at byte {problem.byte_offset}", byte_offset=problem.byte_offset,
                             expected="UTF-8 text", **common)  # type: ignore[arg-type]
    return LimitError(problem.message, **common)  # type: ignore[arg-type]
