"""Storing the items of an import: deduplication, ids, matches, batched inserts.

An ``Importer`` lives inside the import's one transaction (the caller's
``Archive._write()``, which holds the write lock from its start: no other writer
can take the ids it reads). It gives new records consecutive ids from the largest one
stored, skips a record whose content hash is stored already (or was seen
earlier in the same import), groups consecutive records of one source with the
same Event and Round into a match (checked by ``replayer.check.matches.check_match``)
and inserts rows in batches (one prepared INSERT each). Foreign keys are checked at
commit (``defer_foreign_keys``), so a match row can follow its records.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Iterable

from sqlite_utils import Database

from .importer import Row, Unreadable
from .schema import FTS_COLUMNS
from .stats import refresh_totals
from ..engine.rules import Rules
from ..check.findings import Finding, Location, Severity, make_finding
from ..check.matches import check_match
from ..check.report import Report

BATCH = 1000  # records gathered before they are inserted
BULK_IMPORT = 5_000  # records expected from an import, at least, for its indexes to be built at the end
FTS_INSERT_TRIGGER = "records_ai"  # made by sqlite-utils' enable_fts(create_triggers=True)
_FTS_COLUMNS = ", ".join(FTS_COLUMNS)
_FTS_FILL = (f"INSERT INTO records_fts (rowid, {_FTS_COLUMNS}) "
             f"SELECT id, {_FTS_COLUMNS} FROM records WHERE id BETWEEN ? AND ?")
_LOOKUP = 500  # hashes per dedup query


@dataclass
class _Match:
    """The match being read: its key, the position of its deals and their reports."""

    key: tuple[str | None, str | None]
    source: str
    first: dict[str, Any]  # the columns of its first record
    reports: list[Report] = field(default_factory=list)
    record_ids: list[int] = field(default_factory=list)  # new or already stored, per deal
    new: list[dict[str, Any]] = field(default_factory=list)  # its new deals' rows, until it has an id
    id: int | None = None  # given at the second deal: a single deal is not a match
    flushed: bool = False  # some of its new rows are inserted already


def _suspend_fts_trigger(db: Database) -> list[str]:
    """Drop the full-text index's insert trigger for this transaction and return its
    SQL, to be run again at the end (a rollback restores it too). One INSERT ... SELECT
    a batch indexes the new records 25 times faster than the trigger does row by row
    (5 us against 130 us a record): the trigger was most of the import's database time."""
    return _suspend(db, "trigger", "name = ?", [FTS_INSERT_TRIGGER])


def _suspend_indexes(db: Database) -> list[str]:
    """Drop the search indexes of ``records`` (not the unique hash the import looks up)
    for this transaction and return their SQL, to be run again at the end: for a large
    import, building an index once over the table is cheaper than keeping it up to date
    insert by insert (the records insert went from 35 to over 100 us a record as the
    archive grew to 100,000); those of ``deal_players`` (four rows a record) likewise. The index
    on ``match_id`` stays too: the deferred foreign
    key check looks a new match's records up by it."""
    return _suspend(db, "index", "((tbl_name = 'records' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' "
                    "AND sql NOT LIKE '%\"match_id\"%') OR (tbl_name = 'deal_players' AND sql IS NOT NULL))", [])


def _suspend(db: Database, kind: str, where: str, params: list[str]) -> list[str]:
    """Drop the schema items of ``kind`` (trigger or index) that ``where`` selects; their SQL."""
    rows = db.execute(f"SELECT name, sql FROM sqlite_master WHERE type = ? AND {where}", [kind, *params]).fetchall()
    for name, _ in rows:  # names from the schema itself: an identifier cannot be a parameter
        db.execute(f"DROP {kind.upper()} [{name}]")
    return [sql for _, sql in rows]


# --- analyses -------------------------------------------------------------------------

# An analysis is current when it was made for the record's content (its hash) in the format this
# version reads; one stopped by its time limit is done again by a run allowed more time (or no limit).
_CURRENT_ANALYSIS = "analyses.hash = records.hash AND analyses.version = ?"
_TIME_LIMITED = "analyses.stopped = 'time-limit' AND (? IS NULL OR analyses.max_seconds < ?)"


def analysis_ids(db: Database, ids: Iterable[int] | None, version: int, max_seconds: float | None,
                 redo: bool) -> list[int]:
    """The ids of the records to analyse, in id order: ``ids`` (those that are stored; all of them
    when ``redo``, else those without a current analysis), or every record without a current
    analysis (or with one stopped by a time limit shorter than ``max_seconds``)."""
    params: list[Any] = [version, max_seconds, max_seconds]
    needed = (f"(analyses.record_id IS NULL OR NOT ({_CURRENT_ANALYSIS}) OR ({_TIME_LIMITED}))")
    sql = "SELECT records.id FROM records LEFT JOIN analyses ON analyses.record_id = records.id"
    if ids is None:
        return [row[0] for row in db.execute(f"{sql} WHERE {needed} ORDER BY records.id", params).fetchall()]
    found: list[int] = []
    wanted = sorted({int(i) for i in ids})
    for start in range(0, len(wanted), _LOOKUP):
        part = wanted[start:start + _LOOKUP]
        marks = ", ".join("?" * len(part))
        where = f"records.id IN ({marks})" + ("" if redo else f" AND {needed}")
        found += [row[0] for row in db.execute(f"{sql} WHERE {where} ORDER BY records.id",
                                                part + ([] if redo else params)).fetchall()]
    return found


