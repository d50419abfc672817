"""Split a file into records without ever holding it whole.

A record is a run of non-blank lines; blank lines (empty, or spaces and tabs) end it, with
two exceptions (docs/notation.md §1): blank lines between a record's tag pairs and its body
(while it has only tag-pair and escape lines, blank lines followed by a line that does not
start with ``[`` go on), and blank lines inside a ``{...}`` comment (unless the next line
starts a tag pair: then the comment was never closed). ``%`` in column 1, outside a
comment, marks an escape line, which the reader skips. A line over ``MAX_LINE`` bytes, or a
record over ``MAX_RECORD`` bytes or ``MAX_LINES`` lines, is an error of its record
(``RawRecord.problem``): the record is kept (its first lines), the rest of it skipped, and
memory stays bounded whatever the input.

The bytes are cut at runs of blank lines, and each *stretch* of lines between two runs is
looked at as a whole (is it all tag pairs? does it open a comment?); its lines are looked
at one by one only when it holds ``{``, an escape line or an over-long line.
``scan_headers`` gives the tag pairs of every record, for filtering and for indexing by
byte offset; ``chunks`` cuts a file into runs of whole records for worker processes.
"""

from __future__ import annotations

import io
import itertools
import os
import re
from dataclasses import dataclass
from typing import IO, Iterator, Union, cast

from .lexer import TAG_PAIR, TAG_START, open_comment, unescape

# The limits of a record (docs/notation.md §1): past one, the record is a LimitError, the rest of
# it skipped, so that the work and the memory a record takes stay bounded whatever it holds.
MAX_LINE = 100_000
"""Bytes in a line (the splitter's)."""
MAX_RECORD = 2_000_000
"""Bytes in a record (the splitter's)."""
MAX_LINES = 10_000
"""Lines in a record (the splitter's)."""
MAX_TAGS = 1_000
"""Tag pairs in a record (the reader's)."""
FEW_TAGS_TEXT = 5 * MAX_TAGS
"""Characters too few to hold more than ``MAX_TAGS`` tag pairs (the shortest, ``[a""]``, takes 5)."""
MAX_WORDS = 10_000
"""Words in a record: the items its lines are cut into (``lexer.words``: blanks separate words, a
comment is one), keywords, seats, cards, calls, trick numbers, tag lines too (the reader's)."""
MAX_TRICKS = 100
"""Tricks in a record (the reader's; a deal has 8, and the validator says so of a ninth)."""
BLOCK = 1 << 16
_BOM = b"\xef\xbb\xbf"  # a UTF-8 byte-order mark
_HOLD = MAX_RECORD + MAX_LINE  # bytes held without a blank line before taking the whole lines
_SHOWN = 200  # bytes kept of an over-long line, for its error message

Input = Union[str, bytes, os.PathLike, IO[str], IO[bytes], "Rest"]

