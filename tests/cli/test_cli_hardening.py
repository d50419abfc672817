"""The command line against hostile or unusual input (issue 15 E, I, J, 11): ``import`` takes
its inputs as the other commands do, ``fmt`` writes through a symbolic link, record text
never reaches the terminal as control characters, directories and ``--exclude``, the JSON
output keeps no match report in memory, and ``serve`` refuses what it cannot start on with
one line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tomllib
import tracemalloc
from pathlib import Path

import flask
import pytest
from click.testing import CliRunner

from replayer import cli as cli_module
from replayer.archive import Archive
from replayer.cli import belote, generated_records
from replayer.cli.import_command import import_command
from replayer.engine.rules import Rules
from replayer.web import serve

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "01-classic-round1.belote"
FAULTY = ROOT / "samples" / "invalid" / "card-not-held.belote"


def run(*args: object, stdin: bytes | None = None):
    return CliRunner().invoke(belote, [str(a) for a in args], input=stdin, catch_exceptions=False)


# --- import: inputs as the other commands take them (J) ------------------------------------------

def test_import_reads_standard_input(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    result = CliRunner().invoke(import_command, ["-", "--db", str(db)], input=SAMPLE.read_bytes())
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{db}: 1 imported, 0 duplicate(s), 0 with findings (0 invalid), 0 unparseable\n"
    assert Archive(db).count() == 1


@pytest.mark.parametrize("content, message", [
    (b"", "empty input, no record"),
    (b"\n  \n\t\n", "no record found, nothing stored"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00[Event \"x\"]\n", "binary data (NUL bytes), not Belote records"),
])
def test_import_refuses_an_input_without_records_with_one_line_and_stores_nothing(tmp_path: Path, content: bytes,
                                                                                 message: str) -> None:
    bad = tmp_path / "bad.belote"
    bad.write_bytes(content)
    db = tmp_path / "a.sqlite"
    result = CliRunner().invoke(import_command, [str(SAMPLE), str(bad), "--db", str(db)])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"belote import: error: {bad}: {message}"
    assert "\0" not in result.output and result.stdout == ""
    assert Archive(db).count() == 0  # one transaction: the good file before it is not stored either
    for command in ("validate", "show"):  # the same words as the other commands
        assert run(command, bad).exit_code == 2


def test_import_of_a_real_executable_is_refused_as_binary(tmp_path: Path) -> None:
    binary = Path(sys.executable).resolve()
    result = CliRunner().invoke(import_command, [str(binary), "--db", str(tmp_path / "a.sqlite")])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == \
        f"belote import: error: {binary}: binary data (NUL bytes), not Belote records"


def test_import_help_names_the_archive_it_opens_by_default() -> None:
    result = CliRunner().invoke(import_command, ["--help"], terminal_width=200)
    assert result.exit_code == 0
    assert ("The archive file (default: $BELOTE_DB, else belote.sqlite in the site's instance folder, the archive "
            "`belote serve` opens).") in " ".join(result.output.split())
    assert "FILES are record files or - for standard input." in " ".join(result.output.split())


# --- fmt through a symbolic link (J) ---------------------------------------------------------------

def test_fmt_writes_through_a_symbolic_link_and_keeps_it(tmp_path: Path) -> None:
    target = tmp_path / "real" / "deal.belote"
    target.parent.mkdir()
    target.write_text('[Event "x"]\nhand n as\n', encoding="utf-8")
    link = tmp_path / "link.belote"
    link.symlink_to(target)
    result = run("fmt", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == '% belote-notation 1.0\n\n[Event "x"]\n\nhand N AS\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.belote", "real"]  # no temporary file left


# --- control characters of a record never reach the terminal (J) ------------------------------------

HOSTILE = (SAMPLE.read_text(encoding="utf-8")
           .replace('[Event "', '[Event "\x1b]0;owned\x07\x9b2J\u202e')
           .replace('[North "', '[North "\x1b[2J\r'))


@pytest.mark.parametrize("command", ["show", "score", "validate"])
def test_show_score_and_validate_escape_the_control_characters_of_tag_values(tmp_path: Path, command: str) -> None:
    path = tmp_path / "hostile.belote"
    path.write_text(HOSTILE.replace("[Result", "\x1b[Result") if command == "validate" else HOSTILE, encoding="utf-8")
    result = run(command, path)
    assert result.exit_code in (0, 1)
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\r"):
        assert raw not in result.output, (command, raw)
    if command == "validate":
        assert "\\x1b[Result" in result.output  # the word a syntax error quotes
    else:
        assert "\\x1b]0;owned\\x07\\x9b2J\\u202e" in result.output
    if command == "show":
        assert "\\x1b[2J\\r" in result.output  # a player's name


# --- directories and --exclude (11) ----------------------------------------------------------------

def _tree(tmp_path: Path) -> Path:
    top = tmp_path / "records"
    for name, source in (("ok.belote", SAMPLE), ("invalid/bad.belote", FAULTY), ("drafts/x-draft.belote", FAULTY),
                         ("drafts/kept.belote", SAMPLE)):
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        (top / name).write_bytes(source.read_bytes())
    return top


def test_a_directory_stands_for_its_record_files_in_its_subdirectories_too(tmp_path: Path) -> None:
    result = run("validate", _tree(tmp_path))
    assert result.exit_code == 1
    assert result.stdout.endswith("4 record(s), 2 with errors: 2 error(s), 0 warning(s)\n")


def test_exclude_leaves_out_paths_below_a_directory_by_glob(tmp_path: Path) -> None:
    top = _tree(tmp_path)
    result = run("validate", top, "--exclude", "invalid", "--exclude", "*-draft.belote")
    assert (result.exit_code, result.stdout) == (0, "2 record(s), 0 with errors: 0 error(s), 0 warning(s)\n")
    assert run("validate", top, "--exclude", "drafts/*", "--exclude", "inv*").stdout.startswith("1 record(s)")
    named = run("validate", top / "invalid" / "bad.belote", "--exclude", "invalid", "--exclude", "*.belote")
    assert named.exit_code == 1  # a file named itself is never left out
    every = run("validate", top, "--exclude", "*.belote")
    assert (every.exit_code, every.stderr) == (2, f"belote: {top}: is a directory\n")
    check = run("fmt", "--check", top, "--exclude", "invalid", "--exclude", "drafts")
    assert check.exit_code == 0 and check.stderr.endswith("0 file(s) would be reformatted, 1 unchanged, "
                                                          "0 not formatted\n")


def test_the_samples_directory_validates_clean_without_its_invalid_records() -> None:
    assert run("validate", ROOT / "samples").exit_code == 1  # samples/invalid/ holds faulty records on purpose
    result = run("validate", ROOT / "samples", "--exclude", "invalid")
    assert result.exit_code == 0, result.output
    help_text = " ".join(run("validate", "--help").output.split())
    assert "in their subdirectories too: see --exclude" in help_text and "--exclude PATTERN" in help_text


def test_the_wheel_installs_no_script_of_the_folders_it_installs_as_data() -> None:
    """setuptools installs every ``*.py`` at the top of a package's folder as a module: the folders
    that pyproject.toml maps to data packages (templates, static, samples) must hold none."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = [ROOT / folder for folder in config["package-dir"].values()]
    assert folders and all(folder.is_dir() for folder in folders)
    assert [str(script.relative_to(ROOT)) for folder in folders for script in sorted(folder.glob("*.py"))] == []


