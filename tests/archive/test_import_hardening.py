"""Imports that lose nothing (issue 15): a number too big for SQLite in one record (a Result,
a Score, a bid) is a finding of that record, never an aborted import nor a failed
submission (D); a record that does not read does not split its stored match (item 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.parser import parse
from replayer.archive import Archive
from replayer.check import validate

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = (ROOT / "samples" / "01-classic-round1.belote").read_text(encoding="utf-8")
COINCHE = (ROOT / "samples" / "09-coinche-surcoinche.belote").read_text(encoding="utf-8")
HUGE = "99999999999999999999"


def _one(text: str):
    [result] = parse(text)
    return validate(result)


def test_a_result_out_of_range_is_a_finding_at_its_tag() -> None:
    text = CLASSIC.replace('[Result "101-61"]', f'[Result "{HUGE}-0"]')
    report = _one(text)
    [finding] = report.findings
    assert (finding.rule, finding.location.line, finding.location.column) == ("result-unreadable", 17, 1)
    assert finding.message == (f"Result tag '{HUGE}-0' is not a score pair such as 92-70: "
                               "a score is out of range (at most 6 digits)")
    assert report.recorded is None and report.rescored == (101, 61)


def test_six_digits_are_still_a_score_and_non_ascii_digits_are_not() -> None:
    assert _one(CLASSIC.replace('[Result "101-61"]', '[Result "999999-0"]')).recorded == (999999, 0)
    assert _one(CLASSIC.replace('[Result "101-61"]', '[Result "١٠١-٦١"]')).recorded is None


def test_a_bid_out_of_range_is_a_syntax_error_with_its_place() -> None:
    [result] = parse(COINCHE.replace("E:110C", f"E:{HUGE}0C"))
    [error] = result.errors
    assert (error.line, error.column) == (24, 53)
    assert error.args[0] == f"bid value out of range: {HUGE}0 (at most 4 digits)"
    assert "bid-value" in _one(COINCHE.replace("E:110C", "E:1100C")).rule_ids  # 4 digits are read


@pytest.mark.parametrize("change", [
    ('[Result "101-61"]', f'[Result "{HUGE}-0"]'),
    ('[Result "101-61"]', f'[Result "-{HUGE}-{HUGE}"]'),
    ('[Deal "1"]', f'[Deal "1"]\n[Score "{HUGE}-0"]\n[Result "?"]'),
])
def test_the_import_stores_every_record(tmp_path: Path, change: tuple[str, str]) -> None:
    bad = tmp_path / "a.belote"
    bad.write_text(CLASSIC.replace(*change), encoding="utf-8")
    other = ROOT / "samples" / "02-classic-round2.belote"
    with Archive(tmp_path / "belote.sqlite") as archive:
        summary = archive.import_files([bad, other])
        assert archive.count() == 2 and summary.unparseable == ()
        assert archive.get(1)["recorded_ns"] is None and archive.get(1)["rescored_ns"] == 101


def test_a_submission_with_a_huge_bid_is_stored_as_unparseable_not_an_error(tmp_path: Path) -> None:
    with Archive(tmp_path / "belote.sqlite") as archive:
        submission = archive.add(COINCHE.replace("E:110C", f"E:{HUGE}C") + "\n" + CLASSIC)
        [rejected] = submission.rejected
        assert rejected.rule == "syntax-error"
        assert len(submission.ids) == 1 and archive.count() == 1


def test_a_record_that_does_not_read_does_not_split_its_stored_match(tmp_path: Path) -> None:
    """Issue 15, item 10: the deal is not stored, its match stays one match, and the totals
    go on from the next deal's Score tag: no false score-tag-mismatch."""
    match = (ROOT / "samples" / "12-match.belote").read_text(encoding="utf-8")
    parts = match.split("\n\n[Event")
    parts[6] = parts[6].replace("play\n", "play\n0. ZZ\n", 1)  # deal 6 no longer reads
    path = tmp_path / "match.belote"
    path.write_text("\n\n[Event".join(parts), encoding="utf-8")
    with Archive(tmp_path / "belote.sqlite") as archive:
        summary = archive.import_files([path])
        assert (summary.imported, len(summary.unparseable)) == (10, 1)
        [row] = archive.db.execute("SELECT deals, errors, final_ns, final_ew FROM matches").fetchall()
        assert row == (10, 0, 738, 1012)  # as the whole match (tests/check/test_matches.py)
