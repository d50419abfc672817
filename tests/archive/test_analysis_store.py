"""Stored double-dummy analyses (``Archive.analyse``, the ``analyses`` table) on real SQLite
files: what is stored and read back, when an analysis is done again, what deletes or
invalidates one, ``belote import --analyse``, and a failure that leaves the archive as it was.

The solver takes seconds for a deal's first positions in pure Python: these tests analyse
records that stop at once (a void deal, a first card out of turn), late positions, or
whole deals under a time limit of a fraction of a second."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation import parse
from replayer.archive import ANALYSIS_VERSION, Archive, ArchiveBusyError, ArchiveError
from replayer.archive.importer import analysis_row
from replayer.archive.schema import MIGRATIONS
from replayer.check import analysis as analysis_module
from replayer.check.analysis import DealAnalysis, analyse_record
from replayer.cli import belote
from replayer.cli.import_command import import_command

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1e-6  # seconds: a time limit passed before the first position is solved (the replay takes longer)
VOID = (ROOT / "samples" / "03-void-deal.belote").read_text(encoding="utf-8")  # everybody passes
DEAL = (ROOT / "samples" / "05-belote-rebelote.belote").read_text(encoding="utf-8")  # a whole deal, valid
# The same deal with East leading the first trick, South's turn: the analysis stops at card 1.
OUT_OF_TURN = DEAL.replace("1. S:9D E:TD N:7D W:8D", "1. E:TD N:7D W:8D S:9D").replace(
    '[Event "Club du jeudi"]', '[Event "Cercle du mardi"]')


def _state(path: Path) -> dict[str, list]:
    """Every row of every table and the schema, read with plain sqlite3."""
    with sqlite3.connect(path) as conn:
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'records_fts%'")]
        state = {name: conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall() for name in tables}
        state["schema"] = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    return state


def _rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT record_id, hash, stopped, complete FROM analyses ORDER BY record_id").fetchall()


def _only(text: str):
    [result] = list(parse(text))
    return result


@pytest.fixture
def archive(tmp_path: Path):
    with Archive(tmp_path / "belote.sqlite") as opened:
        yield opened


def _ids(archive: Archive, *texts: str) -> list[int]:
    return [archive.import_text(text).ids[0] for text in texts]


# --- the table --------------------------------------------------------------------------------

def test_the_migration_makes_the_analyses_table(archive: Archive) -> None:
    assert "m006_analyses" in [m.name for m in MIGRATIONS.applied(archive.db)]
    table = archive.db["analyses"]
    assert table.pks == ["record_id"]
    assert set(table.columns_dict) == {"record_id", "hash", "version", "solver", "rules", "complete", "stopped",
                                       "max_seconds", "seconds", "analysis", "created"}
    assert [(fk.column, fk.other_table, fk.other_column) for fk in table.foreign_keys] == [
        ("record_id", "records", "id")]
    assert DealAnalysis.from_dict(analyse_record(_only(VOID)).as_dict()).as_dict()["version"] == ANALYSIS_VERSION


# --- analysing and reading back ------------------------------------------------------------------

def test_analyse_stores_one_analysis_per_record_and_reads_it_back(archive: Archive) -> None:
    void, wrong = _ids(archive, VOID, OUT_OF_TURN)
    assert archive.analysis(void) is None and archive.pending_analyses() == [void, wrong]
    summary = archive.analyse()
    assert summary.ids == (void, wrong) and summary.analysed == 2 and summary.skipped == ()
    assert summary.complete == 1 and summary.stopped == {"illegal-play": 1}  # the void deal is complete

    stored = archive.analysis(void)
    assert stored == analyse_record(_only(VOID)).as_dict()  # what the analyser makes, as it makes it
    assert DealAnalysis.from_dict(stored).as_dict() == stored  # and the analyser reads it back
    assert (stored["complete"], stored["stopped"]["reason"], stored["steps"]) == (True, "no-play", [])
    wrong_one = archive.analysis(wrong)
    assert (wrong_one["complete"], wrong_one["stopped"]["reason"], wrong_one["stopped"]["step"]) == (
        False, "illegal-play", 1)
    assert "East" in wrong_one["stopped"]["message"]

    row = archive.analysis_row(wrong)
    assert (row["version"], row["rules"], row["complete"], row["stopped"], row["max_seconds"]) == (
        ANALYSIS_VERSION, "ffb", 0, "illegal-play", None)
    assert row["solver"] and row["created"].endswith("+00:00") and row["seconds"] >= 0
    assert row["hash"] == archive.get(wrong)["hash"]
    assert json.loads(row["analysis"]) == wrong_one
    assert archive.analysed_ids() == {void, wrong}

    assert archive.pending_analyses() == []
    assert archive.analyse().ids == ()  # nothing is done twice
    assert archive.analyse([void, 999]).ids == (void,)  # given ids are done again; unknown ones skipped
    assert archive.analyse([void], redo=False).ids == ()
    assert archive.analysis(999) is None and archive.analysis_row(999) is None


def test_a_time_limited_analysis_is_done_again_only_with_more_time(archive: Archive) -> None:
    [deal] = _ids(archive, DEAL)
    summary = archive.analyse(max_seconds=LIMIT)  # passed before the first position is solved
    assert summary.stopped == {"time-limit": 1} and summary.complete == 0
    stored = archive.analysis(deal)
    assert stored["stopped"]["reason"] == "time-limit" and stored["complete"] is False
    assert archive.analysis_row(deal)["max_seconds"] == LIMIT
    assert archive.pending_analyses(max_seconds=LIMIT) == []  # the same limit would stop at the same place
    assert archive.pending_analyses(max_seconds=LIMIT / 2) == []
    assert archive.pending_analyses(max_seconds=5) == [deal]
    assert archive.pending_analyses() == [deal]  # no limit: done again


def test_from_the_end_a_deal_too_long_for_its_limit_gets_its_last_tricks(archive: Archive) -> None:
    [deal] = _ids(archive, DEAL)
    archive.analyse(max_seconds=0.1, from_end=True)  # pure Python: not enough for the first tricks
    stored = archive.analysis(deal)
    numbers = [step["step"] for step in stored["steps"]]
    assert numbers[-1] == 32 and numbers == list(range(numbers[0], 33)) and numbers[0] in (1, 9, 17, 25)
    # the values are the solver's: the last positions alone give the same
    late = analyse_record(_only(DEAL), first_step=29).as_dict()["steps"]
    assert stored["steps"][-4:] == late
    if numbers[0] > 1:  # cut short (a compiled solver may do the whole deal in time)
        assert stored["complete"] is False and stored["stopped"] is None
        assert archive.analysis_row(deal)["stopped"] == "time-limit"  # so that more time does it again
        assert archive.pending_analyses(max_seconds=10) == [deal]
    else:
        assert stored["complete"] is True and archive.pending_analyses(max_seconds=10) == []
    # a limit passed at once keeps what the last try has: nothing, and says so
    archive.analyse([deal], max_seconds=LIMIT, from_end=True)
    assert archive.analysis(deal)["stopped"]["reason"] == "time-limit" and archive.analysis(deal)["steps"] == []


def test_jobs_give_the_same_analyses(tmp_path: Path) -> None:
    partial = (ROOT / "tests" / "data" / "notation" / "partial.belote").read_text(encoding="utf-8")
    texts = [VOID, OUT_OF_TURN, partial]
    found = []
    for jobs in (1, 2):
        with Archive(tmp_path / f"jobs{jobs}.sqlite") as archive:
            ids = _ids(archive, *texts)
            assert archive.analyse(jobs=jobs).ids == tuple(ids)
            found.append([archive.analysis(i) for i in ids])
    assert found[0] == found[1] and all(found[0])


# --- what deletes or invalidates an analysis --------------------------------------------------

def test_deleting_a_record_deletes_its_analysis(archive: Archive) -> None:
    submission = archive.add(OUT_OF_TURN)
    [record_id] = submission.ids
    archive.analyse()
    assert len(_rows(archive.path)) == 1
    assert archive.delete(record_id, submission.token)
    assert archive.analysis(record_id) is None and _rows(archive.path) == []


def test_a_changed_text_has_no_analysis_until_it_is_analysed(archive: Archive) -> None:
    first = archive.add(OUT_OF_TURN)
    [record_id] = first.ids
    tasks = archive.analysis_tasks([record_id])  # work handed out before the record changes
    archive.analyse()
    assert archive.delete(record_id, first.token)
    changed = archive.add(OUT_OF_TURN.replace('[Site "Lyon"]', '[Site "Vienne"]'))
    assert changed.ids == (record_id,)  # the newest id is given again
    assert archive.analysis(record_id) is None and archive.pending_analyses() == [record_id]
    # an analysis of the old text that comes back late is not stored for the new one
    assert archive.store_analyses([analysis_row(task) for task in tasks]) == []
    assert archive.analysis(record_id) is None

    archive.analyse()
    assert archive.analysis(record_id)["stopped"]["reason"] == "illegal-play"
    # a row whose hash is not the record's (an archive edited by hand) counts as none
    archive.db.execute("UPDATE analyses SET hash = ? WHERE record_id = ?", ["0" * 64, record_id])
    assert archive.analysis(record_id) is None and archive.analysed_ids() == set()
    assert archive.pending_analyses() == [record_id]
    archive.analyse()
    assert archive.analysis(record_id) is not None and len(_rows(archive.path)) == 1  # replaced, not added
    # and one in a format this version does not read
    archive.db.execute("UPDATE analyses SET version = ? WHERE record_id = ?", [ANALYSIS_VERSION + 1, record_id])
    assert archive.analysis(record_id) is None and archive.pending_analyses() == [record_id]


def test_store_analysis_made_elsewhere(archive: Archive) -> None:
    [void] = _ids(archive, VOID)
    made = analyse_record(_only(VOID)).as_dict()
    assert archive.store_analysis(void, made, solver="elsewhere 1") is True
    assert archive.analysis(void) == made and archive.analysis_row(void)["solver"] == "elsewhere 1"
    assert archive.store_analysis(999, made) is False


# --- failures ---------------------------------------------------------------------------------

def test_a_failure_leaves_the_archive_as_it_was(archive: Archive, monkeypatch) -> None:
    void, wrong, deal = _ids(archive, VOID, OUT_OF_TURN, DEAL)
    archive.analyse([void])
    before = _state(archive.path)
    real = analysis_module.analyse_record

    def failing(record, rules=None, **options):
        if "Cercle du mardi" in record.data.text:
            raise RuntimeError("the solver lost its cards")
        return real(record, rules, **options)

    monkeypatch.setattr(analysis_module, "analyse_record", failing)
    with pytest.raises(ArchiveError, match=f"record {wrong} failed: RuntimeError: the solver lost its cards"):
        archive.analyse([void, wrong, deal], max_seconds=LIMIT)
    assert _state(archive.path) == before  # the void deal analysed again first: not stored either
    monkeypatch.setattr(analysis_module, "analyse_record", real)
    assert archive.analyse([wrong]).ids == (wrong,)  # the archive still works


def test_a_busy_archive_stores_nothing(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite"
    with Archive(path) as archive:
        _ids(archive, VOID)
    before = _state(path)
    other = sqlite3.connect(path)
    other.execute("BEGIN IMMEDIATE")
    try:
        with Archive(path, timeout=0.2) as archive, pytest.raises(ArchiveBusyError):
            archive.analyse()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert _state(path) == before


# --- belote import --analyse ------------------------------------------------------------------

def test_import_analyse_through_the_cli(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite"
    files = []
    for name, text in (("void.belote", VOID), ("wrong.belote", OUT_OF_TURN)):
        files.append(tmp_path / name)
        files[-1].write_text(text, encoding="utf-8")
    result = CliRunner().invoke(import_command, [*map(str, files), "--db", str(db), "--jobs", "1", "--analyse"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{db}: 2 imported, 0 duplicate(s), 1 with findings (1 invalid), 0 unparseable"
    assert lines[1].startswith("2 analysed (1 complete, 1 stopped: illegal-play) in ")
    assert "analysing" in result.stderr
    assert [(row[0], row[2]) for row in _rows(db)] == [(1, "no-play"), (2, "illegal-play")]

    again = CliRunner().invoke(import_command, [str(files[0]), "--db", str(db), "--analyse"])
    assert again.exit_code == 0 and again.stdout.splitlines()[1].startswith("0 analysed")

    deal = tmp_path / "deal.belote"
    deal.write_text(DEAL, encoding="utf-8")
    limited = CliRunner().invoke(import_command, [str(deal), str(files[1]), "--db", str(db), "--jobs", "1",
                                                  "--analyse", "--max-seconds", str(LIMIT)])
    assert limited.exit_code == 0, limited.output
    assert "1 imported, 1 duplicate(s)" in limited.stdout  # the duplicate has its analysis already
    assert limited.stdout.splitlines()[1].startswith("1 analysed (0 complete, 1 stopped: time-limit)")

    plain = CliRunner().invoke(import_command, [str(files[0]), "--db", str(tmp_path / "plain.sqlite")])
    assert plain.exit_code == 0 and "analysed" not in plain.stdout and _rows(tmp_path / "plain.sqlite") == []


def test_belote_analyse_db_analyses_what_has_no_analysis(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite"
    with Archive(db) as archive:
        void, wrong = _ids(archive, VOID, OUT_OF_TURN)
        archive.analyse([void])
    result = CliRunner().invoke(belote, ["analyse", "--db", str(db), "--jobs", "1"])
    assert result.stdout.startswith(f"{db}: 1 analysed (0 complete, 1 stopped: illegal-play) in ")
    assert result.exit_code == 1  # an analysis stopped early
    again = CliRunner().invoke(belote, ["analyse", "--db", str(db)])
    assert again.exit_code == 0 and again.stdout.startswith(f"{db}: 0 analysed (0 complete) in ")
    assert [row[0] for row in _rows(db)] == [void, wrong]
    mixed = CliRunner().invoke(belote, ["analyse", "--db", str(db), str(tmp_path / "x.belote")])
    assert mixed.exit_code == 2 and "FILES cannot be used with it" in mixed.stderr
    missing = CliRunner().invoke(belote, ["analyse", "--db", str(tmp_path / "no" / "such" / "dir" / "a.sqlite")])
    assert missing.exit_code == 2 and missing.stderr.startswith("belote analyse: error: cannot open the archive")
