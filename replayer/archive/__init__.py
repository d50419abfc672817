"""The archive: Belote records in a SQLite file, through sqlite-utils.

Nothing else in the project talks SQL. ``Archive(path)`` creates or opens the
file, applies the schema's migrations (``replayer.archive.schema``), turns WAL on
once and enforces foreign keys. Records are stored once each (the sha256 of the
canonical text is unique), validated on the way in, grouped into matches, and
searched by tags, validity and full text. Every import is one transaction: it
stores everything or, on any failure, nothing (``ArchiveError``).

Several writers may share the file (``belote import`` processes, the site's
submissions): each write transaction takes SQLite's write lock first and waits
for it up to the archive's ``timeout``, then gives up with ``ArchiveBusyError``.

Every value from a user reaches SQLite as a parameter; column names in sorts
come from a whitelist.
"""

from __future__ import annotations

import calendar
import contextlib
import datetime
import hashlib
import hmac
import io
import itertools
import json
import math
import os
import pathlib
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Mapping

from sqlite_utils import Database

from notation import Call, CallKind, Denomination, NotationError, Record, RecordSyntaxError, parse, parse_record
from notation.values import BID_DIGITS

from .importer import (Analyser, AnalysisFailed, AnalysisTask, Reader,  # noqa: F401  (record_hash: a record's key
                       record_hash)  # for stored_ids)
from .schema import MIGRATIONS, RECORD_INDEXES, foreign_items, migrate
from . import stats
from .store import Importer, analysis_ids, stored_ids, write_analyses
from ..engine.rules import Rules
from ..check.findings import Finding
from ..check.report import Report
from ..check.streams import RECORD_BYTES

Progress = Callable[[int], None]
# The format of the stored analyses this version reads (``DealAnalysis.as_dict()["version"]``):
# an analysis in another one counts as none (``analyse`` makes it again).
ANALYSIS_VERSION = 1
ANALYSIS_BATCH = 8  # records analysed, per worker, between two commits
# Seconds a write waits for another writer's transaction before giving up: long enough for
# a club's import to end (``belote import`` waits this long; the site passes a shorter one).
DEFAULT_TIMEOUT = 30.0


class ArchiveError(ValueError):
    """An import that failed (a file that cannot be read, a database error): the
    archive is as it was before the import."""


class ArchiveBusyError(ArchiveError):
    """Another writer held the archive for longer than the timeout: nothing was written."""


