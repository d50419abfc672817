"""Opening the command line's inputs: files, directories and ``-`` (standard input).

Every input is read as bytes through ``Input``, which sniffs the first block
(an empty or binary input is refused before any parsing) and counts the bytes
read, for the progress bar. The parser then reads it block by block, so
memory does not grow with the size of a file.

Any trouble with an input is an ``InputError``: one line on stderr, exit code 2.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from contextlib import contextmanager
from typing import IO, Iterable, Iterator, Sequence

import click

BLOCK = 64 * 1024  # sniffed for NUL bytes; also the read size of ``Input.read``
RECORD_SUFFIX = ".belote"  # the files a directory argument stands for
STDIN = "-"


class InputError(click.ClickException):
    """An input that cannot be read as Belote records, or a bad option value."""

    exit_code = 2

    def show(self, file: IO | None = None) -> None:
        click.echo(f"belote: {self.message}", err=True)


class Input:
    """A binary stream whose first block was read ahead to sniff it.

    ``read`` serves the sniffed block first, then the stream; ``bytes_read``
    counts what was served. It has no ``encoding`` attribute, so the parser
    reads it as bytes and decodes it itself.
    """

    def __init__(self, name: str, stream: IO[bytes], head: bytes, size: int | None) -> None:
        self.name = name
        self.size = size  # None for a pipe
        self.head = head  # the sniffed first block
        self.bytes_read = 0
        self._stream = stream
        self._head = head  # what of it is still to be served

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            data = self._head + self._reading(self._stream.read, -1)
            self._head = b""
        elif self._head:
            data, self._head = self._head[:size], self._head[size:]
        else:
            data = self._reading(self._stream.read, size)
        self.bytes_read += len(data)
        return data

    def lines(self, limit: int) -> Iterator[bytes | None]:
        """The lines (without "\\n"); ``None`` for a line longer than ``limit``, skipped
        without being held, so memory stays bounded."""
        rest, skipping = b"", False
        while block := self.read(BLOCK):
            if skipping:
                end = block.find(b"\n")
                if end < 0:
                    continue
                block, rest, skipping = block[end + 1:], b"", False
                yield None
            *complete, rest = (rest + block).split(b"\n")
            yield from (None if len(line) > limit else line for line in complete)
            if len(rest) > limit:
                rest, skipping = b"", True
        if skipping:
            yield None
        elif rest:
            yield rest

    def _reading(self, method, size: int) -> bytes:
        try:
            return method(size)
        except OSError as error:
            raise InputError(describe_os_error(self.name, error)) from None

    def rewind(self) -> None:
        """Back to the first byte (a seekable stream only)."""
        self._stream.seek(0)
        self._head = b""
        self.bytes_read = 0


@contextmanager
def open_input(name: str, stream: IO[bytes] | None = None) -> Iterator[Input]:
    """Open ``name`` (``-`` for stdin) as an ``Input``; refuse what cannot hold records.

    ``stream``, when given, is read instead (and left open) under that name."""
    owned = stream is None and name != STDIN
    try:
        if stream is None:
            stream = open(name, "rb") if owned else sys.stdin.buffer
    except OSError as error:
        raise InputError(describe_os_error(name, error)) from None
    try:
        try:
            size = os.fstat(stream.fileno()).st_size if owned else None
            head = stream.read(BLOCK)
        except OSError as error:
            raise InputError(describe_os_error(name, error)) from None
        if not head:
            raise InputError(f"{name}: empty input, no record")
        if b"\0" in head:
            raise InputError(f"{name}: binary data (NUL bytes), not Belote records")
        yield Input(name, stream, head, size)
    finally:
        if owned:
            stream.close()


def describe_os_error(name: str, error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return f"{name}: no such file"
    if isinstance(error, IsADirectoryError):
        return f"{name}: is a directory"
    if isinstance(error, PermissionError):
        return f"{name}: permission denied"
    return f"{name}: {error.strerror or error}"


def expand(names: Iterable[str], exclude: Sequence[str] = ()) -> Iterator[str]:
    """The files named, a directory standing for every ``*.belote`` file below it, in its
    subdirectories too (sorted), but those that an ``exclude`` pattern leaves out (``excluded``)."""
    for name in names:
        if name == STDIN or not os.path.isdir(name):
            yield name
            continue
        yield from sorted(record_files(name, exclude)) or [name]  # none: opening the directory reports it


def record_files(directory: str, exclude: Sequence[str] = ()) -> Iterator[str]:
    """The ``*.belote`` files below ``directory`` that ``exclude`` does not leave out (an
    excluded directory is not walked)."""
    for top, dirs, files in os.walk(directory):
        below = os.path.relpath(top, directory)
        dirs[:] = [d for d in dirs if not excluded(os.path.join(below, d), exclude)]
        yield from (os.path.join(top, file) for file in files
                    if file.endswith(RECORD_SUFFIX) and not excluded(os.path.join(below, file), exclude))


def excluded(path: str, patterns: Sequence[str]) -> bool:
    """Whether a glob of ``patterns`` (``*``, ``?``, ``[...]``, case-sensitive) matches ``path``
    (relative to a directory argument, ``/`` between its parts: ``invalid/bad.belote``) or one
    of its parts (``invalid``)."""
    parts = [part for part in path.split(os.sep) if part not in ("", ".")]
    whole = "/".join(parts)
    return any(fnmatch.fnmatchcase(whole, pattern) or any(fnmatch.fnmatchcase(part, pattern) for part in parts)
               for pattern in patterns)
