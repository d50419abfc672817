"""No record is ever lost: over-long lines, merged records, unknown turned cards (issue 15 A, B).

Regression tests: every record of a file comes out of every reader (as a record or as an
error), whatever splits it, and what the writer prints reads back as the same records.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation import splitter as scan
from notation.errors import LimitError
from notation.jsonio import from_json, to_json
from notation.parser import parse, parse_record
from notation.splitter import MAX_RECORD, scan_headers, split_records
from notation.writer import dumps, write_record
from replayer.archive import Archive
from replayer.cli import belote
from replayer.check.validator import validate_stream

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "samples" / "01-classic-round1.belote").read_text(encoding="utf-8")
DEAL_2 = SAMPLE.replace('[Deal "1"]', '[Deal "2"]')
LONG = 3_000_000  # over MAX_RECORD: the line alone is beyond both limits


def _long_line_between() -> bytes:
    """The issue's file: a deal, a 3 MB line, another deal."""
    return (SAMPLE + "\n" + "x" * LONG + "\n\n" + DEAL_2).encode()


def _long_event_then_deal() -> bytes:
    """A deal whose [Event line is over 2 MB, the rest of the deal after it."""
    return ('[Event "' + "y" * LONG + '"]\n' + SAMPLE.split("\n", 3)[3]).encode()


def _splits(data: bytes, monkeypatch) -> dict[str, list]:
    """The records of ``data`` by every way in: text, bytes, a stream, the line splitter alone."""
    ways = {"bytes": list(split_records(data)), "text": list(split_records(data.decode())),
            "stream": list(split_records(io.BytesIO(data)))}
    with monkeypatch.context() as patch:
        patch.setattr(scan, "_FAST", False)
        ways["lines"] = list(split_records(io.BytesIO(data)))
    return ways


def test_a_line_over_the_record_limit_is_an_error_record_and_every_other_record_is_kept(monkeypatch):
    assert LONG > MAX_RECORD
    data = _long_line_between()
    for way, records in _splits(data, monkeypatch).items():
        assert [raw.problem is not None for raw in records] == [False, True, False], way
        assert [raw.first_line for raw in records] == [3, 36, 40], way
        assert records[1].problem.kind == "limit" and records[1].problem.line == 36, way
    results = list(parse(io.BytesIO(data)))
    assert [result.ok for result in results] == [True, False, True]
    assert isinstance(results[1].errors[0], LimitError) and results[1].errors[0].line == 36
    assert [result.record.tag("Deal") for result in (results[0], results[2])] == ["1", "2"]
    assert [h.first_line for h in scan_headers(data)] == [3, 36, 40]


def test_a_tag_line_over_the_record_limit_makes_one_error_record(monkeypatch):
    data = _long_event_then_deal()
    for way, records in _splits(data, monkeypatch).items():
        assert len(records) == 1 and records[0].problem.kind == "limit" and records[0].first_line == 1, way
    assert len(list(scan_headers(data))) == 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_validate_counts_every_record_in_one_process_or_two(jobs):
    reports = list(validate_stream(_long_line_between(), jobs=jobs))
    assert [report.ok for report in reports] == [True, False, True]
    assert [f.rule for f in reports[1].findings] == ["syntax-error"]
    assert reports[1].findings[0].location.line == 36


def test_the_command_line_reports_the_long_record_and_fmt_refuses_to_rewrite(tmp_path):
    path = tmp_path / "f.belote"
    data = _long_line_between()
    path.write_bytes(data)
    runner = CliRunner()
    for jobs in ("1", "2"):
        result = runner.invoke(belote, ["validate", "-j", jobs, str(path)])
        assert result.exit_code == 1, result.output
        assert "3 record(s), 1 with errors" in result.output
        assert f"{path}:36:" in result.output
    result = runner.invoke(belote, ["fmt", str(path)])
    assert result.exit_code == 1 and path.read_bytes() == data  # not written: it could not be read whole
    long_event = tmp_path / "g.belote"
    long_event.write_bytes(_long_event_then_deal())
    result = runner.invoke(belote, ["validate", str(long_event)])
    assert result.exit_code == 1 and "1 record(s), 1 with errors" in result.output


def test_import_sees_the_records_that_validate_sees(tmp_path):
    path = tmp_path / "f.belote"
    path.write_bytes(_long_line_between())
    with Archive(tmp_path / "a.sqlite") as archive:
        summary = archive.import_files([path])
    assert summary.imported == 2 and len(summary.unparseable) == 1 and summary.unparseable[0][1] == 36


# --- B: what the writer prints reads back as the same records -------------------------------------

def test_a_record_of_tags_alone_stays_apart_from_a_record_without_tags():
    text = '[Event "a"]\nplay\n\nhand N AS\n'
    records = [result.record for result in parse(text)]
    assert len(records) == 2
    again = [result.record for result in parse(dumps(records))]
    assert again == records
    assert dumps(again) == dumps(records)  # idempotent


def test_an_unknown_turned_card_and_its_comment_are_written():
    text = '[Variant "belote"]\n\nturned ?? {la retourne}\ntaking pass take\n'
    record = parse_record(text)
    assert record.turned_comments == ("la retourne",)
    written = write_record(record)
    assert "turned ?? {la retourne}" in written
    assert parse_record(written) == record
    assert from_json(to_json(record)) == record
    assert to_json(record)["turned"] == "??"
