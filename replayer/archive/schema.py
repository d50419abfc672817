"""The archive's schema, built by sqlite-utils ``Migrations``.

Each migration runs once per database file (sqlite-utils records it in
``_sqlite_migrations``), so opening an existing archive again runs nothing. A
later change to the schema is a new function appended here, never an edit of
an applied one.

Tables:

* ``records``: one deal each: the sha256 of its canonical text (unique: the
  same deal is never stored twice), the tags as columns, what the validator
  made of it, where it came from, its match, the owner token's hash of a
  submitted record;
* ``record_texts``: the raw text of each record as submitted, its canonical
  text and its validation report (JSON, ``Report.stored()``), apart so that
  ``records`` stays narrow (searches that scan or sort it read a tenth of the
  bytes); the view ``records_full`` joins the two;
* ``findings``: the validator's findings per record, line and column relative
  to the record's raw text (line 1 = its first line);
* ``matches``: runs of consecutive records of one file with the same Event and
  Round (the notation's rule), with their final totals, winner and errors;
* ``match_findings``: what ``replayer.check.matches.check_match`` found in a match;
* ``records_fts``: full-text index over event, site, the four players and the
  comments, kept up to date by triggers;
* ``analyses``: the double-dummy analysis of a record (``replayer.check.analysis``), one
  per record at most: its JSON (``DealAnalysis.as_dict()``), the content hash of the
  record it was made for (a record whose hash differs has no analysis), the format
  version, the solver version and rules used, the time limit it ran under, when;
* ``deal_players``: the statistics rows, one per record and named seat
  (``importer.seat_rows``): the player, the partner, whether the side took, the contract,
  its outcome, the side's belote, melds, card points and score, and the ``records`` columns
  a search filters on; written with the record, deleted with it;
* ``player_totals``: each player's figures over every deal (``stats.refresh_totals``), made
  again for the players of each import and deletion: the players table without a filter.
"""

from __future__ import annotations

import json

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from notation import parse

from ..check.validator import resolve_rules, validate
from .importer import seat_rows
from .stats import TOTAL_COLUMNS, refresh_totals
from ..engine.rules import Rules, RulesError
from ..engine.scoring import DealScore

MIGRATIONS = Migrations("belote-archive")

RECORD_COLUMNS: dict[str, type] = {
    "id": int, "hash": str, "event": str, "site": str, "date": str, "round": str, "deal": str,
    "north": str, "east": str, "south": str, "west": str, "dealer": str,
    "variant": str, "rules": str, "contract": str, "denomination": str, "doubling": int, "taker": str,
    "recorded_ns": int, "recorded_ew": int, "rescored_ns": int, "rescored_ew": int,
    "valid": int, "errors": int, "warnings": int,
    "source": str, "source_line": int, "source_offset": int,
    "match_id": int, "deal_in_match": int, "owner_hash": str, "created": str, "comments": str,
}
TEXT_COLUMNS: dict[str, type] = {"record_id": int, "raw": str, "canonical": str}
FINDING_COLUMNS: dict[str, type] = {
    "id": int, "record_id": int, "rule": str, "severity": str, "message": str,
    "line": int, "column": int, "trick": int, "card_index": int, "seat": str, "card": str,
}
MATCH_COLUMNS: dict[str, type] = {
    "id": int, "event": str, "round": str, "site": str, "date": str, "variant": str, "rules": str,
    "target": int, "deals": int, "winner": str, "final_ns": int, "final_ew": int, "errors": int,
    "source": str, "created": str,
}
MATCH_FINDING_COLUMNS: dict[str, type] = {
    "id": int, "match_id": int, "record_id": int, "deal_in_match": int, "rule": str, "severity": str,
    "message": str,
}
ANALYSIS_COLUMNS: dict[str, type] = {
    "record_id": int, "hash": str, "version": int, "solver": str, "rules": str, "complete": int, "stopped": str,
    "max_seconds": float, "seconds": float, "analysis": str, "created": str,
}
SEAT_COLUMNS: dict[str, type] = {
    "record_id": int, "seat": str, "player": str, "partner": str, "side": str, "took": int, "taker": int,
    "level": str, "outcome": str, "capot": int, "belote": int, "melds": int, "card_points": int, "score": int,
    "date": str, "variant": str, "rules": str, "contract": str, "denomination": str, "doubling": int, "valid": int,
    "event": str,
}
# A player's page reads that player's rows (and a date range of them); a pair's, the rows of one
# player with one partner.
SEAT_INDEXES: tuple[tuple[str, ...], ...] = (("player", "date"), ("player", "partner"))
FTS_COLUMNS = ("event", "site", "north", "east", "south", "west", "comments")

# Search filters and sorts on these; each sort index ends with id, the tie-breaker.
RECORD_INDEXES: tuple[tuple[str, ...], ...] = (
    ("date", "id"), ("event", "id"), ("site", "id"), ("contract", "id"), ("errors", "id"),
    ("created", "id"), ("variant", "date", "id"), ("valid", "date", "id"), ("denomination", "date", "id"),
    ("match_id", "deal_in_match"),
)


