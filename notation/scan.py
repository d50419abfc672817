"""Split a file into records without ever reading it whole: plain records cut straight from the bytes.

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
import itertools
import os
import re
from dataclasses import dataclass
from typing import IO, Generator, Iterable, Iterator, Union

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
    """The text of one record as read (line ends normalised to ``\\n``)."""

    index: int
    text: str
    first_line: int
    line_count: int
    byte_offset: int
    escapes: tuple[int, ...]  # 0-based lines of the record that are ``%`` escape lines
    problem: Problem | None = None

    @property
    def last_line(self) -> int:
        return self.first_line + self.line_count - 1

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")[:self.line_count]

    def grammar_text(self) -> str:
        """The text the grammar reads: escape lines blanked, line numbers kept."""
        if not self.escapes:
            return self.text
        lines = self.text.split("\n")
        for i in self.escapes:
            lines[i] = ""
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Headers:
    """The tag pairs of one record, where it is, and whether they scanned cleanly."""

    index: int
    tags: tuple[tuple[str, str], ...]
    first_line: int
    last_line: int
    byte_offset: int
    ok: bool  # False when the record could not be read cleanly (bad UTF-8, a size limit)

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.tags)


class _HeadersDraft:
    """Builds a ``Headers`` without its frozen ``__init__`` (one store per field, a third of the cost):
    a plain class with the same slots, turned into ``Headers`` once filled (CPython allows it)."""

    __slots__ = ("index", "tags", "first_line", "last_line", "byte_offset", "ok")

    def __init__(self, index: int, tags: tuple[tuple[str, str], ...], first_line: int, last_line: int,
                 byte_offset: int, ok: bool) -> None:
        self.index = index
        self.tags = tags
        self.first_line = first_line
        self.last_line = last_line
        self.byte_offset = byte_offset
        self.ok = ok
        self.__class__ = Headers  # type: ignore[assignment]


assert _HeadersDraft.__slots__ == tuple(Headers.__dataclass_fields__), "update _HeadersDraft with Headers"

TAG_START = re.compile(rb"[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*\"")
TAG_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]++|\\["\\])*+)"[ \t]*\]')
_UNESCAPE = re.compile(r'\\(["\\])')
_HEAD = re.compile(r"(?:[ \t]*(?:\[|%)[^\n]*\n)*")
BLOCK = 1 << 16


def unescape(value: str) -> str:
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


def read_blocks(source: Input) -> Iterator[bytes]:
    """The input as UTF-8 bytes, block by block (a str is encoded; lone surrogates become "?")."""
    if isinstance(source, str):
        yield source.encode("utf-8", "replace")
    elif isinstance(source, (bytes, bytearray)):
        yield bytes(source)
    elif isinstance(source, os.PathLike):
        with open(source, "rb") as stream:
            yield from iter(lambda: stream.read(BLOCK), b"")
    elif isinstance(source, io.TextIOBase) or hasattr(source, "encoding"):
        for block in iter(lambda: source.read(BLOCK), ""):  # type: ignore[union-attr]
            yield block.encode("utf-8", "replace")
    else:
        yield from iter(lambda: source.read(BLOCK), b"")  # type: ignore[union-attr]


def _lines(blocks: Iterable[bytes], long_sizes: list[int], at_start: bool = True) -> Iterator[list[bytes]]:
    """The lines of the input without their "\\n", a list per block read; a BOM is dropped (``at_start``:
    the blocks start the file).

    A line longer than MAX_LINE comes out cut to MAX_LINE + 1 bytes, and its
    real size is appended to ``long_sizes``: memory never holds more than a
    block and MAX_LINE bytes.
    """
    rest = b""
    skipping = False  # inside an over-long line, dropping bytes until its end
    first = at_start
    for block in blocks:
        if first:
            first = False
            if block.startswith(b"\xef\xbb\xbf"):
                block = block[3:]
                long_sizes.append(-3)  # the BOM's bytes still count in byte offsets
        if skipping:
            end = block.find(b"\n")
            if end < 0:
                long_sizes[-1] += len(block)
                continue
            long_sizes[-1] += end
            block, skipping = block[end + 1:], False
            yield [rest]
            rest = b""
        data = rest + block if rest else block
        parts = data.split(b"\n")
        rest = parts.pop()
        if len(data) > MAX_LINE and max(map(len, parts), default=0) > MAX_LINE:  # whole over-long lines in a block
            yield from _cut_long_lines(parts, long_sizes)
        else:
            yield parts
        if len(rest) > MAX_LINE:
            long_sizes.append(len(rest))
            rest, skipping = rest[:MAX_LINE + 1], True
    if rest or skipping:
        yield [rest]


def _cut_long_lines(parts: list[bytes], long_sizes: list[int]) -> Iterator[list[bytes]]:
    """``parts`` with each line over MAX_LINE cut as when it spans blocks, alone in its list (see split_records)."""
    start = 0
    for i, part in enumerate(parts):
        if len(part) > MAX_LINE:
            yield parts[start:i]
            long_sizes.append(len(part))
            yield [part[:MAX_LINE + 1]]
            start = i + 1
    yield parts[start:]


def _brace_open(line: str, open_: bool) -> bool:
    """Whether a ``{`` comment is still open after ``line``.

    Quotes count only outside comments (a tag value may hold "{"), and ``;``
    outside a comment ends the line.
    """
    in_string = escaped = False
    for char in line:
        if open_:
            open_ = char != "}"
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


def _record(index: int, lines: list[bytes], escapes: list[int], first_line: int, offset: int,
            problem: Problem | None) -> RawRecord:
    data = b"\n".join(lines)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "replace")
        problem = problem or _encoding_problem(data, exc.start, first_line, offset)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return RawRecord(index, text + "\n", first_line, len(lines), offset, tuple(escapes), problem)


def _encoding_problem(data: bytes, at: int, first_line: int, record_offset: int) -> Problem:
    line_start = data.rfind(b"\n", 0, at) + 1
    column = len(data[line_start:at].decode("utf-8", "replace")) + 1
    return Problem("encoding", "invalid UTF-8", first_line + data.count(b"\n", 0, at), column, record_offset + at)


def split_records(source: Input) -> Iterator[RawRecord]:
    """Yield the records of ``source`` (a str, bytes, a path or a text or binary stream).

    Plain records (as for ``scan_headers``: tag lines, at most one run of blank
    lines before the body, none in it, no escape line, CR or odd space) are cut
    straight from the bytes between the blank lines before a tag line, where
    the line splitter always ends a record; any other stretch of the input goes
    through the line splitter, and both give the same records.
    """
    blocks = read_blocks(source)
    if not _FAST:
        yield from _split_lines(blocks, 0, 0, 0, True)
        return
    buffer, offset, line, index = b"", 0, 1, 0  # the unread bytes, and where they start
    for block in blocks:
        buffer = buffer + block if buffer else block
        start = 0
        clean = buffer.isascii() and not _odd(buffer)  # checked once for the whole buffer
        for cut in _BOUNDARY.finditer(buffer):
            end = cut.start() + 1
            raw = _plain_record(buffer[start:end], index, line, offset + start, clean)
            if raw is None:
                index = yield from _split_lines((buffer[start:end],), index, line - 1, offset + start,
                                                offset + start == 0)
            else:
                yield raw
                index += 1
            line += buffer.count(b"\n", start, cut.end())
            start = cut.end()
        buffer, offset = buffer[start:], offset + start
        if len(buffer) > _HANDOFF:
            yield from _split_lines(itertools.chain((buffer,), blocks), index, line - 1, offset, offset == 0)
            return
    if buffer:
        raw = _plain_record(buffer, index, line, offset, False)
        if raw is None:
            yield from _split_lines((buffer,), index, line - 1, offset, offset == 0)
        else:
            yield raw


def _plain_record(data: bytes, index: int, line: int, offset: int, clean: bool) -> RawRecord | None:
    """``data`` as one record if it is plain and ends with a line end (what the line splitter gives), else None."""
    if len(data) > MAX_LINE or len(data) > MAX_RECORD or not clean and _odd(data) or data[-1:] != b"\n":
        return None
    plain = _PLAIN_HEAD.match(data)
    if plain is None:
        return None
    body = plain.end()
    if body == len(data) > plain.end(1) or _BLANK_LINE.search(data, body - 1):  # a blank line after the head
        return None  # closing the stretch (the splitter leaves it out), or in the body (it may end the record)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return RawRecord(index, text, line, data.count(b"\n"), offset, ())


def _split_lines(blocks: Iterable[bytes], index: int, line_number: int, offset: int,
                 at_start: bool) -> Generator[RawRecord, None, int]:
    """The line splitter: the records of ``blocks``, which start a record (or the file, ``at_start``)
    after ``line_number`` lines and ``offset`` bytes, numbered from ``index``; returns the next index."""
    lines: list[bytes] = []  # the record being gathered
    escapes: list[int] = []  # its escape lines
    held: list[bytes] = []  # blank lines whose meaning depends on the next line
    long_sizes: list[int] = []
    first_line = record_offset = record_size = 0
    problem: Problem | None = None
    has_body = in_comment = False
    for block in _lines(blocks, long_sizes, at_start):
        for line in block:
            line_number += 1
            size = len(line) + 1
            if (lines and not held and not in_comment and not long_sizes and record_size + size <= MAX_RECORD
                    and line and line[0] != 37 and b"{" not in line and not line.isspace()):
                # The common case, a line that goes on a record: the general code below in short.
                if not has_body and line[0] != 91 and line.lstrip()[:1] != b"[":
                    has_body = True
                offset += size
                record_size += size
                lines.append(line)
                continue
            too_long = None
            if long_sizes:  # a BOM before this line, or a line cut to MAX_LINE
                size, line, too_long = _long_line(line, size, long_sizes, line_number, offset)
            if not line or line.isspace():
                if lines:
                    held.append(line)
                offset += size
                continue
            if held:
                if in_comment:  # a blank line inside a comment, unless the comment was never closed
                    ends = TAG_START.match(line) is not None
                else:  # a blank line between the tag pairs and the body does not end the record
                    ends = has_body or line.lstrip()[:1] == b"["
                if ends:
                    if len(escapes) < len(lines):
                        yield _record(index, lines, escapes, first_line, record_offset, problem)
                        index += 1
                    lines, escapes, problem, record_size, has_body, in_comment = [], [], None, 0, False, False
                else:
                    lines.extend(held)
                held.clear()
            if not lines:
                first_line, record_offset = line_number, offset
            if too_long is not None and problem is None:  # only now is the line's record known
                problem = too_long
            offset += size
            record_size += size
            if record_size > MAX_RECORD:
                if problem is None or problem.kind != "limit":
                    problem = Problem("limit", f"record longer than {MAX_RECORD} bytes", line_number, 1,
                                      offset - size)
                if lines:
                    continue
                # An over-long first line (already cut short) still starts its record, which carries the
                # problem: dropping it would lose the record and leave its limits to the next one.
            first = line[:1]
            if first == b"%" and not in_comment:
                escapes.append(len(lines))
            else:
                if not has_body and not in_comment and first != b"[" and line.lstrip()[:1] != b"[":
                    has_body = True
                if in_comment or b"{" in line:
                    in_comment = _brace_open(line.decode("utf-8", "replace"), in_comment)
            lines.append(line)
    if len(escapes) < len(lines):
        yield _record(index, lines, escapes, first_line, record_offset, problem)
        index += 1
    return index


def _long_line(line: bytes, size: int, long_sizes: list[int], line_number: int,
               offset: int) -> tuple[int, bytes, Problem | None]:
    """Account for a BOM or an over-long line: its real size, and the problem of an over-long line."""
    if long_sizes[0] == -3:  # the BOM of the first line
        long_sizes.pop(0)
        size += 3
        if not long_sizes:
            return size, line, None
    real = long_sizes.pop(0) + 1
    problem = Problem("limit", f"line {line_number} is longer than {MAX_LINE} bytes", line_number,
                      MAX_LINE + 1, offset + MAX_LINE)
    return real + (size - len(line) - 1), line[:200].decode("utf-8", "ignore").encode("utf-8"), problem


# The headers-only fast path cuts the bytes at blank lines followed by a tag line: the line
# splitter always ends a record there, in or out of a comment.  The tag line's prefix is
# bounded so that it also holds for a line cut because it is over-long.  The run must start
# with an empty line (a literal "\n\n" the regex engine finds fast); a run that starts with
# spaces leaves a blank line in a stretch, which then goes to the line splitter.
_BOUNDARY = re.compile(rb'\n\n(?:[ \t\r\x0b\x0c]*\n)*(?=[ \t]{0,40}\[[ \t]{0,40}[A-Za-z0-9_]{1,40}[ \t]{0,40}")')
_TAG_LINES = re.compile(rb"(?:[ \t]*\[[^\n]*\n)+")
_BLANK_LINES = re.compile(rb"(?:[ \t]*\n)*")
# Plain tag lines not followed by another tag line, then blank lines not followed by "[": group 1 is the head.
_PLAIN_HEAD = re.compile(rb'((?:\[[A-Za-z0-9_]+ "[^"\\\n]*"\]\n)++)(?![ \t]*\[)(?:[ \t]*\n)*+(?![ \t]*\[)')
_BLANK_LINE = re.compile(rb"\n[ \t]*\n")
_OPEN_BRACKET = re.compile(rb"[ \t]*\[")
_HANDOFF = MAX_RECORD + MAX_LINE + 4 * BLOCK  # bytes without a cut: the line splitter takes the rest
_FAST = True  # tests switch it off to compare both paths


def scan_headers(source: Input) -> Iterator[Headers]:
    """The tag pairs of every record, read by a plain line scanner (no grammar).

    ``ok`` is False when the record could not be read cleanly (bad UTF-8, a
    size limit); tag lines that are not well-formed tag pairs are skipped.
    Plain records (tag lines, at most one run of blank lines before the body,
    none after) are read straight from the bytes; any other stretch of the
    input goes through ``split_records``, and both give the same values.
    """
    if not _FAST:
        yield from _split_headers(split_records(source), 0, 1, 0)
        return
    blocks = read_blocks(source)
    buffer, offset, line, index = b"", 0, 1, 0  # the unread bytes, and where they start
    for block in blocks:
        buffer = buffer + block if buffer else block
        start = 0
        clean = buffer.isascii() and not _odd(buffer)  # checked once for the whole buffer
        for cut in _BOUNDARY.finditer(buffer):
            end = cut.start() + 1
            headers = _plain_headers(buffer[start:end], index, line, offset + start, clean)
            if headers is None:
                index = yield from _split_headers(split_records(buffer[start:end]), index, line, offset + start)
                line += buffer.count(b"\n", start, cut.end())
            else:  # most records: no generator in between, and the record's lines are already counted
                yield headers
                index += 1
                line = headers.last_line + 1 + buffer.count(b"\n", end, cut.end())
            start = cut.end()
        buffer, offset = buffer[start:], offset + start
        if len(buffer) > _HANDOFF:
            yield from _split_headers(split_records(_Chained(buffer, blocks)), index, line, offset)
            return
    if buffer:
        yield from _stretch_headers(buffer, index, line, offset, False)


class _Chained:
    """A binary stream of some bytes then the rest of an iterator of blocks."""

    def __init__(self, first: bytes, rest: Iterator[bytes]) -> None:
        self._first: bytes | None = first
        self._rest = rest

    def read(self, size: int = -1) -> bytes:
        if self._first is not None:
            first, self._first = self._first, None
            return first
        return next(self._rest, b"")


def _stretch_headers(data: bytes, index: int, line: int, offset: int, clean: bool) -> Iterator[Headers]:
    """The headers of the records of ``data``, which starts a record or the file; returns the next index.

    ``clean``: ``data`` is known to be ASCII without CR, other odd spaces or escape lines.
    """
    headers = _plain_headers(data, index, line, offset, clean)
    if headers is None:
        return (yield from _split_headers(split_records(data), index, line, offset))
    yield headers
    return index + 1


def _plain_headers(data: bytes, index: int, line: int, offset: int, clean: bool) -> Headers | None:
    """The headers of ``data`` if it is one plain record, else None."""
    if len(data) > MAX_LINE or not clean and _odd(data):
        return None
    plain = _PLAIN_HEAD.match(data)
    if plain is not None:  # the common case: the checks below in one match
        head_end, body = plain.end(1), plain.end()
    else:
        tags = _TAG_LINES.match(data)
        if tags is None:
            return None
        head_end = tags.end()
        body = _BLANK_LINES.match(data, head_end).end()
        if body > head_end and _OPEN_BRACKET.match(data, body):  # "[" after a blank line starts a record
            return None
    if body == len(data) > head_end or _BLANK_LINE.search(data, body - 1):  # a blank line closing the stretch
        return None  # (the splitter leaves it out of the record), or in the body (it may end the record)
    if not clean and not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    head = data[:head_end].decode("utf-8")
    if plain is not None:  # `[A "a"]\n[B "b"]\n` -> `A "a "B "b` -> (A, a), (B, b): no regex per tag
        fields = iter(head[1:-3].replace('"]\n[', ' "').split(' "'))
        pairs = tuple(zip(fields, fields))
    else:
        pairs = _tags(head)
    last = line + data.count(b"\n") - (data[-1] == 10)
    return _HeadersDraft(index, pairs, line, last, offset, True)  # type: ignore[return-value]


def _odd(data: bytes) -> bool:
    """CRLF, other spaces or escape lines: left to the line splitter (plain ``in`` tests, much faster than a regex)."""
    return b"\r" in data or b"\n%" in data or b"\x0b" in data or b"\x0c" in data


def _split_headers(records: Iterator[RawRecord], index: int, line: int, offset: int) -> Iterator[Headers]:
    """The headers of records split from a stretch of input that starts at ``line`` and ``offset``."""
    count = 0
    for raw in records:
        count = raw.index + 1
        head = _HEAD.match(raw.text).group()
        yield Headers(index + raw.index, _tags(head), raw.first_line + line - 1, raw.last_line + line - 1,
                      raw.byte_offset + offset, raw.problem is None)
    return index + count


def _tags(head: str) -> tuple[tuple[str, str], ...]:
    pairs = TAG_PAIR.findall(head)
    return tuple((name, unescape(value)) for name, value in pairs) if "\\" in head else tuple(pairs)
