"""Matches: running totals, litige carried, dealer rotation, the target, Score tags."""

from __future__ import annotations

import dataclasses
import random

import pytest

from notation.values import Denomination, Seat, Team
from replayer.engine.contract import Contract
from replayer.engine.generator import generate_match
from replayer.check.matches import check_match, check_matches
from replayer.engine.rules import Rules
from replayer.engine.scoring import FinishedDeal, score_deal
from replayer.check.report import Report
from replayer.check.validator import validate

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
FFB = Rules.parse("ffb")


def deal_score(taker: Seat, ns_points: int, last: Team, tricks=(2, 2, 2, 2), rules: Rules = FFB):
    """A classic hearts deal where NS took ``ns_points`` card points (of 152)."""
    deal = FinishedDeal(Contract(taker, Denomination.HEARTS), (ns_points, 152 - ns_points), last, tricks)
    return score_deal(deal, rules)


def report(index: int, dealer: Seat, score, before: str | None, event: str = "Club", rules: str = "ffb") -> Report:
    tags = [("Event", event), ("Deal", str(index + 1)), ("Dealer", str(dealer))]
    if before is not None:
        tags.append(("Score", before))
    return Report(index, (), Rules.parse(rules), tuple(tags), dealer, score, score.scores if score else None, (index * 20 + 1,
                                                                                                      index * 20 + 19))


def rules_of(match) -> list[tuple[str, int | None]]:
    return [(f.rule, f.location.record) for f in match.findings]


def test_litige_is_carried_to_the_winner_of_the_next_scored_deal():
    tie = deal_score(N, 71, Team.NS)  # NS 71 + 10 = 81, EW 81: litige, 81 held
    assert tie.scores == (0, 81) and tie.litige_hold == 81
    made_by_ew = deal_score(E, 50, Team.EW)  # EW takers 102 + 10 = 112: made, they get the 81 held
    after = deal_score(S, 100, Team.NS)
    match = check_match([report(0, N, tie, "0-0"), report(1, W, made_by_ew, "0-81"),
                         report(2, S, after, "50-274")])
    assert rules_of(match) == []
    assert [d.after for d in match.deals] == [(0, 81), (50, 274), (160, 326)]
    assert match.totals == (160, 326) and match.winner is None and match.pending_litige == 0


def test_a_score_tag_that_forgets_the_litige_is_reported():
    tie = deal_score(N, 71, Team.NS)
    made_by_ew = deal_score(E, 50, Team.EW)
    after = deal_score(S, 100, Team.NS)
    match = check_match([report(0, N, tie, "0-0"), report(1, W, made_by_ew, "0-81"),
                         report(2, S, after, "50-193")])
    assert rules_of(match) == [("score-tag-mismatch", 2)]
    assert match.findings[0].message == "deal 3: Score 50-193 but the match stands at 50-274 before this deal"
    assert (match.findings[0].location.line, match.findings[0].location.column) == (41, 1)


def test_two_ties_add_up_and_a_hold_open_at_the_end_is_lost():
    tie = deal_score(N, 71, Team.NS)
    match = check_match([report(0, N, tie, "0-0"), report(1, W, tie, "0-81")])
    assert match.pending_litige == 162
    assert rules_of(match) == [("litige-lost", 1)]
    assert match.ok  # a note, not an error


def test_dealer_rotation_follows_the_direction_void_deals_included():
    void = validate_void_deal()
    made = deal_score(N, 100, Team.NS)
    reports = [report(0, N, made, "0-0"), report(1, W, void, "110-52"), report(2, S, made, "110-52")]
    assert rules_of(check_match(reports)) == []
    reports[2] = dataclasses.replace(reports[2], dealer=E, tags=(("Event", "Club"), ("Dealer", "E")))
    match = check_match(reports)
    assert rules_of(match) == [("dealer-rotation", 2)]
    assert match.findings[0].message == ("deal 3: East deals but South should, after West (direction ccw)")
    cw = check_match(reports, Rules.parse("korean"))  # clockwise: N, E, S
    assert rules_of(cw) == [("dealer-rotation", 1), ("dealer-rotation", 2)]


def validate_void_deal():
    from replayer.engine.scoring import void_deal_score
    return void_deal_score()


def test_a_deal_after_the_target_is_reported():
    big = deal_score(N, 152, Team.NS, (4, 0, 4, 0))  # capot: 252 to NS
    assert big.scores == (252, 0)
    rules = Rules.parse("ffb; target=500")
    reports = [report(i, dealer, big, f"{252 * i}-0") for i, dealer in enumerate((N, W, S))]
    match = check_match(reports, rules)
    assert match.winner is Team.NS and match.totals == (504, 0)
    assert rules_of(match) == [("match-over", 2)]


def test_matches_are_runs_of_one_event_and_round_and_single_deals_are_left_out():
    made = deal_score(N, 100, Team.NS)
    single = dataclasses.replace(report(2, S, made, None), tags=(("Dealer", "S"),))
    reports = [report(0, N, made, "0-0", "A"), report(1, W, made, "110-52", "A"), single,
               report(3, N, made, "0-0", "B")]
    matches = list(check_matches(reports))
    assert [[d.record for d in m.deals] for m in matches] == [[0, 1], [3]]
    assert all(m.ok for m in matches)


@pytest.mark.parametrize("profile", ["ffb", "ffb-coinche", "korean"])
def test_a_generated_match_checks_clean_to_its_winner(profile):
    rules = Rules.parse(profile)
    generated = generate_match(random.Random(5), rules, N, event="Cup", round_="1")
    reports = [validate(record, index=i) for i, record in enumerate(generated.records)]
    assert all(r.ok for r in reports), [f for r in reports for f in r.findings][:3]
    match = check_match(reports)
    assert rules_of(match) == []
    assert match.totals == generated.totals and match.winner is generated.winner


def test_a_wrong_score_tag_in_a_generated_match():
    generated = generate_match(random.Random(5), FFB, N, event="Cup", round_="1")
    records = list(generated.records)
    tags = tuple((k, "1-2" if k == "Score" else v) for k, v in records[1].tags)
    records[1] = dataclasses.replace(records[1], tags=tags)
    match = check_match([validate(record, index=i) for i, record in enumerate(records)])
    assert rules_of(match) == [("score-tag-mismatch", 1)]
