"""The errors of the notation: where in the file, what was found, what was expected.

Every error is a ``ValueError`` (through ``NotationError``).  A syntax error
knows its record (0-based index in the file), its line and column (1-based, in
the FILE), the offending text, what was expected in words and the source line,
and prints like::

    record 3, line 41:17: unexpected "XZ": expected a card (e.g. JH, 10S) or the end of the trick
      1. W:JH S:XZ E:9H N:QH
                ^
"""

from __future__ import annotations

from .values import NotationError


class RecordSyntaxError(NotationError):
    """A record that does not follow the notation.

    ``problem`` is the short description (``unexpected "XZ"``), ``expected``
    says in words what would have been valid there (may be empty). Every value is
    one of the error's ``args``, so it pickles as any exception does.
    """

    def __init__(self, problem: str, record_index: int = 0, line: int = 1, column: int = 1, text: str = "",
                 expected: str = "", source_line: str = "", *more: object) -> None:
        ValueError.__init__(self, problem, record_index, line, column, text, expected, source_line, *more)
        self.problem = problem
        self.record_index = record_index
        self.line = line
        self.column = column
        self.text = text
        self.expected = expected
        self.source_line = source_line.rstrip("\r\n")

    def __str__(self) -> str:
        head = f"record {self.record_index + 1}, line {self.line}:{self.column}: {self.problem}"
        if self.expected:
            head += f": expected {self.expected}"
        if not self.source_line:
            return head
        shown = self.source_line.replace("\t", " ")
        if len(shown) > 160:  # show a window around the column of a very long line
            start = max(0, self.column - 80)
            shown, caret_at = shown[start:start + 160], self.column - start
        else:
            caret_at = self.column
        return f"{head}\n  {shown}\n  {' ' * (caret_at - 1)}^"


class DealError(RecordSyntaxError):
    """The deal as written cannot be a deal: 9 cards in a hand, a fifth hand,
    a seat given twice, a card dealt twice."""


class EncodingError(RecordSyntaxError):
    """Bytes that are not UTF-8; ``byte_offset`` is the offset of the first bad
    byte in the file."""

    def __init__(self, problem: str, record_index: int = 0, line: int = 1, column: int = 1, text: str = "",
                 expected: str = "", source_line: str = "", byte_offset: int = 0) -> None:
        super().__init__(problem, record_index, line, column, text, expected, source_line, byte_offset)
        self.byte_offset = byte_offset


class LimitError(RecordSyntaxError):
    """A line or a record beyond the reader's size limits (the rest is skipped)."""


class WriteError(NotationError):
    """A record the canonical writer cannot express (e.g. a comment containing
    both "}" and a line break)."""


class JSONFormatError(NotationError):
    """JSON that is not a record in the form of ``notation/record.schema.json`` (or not JSON at
    all); ``path`` says where (``tricks[3].plays[1].card``, empty for the whole value), and the
    message is one line: ``tricks[0].plays: 5 items, at most 4``."""

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message, path)