@MIGRATIONS()
def m001_tables(db: Database) -> None:
    db["matches"].create(MATCH_COLUMNS, pk="id", not_null={"deals", "errors"})
    db["records"].create(RECORD_COLUMNS, pk="id", not_null={"hash", "valid", "errors", "warnings", "created"},
                         foreign_keys=[("match_id", "matches", "id")])
    db["records"].create_index(["hash"], unique=True)
    db["record_texts"].create(TEXT_COLUMNS, pk="record_id", not_null={"raw", "canonical"},
                              foreign_keys=[("record_id", "records", "id")])
    db["findings"].create(FINDING_COLUMNS, pk="id", not_null={"record_id", "rule", "severity", "message"},
                          foreign_keys=[("record_id", "records", "id")])
    db["findings"].create_index(["record_id", "line", "column"])
    db["match_findings"].create(MATCH_FINDING_COLUMNS, pk="id", not_null={"match_id", "rule", "severity"},
                                foreign_keys=[("match_id", "matches", "id"), ("record_id", "records", "id")])
    db["match_findings"].create_index(["match_id"])


@MIGRATIONS()
def m002_full_text(db: Database) -> None:
    db["records"].enable_fts(FTS_COLUMNS, create_triggers=True)


@MIGRATIONS()
def m003_search_indexes(db: Database) -> None:
    for columns in RECORD_INDEXES:
        db["records"].create_index(list(columns), find_unique_name=True)


@MIGRATIONS()
def m004_full_view(db: Database) -> None:
    db.create_view("records_full", "SELECT records.*, record_texts.raw, record_texts.canonical "
                                   "FROM records JOIN record_texts ON record_texts.record_id = records.id")


@MIGRATIONS()
def m005_stored_reports(db: Database) -> None:
    """Each record's validation report, kept so that a page never validates a stored record
    again; the records stored before are validated once, here, as the import did."""
    db["record_texts"].add_column("report", str)
    rows = db.execute("SELECT record_texts.record_id, record_texts.raw, records.rules FROM record_texts "
                      "JOIN records ON records.id = record_texts.record_id").fetchall()
    for record_id, raw, rules in rows:
        db.execute("UPDATE record_texts SET report = ? WHERE record_id = ?", [stored_report(raw, rules), record_id])
    db.execute("DROP VIEW records_full")
    db.create_view("records_full", "SELECT records.*, record_texts.raw, record_texts.canonical, record_texts.report "
                                   "FROM records JOIN record_texts ON record_texts.record_id = records.id")


@MIGRATIONS()
def m006_analyses(db: Database) -> None:
    """The stored double-dummy analyses (``Archive.analyse``), so that a page never computes one."""
    db["analyses"].create(ANALYSIS_COLUMNS, pk="record_id",
                          not_null={"hash", "version", "complete", "analysis", "created"},
                          foreign_keys=[("record_id", "records", "id")])


@MIGRATIONS()
def m007_deal_players(db: Database) -> None:
    """The statistics rows of every record (``Archive.player_stats``), kept by the import from now
    on; those of the records stored before are made here from their stored reports, in one pass
    (only the score of each report is read: ``json_extract`` hands over a small part of it)."""
    db["deal_players"].create(SEAT_COLUMNS, pk=("record_id", "seat"), not_null={"player", "side", "valid"},
                              foreign_keys=[("record_id", "records", "id")])
    columns = [name for name in RECORD_COLUMNS if name != "hash"]
    sql = (f"SELECT {', '.join(f'records.[{name}]' for name in columns)}, "
           "json_extract(record_texts.report, '$.score') FROM records "
           "LEFT JOIN record_texts ON record_texts.record_id = records.id")
    insert = (f"INSERT INTO deal_players ({', '.join(f'[{name}]' for name in SEAT_COLUMNS)}) "
              f"VALUES ({', '.join('?' * len(SEAT_COLUMNS))})")
    cursor = db.execute(sql)
    while batch := cursor.fetchmany(2000):
        rows = []
        for values in batch:
            record = dict(zip(columns, values))
            score = DealScore.from_dict(json.loads(values[-1])) if values[-1] else None
            rows += [[record["id"] if name == "record_id" else seat[name] for name in SEAT_COLUMNS]
                     for seat in seat_rows(record, score)]
        db.conn.executemany(insert, rows)
    for index in SEAT_INDEXES:
        db["deal_players"].create_index(list(index), find_unique_name=True)
    db["player_totals"].create(TOTAL_COLUMNS, pk="player")
    refresh_totals(db, None)


def stored_report(raw: str, rules: str | None) -> str:
    """The report of a stored record's text as the archive keeps it (JSON), validated under the
    rules it was stored with: as the import did, the record's own tags decide unless other
    rules were given (then the findings about its Rules and Variant tags are kept, as the
    import kept them)."""
    result = next(parse(raw))
    given = None
    if rules and rules != "?" and (result.data is None or str(resolve_rules(result.data)[0]) != rules):
        try:
            given = Rules.parse(rules)
        except RulesError:  # rules this version no longer reads: the record's own tags decide
            given = None
    report = validate(result, given, 0, repair=False)
    return json.dumps(report.stored(), ensure_ascii=False, separators=(",", ":"))


def foreign_items(db: Database) -> list[str]:
    """The tables, views... of a database that is neither empty nor an archive (one where this
    migration set was applied); ``[]`` for an empty database or an archive. The archive's
    tables are never added to somebody else's database."""
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' "
                                          "ESCAPE '\\' ORDER BY name")]
    if not names or (MIGRATIONS.migrations_table in names and db.execute(
            f"SELECT 1 FROM [{MIGRATIONS.migrations_table}] WHERE migration_set = ? LIMIT 1",
            [MIGRATIONS.name]).fetchone()):
        return []
    return names


def migrate(db: Database) -> list[str]:
    """Apply the pending migrations; return their names (empty when the file is up to date)."""
    pending = [migration.name for migration in MIGRATIONS.pending(db)]
    if pending:  # an archive up to date (every request of the site opens one) costs one query
        MIGRATIONS.apply(db)
    return pending
