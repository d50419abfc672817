"""replayer.web.checking: a text checked, its summary kept as JSON, one record checked again."""

from __future__ import annotations

from pathlib import Path

from replayer.check.findings import Severity
from replayer.web.checking import REPAIRED_RECORDS, SHOWN_FINDINGS, CheckSummary, check, recheck

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
INVALID = sorted((SAMPLES / "invalid").glob("*.belote"))


def test_a_record_checked_again_has_the_findings_of_the_check_and_its_repairs() -> None:
    text = "\n".join(path.read_text(encoding="utf-8") for path in INVALID)
    result = check(text, repaired=0)
    assert len(result.records) > REPAIRED_RECORDS
    for record in result.records:
        again = recheck(result.text, record.first_line, record.last_line, record.index)
        assert again is not None
        assert [f.as_dict() | {"repairs": []} for f in again.findings] == [
            f.as_dict() | {"repairs": []} for f in record.report.findings]
        assert not any(f.repairs for f in record.report.findings)
    assert any(f.repairs for record in result.records
               for f in recheck(result.text, record.first_line, record.last_line, record.index).findings)


def test_repair_suggestions_for_the_first_records_with_errors_only() -> None:
    must_trump = (SAMPLES / "invalid" / "must-trump.belote").read_text(encoding="utf-8")
    result = check("\n".join([must_trump] * (REPAIRED_RECORDS + 2)))
    repaired = [any(f.repairs for f in r.report.findings) for r in result.records]
    assert repaired == [True] * REPAIRED_RECORDS + [False, False]


def test_the_summary_keeps_counts_and_the_first_findings_and_reads_back() -> None:
    card_not_held = (SAMPLES / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
    result = check(card_not_held + "\n" + card_not_held.replace("E:JS", "E:XZ"), hashes=True)
    summary = CheckSummary.of(result, {result.records[0].hash: 7})
    again = CheckSummary.from_json(summary.to_json())
    assert again == summary
    first, second = again.records
    assert (first.number, first.stored_id, first.same_as, first.parsed, first.errors) == (1, 7, None, True, 1)
    assert (second.number, second.stored_id, second.parsed, second.findings[0].rule) == (2, None, False, "syntax-error")
    assert again.counts == {
        "records": 2, "storable": 1, "unreadable": 1, "valid": 0, "with_errors": 2, "with_warnings": 0,
        "with_findings": 2, "already_stored": 1, "repeated": 0, "new": 0, "errors": 2, "warnings": 0,
        "matches": 0, "matches_with_findings": 0}
    assert first.findings[0].severity is Severity.ERROR and first.more == 0
    assert SHOWN_FINDINGS == 10