def write_analyses(db: Database, rows: Iterable[dict[str, Any]], created: str) -> list[int]:
    """Store analyses (``analyses`` rows without ``created``) in place of those of their records,
    inside the caller's transaction; a row whose record is gone, or whose content hash is no
    longer the record's, is left out. The ids stored."""
    stored: list[int] = []
    for row in rows:
        current = db.execute("SELECT hash FROM records WHERE id = ?", [row["record_id"]]).fetchone()
        if current is None or current[0] != row["hash"]:
            continue
        values = dict(row, created=created)
        names = list(values)
        db.execute(f"INSERT OR REPLACE INTO analyses ({', '.join(f'[{name}]' for name in names)}) "
                   f"VALUES ({', '.join('?' * len(names))})", [values[name] for name in names])
        stored.append(row["record_id"])
    return stored


def stored_ids(db: Database, hashes: Iterable[str]) -> dict[str, int]:
    """hash -> id of the records of ``hashes`` (content hashes) that the archive holds."""
    wanted = list(hashes)
    found: dict[str, int] = {}
    for start in range(0, len(wanted), _LOOKUP):
        part = wanted[start:start + _LOOKUP]
        marks = ", ".join("?" * len(part))
        found.update(db.execute(f"SELECT hash, id FROM records WHERE hash IN ({marks})", part).fetchall())
    return found


