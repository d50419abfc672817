"""Checked texts kept for the site, in a small SQLite file of their own beside the archive.

The site checks a pasted or uploaded text, keeps the text and what the check found (a
summary, JSON) under a random token, and shows them on GET pages; its "Store" button sends
the token, and what storing did (JSON) is kept with them. Each kept check expires after a
lifetime, and all of them together take at most a number of bytes: the oldest go first.

They live apart from the archive (``belote.sqlite`` -> ``belote-checks.sqlite``) so that a
check never waits for an import holding the archive's write lock, and the archive file never
grows with texts nobody stored. Texts and summaries are zlib-compressed.
"""

from __future__ import annotations

import os
import pathlib
import secrets
import sqlite3
import time
import zlib
from dataclasses import dataclass

from . import ArchiveBusyError, ArchiveError, is_busy

SCHEMA = """CREATE TABLE IF NOT EXISTS kept_checks (
    token TEXT PRIMARY KEY,
    created REAL NOT NULL,      -- seconds since the epoch
    expires REAL NOT NULL,
    size INTEGER NOT NULL,      -- bytes of text and summary, compressed: what the room bounds
    text BLOB NOT NULL,         -- zlib, UTF-8
    summary BLOB NOT NULL,      -- zlib, UTF-8 JSON
    outcome TEXT                -- JSON: what storing the text did; NULL until it is stored
);
CREATE INDEX IF NOT EXISTS kept_checks_expires ON kept_checks (expires);"""


class CheckTooLargeError(ArchiveError):
    """A check larger, compressed, than the room for all the kept checks: it is not kept."""


@dataclass(frozen=True)
class KeptCheck:
    """A checked text kept under ``token`` until ``expires`` (seconds since the epoch), with
    ``summary`` (what the check found, JSON as the site wrote it) and ``outcome`` (JSON: what
    storing it did; ``None`` until it is stored)."""

    token: str
    text: str
    summary: str
    outcome: str | None
    expires: float


def checks_path(archive_path: str | os.PathLike) -> pathlib.Path:
    """The file of the kept checks beside an archive: ``belote.sqlite`` -> ``belote-checks.sqlite``."""
    path = pathlib.Path(archive_path)
    return path.with_name(f"{path.stem}-checks.sqlite")


class CheckStore:
    """The kept checks: one per request, like ``Archive``. ``timeout``: seconds a write waits for
    another one (they take milliseconds) before ``ArchiveBusyError``."""

    def __init__(self, path: str | os.PathLike, *, timeout: float = 5.0) -> None:
        self.path = pathlib.Path(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except sqlite3.Error as error:
            raise ArchiveError(f"cannot open the kept checks {self.path}: {error}") from error
        try:
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as error:
            self.db.close()
            raise self._error(error) from error

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> CheckStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def keep(self, text: str, summary: str, *, lifetime: float, room: int, now: float | None = None) -> str:
        """Keep ``text`` and its ``summary`` for ``lifetime`` seconds under a new random token,
        returned. Expired checks are dropped, then the oldest until all of them take at most
        ``room`` bytes; a check larger than that alone is refused (``CheckTooLargeError``)."""
        now = time.time() if now is None else now
        text_blob = zlib.compress(text.encode("utf-8", "replace"))
        summary_blob = zlib.compress(summary.encode("utf-8", "replace"))
        size = len(text_blob) + len(summary_blob)
        if size > room:
            raise CheckTooLargeError(f"this check takes {size} bytes compressed, more than the {room} kept for all")
        token = secrets.token_urlsafe(18)
        self._write(
            ("DELETE FROM kept_checks WHERE expires <= ?", [now]),
            # the newest first: those past the room left for this one go
            ("DELETE FROM kept_checks WHERE token IN (SELECT token FROM (SELECT token, sum(size) OVER "
             "(ORDER BY created DESC, token) AS total FROM kept_checks) WHERE total > ?)", [room - size]),
            ("INSERT INTO kept_checks (token, created, expires, size, text, summary) VALUES (?, ?, ?, ?, ?, ?)",
             [token, now, now + lifetime, size, text_blob, summary_blob]))
        return token

    def get(self, token: str, *, now: float | None = None) -> KeptCheck | None:
        """The check kept under ``token``; ``None`` when there is none, it expired or it no longer reads."""
        now = time.time() if now is None else now
        try:
            row = self.db.execute("SELECT text, summary, outcome, expires FROM kept_checks "
                                  "WHERE token = ? AND expires > ?", [token, now]).fetchone()
        except sqlite3.Error as error:
            raise self._error(error) from error
        if row is None:
            return None
        try:
            text, summary = (zlib.decompress(blob).decode("utf-8") for blob in row[:2])
        except (zlib.error, TypeError, UnicodeDecodeError):  # a row edited by hand
            return None
        return KeptCheck(token, text, summary, row[2], row[3])

    def note_stored(self, token: str, outcome: str) -> bool:
        """Keep what storing the check did (JSON); ``False`` when it was stored before (an
        outcome is kept already) or there is no such check."""
        return self._write(("UPDATE kept_checks SET outcome = ? WHERE token = ? AND outcome IS NULL",
                            [outcome, token])) == 1

    def _write(self, *statements: tuple[str, list]) -> int:
        """Run the statements in one transaction (the write lock taken first); the rows the last one changed."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                changed = 0
                for sql, params in statements:
                    changed = self.db.execute(sql, params).rowcount
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise self._error(error) from error
        return changed

    def _error(self, error: sqlite3.Error) -> ArchiveError:
        if is_busy(error):
            return ArchiveBusyError(f"the kept checks {self.path} are busy: another request is writing to them")
        return ArchiveError(f"the kept checks {self.path} cannot be used: {error}")
