"""Writers of one archive file at once: ``belote import`` processes, the site's submissions,
deletions and migrations wait their turn for SQLite's write lock up to a stated timeout,
then fail with a clear message (``ArchiveBusyError``, exit 2, HTTP 503 with Retry-After).

The lock is held from the test by a plain sqlite3 connection (``BEGIN IMMEDIATE``, what
another import does) and released after a short delay, so the tests are fast and
deterministic; the last test runs two real ``belote import`` processes and a site writer
together.
"""

from __future__ import annotations

import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from notation.values import SEATS
from replayer.archive import DEFAULT_TIMEOUT, Archive, ArchiveBusyError, ArchiveError
from replayer.cli.import_command import import_command
from replayer.archive.schema import MIGRATIONS, migrate
from replayer.engine.generator import generate_record
from replayer.engine.rules import Rules
from replayer.web.errors import handle_database_error

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "01-classic-round1.belote"  # one deal
CARD_NOT_HELD = (ROOT / "samples" / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
BELOTE = Path(sys.executable).with_name("belote")
SAMPLES_IN_SITE = 59  # the site's archive starts with the samples (records 1..59)
DELAY = 0.3  # seconds the lock is held before it is released
BUSY = re.compile(r"the archive .+ is busy: another import or a submission is writing to it; tried for 0\.2 s")


@contextmanager
def write_lock(path: Path, *, release_after: float | None = None) -> Iterator[None]:
    """Hold the archive's write lock as another writer would (``BEGIN IMMEDIATE``) until the
    block ends, or only ``release_after`` seconds (from another thread) if given."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    timer = threading.Timer(release_after, holder.execute, ["ROLLBACK"]) if release_after is not None else None
    if timer is not None:
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.join()
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()


def _records(count: int, seed: int) -> str:
    """``count`` generated deals of one event, all different from the samples'."""
    rng = random.Random(seed)
    rules = Rules.parse("ffb")
    return "\n".join(str(generate_record(rng, rules, SEATS[i % 4], deal_number=i + 1, event=f"Club {seed}",
                                         redeal_void=True)) for i in range(count))


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """An empty archive, created and closed."""
    path = tmp_path / "belote.sqlite"
    Archive(path).close()
    return path


# --- the archive ------------------------------------------------------------------------------

def test_busy_error_is_an_archive_error() -> None:
    assert issubclass(ArchiveBusyError, ArchiveError)
    assert DEFAULT_TIMEOUT == 30


@pytest.mark.parametrize("write", ["import_files", "import_text", "add", "delete"])
def test_a_writer_waits_for_the_lock_then_succeeds(path: Path, write: str) -> None:
    with Archive(path) as archive:
        token = archive.add(CARD_NOT_HELD).token if write == "delete" else None
        with write_lock(path, release_after=DELAY):
            start = time.monotonic()
            if write == "import_files":
                assert archive.import_files([SAMPLE]).imported == 1
            elif write == "import_text":
                assert archive.import_text(SAMPLE.read_text(encoding="utf-8")).imported == 1
            elif write == "add":
                assert archive.add(CARD_NOT_HELD).ids == (1,)
            else:
                assert archive.delete(1, token) is True
            waited = time.monotonic() - start
        assert waited >= DELAY - 0.05  # it waited for the lock rather than failing or writing past it
        assert archive.count() == (0 if write == "delete" else 1)


@pytest.mark.parametrize("write", ["import_text", "add", "delete"])
def test_a_writer_gives_up_after_its_timeout_with_a_clear_message(path: Path, write: str) -> None:
    with Archive(path, timeout=0.2) as archive:
        archive.import_files([SAMPLE])
        token = archive.add(CARD_NOT_HELD).token
        before = archive.count()
        with write_lock(path):
            start = time.monotonic()
            with pytest.raises(ArchiveBusyError, match=BUSY) as raised:
                if write == "import_text":
                    archive.import_text(CARD_NOT_HELD.replace("Club", "Cercle"))
                elif write == "add":
                    archive.add(CARD_NOT_HELD.replace("Club", "Cercle"))
                else:
                    archive.delete(2, token)
            waited = time.monotonic() - start
        assert 0.15 <= waited < 2
        assert str(archive.path) in str(raised.value) and "\n" not in str(raised.value)
        assert archive.count() == before  # nothing written, and the archive still works
        assert archive.add(CARD_NOT_HELD.replace("Club", "Cercle")).ids == (3,)


def test_migrations_at_open_wait_for_the_lock_and_run_once(tmp_path: Path) -> None:
    """Another process creates the archive while this one opens it: this one waits, then
    finds the migrations applied instead of applying them a second time."""
    path = tmp_path / "new.sqlite"
    other = Database(sqlite3.connect(path, check_same_thread=False))
    other.enable_wal()
    other.execute("BEGIN IMMEDIATE")
    opened: list[object] = []
    opener = threading.Thread(target=lambda: opened.append(_open(path)))
    opener.start()
    time.sleep(DELAY)  # the opener is waiting for the lock by now
    migrate(other)
    other.execute("COMMIT")
    opener.join(timeout=10)
    other.close()
    assert opened == [[migration.name for migration in MIGRATIONS.pending(Database(memory=True))]]


def _open(path: Path) -> list[str] | Exception:
    """The migrations the archive at ``path`` has applied, once opened; or the error."""
    try:
        with Archive(path) as archive:
            return [migration.name for migration in MIGRATIONS.applied(archive.db)]
    except Exception as error:  # reported to the test thread
        return error


def test_migrations_at_open_give_up_after_the_timeout(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    other = Database(sqlite3.connect(path))
    other.enable_wal()
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ArchiveBusyError, match=BUSY):
            Archive(path, timeout=0.2)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with Archive(path) as archive:  # nothing half done: it opens and migrates normally
        assert archive.count() == 0


# --- belote import --------------------------------------------------------------------------

def test_cli_waits_for_the_lock_then_imports(path: Path) -> None:
    with write_lock(path, release_after=DELAY):
        result = CliRunner().invoke(import_command, [str(SAMPLE), "--db", str(path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert ": 1 imported" in result.stdout


def test_cli_gives_up_after_its_timeout_with_one_line_exit_2(path: Path) -> None:
    with write_lock(path):
        result = CliRunner().invoke(import_command, [str(SAMPLE), "--db", str(path), "--timeout", "0.2"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("importing")  # the progress bar, then one line
    assert lines[1].startswith("belote import: error: ") and BUSY.search(lines[1]), lines
    assert str(path) in lines[1] and "Traceback" not in result.output
    with Archive(path) as archive:
        assert archive.count() == 0


# --- the site ---------------------------------------------------------------------------------

def post_store(client, csrf: str, text: str):
    return client.post("/submit/store", data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data")


def test_site_default_timeout(app) -> None:
    assert app.config["DB_TIMEOUT"] == 5


def test_store_waits_for_an_import_then_stores(app, client, csrf) -> None:
    with write_lock(Path(app.config["DB"]), release_after=DELAY):
        response = post_store(client, csrf, CARD_NOT_HELD)
    assert response.status_code == 200
    assert f'href="/r/{SAMPLES_IN_SITE + 1}"' in response.get_data(as_text=True)


def test_store_during_a_long_import_is_503_with_retry_after_and_keeps_the_text(app, client, csrf) -> None:
    app.config["DB_TIMEOUT"] = 0.2
    with write_lock(Path(app.config["DB"])):
        response = post_store(client, csrf, CARD_NOT_HELD)
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    assert "The archive is busy" in html and "Nothing was stored" in html
    assert "[Event &#34;" in html or "[Event &quot;" in html  # the text is back in the form, to send again
    with Archive(app.config["DB"]) as archive:
        assert archive.count() == SAMPLES_IN_SITE


def test_delete_during_a_long_import_is_the_503_page(app, client, csrf) -> None:
    with Archive(app.config["DB"]) as archive:
        token = archive.add(CARD_NOT_HELD).token
    app.config["DB_TIMEOUT"] = 0.2
    with write_lock(Path(app.config["DB"])):
        response = client.post(f"/delete/{SAMPLES_IN_SITE + 1}", data={"csrf_token": csrf, "token": token})
    html = response.get_data(as_text=True)
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    assert "503 · Busy" in html and "The archive is busy" in html
    assert client.get(f"/r/{SAMPLES_IN_SITE + 1}").status_code == 200  # not deleted


@contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Keep every other connection out, readers too (another tool in exclusive locking mode)."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize("url", ["/", "/r/1", "/api/records", "/api/records/1"])
def test_reads_locked_out_are_503_never_500(app, client, url: str) -> None:
    app.config["DB_TIMEOUT"] = 0.2
    with exclusive_lock(Path(app.config["DB"])):
        response = client.get(url)
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    if url.startswith("/api/"):
        assert response.json["error"]["status"] == 503 and "busy" in response.json["error"]["message"]
    else:
        assert "503 · Busy" in response.get_data(as_text=True)
    assert client.get(url).status_code == 200  # and all is well once the lock is gone


def test_other_database_errors_stay_faults() -> None:
    with pytest.raises(sqlite3.OperationalError, match="no such table"):  # Flask makes it a logged 500
        handle_database_error(sqlite3.OperationalError("no such table: records"))


# --- all at once ------------------------------------------------------------------------------

def test_two_imports_and_a_site_writer_at_once_all_succeed_in_turn(app, client, csrf, tmp_path: Path) -> None:
    db = Path(app.config["DB"])
    app.config["DB_TIMEOUT"] = 20  # a loaded machine must not make this test flaky
    files = []
    for seed in (1, 2):
        files.append(tmp_path / f"club{seed}.belote")
        files[-1].write_text(_records(40, seed), encoding="utf-8")
    stored: list[int] = []
    with write_lock(db):  # everybody starts while an import holds the archive
        imports = [subprocess.Popen([str(BELOTE), "import", str(file), "--db", str(db), "--jobs", "1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for file in files]
        site = threading.Thread(target=lambda: stored.append(post_store(client, csrf, CARD_NOT_HELD).status_code))
        site.start()
        for process in imports:  # its progress bar starts: the archive is open, the import about to begin
            assert process.stderr.readline().startswith("importing")
    outputs = [process.communicate(timeout=60) for process in imports]
    site.join(timeout=30)
    for process, (out, err) in zip(imports, outputs):
        assert process.returncode == 0, err
        assert ": 40 imported, 0 duplicate(s)" in out
    assert stored == [200]
    total = SAMPLES_IN_SITE + 40 + 40 + 1
    with Archive(db) as archive:
        assert archive.count() == total
        assert [row["id"] for row in archive.db.query("SELECT id FROM records ORDER BY id")] == list(
            range(1, total + 1))
        assert archive.db.execute("SELECT count(*) FROM records_fts").fetchone()[0] == total
        assert archive.db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert archive.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert "records_ai" in {trigger.name for trigger in archive.db["records"].triggers}
