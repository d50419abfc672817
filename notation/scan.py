"""Split a file into records, line by line, without ever reading it whole.

A record is a run of non-blank lines: its tag pairs, then (after blank lines
or not) its body.  Blank lines end a record, except between the tag pairs and
the body (as in PGN export), and inside a ``{...}`` comment (the PBN rule)
unless the next line starts a tag pair, which means the comment was never
closed.  ``%`` in column 1 (outside a comment)
marks an escape line, ignored.  Lines longer than ``MAX_LINE`` characters and
records longer than ``MAX_RECORD`` characters are cut: the record gets an
error and the rest is skipped, so memory stays bounded whatever the input.

``scan_headers`` reads only the tag pairs of each record, for fast filtering
and byte-offset indexing (seek there, then parse the record).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass
from typing import IO, Iterator, Union

MAX_LINE = 100_000
MAX_RECORD = 2_000_000

Input = Union[str, bytes, os.PathLike, IO[str], IO[bytes]]


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the splitter found wrong in a record before any parsing."""

    kind: str  # "encoding" or "limit"
    message: str
    line: int
    column: int
    byte_offset: int


@dataclass(slots=True)
class RawRecord:
    """The lines of one record as read (line ends normalised to ``\\n``)."""

    index: int
    lines: list[str]
    first_line: int
    byte_offset: int
    escapes: list[int]  # indexes in ``lines`` of ``%`` escape lines
    problem: Problem | None = None

    @property
    def last_line(self) -> int:
        return self.first_line + len(self.lines) - 1

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def grammar_text(self) -> str:
        """The text the grammar reads: escape lines blanked, line numbers kept."""
        if not self.escapes:
            return "".join(self.lines)
        lines = list(self.lines)
        for i in self.escapes:
            lines[i] = "\n"
        return "".join(lines)


@dataclass(frozen=True, slots=True)
class Headers:
    """The tag pairs of one record, where it is, and whether they scanned cleanly."""

    index: int
    tags: tuple[tuple[str, str], ...]
    first_line: int
    last_line: int
    byte_offset: int
    ok: bool  # False when the record had a reading problem or a malformed tag line

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.tags)


_TAG_START = re.compile(r"\[[ \t]*[A-Za-z0-9_]+[ \t]*\"")
TAG_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]|\\["\\])*)"[ \t]*\]')
_UNESCAPE = re.compile(r'\\(["\\])')


def unescape(value: str) -> str:
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


def _lines(source: Input) -> Iterator[tuple[str, int, Problem | None]]:
    """Yield (line, byte length, problem) with ``\\n`` line ends, from any input."""
    if isinstance(source, str):
        yield from _text_lines(io.StringIO(source, newline=None))
    elif isinstance(source, (bytes, bytearray)):
        yield from _byte_lines(io.BytesIO(source))
    elif isinstance(source, os.PathLike):
        with open(source, "rb") as stream:
            yield from _byte_lines(stream)
    elif isinstance(source, io.TextIOBase) or hasattr(source, "encoding"):
        yield from _text_lines(source)  # type: ignore[arg-type]
    else:
        yield from _byte_lines(source)  # type: ignore[arg-type]


def _too_long(line: str | bytes) -> bool:
    return len(line) > MAX_LINE and not line.endswith("\n" if isinstance(line, str) else b"\n")


def _text_lines(stream: IO[str]) -> Iterator[tuple[str, int, Problem | None]]:
    first = True
    while line := stream.readline(MAX_LINE + 1):
        if first:
            line, first = line.removeprefix("\ufeff"), False
        problem = None
        if _too_long(line):
            line = _skip_rest(stream, line)
            problem = Problem("limit", f"line longer than {MAX_LINE} characters", 0, MAX_LINE + 1, 0)
        elif line.endswith("\r\n"):
            line = line[:-2] + "\n"
        size = len(line) if line.isascii() else len(line.encode("utf-8", "replace"))
        yield line, size, problem


