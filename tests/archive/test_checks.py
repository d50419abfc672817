"""The checked texts the site keeps (``replayer.archive.checks``): by token, until they expire,
within a room; the oldest go first; what storing one did is kept once."""

from __future__ import annotations

import re
import sqlite3
import zlib
from pathlib import Path

import pytest

from replayer.archive import ArchiveBusyError
from replayer.archive.checks import CheckStore, CheckTooLargeError, checks_path

NOW = 1_750_000_000.0
TEXT = '[Event "Club"]\n\nhand N AS KS\n' * 50


@pytest.fixture
def store(tmp_path: Path):
    with CheckStore(tmp_path / "belote-checks.sqlite", timeout=0.1) as checks:
        yield checks


def size_of(text: str, summary: str) -> int:
    return len(zlib.compress(text.encode())) + len(zlib.compress(summary.encode()))


def test_the_file_is_beside_the_archive() -> None:
    assert checks_path("/srv/club/belote.sqlite") == Path("/srv/club/belote-checks.sqlite")
    assert checks_path("games.db") == Path("games-checks.sqlite")


def test_a_check_is_kept_under_a_random_token_until_it_expires(store: CheckStore) -> None:
    token = store.keep(TEXT, '{"records": []}', lifetime=60, room=10**6, now=NOW)
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", token)
    kept = store.get(token, now=NOW + 59.9)
    assert (kept.token, kept.text, kept.summary, kept.outcome, kept.expires) == (
        token, TEXT, '{"records": []}', None, NOW + 60)
    assert store.get(token, now=NOW + 60) is None
    assert store.get("A" * 24, now=NOW) is None
    assert store.keep(TEXT, "{}", lifetime=60, room=10**6, now=NOW) != token


def test_expired_checks_are_dropped_by_the_next_one(store: CheckStore) -> None:
    old = store.keep(TEXT, "{}", lifetime=10, room=10**6, now=NOW)
    store.keep(TEXT, "{}", lifetime=10, room=10**6, now=NOW + 11)
    assert store.db.execute("SELECT count(*) FROM kept_checks WHERE token = ?", [old]).fetchone() == (0,)


def test_the_oldest_checks_go_to_make_room(store: CheckStore) -> None:
    one = size_of(TEXT, "{}")
    tokens = [store.keep(TEXT, "{}", lifetime=3600, room=3 * one, now=NOW + i) for i in range(5)]
    kept = [token for token in tokens if store.get(token, now=NOW + 10) is not None]
    assert kept == tokens[2:]
    assert store.db.execute("SELECT sum(size) FROM kept_checks").fetchone() == (3 * one,)


def test_a_check_larger_than_the_room_is_refused(store: CheckStore) -> None:
    with pytest.raises(CheckTooLargeError, match=r"this check takes \d+ bytes compressed, more than the 10 kept"):
        store.keep(TEXT, "{}", lifetime=60, room=10, now=NOW)
    assert store.db.execute("SELECT count(*) FROM kept_checks").fetchone() == (0,)


def test_what_storing_did_is_kept_once(store: CheckStore) -> None:
    token = store.keep(TEXT, "{}", lifetime=60, room=10**6)
    assert store.note_stored(token, '{"ids": [39]}') is True
    assert store.note_stored(token, '{"ids": []}') is False  # a second store changes nothing
    assert store.get(token).outcome == '{"ids": [39]}'
    assert store.note_stored("A" * 24, "{}") is False


def test_a_row_edited_by_hand_is_no_check(store: CheckStore) -> None:
    token = store.keep(TEXT, "{}", lifetime=60, room=10**6)
    store.db.execute("UPDATE kept_checks SET text = x'00ff' WHERE token = ?", [token])
    assert store.get(token) is None


def test_a_busy_file_is_an_archive_busy_error(tmp_path: Path, store: CheckStore) -> None:
    holder = sqlite3.connect(store.path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(ArchiveBusyError, match="are busy: another request is writing to them"):
            store.keep(TEXT, "{}", lifetime=60, room=10**6)
        assert store.get("A" * 24) is None  # reading does not wait (WAL)
    finally:
        holder.close()