class _Undone(Exception):
    """Raised to roll a trial write back (``Archive.check_writable``)."""


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` is SQLite's "database is locked" (SQLITE_BUSY or one of its
    extended codes), which a busy timeout spent waiting for another connection ends with."""
    code = getattr(error, "sqlite_errorcode", None)  # absent from an error raised by Python code
    return isinstance(error, sqlite3.OperationalError) and code is not None and code & 0xFF == sqlite3.SQLITE_BUSY


@dataclass(frozen=True)
class ImportSummary:
    """What an import did. ``unparseable``: (source name, line, column, message) of
    each record not stored because it does not parse (line and column in its file)."""

    imported: int
    duplicates: int
    with_findings: int
    unparseable: tuple[tuple[str, int, int, str], ...]
    ids: tuple[int, ...]  # the new records' ids, in input order
    invalid: int = 0  # new records with at least one error
    duplicate_ids: tuple[int, ...] = ()  # the ids of the records found stored already, in input order


@dataclass(frozen=True)
class AnalysisSummary:
    """What ``Archive.analyse`` did: the ids analysed and stored (in id order), how many of those
    analyses are complete (a void deal's too: nothing to analyse), how many of the others stopped
    early per reason (``illegal-play``, ``hands-unknown``, ``time-limit``, ``no-play``), the ids
    left out because their text no longer reads or they changed or went while they were
    analysed, and the seconds it took."""

    ids: tuple[int, ...] = ()
    complete: int = 0
    stopped: dict[str, int] = field(default_factory=dict)
    skipped: tuple[int, ...] = ()
    seconds: float = 0.0

    @property
    def analysed(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class StoredRecord:
    """A stored record as the pages show it: its row, its ``Record`` read again from its text
    and the report kept at import (lines from 1 of its own text). ``error`` says why the
    text no longer reads (an archive edited by hand); the record and report are then None."""

    row: dict[str, Any]
    record: Record | None
    report: Report | None
    error: str | None = None


def stored_record(row: dict[str, Any]) -> StoredRecord:
    """The record of a ``records_full`` row (``Archive.get``): read, not validated again. The
    report gets the tags as the text has them (``validate`` keeps them in that order; the
    ``Record`` puts them in the roster's)."""
    text = row["raw"] or ""
    results = list(itertools.islice(parse(text), 2))
    if len(results) != 1 or results[0].data is None:
        try:
            parse_record(text)  # the error, in parse_record's words
        except RecordSyntaxError as error:
            return StoredRecord(row, None, None, str(error).splitlines()[0])
    (result,) = results
    if not row.get("report"):  # an archive edited by hand
        return StoredRecord(row, None, None, "no report is stored for this record")
    assert result.data is not None and result.record is not None
    return StoredRecord(row, result.record, Report.from_stored(json.loads(row["report"]), tuple(result.data.tags)))


@dataclass(frozen=True)
class Submission:
    """What ``Archive.add`` stored: new ids, ids of records already stored, the owner
    token (plain, shown once; ``None`` when nothing new was stored) and the syntax
    findings of the records not stored (lines and columns in the submitted text)."""

    ids: tuple[int, ...]
    duplicates: tuple[int, ...]
    token: str | None
    rejected: tuple[Finding, ...] = ()


DENOMINATIONS = tuple(denomination.value for denomination in Denomination)  # S H D C SA TA
SORTS = ("date", "event", "site", "variant", "contract", "errors", "created", "id")
VALIDITIES = ("", "valid", "invalid")
MAX_PER_PAGE = 100
_MAX_FIELD = 200  # longer search fields are cut


class SearchError(ValueError):
    """Search fields that cannot be read (a malformed date, a contract that is none):
    ``problems`` maps each such field (``date_from``, ``contract``...) to what is wrong
    with it, in one line each. Nothing was searched."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems = dict(problems)
        super().__init__("; ".join(f"{name}: {message}" for name, message in self.problems.items()))


@dataclass(frozen=True)
class SearchQuery:
    """A search of the archive; empty fields do not filter.

    ``text``: full text over event, site, players and comments; ``player``: any seat;
    ``event``: the Event tag; in all three every word is matched as the start of a word
    (``Montp`` finds ``Montpellier``). ``date_from``/``date_to``: inclusive, ``2026.03.12``,
    ``2026-03-12`` or a part of one (``2026``, ``2026.03``, ``2026.??.??``);
    ``variant``: exact; ``contract``: ``110C``, ``110 ♣``, ``capot``, ``capot S``,
    ``generale``, a value alone (``110``) or a denomination (``H``, ``♥``, ``SA``);
    ``validity``: "", "valid" or "invalid"; ``profile``: the rules profile (with or
    without overrides).

    ``from_args`` keeps what was typed; a date or a contract that cannot be read is named
    by ``problems()``, and ``Archive.search`` refuses it with a ``SearchError``."""

    text: str = ""
    player: str = ""
    event: str = ""
    date_from: str = ""
    date_to: str = ""
    variant: str = ""
    contract: str = ""
    validity: str = ""
    profile: str = ""
    sort: str = "date"
    descending: bool = True
    page: int = 1
    per_page: int = 25

    @classmethod
    def from_args(cls, args: Mapping[str, str]) -> SearchQuery:
        """From query-string arguments: the one reader of a search, for the site and the API.
        Never raises: a sort, order, page or validity it does not know falls back to the
        default; the filters are kept as typed (``problems()`` says which cannot be read)."""
        def text(name: str) -> str:
            value = args.get(name, "")
            return _CONTROL.sub(" ", value).strip()[:_MAX_FIELD] if isinstance(value, str) else ""

        order = text("order").lower()
        descending = order != "asc" if order else text("descending").lower() not in ("0", "false", "no")
        return cls(text=text("text") or text("q"), player=text("player"), event=text("event"),
                   date_from=text("date_from"), date_to=text("date_to"), variant=text("variant"),
                   contract=text("contract"), validity=text("validity") if text("validity") in VALIDITIES else "",
                   profile=text("profile").lower(),
                   sort=text("sort") if text("sort") in SORTS else "date", descending=descending,
                   page=_int(text("page"), 1), per_page=_int(text("per_page"), 25))

    def problems(self) -> dict[str, str]:
        """Each field that cannot be read, with what is wrong with it (empty: the query is
        good); what ``Archive.search`` would refuse."""
        try:
            _search_filters(self)
        except SearchError as error:
            return error.problems
        return {}


@dataclass(frozen=True)
class SearchPage:
    rows: list[dict] = field(default_factory=list)
    total: int = 0
    page: int = 1
    per_page: int = 25
    pages: int = 1


# What a search returns of each record: everything but the texts and the owner's hash.
LIST_COLUMNS = ("id", "event", "site", "date", "round", "deal", "north", "east", "south", "west", "dealer",
                "variant", "rules", "contract", "denomination", "doubling", "taker", "recorded_ns",
                "recorded_ew", "rescored_ns", "rescored_ew", "valid", "errors", "warnings", "source",
                "source_line", "match_id", "deal_in_match", "created")
INDEXED_PAIRS = {index[:2] for index in RECORD_INDEXES}
_LIST_SQL = ", ".join(f"records.{name}" for name in LIST_COLUMNS)


class Archive:
    """A SQLite file of records. Not to be shared between threads: one per request."""

    def __init__(self, path: str | os.PathLike, *, upgrade: bool = True, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Open (or create) the archive at ``path``. ``upgrade=False`` skips the
        migration check, for a file already opened once by this program (the site
        migrates at start-up, then opens the archive once per request). ``timeout``:
        seconds a write (or, rarely, a read) waits for another connection's lock before
        ``ArchiveBusyError``."""
        self.path = pathlib.Path(path)
        self.timeout = timeout
        try:
            # sqlite3's timeout is SQLite's busy timeout: how long a statement waits for a lock.
            connection = sqlite3.connect(self.path, timeout=timeout)
        except sqlite3.Error as error:
            raise ArchiveError(f"cannot open the archive {self.path}: {error}") from error
        try:
            self.db = Database(connection)
            self._prepare(upgrade)
        except ArchiveError:  # busy while migrating
            connection.close()  # a site answering 503 again and again must not pile up open files
            raise
        except sqlite3.Error as error:
            connection.close()
            raise (self._busy() if is_busy(error) else
                   ArchiveError(f"cannot open the archive {self.path}: {error}")) from error

    def _prepare(self, upgrade: bool) -> None:
        """WAL, the connection's settings and the pending migrations, in an archive or an empty
        database (anything else is refused before it is changed)."""
        foreign = foreign_items(self.db) if upgrade else []
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise ArchiveError(f"{self.path} is a database but not a Belote archive (it holds {shown}): "
                               "it is left as it is")
        self.db.enable_wal()
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA synchronous = NORMAL")  # safe with WAL: a crash loses no committed data
        self.db.execute("PRAGMA cache_size = -32000")  # 32 MB: the indexes of 100,000 records fit
        self.db.execute("PRAGMA mmap_size = 268435456")  # reads straight from the OS cache
        self.db.execute("PRAGMA temp_store = MEMORY")
        # Reading what is pending costs an archive up to date no lock; ``migrate`` reads it
        # again under the lock, where another process may have just applied them.
        if upgrade and MIGRATIONS.pending(self.db):
            with self._write():
                migrate(self.db)

    def check_writable(self) -> None:
        """Raise ``ArchiveError`` when the archive cannot be written (a read-only file, folder or
        file system): a write is tried, then undone. An archive busy with another writer passes."""
        try:
            with self._write():
                version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
                self.db.execute(f"PRAGMA user_version = {version}")  # the same value: a write all the same
                raise _Undone
        except (_Undone, ArchiveBusyError):
            pass
        except sqlite3.Error as error:
            raise ArchiveError(f"the archive {self.path} cannot be written: {error}") from error

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction: committed at the end, rolled back on any exception.

        It takes the write lock first (``BEGIN IMMEDIATE``), waiting up to ``timeout``.
        sqlite-utils' ``atomic()`` begins with a plain ``BEGIN`` and the lock is taken by
        the first write; when that statement has read first (an UPDATE of a table with
        triggers, an INSERT after a SELECT), SQLite answers "database is locked" at once,
        busy timeout or not: it does not make a transaction that has read wait for a writer
        whose commit would make that read stale. An ``atomic()`` inside this block is a
        savepoint."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if is_busy(error):
                raise self._busy() from error
            raise
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            self.db.rollback()  # nothing if the failure already ended the transaction
            raise

    def _busy(self) -> ArchiveBusyError:
        return ArchiveBusyError(f"the archive {self.path} is busy: another import or a submission is "
                                f"writing to it; tried for {self.timeout:g} s")

    # --- imports ----------------------------------------------------------------

    def import_files(self, paths: Iterable[str | os.PathLike], *, rules: str | None = None, jobs: int = 1,
                     progress: Progress | None = None) -> ImportSummary:
        """Import files of records in one transaction (``import_streams``); raise ``ArchiveError``
        (the archive unchanged) when a file cannot be read or holds no record."""
        paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)

        def sources() -> Iterable[tuple[str, BinaryIO, int | None]]:
            for path in paths:
                try:
                    stream = open(path, "rb")
                except OSError as error:
                    raise ArchiveError(f"cannot read {os.fspath(path)}: {error.strerror or error}") from error
                with stream:
                    yield os.fspath(path), stream, os.fstat(stream.fileno()).st_size

        size = sum(os.path.getsize(path) for path in paths if os.path.isfile(path))
        return self.import_streams(sources(), rules=rules, jobs=jobs, progress=progress, size=size)

    def import_streams(self, sources: Iterable[tuple[str, BinaryIO, int | None]], *, rules: str | None = None,
                       jobs: int = 1, progress: Progress | None = None, size: int = 0) -> ImportSummary:
        """Import binary streams of records, given as (name, stream, its size or None) and read
        in turn, in one transaction; ``size``: their bytes, about, when known. ``progress(n)``
        is called with the bytes read since its last call. Raise ``ArchiveError`` (the archive
        unchanged) when a source holds no record, cannot be read (an ``ArchiveError`` that
        ``sources`` raises says why) or anything else fails."""
        return _summary(self._import(sources, rules, jobs, progress, None, size // RECORD_BYTES, need_records=True))

    def import_text(self, text: str | bytes, *, source_name: str = "<text>",
                    rules: str | None = None) -> ImportSummary:
        """Import the records of a text, in one transaction."""
        return _summary(self._import([(source_name, _stream(text), None)], rules, 1, None, None))

    def add(self, text: str | bytes, *, source_name: str = "submitted", rules: str | None = None) -> Submission:
        """Store the records of a submitted text that parse (valid or not), with one new
        owner token for them all; records that do not parse are ``rejected``."""
        token = secrets.token_urlsafe(24)
        importer = self._import([(source_name, _stream(text), None)], rules, 1, None, _token_hash(token))
        ids = tuple(importer.ids)
        return Submission(ids, tuple(importer.duplicate_ids), token if ids else None, tuple(importer.rejected))

    def _import(self, sources: Iterable[tuple[str, BinaryIO, int | None]], rules: str | None, jobs: int,
                progress: Progress | None, owner_hash: str | None, expected: int = 0,
                need_records: bool = False) -> Importer:
        """The import of ``sources`` in one transaction; ``need_records``: a source with no
        record (empty, blank) is an error, as it is for the command line's other commands."""
        resolved = Rules.parse(rules) if rules else None
        try:
            with Reader(resolved, jobs) as reader, self._write():
                importer = Importer(self.db, resolved, owner_hash, expected)
                for name, stream, size in sources:
                    found = 0
                    for items, read in reader.items(stream, size):
                        found += len(items)
                        importer.feed(name, items)
                        if progress is not None:
                            progress(read)
                    if need_records and not found:
                        raise ArchiveError(f"{name}: no record found, nothing stored")
                    importer.end_source()
                importer.finish()
        except ArchiveError:
            raise
        except OSError as error:
            raise ArchiveError(f"cannot read the input: {error.strerror or error}") from error
        except Exception as error:
            raise ArchiveError(f"import failed, nothing stored: {type(error).__name__}: {error}") from error
        return importer

    # --- records ------------------------------------------------------------------

    def get(self, record_id: int) -> dict | None:
        """The record's row with its raw and canonical texts, ``None`` if there is none."""
        return next(self.db.query("SELECT * FROM records_full WHERE id = ?", [record_id]), None)

    def findings(self, record_id: int) -> list[dict]:
        """The record's findings in position order (line, column relative to its raw text)."""
        return list(self.db.query(
            'SELECT * FROM findings WHERE record_id = ? ORDER BY line IS NULL, line, "column", id', [record_id]))

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM records").fetchone()[0]

    def delete(self, record_id: int, token: str) -> bool:
        """Delete a submitted record given its owner token; ``False`` for a wrong token,
        a record without owner or no such record."""
        if not isinstance(token, str):
            return False
        with self._write():  # the row read under the lock: no other writer can change it before the deletes
            row = next(self.db.query("SELECT owner_hash, match_id FROM records WHERE id = ?", [record_id]), None)
            if row is None or not row["owner_hash"] or not hmac.compare_digest(_token_hash(token), row["owner_hash"]):
                return False
            self.db.execute("DELETE FROM findings WHERE record_id = ?", [record_id])
            self.db.execute("DELETE FROM analyses WHERE record_id = ?", [record_id])
            players = [r[0] for r in self.db.execute("SELECT player FROM deal_players WHERE record_id = ?",
                                                     [record_id])]
            self.db.execute("DELETE FROM deal_players WHERE record_id = ?", [record_id])
            stats.refresh_totals(self.db, players)
            self.db.execute("DELETE FROM record_texts WHERE record_id = ?", [record_id])
            self.db.execute("UPDATE match_findings SET record_id = NULL WHERE record_id = ?", [record_id])
            self.db.execute("DELETE FROM records WHERE id = ?", [record_id])
            match_id = row["match_id"]
            if match_id is not None and not self.db.execute(
                    "SELECT 1 FROM records WHERE match_id = ? LIMIT 1", [match_id]).fetchone():
                self.db.execute("DELETE FROM match_findings WHERE match_id = ?", [match_id])
                self.db.execute("DELETE FROM matches WHERE id = ?", [match_id])
        return True

    def stored_ids(self, hashes: Iterable[str]) -> dict[str, int]:
        """hash -> id of the records of ``hashes`` (``record_hash``) already in the archive."""
        return stored_ids(self.db, hashes)

    # --- analyses -----------------------------------------------------------------

    def analysis(self, record_id: int) -> dict | None:
        """The stored double-dummy analysis of a record (``DealAnalysis.as_dict()``), ``None`` when
        it has none that is current: never made, made for another text of the record (its content
        hash differs), or in a format this version does not read. Never computed here."""
        row = self.analysis_row(record_id)
        return json.loads(row["analysis"]) if row is not None else None

    def analysis_row(self, record_id: int) -> dict | None:
        """The record's current ``analyses`` row (the JSON as text, ``solver``, ``rules``,
        ``complete``, ``stopped``, ``max_seconds``, ``seconds``, ``created``), or ``None``."""
        return next(self.db.query(
            "SELECT analyses.* FROM analyses JOIN records ON records.id = analyses.record_id "
            "WHERE analyses.record_id = ? AND analyses.hash = records.hash AND analyses.version = ?",
            [record_id, ANALYSIS_VERSION]), None)

    def analysed_ids(self) -> set[int]:
        """The ids of the records that have a current analysis."""
        return {row[0] for row in self.db.execute(
            "SELECT analyses.record_id FROM analyses JOIN records ON records.id = analyses.record_id "
            "WHERE analyses.hash = records.hash AND analyses.version = ?", [ANALYSIS_VERSION])}

    def pending_analyses(self, ids: Iterable[int] | None = None, *, max_seconds: float | None = None,
                         redo: bool = True) -> list[int]:
        """The ids ``analyse`` would analyse with these arguments, in id order."""
        return analysis_ids(self.db, None if ids is None else list(ids), ANALYSIS_VERSION,
                            max_seconds, redo)

    def analyse(self, ids: Iterable[int] | None = None, *, jobs: int = 1, max_seconds: float | None = None,
                redo: bool = True, from_end: bool = False, progress: Progress | None = None) -> AnalysisSummary:
        """Analyse stored records double dummy (``replayer.check.analysis``) and store the
        analyses, in place of any they had: those of ``ids`` (the ones stored; without
        ``redo``, only those without a current analysis), or, without ``ids``, every record
        without a current analysis, or with one that stopped at a time limit shorter than
        ``max_seconds`` (or any, when ``max_seconds`` is None).

        Each record is analysed under the rules it was validated with at import, within
        ``max_seconds`` (its analysis stops at the limit with what it has, and says so), by
        ``jobs`` worker processes. The work goes by batches of ``ANALYSIS_BATCH`` records a worker,
        each stored in one transaction once analysed (the write lock is not held while the
        solver works); a record deleted or changed meanwhile is left out. A failure (the
        analyser raising, the archive busy past its timeout) raises ``ArchiveError`` and stores
        nothing of its batch: the batches stored before it stay, and a run again goes on from
        there. ``progress(n)`` gets the records done since its last call. ``from_end`` (with
        ``max_seconds``): a deal too long for the limit gets its last tricks analysed rather
        than nothing (``importer.analysis_row``; what the site asks for)."""
        start = time.monotonic()
        todo = self.pending_analyses(ids, max_seconds=max_seconds, redo=redo)
        jobs = max(1, min(jobs, len(todo) or 1))
        batch = ANALYSIS_BATCH * jobs
        stored: list[int] = []
        skipped: list[int] = []
        complete = 0
        stopped: dict[str, int] = {}
        try:
            with Analyser(jobs) as analyser:
                for first in range(0, len(todo), batch):
                    part = todo[first:first + batch]
                    tasks = self.analysis_tasks(part, max_seconds, from_end=from_end)
                    rows = []
                    for row in analyser.rows(tasks):
                        if row is not None:
                            rows.append(row)
                        if progress is not None:
                            progress(1)
                    created = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
                    with self._write():
                        written = write_analyses(self.db, rows, created)
                    done = set(written)
                    stored += written
                    skipped += [record_id for record_id in part if record_id not in done]
                    for row in rows:
                        if row["record_id"] in done:
                            complete += row["complete"]
                            if row["stopped"] and not row["complete"]:
                                stopped[row["stopped"]] = stopped.get(row["stopped"], 0) + 1
        except ArchiveError:
            raise
        except AnalysisFailed as error:
            raise ArchiveError(f"{error}; the analyses of its batch were not stored") from error
        except Exception as error:
            raise ArchiveError(f"analysis failed, its batch not stored: {type(error).__name__}: {error}") from error
        return AnalysisSummary(tuple(stored), complete, stopped, tuple(skipped), round(time.monotonic() - start, 3))

    def analysis_tasks(self, ids: Iterable[int], max_seconds: float | None = None, *,
                       from_end: bool = False) -> list[AnalysisTask]:
        """The work of analysing records ``ids`` (those stored), for workers elsewhere: map
        ``replayer.archive.importer.analysis_row`` over them (it needs no archive), then give
        the rows to ``store_analyses``. ``Archive.analyse`` is this, in one machine's processes."""
        wanted = sorted({int(i) for i in ids})
        tasks: list[AnalysisTask] = []
        for first in range(0, len(wanted), 500):
            part = wanted[first:first + 500]
            marks = ", ".join("?" * len(part))
            tasks += [AnalysisTask(record_id, digest, raw or "", rules, max_seconds, from_end)
                      for record_id, digest, raw, rules in self.db.execute(
                          f"SELECT records.id, records.hash, record_texts.raw, records.rules FROM records "
                          f"JOIN record_texts ON record_texts.record_id = records.id "
                          f"WHERE records.id IN ({marks}) ORDER BY records.id", part)]
        return tasks

    def store_analyses(self, rows: Iterable[dict[str, Any] | None]) -> list[int]:
        """Store the rows ``analysis_row`` made (``None``s are skipped) in one transaction, each in
        place of its record's analysis; a row whose record was deleted or changed since its
        task was read is left out. The ids stored."""
        created = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        with self._write():
            return write_analyses(self.db, [row for row in rows if row is not None], created)

    def store_analysis(self, record_id: int, analysis: Mapping[str, Any], *, solver: str | None = None) -> bool:
        """Store one analysis (``DealAnalysis.as_dict()``) made for the record's current text;
        ``False`` when there is no such record."""
        current = self.db.execute("SELECT hash FROM records WHERE id = ?", [record_id]).fetchone()
        if current is None:
            return False
        stopped = analysis.get("stopped")
        row = {"record_id": record_id, "hash": current[0], "version": int(analysis.get("version", ANALYSIS_VERSION)),
               "solver": solver, "rules": analysis.get("rules"), "complete": 1 if analysis.get("complete") else 0,
               "stopped": stopped.get("reason") if isinstance(stopped, dict) else None,
               "max_seconds": None, "seconds": None,
               "analysis": json.dumps(analysis, ensure_ascii=False, separators=(",", ":"))}
        return bool(self.store_analyses([row]))

    # --- matches ------------------------------------------------------------------

    def get_match(self, match_id: int) -> dict | None:
        return next(self.db.query("SELECT * FROM matches WHERE id = ?", [match_id]), None)

    def match_records(self, match_id: int) -> list[dict]:
        """The match's records in deal order (search columns, without the texts)."""
        return list(self.db.query(f"SELECT {_LIST_SQL} FROM records WHERE match_id = ? ORDER BY deal_in_match",
                                  [match_id]))

    def match_findings(self, match_id: int) -> list[dict]:
        """What the match check found (score sheet, dealer rotation...), in deal order."""
        return list(self.db.query("SELECT * FROM match_findings WHERE match_id = ? ORDER BY deal_in_match, id",
                                  [match_id]))

    # --- statistics ---------------------------------------------------------------

    def player_stats(self, name: str, query: SearchQuery | None = None) -> dict[str, Any] | None:
        """A player's figures over the deals the search ``query`` keeps (``stats.player_stats``);
        ``None`` when no stored record names the player; ``SearchError`` for a bad filter."""
        filters = _search_filters(query or SearchQuery())
        return stats.player_stats(self.db, name, filters) if stats.known_player(self.db, name) else None

    def partnership_stats(self, first: str, second: str, query: SearchQuery | None = None) -> dict[str, Any]:
        """Two players' figures as partners over the deals ``query`` keeps (``stats.partnership_stats``)."""
        return stats.partnership_stats(self.db, first, second, _search_filters(query or SearchQuery()))

    def players(self, query: SearchQuery | None = None, *, sort: str = "played", descending: bool = True,
                page: int = 1, per_page: int = 50) -> dict[str, Any]:
        """A page of every player's figures over the deals ``query`` keeps, sorted by a column of
        ``stats.PLAYER_SORTS`` (``stats.players``)."""
        return stats.players(self.db, _search_filters(query or SearchQuery()), sort, descending, page, per_page)

    # --- search -------------------------------------------------------------------

    def search(self, query: SearchQuery) -> SearchPage:
        """One page of the records that match every filter of ``query``, sorted."""
        filters = self._filters(query)
        if len(filters) == 1 and filters[0].column == "id":  # full text alone: count in the index
            total = self.db.execute("SELECT count(*) FROM records_fts WHERE records_fts MATCH ?",
                                    filters[0].params).fetchone()[0]
        else:
            total = self.db.execute("SELECT count(*) FROM records" + _where(filters, True, ""),
                                    _params(filters)).fetchone()[0]
        per_page = min(max(int(query.per_page), 1), MAX_PER_PAGE)
        pages = max(1, math.ceil(total / per_page))
        page = min(max(int(query.page), 1), pages)
        offset = (page - 1) * per_page
        column = query.sort if query.sort in SORTS else "date"
        direction = "DESC" if query.descending else "ASC"
        order = f"records.{column} {direction}" + (f", records.id {direction}" if column != "id" else "")
        walk = self._walk(filters, column, offset + per_page, total)
        ids_sql = f"SELECT records.id FROM records{_where(filters, not walk, column)} ORDER BY {order} LIMIT ? OFFSET ?"
        rows = list(self.db.query(
            f"SELECT {_LIST_SQL} FROM records WHERE records.id IN ({ids_sql}) ORDER BY {order}",
            _params(filters) + [per_page, offset]))
        return SearchPage(rows, total, page, per_page, pages)

    def _walk(self, filters: list[_Filter], sort: str, needed: int, total: int) -> bool:
        """Whether to walk the sort's index, testing each record, rather than let SQLite fetch
        the records that pass the filters (through their indexes) and sort them.

        SQLite's planner prefers the filters' indexes even when most records pass them, and
        then sorts them all for one page. Walking reads about ``needed * size / total``
        records, each looked up in the table; fetching and sorting handles ``total``, more
        cheaply each: walk when that reads four times fewer. A single filter whose index
        leads to the sort's column (``variant, date``) serves both: no walk."""
        tests = {f.column for f in filters} - {sort}
        if not tests or (len(tests) == 1 and (*tests, sort) in INDEXED_PAIRS):
            return False
        size = self.db.execute("SELECT max(id) FROM records").fetchone()[0] or 0
        return 4 * needed * size < total * total

    def _filters(self, query: SearchQuery) -> list[_Filter]:
        return _search_filters(query)


def _search_filters(query: SearchQuery) -> list[_Filter]:
    """The tests of ``query`` on ``records``; ``SearchError`` naming every field that cannot
    be read."""
    problems: dict[str, str] = {}

    def read(name: str, parse: Callable[[str], Any]) -> Any:
        try:
            return parse(getattr(query, name))
        except ValueError as error:
            problems[name] = str(error)
            return None

    filters: list[_Filter] = []
    match = _prefix_terms("", query.text)
    match += _prefix_terms("{north east south west}", query.player)
    match += _prefix_terms("event", query.event)
    if match:
        filters.append(_Filter("id", "{} IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?)",
                               (" AND ".join(f"({term})" for term in match),)))
    date_from, date_to = _range_start(read("date_from", _date)), _range_end(read("date_to", _date))
    if date_from and date_to and date_from > date_to + "~":
        problems["date_to"] = f"{query.date_to} is before the start of the range, {query.date_from}"
    # "~" sorts after every date character: 2026 takes in 2026.12.31. A date partly unknown
    # (2026.??.??) is in a range when all of it is: its known part, 2026, is compared.
    if date_from:
        filters.append(_Filter("date", "{0} >= ? AND ({0} NOT LIKE '%?%' OR " + _KNOWN_PART + " >= ?)",
                               (date_from, date_from)))
    if date_to:
        filters.append(_Filter("date", "{0} <= ? AND ({0} NOT LIKE '%?%' OR " + _KNOWN_PART + " || '~' <= ?)",
                               (date_to + "~", date_to + "~")))
    if query.variant.strip():
        filters.append(_Filter("variant", "{} = ?", (query.variant.strip().lower(),)))
    contract = read("contract", _contract)
    if contract:
        column, values = contract
        test = "{} = ?" if len(values) == 1 else "{} IN (" + ", ".join("?" * len(values)) + ")"
        filters.append(_Filter(column, test, values))
    if query.validity in ("valid", "invalid"):
        filters.append(_Filter("valid", "{} = ?", (1 if query.validity == "valid" else 0,)))
    profile = query.profile.strip()
    if profile:  # the rules column is "profile; overrides"; LIKE's wildcards taken literally
        pattern = re.sub(r"([\\%_])", r"\\\1", profile) + ";%"
        filters.append(_Filter("rules", "({0} = ? OR {0} LIKE ? ESCAPE '\\')", (profile, pattern)))
    if problems:
        raise SearchError(problems)
    return filters


@dataclass(frozen=True)
class _Filter:
    """A test on one column of ``records`` (a whitelisted name): SQL with ``{}`` for the
    column, and its parameters."""

    column: str
    test: str
    params: tuple[Any, ...]


def _where(filters: list[_Filter], use_indexes: bool, sort: str) -> str:
    """The WHERE clause of ``filters``; without ``use_indexes``, the column of each test
    (but the sort's) is written ``+records.x``, which keeps SQLite off its index."""
    if not filters:
        return ""
    tests = [f.test.format(("" if use_indexes or f.column == sort else "+") + "records." + f.column)
             for f in filters]
    return " WHERE " + " AND ".join(tests)


def _params(filters: list[_Filter]) -> list[Any]:
    return [value for f in filters for value in f.params]


# --- helpers ----------------------------------------------------------------------

def _summary(importer: Importer) -> ImportSummary:
    return ImportSummary(importer.imported, importer.duplicates, importer.with_findings,
                         tuple(importer.unparseable), tuple(importer.ids), importer.invalid,
                         tuple(importer.duplicate_ids))


def _stream(text: str | bytes) -> BinaryIO:
    return io.BytesIO(text.encode("utf-8", "replace") if isinstance(text, str) else bytes(text))


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _int(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


_WORD = re.compile(r"[^\s\"\x00-\x1f\x7f]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # FTS5 takes a NUL for the end of the query
# A date of the Date tag (2026.03.12) or ISO (2026-03-12), or its year or month alone; a part
# may be "??" (unknown) when the parts after it are too. One separator throughout.
_DATE = re.compile(r"([0-9]{4})(?:([.-])([0-9]{1,2}|\?\?)(?:\2([0-9]{1,2}|\?\?))?)?")
# The known part of a stored date with "??" in it, in SQL: 2026.03.?? -> 2026.03.
_KNOWN_PART = "rtrim(substr({0}, 1, instr({0}, '?') - 1), '.-')"
_DATE_FORMS = "write it 2026.03.12 or 2026-03-12, or a year or a month alone: 2026, 2026.03"
_CONTRACT_FORMS = ("write a bid such as 110C, 110 ♣ or 110, capot or capot S, generale or generale TA, "
                   "or a denomination: S H D C, ♠ ♥ ♦ ♣, SA or TA")
# The ladder calls a contract word finds: "capot" takes in the capots belote too.
_LADDER_FAMILIES = {CallKind.CAPOT: (CallKind.CAPOT, CallKind.CAPOT_BELOTE),
                    CallKind.GENERALE: (CallKind.GENERALE, CallKind.GENERALE_BELOTE),
                    CallKind.CAPOT_BELOTE: (CallKind.CAPOT_BELOTE,),
                    CallKind.GENERALE_BELOTE: (CallKind.GENERALE_BELOTE,)}


def _prefix_terms(columns: str, text: str) -> list[str]:
    """An FTS5 expression matching every word of ``text`` as the start of a word, in
    ``columns`` (a column filter such as ``{north east}``; "" for every column). Each word
    is quoted, so nothing the user types is FTS syntax (``OR``, ``NEAR(``, ``*``, ``-`` are
    text); a word without a letter or a digit, which the index holds nothing of, is left out."""
    words = [word for word in _WORD.findall(_CONTROL.sub(" ", text)) if any(c.isalnum() for c in word)]
    prefix = f"{columns} : " if columns else ""
    return [" AND ".join(f'{prefix}"{word}"*' for word in words)] if words else []


def _contract(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The column and the stored values a contract filter matches, read with the notation's
    own spellings of a call (``notation.values.Call.parse``): ``110C``, ``110 ♣``, ``110c`` ->
    ``contract`` 110C; ``capot`` (``capot belote``, ``generale``, ``générale``...) alone or
    with a denomination -> those contracts (a capot takes in the capots belote); a value
    alone (``110``) -> that value in every denomination; a denomination (``H``, ``♥``,
    ``SA``, ``NT``) -> the ``denomination`` column. None when empty; ``ValueError`` when it
    is not a contract. The values are those ``importer.contract_text`` stores."""
    compact = "".join(text.split())
    if not compact:
        return None
    if len(compact) - len(compact.lstrip("0123456789")) > BID_DIGITS:
        raise ValueError(f"not a contract: {text!r}: a bid has at most {BID_DIGITS} digits")
    try:
        call = Call.parse(compact)
        denominations = (call.denomination,)
    except NotationError:
        try:  # a value or a capot word without its denomination: in every denomination
            call = Call.parse(compact + Denomination.SPADES.value)
        except NotationError:
            raise ValueError(f"not a contract: {text!r}: {_CONTRACT_FORMS}") from None
        denominations = tuple(Denomination)
    if call.kind is CallKind.NAME and call.denomination is not None:
        return "denomination", (call.denomination.value,)
    if call.kind is CallKind.BID:
        return "contract", tuple(f"{call.value}{d}" for d in denominations)
    if call.kind in _LADDER_FAMILIES:
        return "contract", tuple(f"{kind.value} {d}" for kind in _LADDER_FAMILIES[call.kind] for d in denominations)
    raise ValueError(f"not a contract: {text!r} is a call that sets none; {_CONTRACT_FORMS}")


def _range_start(date: str | None) -> str:
    """A range's first date at the coarsest precision that says the same: 2026.01.01 is
    2026, 2026.03.01 is 2026.03 (so that a date known to the month or the year compares)."""
    date = date or ""
    while date.endswith(".01"):
        date = date[:-3]
    return date


def _range_end(date: str | None) -> str:
    """A range's last date at the coarsest precision that says the same: 2026.12.31 is 2026,
    2026.02.28 is 2026.02."""
    date = date or ""
    parts = date.split(".")
    if len(parts) == 3:
        year, month, day = (int(part) for part in parts)
        if day == calendar.mdays[month] + (month == 2 and calendar.isleap(year)):
            parts.pop()
    if len(parts) == 2 and parts[1] == "12":
        parts.pop()
    return ".".join(parts)


def _date(text: str) -> str:
    """A date or its start in the stored form (``2026.03.12``, ``2026.03``, ``2026``), from
    the Date tag's form or ISO's; "" when empty; ``ValueError`` when it is not a date."""
    text = text.strip()
    if not text:
        return ""
    match = _DATE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a date: {text!r}: {_DATE_FORMS}")
    year, _separator, month, day = match.groups()
    if month == "??" and day not in (None, "??"):
        raise ValueError(f"not a date: {text!r}: a day without its month")
    parts = [year] + [part.zfill(2) for part in (month, day) if part not in (None, "??")]
    if len(parts) > 1 and not 1 <= int(parts[1]) <= 12:
        raise ValueError(f"not a date: {text!r}: there is no month {int(parts[1])}")
    if len(parts) > 2:
        days = calendar.mdays[int(parts[1])] + (int(parts[1]) == 2 and calendar.isleap(int(year)))
        if not 1 <= int(parts[2]) <= days:
            raise ValueError(f"not a date: {text!r}: {calendar.month_name[int(parts[1])]} {year} "
                             f"has no day {int(parts[2])}")
    return ".".join(parts)