# --- the JSON output keeps no match report in memory (I) ---------------------------------------------

def _match_file(tmp_path: Path, count: int) -> Path:
    path = tmp_path / f"m{count}.belote"
    text = "".join(str(record) + "\n" for record in generated_records(random.Random(7), Rules.parse("ffb"), count))
    path.write_text(text, encoding="utf-8")
    return path


def _validate_json_peak(path: Path) -> tuple[int, str]:
    """The peak of Python's allocations while ``validate --format json`` runs in this process,
    its output going to a file (not kept), and that output."""
    out = path.with_suffix(".json")
    with open(out, "w", encoding="utf-8") as stream:
        saved, sys.stdout = sys.stdout, stream
        tracemalloc.start()
        try:
            with pytest.raises(SystemExit):
                belote.main(["validate", "--format", "json", str(path)], prog_name="belote")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            sys.stdout = saved
    return peak, out.read_text(encoding="utf-8")


def test_validate_json_writes_the_matches_without_keeping_them(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(cli_module, "MATCHES_IN_MEMORY", 1000)  # the spool goes to disk at once
    small, large = _match_file(tmp_path, 60), _match_file(tmp_path, 600)
    _validate_json_peak(small)  # caches warm
    small_peak, _ = _validate_json_peak(small)
    large_peak, output = _validate_json_peak(large)
    document = json.loads(output)
    assert len(document["records"]) == 600 and len(document["matches"]) >= 40
    assert large_peak - small_peak < 400_000, (small_peak, large_peak)  # kept, 600 deals' matches take 1.5 MB


def test_validate_json_is_the_same_document_whether_the_matches_spill_to_disk_or_not(tmp_path: Path,
                                                                                   monkeypatch) -> None:
    path = _match_file(tmp_path, 120)
    in_memory = run("validate", "--format", "json", path)
    monkeypatch.setattr(cli_module, "MATCHES_IN_MEMORY", 10)
    on_disk = run("validate", "--format", "json", path)
    assert in_memory.stdout == on_disk.stdout
    document = json.loads(on_disk.stdout)
    assert list(document) == ["records", "matches", "summary"] and document["summary"]["records"] == 120
    assert [m["round"] for m in document["matches"]] == [str(n) for n in range(1, len(document["matches"]) + 1)]


def test_validate_of_a_two_megabyte_hostile_record_reports_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "brackets.belote"
    path.write_bytes(b"[\n" * 990_000 + b"\n" + SAMPLE.read_bytes())
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{path}:10001:1: error [syntax-error] record longer than 10000 lines",
                                          "2 record(s), 1 with errors: 1 error(s), 0 warning(s)"]