class Importer:
    """The state of one import; ``feed`` it chunks of items, ``end_source`` after each
    source, ``finish`` at the end (all inside the transaction)."""

    def __init__(self, db: Database, rules: Rules | None, owner_hash: str | None, expected: int = 0) -> None:
        """``expected``: about how many records the import brings (from the input's size)."""
        self.db, self.rules, self.owner_hash = db, rules, owner_hash
        self.created = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        db.execute("PRAGMA defer_foreign_keys = ON")  # reset by the commit
        self.next_record = self._next_id("records")
        self._suspended = _suspend_fts_trigger(db)  # schema SQL to run again at the end
        self._fts = bool(self._suspended)
        # Building the indexes again costs about 13 us a record stored, keeping them up to date 35 to
        # over 100 us a record imported: worth it from an import of half as many records as are stored.
        if expected > max(BULK_IMPORT, (self.next_record - 1) // 2):
            self._suspended += _suspend_indexes(db)
        self.next_match = self._next_id("matches")
        self.seen: dict[str, int] = {}  # hash -> id, for the records of this import
        self.ids: list[int] = []
        self.duplicate_ids: list[int] = []
        self.imported = self.duplicates = self.with_findings = self.invalid = 0
        self.unparseable: list[tuple[str, int, int, str]] = []
        self.rejected: list[Finding] = []
        self._records: list[dict[str, Any]] = []
        self._texts: list[dict[str, Any]] = []
        self._findings: list[dict[str, Any]] = []
        self._seats: list[dict[str, Any]] = []
        self._players: set[str] = set()  # whose totals change
        self._match_findings: list[dict[str, Any]] = []
        self._match: _Match | None = None
        self._index = 0  # of the item in its source

    def _next_id(self, table: str) -> int:
        return (self.db.execute(f"SELECT max(id) FROM {table}").fetchone()[0] or 0) + 1

    # --- items ------------------------------------------------------------------

    def feed(self, source: str, items: list[Row | Unreadable]) -> None:
        stored = self._stored({item.columns["hash"] for item in items if isinstance(item, Row)})
        for item in items:
            if isinstance(item, Unreadable):
                self._unreadable(source, item)
            else:
                self._row(source, item, stored)
            self._index += 1
        if len(self._records) >= BATCH:
            self._flush()

    def end_source(self) -> None:
        self._close_match()
        self._index = 0

    def finish(self) -> None:
        self._close_match()
        self._flush()
        for sql in self._suspended:
            self.db.execute(sql)
        if self._players:
            refresh_totals(self.db, self._players)

    def _stored(self, hashes: set[str]) -> dict[str, int]:
        """hash -> id of those of ``hashes`` already in the archive."""
        return stored_ids(self.db, [h for h in hashes if h not in self.seen])

    def _unreadable(self, source: str, item: Unreadable) -> None:
        if self._match is not None and item.match_key != self._match.key:
            self._close_match()  # a record that cannot be read stays in its match, as a gap (check.matches)
        self.unparseable.append((source, item.line, item.column, item.message))
        self.rejected.append(make_finding("syntax-error", item.message,
                                          Location(self._index, item.line, item.column)))

    def _row(self, source: str, row: Row, stored: dict[str, int]) -> None:
        digest = row.columns["hash"]
        existing = self.seen.get(digest) or stored.get(digest)
        match = self._match_for(source, row)
        if existing is not None:
            self.duplicates += 1
            self.duplicate_ids.append(existing)
            if match is not None:
                self._deal(match, row, existing, None)
            return
        record_id = self.next_record
        self.next_record += 1
        self.seen[digest] = record_id
        columns = dict(row.columns, id=record_id, source=source, owner_hash=self.owner_hash, created=self.created,
                       match_id=None, deal_in_match=None)
        raw = columns.pop("raw")
        self._texts.append({"record_id": record_id, "raw": raw, "canonical": columns.pop("canonical") or raw,
                            "report": columns.pop("report")})
        self._records.append(columns)
        self._findings.extend(dict(finding, record_id=record_id) for finding in row.findings)
        self._seats.extend(dict(seat, record_id=record_id) for seat in row.seats)
        self._players.update(seat["player"] for seat in row.seats)
        self.ids.append(record_id)
        self.imported += 1
        self.with_findings += bool(row.findings)
        self.invalid += not columns["valid"]
        if match is not None:
            self._deal(match, row, record_id, columns)

    # --- matches --------------------------------------------------------------------

    def _match_for(self, source: str, row: Row) -> _Match | None:
        """The match ``row`` belongs to, a new one if it starts one; ``None`` for a single deal."""
        if self._match is not None and self._match.key != row.match_key:
            self._close_match()
        if row.match_key is not None and self._match is None:
            self._match = _Match(row.match_key, source, row.columns)
        return self._match

    def _deal(self, match: _Match, row: Row, record_id: int, columns: dict[str, Any] | None) -> None:
        """Add a deal (``columns``: its new row, ``None`` if stored before) to the match;
        the match gets its id at its second deal, if one of its deals is new."""
        match.reports.append(row.report.renumbered(len(match.reports)))  # type: ignore[union-attr]
        match.record_ids.append(record_id)
        if columns is not None:
            columns["deal_in_match"] = len(match.reports)
            if match.id is not None:
                columns["match_id"] = match.id
            else:
                match.new.append(columns)
        if match.id is None and match.new and len(match.reports) > 1:
            match.id = self.next_match
            self.next_match += 1
            for earlier in match.new:
                earlier["match_id"] = match.id
                if match.flushed:  # an earlier deal is in the table already
                    self.db.execute("UPDATE records SET match_id = ?, deal_in_match = ? WHERE id = ?",
                                    [match.id, earlier["deal_in_match"], earlier["id"]])
            match.new = []

    def _close_match(self) -> None:
        match, self._match = self._match, None
        if match is None or match.id is None:  # a single deal, or every deal was stored already
            return
        report = check_match(match.reports, self.rules)
        first = match.first
        errors = sum(1 for f in report.findings if f.severity is Severity.ERROR)
        totals = report.totals
        self.db.execute(
            "INSERT INTO matches (id, event, round, site, date, variant, rules, target, deals, winner, final_ns, "
            "final_ew, errors, source, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [match.id, first["event"], first["round"], first["site"], first["date"], first["variant"], str(report.rules),
             report.target, len(match.reports), str(report.winner) if report.winner else None,
             totals[0] if totals else None, totals[1] if totals else None, errors,
             match.source, self.created])
        for finding in report.findings:
            deal = finding.location.record
            self._match_findings.append({
                "match_id": match.id, "record_id": match.record_ids[deal] if deal < len(match.record_ids) else None,
                "deal_in_match": deal + 1, "rule": finding.rule, "severity": finding.severity.value,
                "message": finding.message})

    # --- inserts ----------------------------------------------------------------------

    def _flush(self) -> None:
        if self._match is not None and self._match.id is None and self._match.new:
            self._match.flushed = True
        for table, rows in (("records", self._records), ("record_texts", self._texts),
                            ("findings", self._findings), ("deal_players", self._seats),
                            ("match_findings", self._match_findings)):
            if rows:
                self._insert(table, rows)
        if self._records and self._fts:  # new ids are consecutive
            self.db.execute(_FTS_FILL, [self._records[0]["id"], self._records[-1]["id"]])
        self._records, self._texts, self._findings, self._seats, self._match_findings = [], [], [], [], []

    def _insert(self, table: str, rows: list[dict[str, Any]]) -> None:
        """``executemany`` of one prepared INSERT: the rows of a table all have the same
        keys (built by this module and ``archive_import``), so sqlite-utils'
        ``insert_all``, which works the columns out again for every batch, is not needed;
        its share of the import was a fifth of the parent's time."""
        names = list(rows[0])
        sql = (f"INSERT INTO [{table}] ({', '.join(f'[{name}]' for name in names)}) "
               f"VALUES ({', '.join('?' * len(names))})")
        self.db.conn.executemany(sql, map(itemgetter(*names), rows))  # a tuple a row: every table has 2+ columns
