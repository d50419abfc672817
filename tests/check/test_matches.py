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


# --- issue 15, items 8-10: excerpts, records that do not read, where findings point ----------

from pathlib import Path  # noqa: E402

from notation.parser import parse  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
MATCH_TEXT = (SAMPLES / "12-match.belote").read_text(encoding="utf-8")


def match_records() -> list[str]:
    """The eleven deals of sample 12, each as its own text."""
    body = MATCH_TEXT.split("\n", 1)[1].lstrip("\n")  # without the version line
    return ["[Event" + part if k else part for k, part in enumerate(body.split("\n\n[Event"))]


def checked(texts: list[str]):
    reports = [validate(result, index=k) for k, result in enumerate(parse("\n\n".join(texts)))]
    return reports, check_match(reports)


def test_an_excerpt_starts_from_its_first_score_tag():
    full_reports, full = checked(match_records())
    reports, excerpt = checked(match_records()[4:])  # deals 5 to 11: Score "148-338"...
    assert rules_of(excerpt) == []
    assert excerpt.start == full.deals[4].before == (148, 338)
    assert [d.after for d in excerpt.deals] == [d.after for d in full.deals[4:]]
    assert excerpt.totals == full.totals and excerpt.winner is full.winner
    assert excerpt.text().splitlines()[0].endswith("7 deals to 1000 from 148-338 (an excerpt), totals 738-1012, won by EW")
    assert excerpt.as_dict()["start"] == [148, 338] and full.as_dict()["start"] == [0, 0]


def test_a_first_deal_numbered_1_must_start_at_0_0():
    texts = match_records()
    texts[0] = texts[0].replace('[Score "0-0"]', '[Score "10-0"]')
    _, match = checked(texts)
    assert rules_of(match) == [("score-tag-mismatch", 0)] and match.start == (0, 0)


def test_a_record_that_does_not_read_keeps_its_place_in_the_match():
    texts = match_records()
    texts[5] = texts[5].replace("play\n", "play\n0. ZZ\n", 1)  # deal 6 no longer reads
    reports, match = checked(texts)
    assert [f.rule for r in reports for f in r.findings] == ["syntax-error"]
    assert reports[5].rules is None and reports[5].tag("Round") == "Poule B, table 4" and reports[5].recorded is not None
    assert rules_of(match) == []
    assert len(match.deals) == 11 and match.totals == checked(match_records())[1].totals


def test_match_findings_point_at_the_score_and_dealer_tags():
    texts = match_records()
    texts[9] = texts[9].replace('[Score "547-839"]', '[Score "547-840"]')
    texts[1] = texts[1].replace('[Dealer "N"]', '[Dealer "E"]')
    text = "\n\n".join(texts)
    reports, match = checked(texts)
    lines = text.split("\n")
    where = [(f.rule, f.location.record, lines[f.location.line - 1]) for f in match.findings]
    assert where == [("dealer-rotation", 1, '[Dealer "E"]'), ("dealer-rotation", 2, '[Dealer "W"]'),
                     ("score-tag-mismatch", 9, '[Score "547-840"]')]
    assert all(f.location.column == 1 for f in match.findings)


def test_eight_passes_are_void_whatever_the_turned_card_and_a_litige_waits_past_them():
    litige = (SAMPLES / "07-litige.belote").read_text(encoding="utf-8").split("\n", 1)[1]
    void = (SAMPLES / "03-void-deal.belote").read_text(encoding="utf-8").split("\n", 1)[1]
    void = (void.replace('[Deal "1"]', '[Deal "2"]').replace('[Dealer "S"]', '[Dealer "W"]')
            .replace('[Score "0-0"]', '[Score "0-81"]').replace("turned QD", "turned ??")
            .replace("taking E:pass N:pass W:pass S:pass E:pass N:pass W:pass S:pass",
                     "taking S:pass E:pass N:pass W:pass S:pass E:pass N:pass W:pass"))
    made = ((SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8").split("\n", 1)[1]
            .replace('[Event "Club du jeudi"]', '[Event "Tournoi du Café des Sports"]')
            .replace('[Deal "1"]', '[Deal "3"]').replace('[Score "0-0"]', '[Score "0-81"]'))
    made = made.replace(made[made.index("[Site"):made.index("[Deal")], "").replace('[Dealer "N"]', '[Dealer "S"]')
    reports, match = checked([litige.strip(), void.strip(), made.strip()])
    assert reports[1].score is not None and reports[1].score.outcome.name == "VOID"
    assert [d.after for d in match.deals] == [(0, 81), (0, 81), (182, 142)]
    assert [d.pending_litige for d in match.deals] == [81, 81, 0]


def test_a_deal_missing_from_the_file_leaves_a_gap_the_next_score_tag_closes():
    texts = match_records()
    del texts[5]  # deal 6 is not there (a record left out, or one the archive could not store)
    _, match = checked(texts)
    assert rules_of(match) == []  # neither a Score nor a Dealer finding after the gap
    assert match.totals == checked(match_records())[1].totals and len(match.deals) == 10
