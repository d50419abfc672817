"""Statistics over the samples archive: figures counted by hand from samples/*.belote.

Anne Martin sits North in 01, 02, 05, 06, 08, 13 and 16: she takes 01 (♦, 101-61), 02, 05 and
16 (♥, 107-75, 118-64, 118-64), all made; East takes 06 (capot, 0-252) and 08 (failed,
162-0); her partner Claire Dubois takes 13 (♣, failed, 20-202)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from replayer.archive import Archive, SearchError, SearchQuery


@pytest.fixture
def archive(tmp_path: Path, samples_archive: Path):
    path = tmp_path / "belote.sqlite"
    shutil.copyfile(samples_archive, path)
    with Archive(path) as opened:
        yield opened


def test_a_players_figures(archive):
    data = archive.player_stats("Anne Martin")
    f = data["figures"]
    assert (f["played"], f["taken"], f["made"], f["failed"], f["litiges"], f["capots"]) == (7, 4, 4, 0, 0, 0)
    assert f["avg_taker_score"] == 92.8  # (101 + 107 + 118 + 20 + 118) / 5: her side took 5
    assert f["avg_defender_score"] == 81.0  # (0 + 162) / 2
    assert [(r["denomination"], r["taken"], r["made"]) for r in data["contracts"]["by_denomination"]] == \
        [("H", 3, 3), ("D", 1, 1)]
    assert data["partners"] == [{"partner": "Claire Dubois", "played": 7, "taken": 5, "made": 4}]
    assert [(r["profile"], r["played"]) for r in data["profiles"]] == [("ffb", 6), ("ffb-annonces", 1)]


def test_an_opponent_and_a_capot(archive):
    f = archive.player_stats("Bruno Lefèvre")["figures"]
    assert (f["taken"], f["made"], f["failed"], f["capots"]) == (2, 1, 1, 1)


def test_a_partnership(archive):
    data = archive.partnership_stats("Anne Martin", "Claire Dubois")
    f = data["figures"]
    assert (f["played"], f["taken"], f["made"], f["failed"]) == (7, 5, 4, 1)
    assert [(r["denomination"], r["taken"], r["failed"]) for r in data["contracts"]["by_denomination"]] == \
        [("H", 3, 0), ("D", 1, 0), ("C", 1, 1)]


def test_filters_are_the_search_filters(archive):
    f = archive.player_stats("Anne Martin", SearchQuery(profile="ffb-annonces"))["figures"]
    assert (f["played"], f["taken"]) == (1, 0)
    with pytest.raises(SearchError) as caught:
        archive.player_stats("Anne Martin", SearchQuery(date_from="2026-13-45"))
    assert "date_from" in caught.value.problems
    assert archive.player_stats("Nobody") is None


def test_players_table_sorts_and_filters(archive):
    page = archive.players(sort="player", descending=False, per_page=100)
    names = [row["player"] for row in page["rows"]]
    assert names == sorted(names) and "Anne Martin" in names
    anne = next(row for row in page["rows"] if row["player"] == "Anne Martin")
    assert (anne["played"], anne["taken"]) == (7, 4)
    filtered = archive.players(SearchQuery(player="Anne Martin"), per_page=100)  # the deals she played
    assert {row["player"] for row in filtered["rows"]} >= {"Anne Martin", "Claire Dubois", "Denis Moreau"}
    assert archive.players(sort="'; DROP TABLE records; --")["sort"] == "played"  # a whitelist


def test_rows_go_with_a_deleted_record(archive, classic_text):
    submission = archive.add(classic_text.replace('[North "Anne"]', '[North "Zoé Unique"]'))
    assert submission.ids
    assert archive.player_stats("Zoé Unique")["figures"]["played"] >= 1
    for record_id in submission.ids:
        assert archive.delete(record_id, submission.token)
    assert archive.player_stats("Zoé Unique") is None
    assert not archive.db.execute("SELECT 1 FROM player_totals WHERE player = 'Zoé Unique'").fetchone()


def test_an_older_archive_gets_its_statistics(tmp_path, samples_archive):
    path = tmp_path / "old.sqlite"
    shutil.copyfile(samples_archive, path)
    with Archive(path) as archive:  # made as an archive of the version before: no statistics tables
        expected = archive.player_stats("Anne Martin")
        archive.db.execute("DROP TABLE deal_players")
        archive.db.execute("DROP TABLE player_totals")
        archive.db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm007_deal_players'")
    with Archive(path) as archive:
        assert archive.player_stats("Anne Martin") == expected
        assert archive.players()["total"] == archive.db.execute(
            "SELECT count(DISTINCT player) FROM deal_players").fetchone()[0]


def test_a_players_figures_by_event(archive):
    """Han Ji-woo played the Namu night's 5 deals (17-namu) and its match to 500 (18-namu-match, 8 deals)."""
    events = archive.player_stats("Han Ji-woo")["events"]
    assert [(r["event"], r["played"], r["taken"], r["made"]) for r in events] == [
        ("나무 블로트의 밤, 500점 경기 (match to 500)", 8, 2, 1), ("나무 블로트의 밤 (Namu Belote Night)", 5, 1, 1)]
