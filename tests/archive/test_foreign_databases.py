"""The archive is made only in an empty database or kept in its own (issue 15 E): a database of
another program is refused and left byte for byte as it was, whoever opens it (``belote
import``, ``belote serve``); an import of a source that holds no record stores nothing."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.archive import Archive, ArchiveError
from replayer.cli.import_command import import_command

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "01-classic-round1.belote"


def _database(path: Path, *statements: str) -> Path:
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    return path


def _journal_mode(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        connection.close()


@pytest.mark.parametrize("statements, holds", [
    (["CREATE TABLE people (name TEXT)", "INSERT INTO people VALUES ('Ann')"], "people"),
    (["CREATE TABLE a (x)", "CREATE TABLE b (x)", "CREATE VIEW c AS SELECT 1", "CREATE INDEX d ON a (x)"],
     "a, b, c, ..."),
    (["CREATE TABLE _sqlite_migrations (migration_set TEXT, name TEXT, applied_at TEXT)",
      "INSERT INTO _sqlite_migrations VALUES ('other-app', 'm001', 'now')"], "_sqlite_migrations"),
])
def test_a_database_of_another_program_is_refused_and_left_as_it_was(tmp_path: Path, statements: list[str],
                                                                     holds: str) -> None:
    path = _database(tmp_path / "other.sqlite", *statements)
    before = path.read_bytes()
    with pytest.raises(ArchiveError) as refused:
        Archive(path)
    assert str(refused.value) == \
        f"{path} is a database but not a Belote archive (it holds {holds}): it is left as it is"
    assert path.read_bytes() == before and _journal_mode(path) == "delete"  # not even switched to WAL
    assert sorted(os.listdir(tmp_path)) == ["other.sqlite"]


def test_import_into_a_database_of_another_program_exits_2_with_one_line(tmp_path: Path) -> None:
    path = _database(tmp_path / "other.sqlite", "CREATE TABLE people (name TEXT)")
    before = path.read_bytes()
    result = CliRunner().invoke(import_command, [str(SAMPLE), "--db", str(path)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (f"belote import: error: {path} is a database but not a Belote archive "
                                              "(it holds people): it is left as it is")
    assert path.read_bytes() == before


def test_an_empty_file_and_an_archive_are_opened(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    with Archive(empty) as archive:
        archive.import_files([SAMPLE])
    with Archive(empty) as again:  # an archive now: opened again
        assert again.count() == 1


def test_an_import_of_a_source_without_records_stores_nothing(tmp_path: Path) -> None:
    with Archive(tmp_path / "a.sqlite") as archive:
        blank = tmp_path / "blank.belote"
        blank.write_text("\n  \n% only an escape line\n", encoding="utf-8")
        with pytest.raises(ArchiveError, match=f"^{blank}: no record found, nothing stored$"):
            archive.import_files([SAMPLE, blank])
        with pytest.raises(ArchiveError, match="^piped: no record found, nothing stored$"):
            archive.import_streams([("good", io.BytesIO(SAMPLE.read_bytes()), None), ("piped", io.BytesIO(b""), None)])
        assert archive.count() == 0
        summary = archive.import_streams([("good", io.BytesIO(SAMPLE.read_bytes()), None)])
        assert (summary.imported, archive.count()) == (1, 1)
        assert archive.import_text("").imported == 0  # a text (the site's) may be empty: nothing to do


def test_check_writable_passes_an_archive_that_can_be_written(tmp_path: Path) -> None:
    with Archive(tmp_path / "a.sqlite") as archive:
        archive.import_files([SAMPLE])
        version = archive.db.execute("PRAGMA user_version").fetchone()[0]
        archive.check_writable()
        assert archive.db.execute("PRAGMA user_version").fetchone()[0] == version and archive.count() == 1


def test_check_writable_refuses_a_read_only_archive(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    with Archive(path) as archive:
        archive.import_files([SAMPLE])
    if os.geteuid() != 0:
        path.chmod(0o444)
    elif subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("no way to make a file read-only here")
    try:
        with Archive(path, upgrade=False) as archive, pytest.raises(ArchiveError) as refused:
            archive.check_writable()
        assert str(refused.value) == f"the archive {path} cannot be written: attempt to write a readonly database"
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
        path.chmod(0o644)