_BLANKS = re.compile(rb"\n(?:[ \t\r\x0b\x0c]*+\n)++")  # a line end, then blank lines
_LEADING_BLANKS = re.compile(rb"(?:[ \t\r\x0b\x0c]*+\n)*+")
_TRAILING_BLANKS = re.compile(rb"(?:\n[ \t\r\x0b\x0c]*+)++\Z")
_TAG_LINES = re.compile(rb"(?:[ \t]*+\[[^\n]*+\n)*+")
# a "{" with no "}" after it on its line: a comment may go on past the line end (else every
# comment opened in these lines is closed by the line's last "}", and none is open after them)
_OPEN_BRACE = re.compile(rb"\{[^}\n]*\n")
_BLANK_BYTES = b" \t\r\x0b\x0c\n"
_HEAD = re.compile(r"(?:[ \t]*+[\[%][^\n]*+\n)*+")  # the tag-pair (and escape) lines a record starts with
_CUT = re.compile(rb"\n[ \t\r\x0b\x0c]*\n(?=" + TAG_START.pattern + rb")")  # where a record always ends


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with a record found before reading it."""

    kind: str  # "encoding" or "limit"
    message: str
    line: int
    column: int
    byte_offset: int


@dataclass(slots=True)
class RawRecord:
    """The text of one record as cut (line ends ``\\n``) and where it is in its file. Plain data,
    not frozen: one is made for every record of a file, and a frozen dataclass costs several
    times more to make (its ``__init__`` goes through ``object.__setattr__``)."""

    index: int
    text: str
    first_line: int
    line_count: int
    byte_offset: int
    escapes: tuple[int, ...] = ()  # 0-based lines of the record that are ``%`` escape lines
    problem: Problem | None = None

    @property
    def last_line(self) -> int:
        return self.first_line + self.line_count - 1

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")[:self.line_count]

    def grammar_text(self) -> str:
        """The text with its escape lines blanked (line numbers kept), as the grammar reads it."""
        if not self.escapes:
            return self.text
        lines = self.text.split("\n")
        for i in self.escapes:
            lines[i] = ""
        return "\n".join(lines)


@dataclass(slots=True)
class Headers:
    """The tag pairs of one record, where it is, and whether it was cut cleanly (plain data, as
    ``RawRecord``)."""

    index: int
    tags: tuple[tuple[str, str], ...]
    first_line: int
    last_line: int
    byte_offset: int
    ok: bool  # False when the record has bad UTF-8 or is over a size limit

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.tags)


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
        text = cast("IO[str]", source)
        for block in iter(lambda: text.read(BLOCK), ""):
            yield block.encode("utf-8", "replace")
    else:
        binary = cast("IO[bytes]", source)
        yield from iter(lambda: binary.read(BLOCK), b"")


def split_records(source: Input, *, index: int = 0, line: int = 1, offset: int = 0) -> Iterator[RawRecord]:
    """The records of ``source`` (a str, bytes, a path, or a text or binary stream); ``index``,
    ``line`` and ``offset`` are those of its start in a larger file (a chunk of one)."""
    splitter = _Splitter(index, line, offset)
    head = b"" if offset == 0 else None  # the first bytes, until they show a byte-order mark or not
    for block in read_blocks(source):
        if head is not None:
            head += block
            if len(head) < 3 and _BOM.startswith(head):  # a short first read: the mark may go on
                continue
            block, head = head, None
            if block.startswith(_BOM):  # no text, but its bytes count
                block = block[3:]
                splitter.bom = 3
        yield from splitter.feed(block)
    if head:  # the input ended within what could have been a mark
        yield from splitter.feed(head)
    yield from splitter.finish()


class _Splitter:
    """Where the cutting is: the bytes not looked at yet, the record being gathered."""

    def __init__(self, index: int, line: int, offset: int) -> None:
        self.index = index  # of the next record
        self.line, self.offset = line, offset  # where the bytes not yet taken start
        self.buffer = b""
        self.blanks = b""  # blank lines taken after the record: its own if a stretch goes on with it
        self.going_on = False  # the last stretch was cut short: the next bytes go on with it
        self.long = 0  # inside an over-long line: 1 + the bytes of it dropped since
        self.bom = 0  # the bytes of a byte-order mark, counted with the first line
        self.record: _Record | None = None

    def feed(self, block: bytes) -> Iterator[RawRecord]:
        if self.long:
            end = block.find(b"\n")
            if end < 0:
                self.long += len(block)
                return
            self.end_long_line(end)
            block = block[end + 1:]
        buffer = self.buffer + block if self.buffer else block
        start = 0
        stretch = self.stretch
        for cut in _BLANKS.finditer(buffer):
            done = stretch(buffer[start:cut.start() + 1])
            if done is not None:
                yield done
            self.blanks += buffer[cut.start() + 1:cut.end()]
            start = cut.end()
        self.buffer = buffer[start:]
        if len(self.buffer) > _HOLD:  # no blank line in sight: take the whole lines now
            end = self.buffer.rfind(b"\n") + 1
            if end:
                done = stretch(self.buffer[:end], cut_short=True)
                if done is not None:
                    yield done
                self.buffer = self.buffer[end:]
            if len(self.buffer) > MAX_LINE:  # a line still going on beyond the limit: keep its start
                done = stretch(self.buffer[:_SHOWN] + b"\n", cut_short=True, line_size=len(self.buffer))
                if done is not None:
                    yield done
                self.long, self.buffer = 1, b""

    def end_long_line(self, rest: int) -> None:
        """The over-long line ends ``rest`` bytes into the block: count what was dropped of it."""
        dropped = self.long - 1 + rest
        self.offset += dropped
        if self.record is not None:
            self.record.size += dropped
        self.long = 0

    def finish(self) -> Iterator[RawRecord]:
        if self.long:
            self.end_long_line(0)
        end = _TRAILING_BLANKS.search(self.buffer)  # the last lines, blank or not ended by "\n"
        data = self.buffer[:end.start() + 1] if end else self.buffer + b"\n"
        done = self.stretch(data, final=end is None) if data.strip(b" \t\r\x0b\x0c\n") else None
        if done is not None:
            yield done
        if self.record is not None:
            done = self.emit()
            if done is not None:
                yield done

    def stretch(self, data: bytes, cut_short: bool = False, final: bool = False,
                line_size: int = 0) -> RawRecord | None:
        """Lines without a blank line among them: they go on with the record gathered, or start
        one; the record they end, if any."""
        done = None
        lead = _LEADING_BLANKS.match(data).end() if data[0] in _BLANK_BYTES else 0  # type: ignore[union-attr]
        if lead and self.going_on:  # blank lines right after a stretch cut short: it ends there
            self.going_on = False
        if not self.going_on:
            if lead:
                self.blanks += data[:lead]
                data = data[lead:]
                if not data:
                    return None
            if self.record is not None and not self.record.goes_on(data):
                done = self.emit()
            if self.record is None:
                self.line += self.blanks.count(b"\n")
                self.offset += len(self.blanks)
                self.record = _Record(self.line, self.offset)
            elif self.blanks:
                self.take(self.blanks, blank=True)
            self.blanks = b""
        self.going_on = cut_short
        self.take(data, final, line_size)
        return done

    def take(self, data: bytes, final: bool = False, line_size: int = 0, blank: bool = False) -> None:
        record = self.record
        assert record is not None
        self.line += record.add(data, line_size, blank) - final
        self.offset += (line_size + 1 if line_size else len(data) - final) + self.bom
        self.bom = 0

    def emit(self) -> RawRecord | None:
        """The record gathered, unless it holds nothing but escape lines and whitespace."""
        record, self.record = self.record, None
        assert record is not None
        raw = record.raw(self.index) if record.content else None
        self.index += raw is not None
        return raw


class _Record:
    """A record being gathered: its kept lines, what they are, its problem."""

    def __init__(self, line: int, offset: int) -> None:
        self.first_line, self.offset = line, offset
        self.parts: list[bytes] = []
        self.kept = 0  # lines kept
        self.lines = 0  # lines taken, kept or not
        self.size = 0  # bytes taken
        self.head_only = True  # only tag-pair and escape lines so far
        self.in_comment = False  # a "{" comment is open after the lines so far
        self.escapes: list[int] = []
        self.content = False  # a line kept that is neither blank nor an escape line
        self.problem: Problem | None = None

    def goes_on(self, data: bytes) -> bool:
        """Whether a stretch after blank lines belongs to this record."""
        if self.in_comment:  # the PBN rule: a blank line in a comment, unless it was never closed
            return TAG_START.match(data) is None
        return self.head_only and data.lstrip(b" \t")[:1] != b"["

    def add(self, data: bytes, line_size: int = 0, blank: bool = False) -> int:
        """Whole lines of the record (``line_size``: the real size of an over-long one, cut;
        ``blank``: blank lines between its stretches); return how many."""
        count = data.count(b"\n")
        if self.lines + count > MAX_LINES:
            return self.add_past_lines(data, count, line_size, blank)
        if (line_size or len(data) > MAX_LINE or self.size + len(data) > MAX_RECORD
                or b"{" in data and _OPEN_BRACE.search(data) is not None or self.in_comment
                or data[:1] == b"%" or b"\n%" in data):
            pieces = data.split(b"\n")[:-1]
            for piece in pieces:
                self.add_line(piece, line_size)
            return len(pieces)
        if self.head_only and not (data[:1] == b"[" and data.count(b"\n[") == count - 1
                                   or _TAG_LINES.fullmatch(data) is not None):  # (lines indented)
            self.head_only = False
        self.parts.append(data)
        self.content = self.content or not blank
        self.kept += count
        self.lines += count
        self.size += len(data)
        return count

    def add_past_lines(self, data: bytes, count: int, line_size: int, blank: bool) -> int:
        """``count`` whole lines that take the record past ``MAX_LINES``: those within the limit
        added, the others counted and skipped (the record is an error of its size)."""
        room = MAX_LINES - self.lines
        if room > 0:
            *within, data = data.split(b"\n", room)
            self.add(b"\n".join(within) + b"\n", line_size, blank)
        self.limit(f"record longer than {MAX_LINES} lines", 1, 0)
        self.content = self.content or bool(data.strip(_BLANK_BYTES))  # a record, though past its limit
        self.lines += data.count(b"\n")
        self.size += line_size + 1 if line_size else len(data)
        return count

    def add_line(self, line: bytes, line_size: int = 0) -> None:
        size = (line_size or len(line)) + 1
        if line_size or len(line) > MAX_LINE:
            self.limit(f"line {self.first_line + self.lines} is longer than {MAX_LINE} bytes", MAX_LINE + 1,
                       MAX_LINE)
            line = line[:_SHOWN].decode("utf-8", "ignore").encode("utf-8")
        if self.size + size > MAX_RECORD:
            self.limit(f"record longer than {MAX_RECORD} bytes", 1, 0)
            if self.kept:  # the rest of the record is skipped, its first line kept
                self.lines += 1
                self.size += size
                return
            line = line[:_SHOWN]
        if line[:1] == b"%" and not self.in_comment:
            self.escapes.append(self.kept)
        else:
            self.content = self.content or bool(line.strip(b" \t\r\x0b\x0c"))
            if self.head_only and not self.in_comment and line.lstrip(b" \t")[:1] != b"[":
                self.head_only = False
            if b"{" in line or self.in_comment:
                text = line.decode("utf-8", "replace")
                self.in_comment = open_comment(text, self.in_comment, text.lstrip()[:1] == "[") is not None
        self.parts.append(line + b"\n")
        self.kept += 1
        self.lines += 1
        self.size += size

    def limit(self, message: str, column: int, shift: int) -> None:
        """A size limit passed, at the line being added (``shift`` bytes into it)."""
        if self.problem is None or self.problem.kind != "limit":
            self.problem = Problem("limit", message, self.first_line + self.lines, column,
                                   self.offset + self.size + shift)

    def raw(self, index: int) -> RawRecord | None:
        """The record gathered; None when it holds only whitespace and escape lines."""
        data = b"".join(self.parts)
        problem = self.problem
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            text = data.decode("utf-8", "replace")
            if problem is None:
                at = error.start
                start = data.rfind(b"\n", 0, at) + 1
                problem = Problem("encoding", "invalid UTF-8", self.first_line + data.count(b"\n", 0, at),
                                  len(data[start:at].decode("utf-8", "replace")) + 1, self.offset + at)
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        count = self.kept
        if text[-2:-1].isspace():  # (rare) whitespace the splitter does not take for blank lines
            text, count = _without_space_lines(text, count)
            if problem is None and _no_content(text, self.escapes):
                return None
        return RawRecord(index, text, self.first_line, count, self.offset, tuple(self.escapes), problem)


def _without_space_lines(text: str, count: int) -> tuple[str, int]:
    """The ``count`` lines of ``text`` without its last ones that hold only whitespace (such as
    no-break spaces or U+3000, which the reader skips as it skips blank lines): they do not make
    a record end later."""
    while count and text[-2:-1].isspace():
        start = text.rfind("\n", 0, len(text) - 1) + 1
        if text[start:-1].strip():
            break
        text, count = text[:start], count - 1
    return text, count


def _no_content(text: str, escapes: list[int]) -> bool:
    """Whether the lines of ``text`` are all whitespace or escape lines: no record."""
    return all(not line.strip() or number in escapes for number, line in enumerate(text.split("\n")))


# --- headers ------------------------------------------------------------------------------------


def scan_headers(source: Input) -> Iterator[Headers]:
    """The tag pairs of every record of ``source``, where it is, whether it was cut cleanly;
    tag lines that are not well-formed tag pairs are skipped. No record is read."""
    for raw in split_records(source):
        text = raw.text
        end = text.find("\n\n") + 1  # the usual head: tag lines, then a blank line
        head = text[:end] if end and text[:1] == "[" and text.count("\n[", 0, end) == text.count("\n", 0, end) - 1 \
            else _HEAD.match(text).group()  # type: ignore[union-attr]
        pairs = TAG_PAIR.findall(head) if len(head) <= FEW_TAGS_TEXT else \
            [m.groups() for m in itertools.islice(TAG_PAIR.finditer(head), MAX_TAGS)]
        tags = tuple((name, unescape(value)) for name, value in pairs) if "\\" in head else tuple(pairs)
        yield Headers(raw.index, tags, raw.first_line, raw.last_line, raw.byte_offset, raw.problem is None)


def head_tags(text: str) -> list[tuple[str, str, int]]:
    """The tag pairs a record's text starts with, read as ``scan_headers`` reads them (tag lines
    that are not well-formed pairs skipped), each with its line from 0: what is known of a
    record that the reader refuses, to keep it in its match."""
    head = _HEAD.match(text).group()  # type: ignore[union-attr]
    pairs = ((name, unescape(value) if "\\" in value else value, number)
             for number, line in enumerate(head.split("\n")) for name, value in TAG_PAIR.findall(line))
    return list(itertools.islice(pairs, MAX_TAGS))


# --- chunks for worker processes ----------------------------------------------------------------


class Rest:
    """A binary stream of some bytes, then the blocks left of an input."""

    def __init__(self, head: bytes, blocks: Iterator[bytes]) -> None:
        self._head, self._blocks = head, blocks

    def read(self, size: int = -1) -> bytes:
        head, self._head = self._head, b""
        return head or next(self._blocks, b"")


def chunks(source: Input, size: int) -> Iterator[tuple[bytes | Rest, int, int]]:
    """(data, line, byte offset) of runs of whole records of ``source``, of ``size`` bytes or a
    little more each, cut where a record always ends (a blank line, then a line that starts a
    tag pair). Should ``MAX_RECORD`` bytes and more go by with no such place, the last item
    holds, instead of bytes, a ``Rest`` stream of the rest of the input."""
    buffer = b""
    line, offset, scanned = 1, 0, 0
    blocks = read_blocks(source)
    for block in blocks:
        buffer += block
        while len(buffer) >= size:
            match = _CUT.search(buffer, max(0, max(size, scanned) - 256))  # a tag line may have been cut short
            if match is None:
                scanned = len(buffer)
                if scanned > _HOLD + MAX_LINE:
                    yield Rest(buffer, blocks), line, offset
                    return
                break
            data, buffer, scanned = buffer[:match.end()], buffer[match.end():], 0
            yield data, line, offset
            line += data.count(b"\n")
            offset += len(data)
    if buffer:
        yield buffer, line, offset
