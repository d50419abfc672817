"""The running score sheet of a match, from the validation reports of its deals."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from notation.values import Seat, Team
from notation.parser import parse_file, parse_record
from replayer.check.scoresheet import AFTER_THE_END, AS_RECORDED, LitigeAward, score_sheet
from replayer.check.report import Report
from replayer.check.validator import validate

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

# samples/12-match.belote, played to 1000: (dealer, contract, taker, outcome, deal score, totals after)
MATCH_ROWS = [
    (E, None, None, "void", (0, 0), (0, 0)),
    (N, "D", W, "made", (35, 127), (35, 127)),
    (W, "D", N, "made", (88, 74), (123, 201)),
    (S, "H", E, "made", (25, 137), (148, 338)),
    (E, "D", N, "made", (130, 32), (278, 370)),
    (N, "S", W, "failed", (162, 0), (440, 370)),
    (W, "S", S, "failed", (0, 162), (440, 532)),
    (S, "H", N, "made", (107, 55), (547, 587)),
    (E, "D", W, "made", (0, 252), (547, 839)),
    (N, "S", N, "made", (119, 63), (666, 902)),
    (W, "C", W, "made", (72, 110), (738, 1012)),
]


def sample_texts(name: str) -> list[str]:
    return [result.record.source.text for result in parse_file(SAMPLES / name)]


def one_by_one(texts: list[str]) -> list[Report]:
    """Each record validated alone, as the site does from the archive (every index 0)."""
    return [validate(parse_record(text)) for text in texts]


@pytest.fixture(scope="module")
def match_reports() -> list[Report]:
    return one_by_one(sample_texts("12-match.belote"))


def test_the_sample_match_sheet_row_by_row(match_reports):
    sheet = score_sheet(match_reports, keys=list(range(101, 112)))
    got = [(r.dealer, r.contract_text, r.taker, r.outcome, r.scores, r.after) for r in sheet.rows]
    assert got == MATCH_ROWS
    assert [r.before for r in sheet.rows] == [(0, 0)] + [row[5] for row in MATCH_ROWS[:-1]]
    assert [r.key for r in sheet.rows] == list(range(101, 112))
    assert [r.number for r in sheet.rows] == list(range(1, 12))
    assert all(r.score_tag_agrees is True and r.valid and r.errors == 0 for r in sheet.rows)
    assert all(r.litige_held == 0 and r.litige_award is None and r.litige_pending == 0 for r in sheet.rows)


def test_the_sample_match_is_won_by_ew_at_the_last_deal(match_reports):
    sheet = score_sheet(match_reports)
    assert sheet.totals == (738, 1012) and sheet.target == 1000
    assert sheet.winner is Team.EW and sheet.winning_deal == 11
    assert sheet.findings == () and sheet.pending_litige == 0
    assert sheet.series(Team.NS) == [row[5][0] for row in MATCH_ROWS]
    assert sheet.series(Team.EW)[-3:] == [839, 902, 1012]


def test_the_header_comes_from_the_first_deal(match_reports):
    sheet = score_sheet(match_reports)
    assert (sheet.event, sheet.round, sheet.site, sheet.date) == (
        "Championnat du Rhône, phase de poules", "Poule B, table 4", "Villeurbanne", "2026.03.12")
    assert sheet.players == ("Odile Perrin", "Gérard Faure", "Nadia Haddad", "Louis Gauthier")
    assert sheet.player(E) == "Gérard Faure"
    assert (sheet.variant, str(sheet.rules)) == ("belote", "ffb")
    assert sheet.team_names(Team.NS) == "Odile Perrin & Nadia Haddad"
    assert sheet.team_names(Team.EW) == "Gérard Faure & Louis Gauthier"


def test_a_litige_open_at_the_end_is_shown_held_and_lost():
    sheet = score_sheet(one_by_one(sample_texts("07-litige.belote")))
    (row,) = sheet.rows
    assert (row.outcome, row.scores, row.after) == ("litige", (0, 81), (0, 81))
    assert (row.litige_held, row.litige_award, row.litige_pending) == (81, None, 81)
    assert sheet.pending_litige == 81 and sheet.winner is None and sheet.winning_deal is None
    assert [f.rule for f in row.findings] == ["litige-lost"]


def retag(text: str, **tags: str) -> str:
    lines = text.split("\n")
    for name, value in tags.items():
        (i,) = [i for i, line in enumerate(lines) if line.startswith(f'[{name} "')]
        lines[i] = f'[{name} "{value}"]'
    return "\n".join(lines)


def test_a_litige_hold_is_carried_to_the_winner_of_the_next_deal():
    tie = sample_texts("07-litige.belote")[0]  # N deals, N takes, 81-81: 81 held
    made_by_ns = sample_texts("12-match.belote")[2]  # W deals, N takes and makes 88-74
    follow = retag(made_by_ns, Event="Tournoi du Café des Sports", Round="1", Deal="2", Score="0-81")
    sheet = score_sheet(one_by_one([tie, follow]))
    first, second = sheet.rows
    assert (first.litige_held, first.litige_pending, first.after) == (81, 81, (0, 81))
    assert second.scores == (88, 74)
    assert second.litige_award == LitigeAward(Team.NS, 81)
    assert (second.litige_held, second.litige_pending, second.after) == (0, 0, (169, 155))
    assert sheet.totals == (169, 155) and sheet.findings == ()


def test_a_score_tag_that_disagrees_is_marked_on_its_row():
    texts = sample_texts("12-match.belote")
    texts[4] = retag(texts[4], Score="148-300")
    sheet = score_sheet(one_by_one(texts))
    row = sheet.rows[4]
    assert (row.score_tag, row.before, row.score_tag_agrees) == ((148, 300), (148, 338), False)
    assert [f.rule for f in row.findings] == ["score-tag-mismatch"]
    assert row.findings[0].message == "deal 5: Score 148-300 but the match stands at 148-338 before this deal"
    assert [r.number for r in sheet.rows if r.findings] == [5]
    assert sheet.totals == (738, 1012)  # the tag is checked, never used


def test_a_wrong_dealer_is_reported_on_its_row(match_reports):
    reports = list(match_reports)
    reports[3] = dataclasses.replace(reports[3], dealer=N)  # S should deal after W
    sheet = score_sheet(reports)
    assert [(r.number, [f.rule for f in r.findings]) for r in sheet.rows if r.findings] == [
        (4, ["dealer-rotation"]), (5, ["dealer-rotation"])]
    assert sheet.rows[3].findings[0].message == "deal 4: North deals but South should, after West (direction ccw)"


def test_a_deal_after_the_win_is_not_counted(match_reports):
    sheet = score_sheet([*match_reports, match_reports[1]])  # deal 2 again: N deals, Score 0-0
    last = sheet.rows[-1]
    assert (last.number, last.outcome, last.before, last.after) == (12, AFTER_THE_END, (738, 1012), None)
    assert [f.rule for f in last.findings] == ["score-tag-mismatch", "dealer-rotation", "match-over"]
    assert sheet.winning_deal == 11 and sheet.totals == (738, 1012)
    assert sheet.series(Team.EW)[-1] is None


def test_a_deal_not_rescored_counts_its_recorded_result(match_reports):
    reports = list(match_reports)
    reports[1] = dataclasses.replace(reports[1], score=None)  # its Result 35-127 stands in
    sheet = score_sheet(reports)
    assert (sheet.rows[1].outcome, sheet.rows[1].scores, sheet.rows[1].contract) == (AS_RECORDED, (35, 127), None)
    assert sheet.totals == (738, 1012)


def test_unknown_scores_leave_the_totals_unknown(match_reports):
    reports = list(match_reports)
    reports[9] = dataclasses.replace(reports[9], score=None, recorded=None)
    sheet = score_sheet(reports)
    assert [r.after for r in sheet.rows[8:]] == [(547, 839), None, None]
    assert (sheet.rows[9].outcome, sheet.totals, sheet.winner, sheet.winning_deal) == ("unscored", None, None, None)
    assert sheet.rows[10].score_tag_agrees is None


def test_keys_must_match_the_deals(match_reports):
    with pytest.raises(ValueError, match="2 keys for 11 deals"):
        score_sheet(match_reports, keys=[1, 2])


def test_an_empty_match_has_an_empty_sheet():
    sheet = score_sheet([])
    assert (sheet.rows, sheet.totals, sheet.winner, sheet.event, sheet.players) == ((), (0, 0), None, None,
                                                                                   (None,) * 4)
    assert sheet.team_names(Team.NS) == "NS"


def test_the_sheet_as_json(match_reports):
    data = json.loads(json.dumps(score_sheet(match_reports, keys=list(range(11))).as_dict()))
    assert (data["totals"], data["winner"], data["winning_deal"], data["target"]) == ([738, 1012], "EW", 11, 1000)
    assert data["players"] == {"north": "Odile Perrin", "east": "Gérard Faure", "south": "Nadia Haddad",
                               "west": "Louis Gauthier"}
    assert data["rows"][5] == {
        "number": 6, "key": 5, "deal": "6", "dealer": "N", "contract": "S", "taker": "W", "outcome": "failed",
        "scores": [162, 0], "recorded": [162, 0], "before": [278, 370], "after": [440, 370],
        "score_tag": [278, 370], "score_tag_agrees": True, "litige_held": 0, "litige_award": None,
        "litige_pending": 0, "valid": True, "errors": 0, "findings": []}
