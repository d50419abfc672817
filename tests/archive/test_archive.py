"""The archive (replayer.archive) on real SQLite files: schema, imports, dedup,
rollback, matches, search, deletion, and the ``belote import`` command."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.values import SEATS
from notation.errors import WriteError
from notation.parser import parse
from replayer.archive import importer, store
from replayer.archive import Archive, ArchiveError, SearchError, SearchQuery
from replayer.cli.import_command import import_command
from replayer.archive.schema import MIGRATIONS, RECORD_INDEXES, SEAT_INDEXES
from replayer.engine.generator import generate_record
from replayer.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.belote"))
INVALID = ROOT / "samples" / "invalid"
SAMPLE_RECORDS = 59  # the records of samples/*.belote: ids 1..59
MATCH_IDS = list(range(19, 30))  # the 11 deals of samples/12-match.belote, in order
NAMU_MATCH_IDS = list(range(44, 52))  # the 8 deals of samples/18-namu-match.belote, in order
INVALID_ID = SAMPLE_RECORDS + 1  # the invalid record the ``samples`` fixture adds

# Two deals of one match whose second Score tag is wrong (the first deal scores 101-61).
TWO_DEALS = (ROOT / "samples" / "01-classic-round1.belote").read_text(encoding="utf-8")


def _state(path: Path) -> dict[str, list]:
    """Every row of every table, read with plain sqlite3 (not through the archive)."""
    with sqlite3.connect(path) as conn:
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'records_fts%'")]
        state = {name: conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall() for name in tables}
        state["fts"] = conn.execute("SELECT rowid, * FROM records_fts ORDER BY rowid").fetchall()
        # the schema too: an import drops the full-text insert trigger and makes it again
        state["schema"] = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    return state


@pytest.fixture
def archive(tmp_path: Path):
    with Archive(tmp_path / "belote.sqlite") as opened:
        yield opened


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    """An archive of samples/*.belote plus one invalid record (id 60, INVALID_ID); read-only tests share it."""
    with Archive(tmp_path_factory.mktemp("samples") / "belote.sqlite") as opened:
        opened.import_files(SAMPLES)
        opened.import_files([INVALID / "card-not-held.belote"])
        yield opened


def ids(page) -> list[int]:
    return [row["id"] for row in page.rows]


def search(archive: Archive, **fields) -> list[int]:
    return ids(archive.search(SearchQuery(per_page=100, **fields)))


# --- schema ---------------------------------------------------------------------------

def test_schema_wal_foreign_keys_and_migrations_once(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    with Archive(path) as archive:
        assert archive.db.journal_mode == "wal"
        assert archive.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert {"records", "record_texts", "findings", "matches", "match_findings", "records_fts"} <= set(
            archive.db.table_names())
        assert archive.db["records_fts"].columns_dict.keys() == {"event", "site", "north", "east", "south",
                                                                  "west", "comments"}
        assert {"records_ai", "records_ad", "records_au"} <= {t.name for t in archive.db["records"].triggers}
        applied = [(m.name, m.applied_at) for m in MIGRATIONS.applied(archive.db)]
        assert [name for name, _ in applied] == ["m001_tables", "m002_full_text", "m003_search_indexes",
                                                "m004_full_view", "m005_stored_reports", "m006_analyses",
                                                "m007_deal_players"]
        archive.import_text(TWO_DEALS)
    with Archive(path) as again:  # an existing archive: nothing runs twice, nothing is lost
        assert [(m.name, m.applied_at) for m in MIGRATIONS.applied(again.db)] == applied
        assert MIGRATIONS.pending(again.db) == []
        assert again.count() == 1
        assert again.db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0] == 7
    indexed = {tuple(index.columns) for index in Archive(path).db["records"].indexes}
    assert {("hash",), ("date", "id"), ("variant", "date", "id"), ("valid", "date", "id")} <= indexed


def test_foreign_keys_are_enforced(archive: Archive) -> None:
    archive.import_text(TWO_DEALS)
    with pytest.raises(sqlite3.IntegrityError):
        archive.db.execute("INSERT INTO findings (record_id, rule, severity, message) VALUES (999, 'x', 'error', 'x')")


def test_not_an_archive_is_an_archive_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ArchiveError, match="cannot open the archive"):
        Archive(path)


# --- imports ---------------------------------------------------------------------------

def test_import_samples_exact_counts(archive: Archive) -> None:
    summary = archive.import_files(SAMPLES)
    assert (summary.imported, summary.duplicates, summary.with_findings, summary.invalid) == (
        SAMPLE_RECORDS, 0, 3, 0)
    assert summary.unparseable == ()
    assert summary.ids == tuple(range(1, SAMPLE_RECORDS + 1))
    assert archive.count() == SAMPLE_RECORDS
    # play-stopped (31) and hands-rebuilt (33) of 14-partial, rules-alias (34) of 15-korean-pagat
    assert [(f["record_id"], f["rule"], f["severity"]) for f in archive.db["findings"].rows] == [
        (31, "play-stopped", "info"), (33, "hands-rebuilt", "info"), (34, "rules-alias", "info")]
    row = archive.get(30)  # samples/13-comments.belote
    assert row["source"].endswith("13-comments.belote") and row["source_line"] == 3 and row["source_offset"] == 23
    assert row["raw"].startswith('[Event "Club du jeudi"]\n') and row["raw"].endswith("claim E {le reste est à nous "
                                                                                     "/ the rest is ours}\n")
    assert row["canonical"].startswith('[Event "Club du jeudi"]\n')
    assert (row["event"], row["date"], row["north"], row["dealer"], row["variant"]) == (
        "Club du jeudi", "2026.03.05", "Anne Martin", "N", "belote")
    assert (row["contract"], row["denomination"], row["taker"], row["rules"]) == ("C", "C", "S", "ffb-annonces")
    assert (row["recorded_ns"], row["recorded_ew"], row["rescored_ns"], row["rescored_ew"]) == (20, 202, 20, 202)
    assert (row["valid"], row["errors"], row["warnings"], row["match_id"]) == (1, 0, 0, None)
    assert "bonne entame / good lead" in row["comments"] and "prend" in row["comments"].split("\n")
    assert len(row["hash"]) == 64
    stopped = archive.get(31)  # samples/14-partial.belote: the play stops, the deal is not rescored
    assert (stopped["contract"], stopped["taker"], stopped["rescored_ns"]) == ("D", "N", None)
    coinche = archive.get(14)  # samples/09-coinche-surcoinche.belote
    assert (coinche["contract"], coinche["doubling"], coinche["variant"]) == ("110C", 2, "coinche")


def test_importing_twice_changes_nothing(archive: Archive) -> None:
    archive.import_files(SAMPLES)
    before = _state(archive.path)
    summary = archive.import_files(SAMPLES)
    assert (summary.imported, summary.duplicates, summary.ids) == (0, SAMPLE_RECORDS, ())
    assert _state(archive.path) == before


def test_duplicates_inside_one_import(archive: Archive) -> None:
    text = TWO_DEALS + "\n" + TWO_DEALS.replace("% belote-notation 1.0\n", "")
    summary = archive.import_text(text)
    assert (summary.imported, summary.duplicates, summary.ids) == (1, 1, (1,))


def test_same_deal_written_differently_is_a_duplicate(archive: Archive) -> None:
    archive.import_text(TWO_DEALS)
    # the same record with its hand cards in another order and extra spaces: same canonical text
    shuffled = TWO_DEALS.replace("hand N AH TH 7H KD JD 7D AC 7C", "hand N  7C AC 7D JD KD 7H TH AH")
    assert shuffled != TWO_DEALS
    summary = archive.import_text(shuffled)
    assert (summary.imported, summary.duplicates) == (0, 1)


def test_unreadable_second_file_rolls_back(archive: Archive, tmp_path: Path) -> None:
    archive.import_files(SAMPLES[:2])
    before = _state(archive.path)
    with pytest.raises(ArchiveError, match="cannot read .*missing.belote"):
        archive.import_files([SAMPLES[2], tmp_path / "missing.belote", SAMPLES[3]])
    assert _state(archive.path) == before
    assert archive.count() == 2


def test_failure_mid_import_leaves_the_archive_as_it_was(archive: Archive, monkeypatch) -> None:
    archive.import_files(SAMPLES[:3])
    before = _state(archive.path)

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    # the match check runs after the match's records are in the table (12-match.belote)
    monkeypatch.setattr(store, "check_match", broken)
    with pytest.raises(ArchiveError, match="nothing stored: RuntimeError: disk on fire"):
        archive.import_files(SAMPLES)
    assert _state(archive.path) == before
    monkeypatch.undo()
    assert archive.import_files(SAMPLES).imported == SAMPLE_RECORDS - 3  # and it still works


def test_records_stored_outside_an_import_are_indexed_by_the_trigger(archive: Archive) -> None:
    archive.import_files(SAMPLES[:2])
    names = {name for (name,) in archive.db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert store.FTS_INSERT_TRIGGER in names
    archive.db.execute("UPDATE records SET event = 'Zanzibar Open' WHERE id = 2")
    assert [row["id"] for row in archive.search(SearchQuery(text="Zanzibar")).rows] == [2]
    archive.db["records"].insert(dict(archive.db["records"].get(1), id=99, hash="x" * 64, event="Quokka Cup"))
    assert [row["id"] for row in archive.search(SearchQuery(text="Quokka")).rows] == [99]


def test_failure_in_the_middle_of_a_large_import_rolls_back_batches(archive: Archive, monkeypatch) -> None:
    monkeypatch.setattr(store, "BATCH", 10)
    monkeypatch.setattr(importer, "CHUNK_RECORDS", 2)  # a chunk of about 1,300 bytes: 2 records
    calls = []
    flush = store.Importer._flush

    def failing_flush(self):
        calls.append(len(self._records))
        if len(calls) == 2:
            raise sqlite3.OperationalError("database is locked")
        flush(self)

    monkeypatch.setattr(store.Importer, "_flush", failing_flush)
    with pytest.raises(ArchiveError, match="database is locked"):
        archive.import_text(_generated(40))
    assert calls[0] >= 10  # a whole batch was written before the failure
    assert archive.count() == 0 and archive.db["matches"].count == 0 and archive.db["findings"].count == 0


def _generated(count: int, seed: int = 3) -> str:
    """``count`` generated deals, four by four in one match (Event E0, E1...)."""
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in ("ffb", "ffb-coinche", "ffb-annonces")]
    return "\n".join(str(generate_record(rng, profiles[i % 3], SEATS[i % 4], deal_number=i + 1, event=f"E{i // 4}",
                                         redeal_void=True)) for i in range(count))


COMPARED = "id, hash, event, deal, match_id, deal_in_match, errors, source_line, source_offset"


def _import_generated(path: Path, source: Path, jobs: int):
    with Archive(path) as archive:
        summary = archive.import_files([source], jobs=jobs)
        return (summary, list(archive.db.query(f"SELECT {COMPARED} FROM records")),
                list(archive.db.query("SELECT id, event, deals, winner, final_ns, final_ew, errors FROM matches")),
                list(archive.db.query("SELECT * FROM findings")))


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """120 generated records in a file, and what a plain import (one process) stores."""
    folder = tmp_path_factory.mktemp("generated")
    source = folder / "many.belote"
    source.write_text(_generated(120), encoding="utf-8")
    return source, _import_generated(folder / "plain.sqlite", source, 1)


def test_parallel_import_stores_the_same_rows(generated, tmp_path: Path, monkeypatch) -> None:
    source, plain = generated
    monkeypatch.setattr(importer, "PARALLEL_BYTES", 0)  # worker processes whatever the size
    monkeypatch.setattr(importer, "CHUNK_RECORDS", 5)
    parallel = _import_generated(tmp_path / "parallel.sqlite", source, 2)
    summary, records, matches, _ = parallel
    assert (summary.imported, summary.duplicates, len(matches)) == (120, 0, 30)
    assert records[:5] == plain[1][:5] and [r["match_id"] for r in records[:9]] == [1, 1, 1, 1, 2, 2, 2, 2, 3]
    assert [(m["deals"], m["event"]) for m in matches[:2]] == [(4, "E0"), (4, "E1")]
    assert parallel[:3] == plain[:3] and [f["id"] for f in parallel[3]] == [f["id"] for f in plain[3]]


def test_matches_across_batches_store_the_same_rows(generated, tmp_path: Path, monkeypatch) -> None:
    # a batch a record: the first deal of each match is in the table before the match has an id
    source, plain = generated
    monkeypatch.setattr(store, "BATCH", 1)
    monkeypatch.setattr(importer, "CHUNK_RECORDS", 1)
    assert _import_generated(tmp_path / "small.sqlite", source, 1)[:3] == plain[:3]


def _spy_on_index_drops(monkeypatch) -> list[int]:
    """Every import a bulk import; returns the number of indexes each import dropped."""
    dropped: list[int] = []
    suspend = store._suspend_indexes

    def counted(db):
        sql = suspend(db)
        dropped.append(len(sql))
        return sql

    monkeypatch.setattr(store, "BULK_IMPORT", 0)
    monkeypatch.setattr(store, "_suspend_indexes", counted)
    return dropped


def test_a_bulk_import_builds_its_indexes_at_the_end(generated, tmp_path: Path, monkeypatch) -> None:
    source, plain = generated
    with Archive(tmp_path / "plain.sqlite") as empty:
        schema = _state(empty.path)["schema"]
    dropped = _spy_on_index_drops(monkeypatch)
    assert _import_generated(tmp_path / "bulk.sqlite", source, 1)[:3] == plain[:3]
    # the search indexes; the unique hash stays for the dedup, match_id for the foreign key check
    assert dropped == [len(RECORD_INDEXES) - 1 + len(SEAT_INDEXES)]
    assert _state(tmp_path / "bulk.sqlite")["schema"] == schema


def test_a_failed_bulk_import_leaves_the_indexes_as_they_were(archive: Archive, monkeypatch) -> None:
    archive.import_files(SAMPLES[:3])
    before = _state(archive.path)
    dropped = _spy_on_index_drops(monkeypatch)
    monkeypatch.setattr(store, "check_match", lambda *args: 1 / 0)
    with pytest.raises(ArchiveError, match="ZeroDivisionError"):
        archive.import_files(SAMPLES)
    assert dropped == [len(RECORD_INDEXES) - 1 + len(SEAT_INDEXES)] and _state(archive.path) == before


def test_a_record_the_writer_cannot_express_is_kept_as_written(archive: Archive, monkeypatch) -> None:
    def refuse(record):
        raise WriteError("a comment here cannot hold a brace", "}")

    monkeypatch.setattr(importer, "write_data", refuse)
    summary = archive.import_text(TWO_DEALS)
    row = archive.get(summary.ids[0])
    assert row["canonical"] == row["raw"] == TWO_DEALS.replace("% belote-notation 1.0\n\n", "")


def test_progress_reports_every_byte(archive: Archive) -> None:
    seen: list[int] = []
    archive.import_files(SAMPLES, progress=seen.append)
    assert sum(seen) == sum(path.stat().st_size for path in SAMPLES)


def test_rules_override(archive: Archive) -> None:
    summary = archive.import_text(TWO_DEALS, rules="ffb; melds=true")
    assert archive.get(summary.ids[0])["rules"] == str(Rules.parse("ffb; melds=true"))


# --- findings and unparseable records -------------------------------------------------

def test_findings_have_lines_relative_to_the_record(archive: Archive) -> None:
    invalid = (INVALID / "card-not-held.belote").read_text(encoding="utf-8")
    text = TWO_DEALS + "\n" + invalid.replace("% belote-notation 1.0\n", "")
    summary = archive.import_text(text)
    assert (summary.imported, summary.with_findings, summary.invalid) == (2, 1, 1)
    record = archive.get(summary.ids[1])
    assert TWO_DEALS.count("\n") == 34  # the second record starts on line 37 of the text
    assert record["source_line"] == 37 and (record["valid"], record["errors"]) == (0, 1)
    [finding] = archive.findings(summary.ids[1])
    # 28:18 in its own file, whose record starts on line 3: line 26 of the record
    assert (finding["rule"], finding["severity"], finding["line"], finding["column"]) == (
        "card-not-held", "error", 26, 18)
    assert (finding["trick"], finding["card_index"], finding["seat"], finding["card"]) == (3, 2, "E", "JS")
    assert record["raw"].split("\n")[25][17:19] == "JS"


def test_unparseable_records_are_reported_with_line_and_column(archive: Archive) -> None:
    bad = (INVALID / "syntax-bad-card.belote").read_text(encoding="utf-8")
    text = TWO_DEALS + "\n" + bad.replace("% belote-notation 1.0\n", "")
    summary = archive.import_text(text, source_name="mixed.belote")
    assert (summary.imported, summary.duplicates) == (1, 0)
    [(source, line, column, message)] = summary.unparseable
    assert (source, line, column) == ("mixed.belote", 29 - 3 + 37, 11)  # 29:11 in its file, which starts it on 3
    assert message.startswith('unexpected "XZ"')
    assert archive.count() == 1


def test_invalid_utf8_is_unparseable_not_a_crash(archive: Archive) -> None:
    data = TWO_DEALS.encode("utf-8").replace(b"Lyon", b"Ly\xff\xfen")
    summary = archive.import_text(data, source_name="bytes")
    assert summary.imported == 0
    [(source, line, column, message)] = summary.unparseable
    assert (source, line, column) == ("bytes", 4, 10) and "UTF-8" in message


# --- matches --------------------------------------------------------------------------

def test_match_from_the_match_sample(samples: Archive) -> None:
    # two matches: 12-match.belote (id 1), the one this test reads, and 18-namu-match.belote (id 2)
    assert [m["source"].rsplit("/", 1)[-1] for m in samples.db.query("SELECT * FROM matches ORDER BY id")] == [
        "12-match.belote", "18-namu-match.belote"]
    assert [r["id"] for r in samples.match_records(2)] == NAMU_MATCH_IDS
    [match] = list(samples.db.query("SELECT * FROM matches WHERE source LIKE '%/12-match.belote'"))
    assert match["id"] == 1
    assert (match["event"], match["round"], match["deals"], match["target"]) == (
        "Championnat du Rhône, phase de poules", "Poule B, table 4", 11, 1000)
    assert (match["winner"], match["final_ns"], match["final_ew"], match["errors"]) == ("EW", 738, 1012, 0)
    assert samples.get_match(match["id"]) == match
    records = samples.match_records(match["id"])
    assert [r["id"] for r in records] == MATCH_IDS
    assert [r["deal_in_match"] for r in records] == list(range(1, 12))
    assert samples.get(18)["match_id"] is None  # a single deal is not a match
    assert samples.get_match(99) is None and samples.match_records(99) == []


def test_match_errors_are_counted_and_kept(archive: Archive) -> None:
    second = TWO_DEALS.replace("% belote-notation 1.0\n", "").replace('[Deal "1"]', '[Deal "2"]')
    # the deal passes to the right (ffb): West deals the second deal
    second = second.replace('[Score "0-0"]', '[Score "100-60"]').replace('[Dealer "N"]', '[Dealer "W"]')
    summary = archive.import_text(TWO_DEALS + "\n" + second)
    assert summary.imported == 2
    [match] = list(archive.db.query("SELECT * FROM matches"))
    assert (match["deals"], match["errors"], match["final_ns"], match["final_ew"]) == (2, 1, 202, 122)
    [finding] = archive.match_findings(match["id"])
    assert (finding["rule"], finding["deal_in_match"], finding["record_id"]) == ("score-tag-mismatch", 2, 2)


# --- search ---------------------------------------------------------------------------

def test_search_full_text_and_stray_quotes(samples: Archive) -> None:
    assert search(samples, text="Villeurbanne") == MATCH_IDS[::-1]  # newest first, then by id descending
    assert search(samples, text="blunder") == [30]
    assert search(samples, text="gerard faure") == MATCH_IDS[::-1]  # accents folded
    for hostile in ('"', 'Lyon"', '"Lyon', "NOT", "OR", "*", "(", ")", "a:b", "{north}", "north:x", "'", "^",
                    "NEAR(a b)", '""""', "\x00", "a\x00b", 'a"b"c', '"a" OR "b', "é" * 300):
        samples.search(SearchQuery(text=hostile, player=hostile, event=hostile))
    assert search(samples, text='"Lyon') == search(samples, text="Lyon") != []


def test_search_filters_exact_ids(samples: Archive) -> None:
    assert search(samples, player="odile") == MATCH_IDS[::-1]
    assert search(samples, player="Perr Odi") == MATCH_IDS[::-1]  # prefixes, any order
    assert search(samples, player="Montpellier") == []  # players only, not the site
    # "Coinche-club de Montpellier..." and "대전 퀘시 클럽 (Daejeon Coinche Club)"
    assert search(samples, event="coinche-club", sort="id", descending=False) == [14, 15, 16, 37, 58, 59]
    assert search(samples, date_from="2026-03-06", sort="id", descending=False) == (
        MATCH_IDS + [34] + list(range(39, SAMPLE_RECORDS + 1)))  # 17-namu.belote .. 21-club-coinche.belote
    assert search(samples, date_from="2026.03.12", date_to="2026.03.12") == MATCH_IDS[::-1]
    assert search(samples, date_to="2025-12", sort="id", descending=False) == [17, 18, 35]
    assert search(samples, date_from="2026", date_to="2026.01", sort="id", descending=False) == [14, 15, 16, 37]
    assert search(samples, variant="Coinche", sort="id", descending=False) == [14, 15, 16, 17, 18, 35, 37,
                                                                             42, 43, 56, 57, 58, 59]
    assert search(samples, contract="110c", sort="id", descending=False) == [14, 37]
    assert search(samples, contract="CAPOT  s") == [15]
    assert search(samples, contract="SA") == [17]
    assert search(samples, contract="TA") == [59, 55, 18]  # 92TA, TA (classic), 100TA
    assert search(samples, validity="invalid") == [INVALID_ID]
    assert search(samples, validity="valid", sort="id", descending=False) == list(range(1, SAMPLE_RECORDS + 1))
    assert search(samples, variant="belote", validity="invalid", player="anne") == [INVALID_ID]
    with pytest.raises(SearchError) as refused:  # never ignored: tests/archive/test_search_forms.py
        search(samples, date_from="not a date")
    assert list(refused.value.problems) == ["date_from"]


def test_search_sorts(samples: Archive) -> None:
    rows = samples.search(SearchQuery(sort="event", descending=False, per_page=100)).rows
    assert [r["event"] for r in rows] == sorted(r["event"] for r in rows)
    # "Championnat du Rhône..." < "Club du jeudi" < ...; by id within an event
    assert [r["id"] for r in rows][:19] == MATCH_IDS + [1, 2, 10, 11, 13, 30, 36, INVALID_ID]
    by_date = search(samples, sort="date", descending=False)
    assert by_date[:3] == [17, 18, 35] and by_date[-1] == 34
    assert search(samples, sort="errors")[0] == INVALID_ID
    assert search(samples, sort="id") == list(range(INVALID_ID, 0, -1))
    # no contract (three void deals) first, then as text
    assert search(samples, sort="contract", descending=False)[:8] == [3, 19, 48, 35, 18, 14, 37, 43]
    assert search(samples, sort="nonsense") == search(samples, sort="date")


def test_search_rows_leave_out_texts(samples: Archive) -> None:
    row = samples.search(SearchQuery(sort="id", descending=False)).rows[0]
    assert row["id"] == 1 and row["event"] == "Club du jeudi"
    assert not {"raw", "canonical", "owner_hash", "hash", "comments"} & row.keys()


def test_pagination(samples: Archive) -> None:
    every = search(samples, sort="id", descending=False)
    pages = [samples.search(SearchQuery(sort="id", descending=False, per_page=5, page=n)) for n in range(1, 13)]
    assert [p.page for p in pages] == list(range(1, 13))
    assert {(p.total, p.pages, p.per_page) for p in pages} == {(60, 12, 5)}  # 59 samples and INVALID_ID
    assert [i for p in pages for i in ids(p)] == every
    assert ids(pages[-1]) == [56, 57, 58, 59, 60]
    assert samples.search(SearchQuery(sort="id", descending=False, per_page=5, page=99)).page == 12
    assert ids(samples.search(SearchQuery(sort="id", per_page=5, page=0))) == [60, 59, 58, 57, 56]
    assert samples.search(SearchQuery(per_page=10_000)).per_page == 100
    empty = samples.search(SearchQuery(player="nobody at all"))
    assert (empty.rows, empty.total, empty.page, empty.pages) == ([], 0, 1, 1)


def test_query_from_args_never_raises() -> None:
    query = SearchQuery.from_args({"q": " Lyon ", "player": "Anne", "page": "x3", "per_page": "-4",
                                   "sort": "raw; DROP TABLE records", "order": "asc", "validity": "maybe",
                                   "date_from": "2026-01-01"})
    assert query == SearchQuery(text="Lyon", player="Anne", date_from="2026-01-01", page=1, per_page=-4,
                                descending=False)
    assert SearchQuery.from_args({}) == SearchQuery()
    assert SearchQuery.from_args({"sort": "event", "descending": "0", "page": "7"}) == SearchQuery(
        sort="event", descending=False, page=7)
    assert SearchQuery.from_args({"text": "x" * 5000}).text == "x" * 200


# --- submissions and deletion ----------------------------------------------------------

def test_add_and_delete_with_the_owner_token(archive: Archive) -> None:
    bad = (INVALID / "syntax-bad-card.belote").read_text(encoding="utf-8")
    submission = archive.add(TWO_DEALS + "\n" + bad.replace("% belote-notation 1.0\n", ""))
    assert submission.ids == (1,) and submission.duplicates == ()
    [rejected] = submission.rejected
    assert (rejected.rule, rejected.location.line, rejected.location.column) == ("syntax-error", 63, 11)
    token = submission.token
    assert token and archive.get(1)["owner_hash"] != token  # only its hash is stored
    again = archive.add(TWO_DEALS)
    assert (again.ids, again.duplicates, again.token) == ((), (1,), None)
    assert archive.delete(1, token + "x") is False
    assert archive.delete(1, "") is False
    assert archive.get(1) is not None
    assert archive.delete(1, token) is True
    assert archive.get(1) is None and archive.findings(1) == [] and archive.count() == 0
    assert archive.search(SearchQuery(text="Lyon")).total == 0  # gone from the full-text index too
    assert archive.delete(1, token) is False


def test_imported_records_cannot_be_deleted(samples: Archive) -> None:
    assert samples.delete(1, "") is False
    assert samples.delete(1, "anything") is False
    assert samples.delete(12345, "anything") is False


def test_deleting_the_last_deal_of_a_match_deletes_the_match(archive: Archive) -> None:
    second = TWO_DEALS.replace("% belote-notation 1.0\n", "").replace('[Deal "1"]', '[Deal "2"]')
    submission = archive.add(TWO_DEALS + "\n" + second)
    assert submission.ids == (1, 2)
    assert archive.delete(1, submission.token) and archive.get_match(1) is not None
    assert archive.delete(2, submission.token) and archive.get_match(1) is None


# --- the command ----------------------------------------------------------------------

def test_cli_imports_with_a_summary(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite"
    result = CliRunner().invoke(import_command, [*map(str, SAMPLES), "--db", str(db), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        f"{db}: {SAMPLE_RECORDS} imported, 0 duplicate(s), 3 with findings (0 invalid), 0 unparseable")
    assert "importing" in result.stderr
    again = CliRunner().invoke(import_command, [str(SAMPLES[0]), "--db", str(db)])
    assert again.exit_code == 0 and "0 imported, 1 duplicate(s)" in again.stdout


def test_cli_unparseable_exit_1(tmp_path: Path) -> None:
    bad = INVALID / "syntax-bad-card.belote"
    result = CliRunner().invoke(import_command, [str(SAMPLES[0]), str(bad), "--db", str(tmp_path / "x.sqlite")])
    assert result.exit_code == 1
    assert f"  {bad}:29:11: unexpected \"XZ\"" in result.stdout
    assert "1 imported" in result.stdout and "1 unparseable" in result.stdout


def test_cli_io_trouble_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    missing = CliRunner().invoke(import_command, [str(SAMPLES[0]), str(tmp_path / "nope.belote"), "--db", str(db)])
    assert missing.exit_code == 2
    assert missing.stderr.strip().splitlines() == [f"belote import: error: {tmp_path / 'nope.belote'}: no such file"]
    assert "Traceback" not in missing.output
    (tmp_path / "junk.sqlite").write_bytes(b"junk" * 1000)
    junk = CliRunner().invoke(import_command, [str(SAMPLES[0]), "--db", str(tmp_path / "junk.sqlite")])
    assert junk.exit_code == 2 and len(junk.stderr.strip().splitlines()) == 1
    assert CliRunner().invoke(import_command, [str(SAMPLES[0]), "--rules", "nonsense=1"]).exit_code == 2


def test_cli_default_db_from_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BELOTE_DB", str(tmp_path / "env.sqlite"))
    assert CliRunner().invoke(import_command, [str(SAMPLES[0])]).exit_code == 0
    assert Archive(tmp_path / "env.sqlite").count() == 1
    monkeypatch.delenv("BELOTE_DB")
    from replayer.cli.import_command import default_db
    from replayer.web import default_db_path

    assert default_db() == default_db_path()  # what `belote serve` opens
    assert default_db_path().endswith("belote.sqlite")


# --- no record lost (issue 15 A; tests/notation/test_records_kept.py) ---------------------

def test_import_sees_the_records_that_validate_sees(tmp_path: Path, long_line_file: bytes) -> None:
    path = tmp_path / "f.belote"
    path.write_bytes(long_line_file)
    with Archive(tmp_path / "a.sqlite") as archive:
        summary = archive.import_files([path])
    assert summary.imported == 2 and len(summary.unparseable) == 1 and summary.unparseable[0][1] == 36


# --- stored reports (migration m005) ------------------------------------------------------

def test_a_stored_rules_string_that_no_longer_reads_falls_back_to_the_record_tags() -> None:
    """``stored_report`` (what m005 keeps of a record stored before it) validates under the rules the
    record was stored with; a rules string this version no longer reads leaves the record's tags to decide."""
    import json

    from replayer.archive.schema import stored_report
    from replayer.check.report import Report

    raw = [r.source.text for r in parse(ROOT / "samples" / "12-match.belote")][1]
    report = Report.from_stored(json.loads(stored_report(raw, "no-such-profile")), ())
    assert (report.rules_text, report.rescored, report.ok) == ("ffb", (35, 127), True)


def test_an_archive_from_before_the_stored_reports_gets_them_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with Archive(path) as archive:
        archive.import_files(SAMPLES + sorted(INVALID.glob("*.belote")))
        archive.import_text(TWO_DEALS.replace('[Rules "ffb"]', '[Rules "no-such-profile"]'))  # a bad Rules tag
        archive.import_text(TWO_DEALS.replace('[Deal "1"]', '[Deal "9"]'), rules="ffb; tie=made")  # rules given
        kept = dict(archive.db.execute("SELECT record_id, report FROM record_texts").fetchall())
        # the archive as m004 left it: no report column, the view without it, m005 not applied
        archive.db.execute("DROP VIEW records_full")
        archive.db.execute("ALTER TABLE record_texts DROP COLUMN report")
        archive.db.create_view("records_full", "SELECT records.*, record_texts.raw, record_texts.canonical "
                                               "FROM records JOIN record_texts ON record_texts.record_id = records.id")
        archive.db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm005_stored_reports'")
        archive.db.conn.commit()
    with Archive(path) as again:
        assert MIGRATIONS.pending(again.db) == []
        rebuilt = dict(again.db.execute("SELECT record_id, report FROM record_texts").fetchall())
        assert len(kept) > 40 and all(rebuilt[record_id] == kept[record_id] for record_id in kept)
        assert again.get(1)["report"] == kept[1]