def _byte_lines(stream: IO[bytes]) -> Iterator[tuple[str, int, Problem | None]]:
    first = True
    while raw := stream.readline(MAX_LINE + 1):
        size, problem, bom = len(raw), None, 0
        if first:
            first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                raw, bom = raw[3:], 3
        if _too_long(raw):
            size, raw = _skip_bytes(stream, raw)
            problem = Problem("limit", f"line longer than {MAX_LINE} bytes", 0, MAX_LINE + 1, 0)
        if raw.endswith(b"\r\n"):
            raw = raw[:-2] + b"\n"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.decode("utf-8", "replace")
            column = len(raw[:exc.start].decode("utf-8", "replace")) + 1
            problem = problem or Problem("encoding", "invalid UTF-8", 0, column, exc.start + bom)
        yield line, size, problem


def _skip_rest(stream: IO[str], start: str) -> str:
    """Read past the end of an over-long line; keep only its beginning."""
    chunk = start
    while chunk and not chunk.endswith("\n"):
        chunk = stream.readline(MAX_LINE)
    return start[:200] + "\n"


def _skip_bytes(stream: IO[bytes], start: bytes) -> tuple[int, bytes]:
    size, chunk = len(start), start
    while chunk and not chunk.endswith(b"\n"):
        chunk = stream.readline(MAX_LINE)
        size += len(chunk)
    return size, start[:200].decode("utf-8", "ignore").encode("utf-8") + b"\n"


def _brace_depth(line: str, open_: bool) -> bool:
    """Whether a ``{`` comment is still open after ``line``.

    Quotes count only outside comments (a tag value may hold "{"), and ``;``
    outside a comment ends the line.
    """
    in_string = False
    escaped = False
    for char in line:
        if open_:
            if char == "}":
                open_ = False
        elif in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            open_ = True
        elif char == ";":
            break
    return open_


def split_records(source: Input) -> Iterator[RawRecord]:
    """Yield the records of ``source`` (a str, bytes, a path or a text/binary stream)."""
    index = 0
    lines: list[str] = []
    escapes: list[int] = []
    held: list[str] = []  # blank lines whose meaning depends on the next line
    first_line = offset = record_offset = size_so_far = line_number = 0
    problem: Problem | None = None
    in_comment = has_body = False

    def finish() -> RawRecord | None:
        nonlocal lines, escapes, problem, index, size_so_far, has_body, in_comment
        record = None
        if len(escapes) < len(lines):
            record = RawRecord(index, lines, first_line, record_offset, escapes, problem)
            index += 1
        lines, escapes, problem, size_so_far, has_body, in_comment = [], [], None, 0, False, False
        return record

    for line, size, line_problem in _lines(source):
        line_number += 1
        if line.isspace():
            if lines:
                held.append(line)
            offset += size
            continue
        if held:
            if in_comment:  # a blank line in a comment, unless the comment was never closed
                ends = _TAG_START.match(line) is not None
            else:  # a blank line between the tag pairs and the body does not end the record
                ends = has_body or line.lstrip()[:1] == "["
            if ends:
                if (record := finish()) is not None:
                    yield record
            else:
                lines.extend(held)
            held.clear()
        if not lines:
            first_line, record_offset = line_number, offset
        if line_problem and problem is None:
            problem = Problem(line_problem.kind, line_problem.message, line_number, line_problem.column,
                              offset + line_problem.byte_offset)
        offset += size
        size_so_far += len(line)
        if size_so_far > MAX_RECORD:
            if problem is None or problem.kind != "limit":
                problem = Problem("limit", f"record longer than {MAX_RECORD} characters", line_number, 1,
                                  offset - size)
            continue
        if line[0] == "%" and not in_comment:
            escapes.append(len(lines))
        else:
            if not in_comment and line.lstrip()[:1] != "[":
                has_body = True
            if in_comment or "{" in line:
                in_comment = _brace_depth(line, in_comment)
        lines.append(line if line.endswith("\n") else line + "\n")
    if lines and (record := finish()) is not None:
        yield record


def scan_headers(source: Input) -> Iterator[Headers]:
    """The tag pairs of every record, read by a plain line scanner (no grammar)."""
    for raw in split_records(source):
        tags: list[tuple[str, str]] = []
        ok = raw.problem is None
        for i, line in enumerate(raw.lines):
            if line[0] != "[":
                if line[0] in "%{;" or i in raw.escapes:
                    continue
                break
            found = TAG_PAIR.findall(line)
            if not found:
                ok = False
                break
            tags.extend((name, unescape(value)) for name, value in found)
        yield Headers(raw.index, tuple(tags), raw.first_line, raw.last_line, raw.byte_offset, ok)
