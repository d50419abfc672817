"""The fuzz guard (issue 15): mutated records of every profile and mutated JSON, through every
layer. Whatever the damage:

* reading and validating raise nothing but the documented errors, and every splitter (the
  reader's, the header scan, the chunks sent to worker processes) sees the same records;
* no record is dropped without a finding: one report per record, a syntax finding for each
  record that does not read;
* what reads is written canonically, and that text reads back as the same record and is a
  fixed point of the writer;
* ``import`` stores (or counts as duplicates or unparseable) exactly the records that
  ``validate`` counts;
* the command line exits 0, 1 or 2 with no traceback;
* JSON that ``from_json`` accepts is written into notation that reads back as the same record.

The standing run is small and derandomized; a long run is the same tests with more cases:
``BELOTE_FUZZ_CASES=100000 .venv/bin/python -m pytest tests/cli/test_fuzz_guard.py -p no:randomly``
(the import and command-line properties run a tenth of that).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import (JSONFormatError, RecordSyntaxError, WriteError, from_json, parse, parse_record, to_json,
                      write_record)
from notation.splitter import MAX_LINE, chunks, scan_headers, split_records
from notation.values import SEATS
from replayer.archive import Archive, ArchiveError
from replayer.check.matches import check_matches
from replayer.check.validator import validate
from replayer.cli import belote as cli
from replayer.engine.generator import generate_record, typed_by_hand
from replayer.engine.rules import PROFILES, Rules

ROOT = Path(__file__).resolve().parents[2]
LONG_RUN = "BELOTE_FUZZ_CASES" in os.environ
CASES = int(os.environ.get("BELOTE_FUZZ_CASES", "250"))
SLOW_CASES = max(CASES // 10, 25)  # import and command line: a process-sized step per case
SYNTAX_RULES = {"syntax-error", "duplicate-card", "hand-size"}  # validator._syntax_rule


def _pool() -> list[str]:
    """Records to damage: two generated deals of every profile, each also typed by hand, and the samples."""
    rng = random.Random(15)
    texts = []
    for k, name in enumerate(sorted(PROFILES)):
        for dealer in (SEATS[k % 4], SEATS[(k + 1) % 4]):
            text = str(generate_record(rng, Rules.parse(name), dealer, redeal_void=True))
            texts += [text, typed_by_hand(text, rng)]
    texts += [path.read_text(encoding="utf-8") for path in sorted((ROOT / "samples").glob("*.belote"))]
    return texts


POOL = _pool()
NUMBERS = ["0", "1", "7", "81", "162", "-5", "999999", "1000000", "99999999999999999999", "٣", "1e9", ""]
INSERTS = ["\x00", "\x07", "\x1b]0;owned\x07", "\x1b[31m", "\u202e", "\ufeff", "\r", "\t", "😀", "𝄞", "\ud7ff",
           "{", "}", "[", "]", '"', "\\", ";", "%", "*", "??", "10", "belote", "claim N", "play", "hand", "1.",
           "\n\n", "[Event \"x\"]\n", "coinche", "surcoinche", "capotH", "generaleTA", "announce N tierce"]
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKAtjqkaRDVrdv])[SHDC♠♥♦♣shdc](?![A-Za-z0-9])")
SEAT = re.compile(r"(?<![A-Za-z])[NESWnesw](?=:)")
NUMBER = re.compile(r"-?[0-9]+")


def _mutation(draw: Any, text: str) -> str:
    """One random change of ``text``: lines, cards, seats, numbers, characters, truncation."""
    kind = draw(st.sampled_from(["flip", "drop", "dup", "swap", "cards", "seat", "number", "insert", "cut",
                                 "long"]))
    lines = text.split("\n")
    pick = lambda limit: draw(st.integers(0, max(limit - 1, 0)))  # noqa: E731
    if kind in ("drop", "dup", "swap") and lines:
        i, j = pick(len(lines)), pick(len(lines))
        if kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(j, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind in ("cards", "seat", "number"):
        pattern = {"cards": CARD, "seat": SEAT, "number": NUMBER}[kind]
        spans = [m.span() for m in pattern.finditer(text)]
        if not spans:
            return text
        a, b = spans[pick(len(spans))]
        if kind == "cards":
            c, d = spans[pick(len(spans))]
            if (a, b) == (c, d):
                return text
            (a, b), (c, d) = sorted([(a, b), (c, d)])
            return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        new = draw(st.sampled_from("NESW")) if kind == "seat" else draw(st.sampled_from(NUMBERS))
        return text[:a] + new + text[b:]
    at = pick(len(text) + 1)
    if kind == "flip" and text:
        data = bytearray(text.encode("utf-8", "surrogateescape"))
        data[pick(len(data))] ^= 1 << draw(st.integers(0, 7))
        return data.decode("utf-8", "surrogateescape")
    if kind == "cut":
        return text[:at]
    if kind == "long":
        return text[:at] + "\n" + "x" * (MAX_LINE + 1) + "\n" + text[at:]
    return text[:at] + draw(st.sampled_from(INSERTS)) + text[at:]


@st.composite
def damaged_files(draw: Any) -> bytes:
    """One to three records of the pool, one to four changes."""
    count = draw(st.integers(1, 3))
    text = "\n".join(draw(st.sampled_from(POOL)) for _ in range(count))
    for _ in range(draw(st.integers(1, 4))):
        text = _mutation(draw, text)
    return text.encode("utf-8", "surrogateescape")


def _settings(cases: int) -> settings:
    return settings(max_examples=cases, deadline=None, derandomize=not LONG_RUN, database=None,
                    suppress_health_check=list(HealthCheck))


def _read_and_check(data: bytes) -> list:
    """Read, validate and write ``data``; the reports, after every property of reading holds."""
    results = list(parse(data))
    assert len(list(split_records(data))) == len(results)
    assert len(list(scan_headers(data))) == len(results)
    assert sum(len(list(split_records(part))) for part, _, _ in chunks(data, 64)) == len(results)
    reports = []
    for result in results:
        report = validate(result)
        reports.append(report)
        if result.data is None:
            [error] = result.errors
            assert isinstance(error, RecordSyntaxError) and "\n" not in error.problem
            assert report.findings and report.findings[0].rule in SYNTAX_RULES, report.findings
            continue
        record = result.record
        try:
            text = write_record(record)
        except WriteError:
            continue  # a comment the canonical form cannot hold: the archive keeps the text as written
        again = parse_record(text)
        assert again == record, text
        assert write_record(again) == text
    list(check_matches(reports))
    return reports


@_settings(CASES)
@given(damaged_files())
def test_damaged_files_read_validate_and_write_back(data: bytes) -> None:
    _read_and_check(data)


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    with Archive(tmp_path_factory.mktemp("fuzz") / "belote.sqlite") as opened:
        yield opened


@_settings(SLOW_CASES)
@given(damaged_files())
def test_import_stores_exactly_the_records_validate_counts(archive: Archive, tmp_path_factory, data: bytes) -> None:
    reports = _read_and_check(data)
    path = tmp_path_factory.mktemp("in") / "damaged.belote"
    path.write_bytes(data)
    before = archive.count()
    if not reports:  # no record at all: refused, as `belote import` refuses an empty file
        with pytest.raises(ArchiveError, match="no record found, nothing stored"):
            archive.import_files([path])
        assert archive.count() == before
        return
    summary = archive.import_files([path])
    assert summary.imported + summary.duplicates + len(summary.unparseable) == len(reports)
    assert len(summary.unparseable) == sum(1 for report in reports if report.rules is None)
    assert archive.count() == before + summary.imported


@_settings(SLOW_CASES)
@given(damaged_files(), st.sampled_from([["validate"], ["validate", "--format", "json"], ["score"], ["show"],
                                          ["fmt", "--check"], ["convert", "--to", "json"]]))
def test_the_command_line_exits_0_1_or_2_without_a_traceback(tmp_path_factory, data: bytes,
                                                             command: list[str]) -> None:
    path = tmp_path_factory.mktemp("cli") / "damaged.belote"
    path.write_bytes(data)
    result = CliRunner().invoke(cli, [*command, str(path)])
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-500:])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


# --- JSON ----------------------------------------------------------------------------------------

JSON_POOL = [to_json(result.record) for text in POOL[:24] for result in parse(text) if result.ok]
ODD_VALUES = [None, 0, -1, 10**30, 1.5, True, "", "\ud800", "x\ny", "Bad Name!", "ZZ", "??", [], {}, [[[[[]]]]],
              "10H", "80H", "capotH", ["N", "AS"], {"seat": "N"}]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON value, down to the depth records have (a value
    nested deeper by an earlier change is one value)."""
    out = [path]
    if len(path) < 8 and isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, path + (key,))
    elif len(path) < 8 and isinstance(value, list):
        for k, item in enumerate(value):
            out += _paths(item, path + (k,))
    return out


@st.composite
def damaged_json(draw: Any) -> Any:
    value = json.loads(json.dumps(draw(st.sampled_from(JSON_POOL))))
    for _ in range(draw(st.integers(1, 3))):
        paths = [path for path in _paths(value) if path]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = value
        for step in path[:-1]:
            parent = parent[step]
        kind = draw(st.sampled_from(["set", "delete", "duplicate", "nest"]))
        if kind == "set":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))  # later changes stay in this value
        elif kind == "delete":
            del parent[path[-1]]
        elif kind == "duplicate" and isinstance(parent, list):
            parent.append(parent[path[-1]])
        else:
            deep: Any = parent[path[-1]]
            for _ in range(draw(st.sampled_from([2, 50, 5000]))):
                deep = [deep]
            parent[path[-1]] = deep
    return value


@_settings(CASES)
@given(damaged_json())
def test_damaged_json_is_refused_with_a_path_or_written_into_notation_that_reads_back(value: Any) -> None:
    try:
        record = from_json(value)
    except JSONFormatError as error:
        assert str(error) and "\n" not in str(error)
        return
    validate(record)  # never raises
    try:
        text = write_record(record)
    except WriteError:
        return
    assert parse_record(text) == record, text