def test_a_result_of_other_digits_is_no_score() -> None:
    """Only ASCII digits are digits in the notation: ``٣-٣`` is not 3-3."""
    text = SAMPLE.read_text(encoding="utf-8").replace('[Result "', '[Result "\u0663-\u0663" ]\n[X "')
    result = run("validate", "-", stdin=text.encode())
    line = next(number for number, line in enumerate(text.split("\n"), 1) if line.startswith("[Result"))
    assert f"-:{line}:1: warning [result-unreadable] Result tag '\u0663-\u0663' is not a score pair such as 92-70" \
        in result.stdout.splitlines()


# --- serve: what it cannot start on, in one line (E) -------------------------------------------------

def _started(*args: object, **kwargs: object) -> None:
    raise AssertionError("the site started: it should have refused to")


def _serve(monkeypatch, *args: object):
    monkeypatch.setenv("BELOTE_SECRET_KEY", "test")  # the instance folder's secret key is not needed
    monkeypatch.setattr(serve, "listen", _started)  # a site that starts fails the test, not hangs it
    return CliRunner().invoke(belote, ["serve", "--port", "0", *map(str, args)])


def _archive(path: Path) -> Path:
    with Archive(path) as archive:
        archive.import_files([SAMPLE])
    return path


@pytest.mark.parametrize("kind", ["not-sqlite", "truncated", "foreign", "impossible-path"])
def test_serve_refuses_a_database_it_cannot_use_with_one_line(tmp_path: Path, monkeypatch, kind: str) -> None:
    db = tmp_path / "site.sqlite"
    if kind == "not-sqlite":
        db.write_text("hello\n" * 1000, encoding="utf-8")
        expected = f"cannot open the archive {db}: file is not a database"
    elif kind == "truncated":
        data = _archive(tmp_path / "whole.sqlite").read_bytes()
        db.write_bytes(data[:len(data) // 2])
        expected = f"cannot open the archive {db}: database disk image is malformed"
    elif kind == "foreign":
        _foreign(db)
        expected = f"{db} is a database but not a Belote archive (it holds people): it is left as it is"
    else:
        (tmp_path / "file").write_text("x", encoding="utf-8")
        db = tmp_path / "file" / "site.sqlite"
        expected = f"cannot use {tmp_path / 'file'}: File exists"
    before = db.read_bytes() if db.exists() else None
    result = _serve(monkeypatch, "--db", db)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"belote serve: error: {expected}\n")
    assert (db.read_bytes() if db.exists() else None) == before


def _foreign(path: Path) -> None:
    import sqlite3

    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE people (name TEXT)")
    connection.commit()
    connection.close()


def _make_read_only(path: Path) -> bool:
    """A file the process cannot write: its mode, or for root (whom modes do not stop) the
    immutable attribute; False when neither is possible here."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return True
    return subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0


def test_serve_refuses_a_read_only_archive(tmp_path: Path, monkeypatch) -> None:
    db = _archive(tmp_path / "site.sqlite")
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    if not _make_read_only(db):
        pytest.skip("no way to make a file read-only here")
    try:
        result = _serve(monkeypatch, "--db", db)
    finally:
        subprocess.run(["chattr", "-i", str(db)], capture_output=True)
        db.chmod(0o644)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == \
        f"belote serve: error: the archive {db} cannot be written: attempt to write a readonly database\n"


@pytest.mark.parametrize("secret", ["folder", "not-text"])
def test_serve_refuses_an_unreadable_secret_key_with_one_line(tmp_path: Path, monkeypatch, secret: str) -> None:
    instance = tmp_path / "instance"
    key = instance / "secret_key"
    if secret == "folder":
        key.mkdir(parents=True)
        expected = f"cannot use {key}: Is a directory"
    else:
        instance.mkdir()
        key.write_bytes(b"\xff\xfe not ascii")
        expected = ("the secret key or a configuration file is not text: 'ascii' codec can't decode byte 0xff "
                    "in position 0: ordinal not in range(128)")
    monkeypatch.setattr(flask.Flask, "auto_find_instance_path", lambda self: str(instance))
    monkeypatch.setattr(serve, "listen", _started)
    monkeypatch.delenv("BELOTE_SECRET_KEY", raising=False)
    result = CliRunner().invoke(belote, ["serve", "--db", str(tmp_path / "site.sqlite"), "--port", "0"])
    assert (result.exit_code, result.stderr) == (2, f"belote serve: error: {expected}\n")


def test_serve_in_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    db = tmp_path / "junk.sqlite"
    db.write_bytes(b"\0junk" * 100)
    env = {**os.environ, "BELOTE_SECRET_KEY": "test"}
    result = subprocess.run([sys.executable, "-m", "replayer.cli", "serve", "--db", str(db), "--port", "0"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"belote serve: error: cannot open the archive {db}: file is not a database\n"
