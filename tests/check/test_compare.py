"""What-if rules (replayer.check.compare): one deal under two or more rule sets, the rows that
differ, the findings that appear or vanish, records that do not read or cannot be scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notation.parser import ParseResult, parse
from replayer.check.compare import SCORE_ROWS, Comparison, compare_rules, label
from replayer.check.validator import validate
from replayer.engine.rules import Rules

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def record(name: str, index: int = 0) -> ParseResult:
    return list(parse((SAMPLES / name).read_text(encoding="utf-8")))[index]


def compare(name: str, *texts: str, index: int = 0) -> Comparison:
    return compare_rules(record(name, index), [Rules.parse(text) for text in texts])


def rows(comparison: Comparison) -> dict[str, tuple]:
    return {row.key: (row.values, row.differs) for row in comparison.rows}


def findings(items) -> list[tuple]:
    return [(f.rule, f.location.line, f.location.column) for f in items]


def test_rounding_changes_the_score_of_a_capot_and_the_result_check():
    # West's capot in spades: EW 252 + melds 20 = 272 + 250; ffb-coinche rounds 522 down to 520
    comparison = compare("10-capot-bid.belote", "ffb-coinche", "ffb-coinche; rounding=none")
    assert [row.key for row in comparison.rows] == [
        "contract", "contract_value", "capot", "outcome", "formula", *(field for _, field in SCORE_ROWS),
        "scores", "result"]  # no multiplier (x1) nor litige hold: nothing to show
    got = rows(comparison)
    assert got["contract"] == ((("capotS by W",), ("capotS by W",)), False)
    assert got["contract_value"] == (((250,), (250,)), False)
    assert got["capot"] == ((("EW",), ("EW",)), False)
    assert got["formula"] == ((("takers 272 + 250x1, defenders 0",),) * 2, False)
    assert got["card_points"] == (((0, 152), (0, 152)), False)
    assert got["last_trick"] == (((0, 100), (0, 100)), False)
    assert got["melds"] == (((0, 20), (0, 20)), False)
    assert got["total"] == (((0, 272), (0, 272)), False)
    assert got["rounding"] == (((0, -2), (0, 0)), True)
    assert got["score"] == (((0, 520), (0, 522)), True)
    assert got["scores"] == ((("0-520",), ("0-522",)), True)
    assert got["result"] == ((("matches",), ("differs",)), True)
    assert [row.label for row in comparison.rows][-1] == "Result tag 0-520"
    a, b = comparison.scored
    assert (a.label, a.rules_text, a.score.scores, a.errors, a.result_matches) == ("A", "ffb-coinche", (0, 520), 0, True)
    assert (b.label, b.rules_text, b.score.scores, b.errors, b.result_matches) == (
        "B", "ffb-coinche; rounding=none", (0, 522), 1, False)
    (change,) = comparison.changes
    assert (change.base, change.other) == (0, 1)
    assert findings(change.appear) == [("result-mismatch", 17, 1)]
    assert change.appear[0].message.startswith("Result 0-520 but the deal rescores to 0-522 (NS +0, EW -2)")
    assert change.vanish == change.same == ()
    assert comparison.differs


def test_a_failed_sides_belote_goes_to_the_defence():
    comparison = compare("13-comments.belote", "ffb-annonces", "ffb-annonces; belote_kept_on_failure=false")
    got = rows(comparison)
    assert got["outcome"] == ((("failed",), ("failed",)), False)
    assert got["formula"] == ((("defenders 162 + belote + melds = 202, takers 20",),
                               ("defenders 162 + belote + melds = 222, takers 0",)), True)
    assert got["belote"] == (((20, 0), (20, 0)), False)
    assert got["score"] == (((20, 202), (0, 222)), True)
    assert [row.key for row in comparison.rows if row.differs] == ["formula", "score", "scores", "result"]
    assert findings(comparison.changes[0].appear) == [("result-mismatch", 17, 1)]


def test_a_finding_vanishes_when_the_rule_it_breaks_is_off():
    comparison = compare("invalid/follow-or-trump-undertrump.belote", "club-classic", "club-classic; must_overtrump=false")
    assert not any(row.differs for row in comparison.rows)
    assert rows(comparison)["score"] == (((153, 99), (153, 99)), False)
    (change,) = comparison.changes
    assert change.appear == change.same == ()
    assert findings(change.vanish) == [("must-overtrump", 31, 21)]
    assert (change.vanish[0].location.trick, change.vanish[0].location.card) == (2, 4)
    assert comparison.differs  # the findings differ, the breakdown does not
    # the other way round, it appears
    back = compare("invalid/follow-or-trump-undertrump.belote", "club-classic; must_overtrump=false", "club-classic")
    assert findings(back.changes[0].appear) == [("must-overtrump", 31, 21)] and back.changes[0].vanish == ()


def test_a_finding_appears_without_the_partner_exemption():
    comparison = compare("04-announcements.belote", "ffb-annonces", "ffb-annonces; partner_exemption=false", index=1)
    assert rows(comparison)["score"] == (((217, 65), (217, 65)), False)
    assert findings(comparison.changes[0].appear) == [("must-trump", 69, 16)]
    assert comparison.changes[0].appear[0].message == (
        "trick 5: North played 9♥ but held no club and held Q♦ while South (North's partner) was winning with A♣: "
        "North had to trump")


def test_three_rule_sets_compare_the_first_with_each_other():
    comparison = compare("10-capot-bid.belote", "ffb-coinche", "ffb-coinche; rounding=none", "ffb-contree")
    assert [s.label for s in comparison.scored] == ["A", "B", "C"]
    assert rows(comparison)["score"] == (((0, 520), (0, 522), (0, 500)), True)
    assert [(c.base, c.other) for c in comparison.changes] == [(0, 1), (0, 2)]
    assert findings(comparison.changes[1].appear) == [
        ("result-mismatch", 17, 1), ("melds-not-played", 25, 12), ("melds-not-played", 26, 12)]


def test_the_same_rules_twice_agree():
    comparison = compare("10-capot-bid.belote", "ffb-coinche", "ffb-coinche")
    assert not comparison.differs
    assert not any(row.differs for row in comparison.rows)
    assert comparison.changes[0].appear == comparison.changes[0].vanish == ()


def test_findings_under_both_are_the_same():
    comparison = compare("invalid/follow-or-trump-undertrump.belote", "club-classic", "club-classic; rounding=none")
    assert findings(comparison.changes[0].same) == [("must-overtrump", 31, 21)]
    assert comparison.changes[0].appear == comparison.changes[0].vanish == ()


def test_rules_that_cannot_score_the_deal_say_why():
    comparison = compare("10-capot-bid.belote", "ffb-coinche", "ffb")
    a, b = comparison.scored
    assert a.note is None and b.score is None
    assert b.note == "not scored: the Result tag cannot be checked: the deal could not be rescored"
    got = rows(comparison)
    assert got["score"] == (((0, 520), (None, None)), True)
    assert got["contract"] == ((("capotS by W",), (None,)), True)
    assert got["result"] == ((("matches",), (None,)), True)
    assert [f.rule for f in comparison.changes[0].appear] == [
        "not-rescored", "wrong-bidding-kind", "melds-not-played", "melds-not-played"]


def test_a_record_that_does_not_read_is_not_scored_under_any_rules():
    result = next(iter(parse("hello\n")))
    comparison = compare_rules(result, [Rules.parse("ffb"), Rules.parse("ffb-annonces")])
    assert [s.note for s in comparison.scored] == [
        'not scored: unexpected "hello": expected a tag pair, a hand, the turned card, taking, auction, '
        "an announcement or play"] * 2
    assert all(cell is None for row in comparison.rows for cells in row.values for cell in cells)
    assert not comparison.differs
    assert findings(comparison.changes[0].same) == [("syntax-error", 1, 1)]


def test_a_stopped_play_and_a_void_deal():
    stopped = compare("14-partial.belote", "ffb", "ffb-annonces")
    assert [s.note for s in stopped.scored] == [
        "not scored: the play stops after 12 cards (*): the deal is not rescored"] * 2
    assert findings(stopped.changes[0].same) == [("play-stopped", 29, 1)]
    void = compare("03-void-deal.belote", "ffb", "ffb-annonces")
    assert [s.note for s in void.scored] == ["void deal: nobody took, no score"] * 2
    got = rows(void)
    assert got["outcome"] == ((("void",), ("void",)), False)
    assert got["contract"] == (((None,), (None,)), False)
    assert got["scores"] == ((("0-0",), ("0-0",)), False)


def test_a_record_made_in_code_compares_as_read():
    result = record("10-capot-bid.belote")
    rules = [Rules.parse("ffb-coinche"), Rules.parse("ffb-coinche; rounding=none")]
    assert compare_rules(result.record, rules).as_dict() == compare_rules(result, rules).as_dict()
    assert compare_rules(result.data, rules).rows == compare_rules(result, rules).rows


def test_the_reports_are_the_validators():
    result = record("10-capot-bid.belote")
    comparison = compare_rules(result, [Rules.parse("ffb-coinche"), Rules.parse("ffb-contree")])
    for scored in comparison.scored:
        report = validate(result, scored.rules, repair=False)
        assert scored.report == report
        assert (scored.score, scored.findings) == (report.score, report.findings)


def test_as_dict_is_json():
    comparison = compare("10-capot-bid.belote", "ffb-coinche", "ffb-coinche; rounding=none")
    data = json.loads(json.dumps(comparison.as_dict()))
    assert (data["record"], data["rules"], data["differs"]) == (0, ["ffb-coinche", "ffb-coinche; rounding=none"], True)
    assert data["rows"][0] == {"key": "contract", "label": "contract", "per_side": False,
                               "values": ["capotS by W", "capotS by W"], "differs": False}
    score = next(row for row in data["rows"] if row["key"] == "score")
    assert score == {"key": "score", "label": "deal score", "per_side": True, "values": [[0, 520], [0, 522]],
                     "differs": True}
    a, b = data["rule_sets"]
    assert (a["label"], a["rules"], a["ok"], a["errors"], a["result_matches"], a["score"]["score"]) == (
        "A", "ffb-coinche", True, 0, True, [0, 520])
    assert (b["ok"], b["note"], b["recorded_result"], b["result_matches"]) == (False, None, [0, 520], False)
    (change,) = data["findings"]
    assert (change["from"], change["to"], change["vanish"], change["same"]) == ("A", "B", [], [])
    assert [(f["rule"], f["line"]) for f in change["appear"]] == [("result-mismatch", 17)]


def test_fewer_than_two_rule_sets_is_a_mistake():
    with pytest.raises(ValueError, match="two or more rule sets, got 1"):
        compare_rules(record("10-capot-bid.belote"), [Rules.parse("ffb-coinche")])


def test_labels():
    assert [label(i) for i in (0, 1, 2, 25, 26)] == ["A", "B", "C", "Z", "R27"]
