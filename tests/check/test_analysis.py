"""The double-dummy analysis of a record (``replayer.check.analysis``, docs/analysis.md).

The solver's first positions cost seconds in pure Python: most tests analyse the last two
tricks only (``first_step=25``), whose values are worked out by hand below and checked
against a plain exhaustive search; the few that start at trick 1 use a deal whose search
is small.
"""

from __future__ import annotations

import dataclasses
import json
import time

import pytest

from notation import parse, parse_record
from notation.values import ALL_CARDS, Card, Seat

from replayer.check import analysis
from replayer.check.analysis import (DealAnalysis, StepAnalysis, Tally, Totals, analyse_record, analyse_records,
                                     annotate, mark_of, match_totals)
from replayer.check.validator import validate
from replayer.engine.scoring import finished_deal, trick_points

# W takes at 80C (ffb-coinche). Trick 7: N leads JD, W discards AS, S follows 8D, E holds TD 9D.
# TD takes the trick (JD 2 + AS 11 + 8D 0 + TD 10 = 23 to EW), then N's AD takes trick 8
# (9D 0 + AD 11 + TH 10 + 8H 0 + 10 = 31 to NS): NS 73, EW 89, the contract made (70-170).
# E played 9D: N's JD takes trick 7 (13) and AD trick 8 (AD 11 + TH 10 + 8H 0 + TD 10 + 10 = 41):
# NS 96, EW 66, the contract fails (240-0). A cost of 23 card points that changes the fate: a blunder.
FATE = """[Dealer "S"]
[Variant "coinche"]
[Rules "ffb-coinche"]
[Result "240-0"]

hand N QS TS QH 7H AD KD JD JC
hand E JS 8S KH TD 9D TC 8C 7C
hand S KS JH 9H 8H QD 8D 7D KC
hand W AS 9S 7S AH TH AC QC 9C
auction E:pass N:pass W:80C S:pass E:pass N:pass
play
1. E:8C N:JC W:QC S:KC
2. N:QH W:AH S:JH E:KH
3. W:AC S:QD E:TC N:KD
4. W:9C S:KS E:7C N:7H
5. W:9S S:7D E:8S N:TS
6. N:QS W:7S S:9H E:JS
7. N:JD W:AS S:8D E:9D
8. N:AD W:TH S:8H E:TD
"""

# Classic (ffb), E takes the turned AD: diamonds are trumps. After trick 6 NS have 29, EW 103.
# E leads trick 7 with QD 9C; N holds 8C 7C, W 7S QH, S TC KC.
# QD: E takes trick 7, S giving KC and W QH (3 + 3 + 4 = 10 to EW), S's TC takes trick 8 (10 + 10):
#     NS 49, EW 113.
# 9C: S takes trick 7 with TC (10 to NS), E trumps trick 8 with QD (KC 4 + QD 3 + QH 3 + 10 = 20):
#     NS 39, EW 123. E led QD: 10 card points lost, an inaccuracy.
INACCURACY = """[Dealer "W"]
[Variant "belote"]
[Rules "ffb"]
[Result "46-116"]

hand N TH 7H 8D AC QC JC 8C 7C
hand E AS JS 9S 8H AD QD JD 9C
hand S QS 8S AH 9H 9D 7D KC TC
hand W KS TS 7S KH QH JH KD TD
turned AD
taking S:pass E:take
play
1. S:AH E:8H N:TH W:KH
2. S:8S E:9S N:8D W:KS
3. N:7H W:JH S:9H E:JS
4. W:TS S:QS E:AS N:AC
5. E:JD N:JC W:KD S:9D
6. E:AD N:QC W:TD S:7D
7. E:QD N:8C W:7S S:TC
8. E:9C N:7C W:QH S:KC
"""

# W takes at 80H. Trick 7: W leads KS, S 7S, E TS (winning); N holds AS 8S. AS takes the trick
# (4 + 0 + 10 + 11 = 25 to NS) and W's QS takes trick 8 (8S 0 + 8C 0 + QS 3 + TD 10 + 10 = 23):
# NS 51. 8S gives E trick 7 (14) and trick 8 (8C 0 + AS 11 + QS 3 + TD 10 + 10 = 34): NS 26.
# 25 card points lost: a mistake (the contract is made either way).
MISTAKE = """[Dealer "N"]
[Variant "coinche"]
[Rules "ffb-coinche"]
[Result "50-220"]

hand N AS JS 9S 8S QH KC TC 7C
hand E TS TH 9H 8H JD 7D 9C 8C
hand S 7S 7H AD KD QD TD QC JC
hand W KS QS AH KH JH 9D 8D AC
auction W:80H S:pass E:pass N:pass
announce S tierce AD KD QD
announce E tierce TH 9H 8H
play
1. W:JH S:7H E:9H N:QH
2. W:AH S:KD E:TH N:JS
3. W:8D S:AD E:7D N:TC
4. S:QD E:JD N:9S W:9D
5. S:QC E:9C N:KC W:AC
6. W:KH S:JC E:8H N:7C
7. W:KS S:7S E:TS N:8S
8. E:8C N:AS W:QS S:TD
"""

# A deal whose whole search is small (every hand two cards of each suit, by rank): analysed
# from the first card. W takes at 90C. Trick 1: E plays QS where it holds KC QC: must follow.
SMALL_ILLEGAL = """[Dealer "E"]
[Variant "coinche"]
[Rules "ffb-coinche"]

hand N AS TS AH TH AD TD AC TC
hand E KS QS KH QH KD QD KC QC
hand S JS 9S JH 9H JD 9D 7H 9C
hand W 8S 7S 8H JC 8D 7D 8C 7C
auction N:80D W:90C S:pass E:pass N:pass
play
1. N:TC W:JC S:9C E:QS
2. W:8C S:9H E:KC N:AC
*
"""


def first(text: str):
    return next(iter(parse(text)))


def cut(text: str, after: int, end: str) -> str:
    """``text`` with the tricks after trick ``after`` replaced by the line ``end``."""
    head, play = text.split("play\n")
    lines = play.splitlines()[:after]
    return head + "play\n" + "\n".join(lines) + "\n" + end + "\n"


# --- an exhaustive search, to check the solver's values on the last tricks ----------

def exhaustive(state) -> tuple[int, int]:
    """The final card points (NS, EW) under best play, each side taking as many as it can:
    every line played out (only for the last tricks)."""
    if state.is_over:
        return trick_points(finished_deal(state), state.rules)[1]
    side = state.turn.index & 1
    best = None
    mask = state.legal_mask()
    for index in range(32):
        if mask >> index & 1:
            state.apply(index)
            points = exhaustive(state)
            state.pop()
            if best is None or points[side] > best[side]:
                best = points
    return best


def values_by_exhaustive_search(text: str, step: int) -> dict[str, list[int]]:
    report = validate(first(text))
    replayed = dataclasses.replace(report.replay, moves=report.replay.moves[:step - 1], claimed_by=None)
    state = replayed.play_state(report.rules, report.dealer)
    values = {}
    mask = state.legal_mask()
    for index in range(32):
        if mask >> index & 1:
            state.apply(index)
            values[str(ALL_CARDS[index])] = list(exhaustive(state))
            state.pop()
    return values


# --- values, best cards, costs, marks ---------------------------------------------------

def test_a_hand_built_deal_its_best_card_and_the_cost_of_the_card_played():
    result = analyse_record(first(INACCURACY), first_step=25)
    assert [step.step for step in result.steps] == list(range(25, 33))
    step = result.step(25)
    assert (step.trick, step.seat, step.card) == (7, Seat.EAST, Card.parse("QD"))
    assert step.as_dict()["values"] == {"QD": [49, 113], "9C": [39, 123]}
    assert step.as_dict()["scores"] == {"QD": [49, 113], "9C": [39, 123]}  # classic: the points are the score
    assert step.as_dict()["made"] == {"QD": True, "9C": True}
    assert step.best == (Card.parse("9C"),)
    assert (step.cost, step.mark, step.fate_changed) == (10, "inaccuracy", False)
    # N's two small clubs are worth the same: both best, no cost
    assert result.step(26).best == (Card.parse("7C"), Card.parse("8C")) and result.step(26).cost == 0
    assert [(s.step, s.cost, s.mark) for s in result.steps if s.cost] == [(25, 10, "inaccuracy"), (27, 3, None),
                                                                       (28, 6, None)]
    # the last card leaves the deal as recorded: 46-116
    assert result.step(32).as_dict()["values"] == {"KC": [46, 116]}


@pytest.mark.parametrize("text", [INACCURACY, MISTAKE, FATE], ids=["inaccuracy", "mistake", "fate"])
def test_the_values_are_those_of_an_exhaustive_search(text):
    result = analyse_record(first(text), first_step=25)
    for step in result.steps:
        assert step.as_dict()["values"] == values_by_exhaustive_search(text, step.step), step.step


def test_a_mistake_and_a_card_that_changes_the_contracts_fate():
    mistake = analyse_record(first(MISTAKE), first_step=25).step(28)
    assert (mistake.seat, mistake.card, mistake.best) == (Seat.NORTH, Card.parse("8S"), (Card.parse("AS"),))
    assert mistake.as_dict()["values"] == {"8S": [26, 136], "AS": [51, 111]}
    assert mistake.as_dict()["scores"] == {"8S": [50, 220], "AS": [70, 190]}  # melds as recorded
    assert (mistake.cost, mistake.mark, mistake.fate_changed) == (25, "mistake", False)

    fate = analyse_record(first(FATE), first_step=25)
    step = fate.step(28)
    assert step.as_dict() == {
        "step": 28, "trick": 7, "seat": "E", "card": "9D", "values": {"9D": [96, 66], "TD": [73, 89]},
        "scores": {"9D": [240, 0], "TD": [70, 170]}, "made": {"9D": False, "TD": True}, "best": ["TD"],
        "cost": 23, "mark": "blunder", "fate_changed": True}
    assert fate.totals.as_dict()["E"] == {"cards": 2, "cost": 23, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert fate.totals.as_dict()["EW"] == {"cards": 4, "cost": 23, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert fate.totals.as_dict()["NS"] == {"cards": 4, "cost": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    # the cards skipped are not analysed: the analysis is not complete, yet nothing stopped it
    assert (fate.complete, fate.stopped, fate.claim) == (False, None, None)


@pytest.mark.parametrize("cost, fate, mark", [
    (0, False, None), (9, False, None), (10, False, "inaccuracy"), (19, False, "inaccuracy"), (20, False, "mistake"),
    (39, False, "mistake"), (40, False, "blunder"), (120, False, "blunder"), (0, True, "blunder"), (7, True, "blunder"),
    (25, True, "blunder"),
])
def test_the_marks_thresholds(cost, fate, mark):
    assert mark_of(cost, fate) == mark


def test_totals_per_player_and_side_and_for_a_match():
    one = analyse_record(first(INACCURACY), first_step=25)
    two = analyse_record(first(MISTAKE), first_step=25)
    assert one.totals.of("E") == Tally(2, 10, 1, 0, 0)
    assert one.totals.of("NS") == Tally(4, 6, 0, 0, 0) == one.totals.of("N") + one.totals.of("S")
    both = match_totals([one, two])
    assert both == one.totals + two.totals
    assert both.as_dict() == {
        "N": {"cards": 4, "cost": 25, "inaccuracy": 0, "mistake": 1, "blunder": 0},
        "E": {"cards": 4, "cost": 10, "inaccuracy": 1, "mistake": 0, "blunder": 0},
        "S": {"cards": 4, "cost": 6, "inaccuracy": 0, "mistake": 0, "blunder": 0},
        "W": {"cards": 4, "cost": 4, "inaccuracy": 0, "mistake": 0, "blunder": 0},
        "NS": {"cards": 8, "cost": 31, "inaccuracy": 0, "mistake": 1, "blunder": 0},
        "EW": {"cards": 8, "cost": 14, "inaccuracy": 1, "mistake": 0, "blunder": 0}}
    assert match_totals([]) == Totals()


def test_a_whole_deal_from_the_first_card():
    text = SMALL_ILLEGAL.replace("E:QS\n", "E:QC\n").replace("*\n", "3. N:TS W:8S S:JS E:QS\n"
                                                                     "4. N:TD W:7D S:JD E:KD\n"
                                                                     "5. N:AH W:8H S:JH E:QH\n"
                                                                     "6. N:AS W:7S S:9S E:KS\n"
                                                                     "7. N:AD W:8D S:9D E:QD\n"
                                                                     "8. N:TH W:7C S:7H E:KH\n")
    assert validate(first(text)).ok
    result = analyse_record(parse_record(text))  # a Record as well as a ParseResult
    assert (result.complete, result.stopped, result.rules) == (True, None, "ffb-coinche")
    assert [step.step for step in result.steps] == list(range(1, 33))
    assert [(s.step, s.cost, s.mark) for s in result.steps if s.cost] == [(4, 1, None), (25, 10, "inaccuracy")]
    assert result.step(1).best == tuple(map(Card.parse, ["TS", "AS", "AH", "TD", "AD", "TC"]))
    assert result.step(32).as_dict()["values"] == {"KH": [91, 71]}
    assert result.totals.of("NS") == Tally(16, 10, 1, 0, 0)


# --- claims ---------------------------------------------------------------------------

def test_a_sound_claim():
    text = cut(FATE, 7, "claim N")  # N leads AD to trick 8: the last trick is N's whatever happens
    result = analyse_record(first(text), first_step=25)
    assert result.claim is not None and result.claim.as_dict() == {"seat": "N", "sound": True, "step": 29}
    assert [step.step for step in result.steps] == [25, 26, 27, 28]
    assert result.step(28).mark == "blunder"  # the positions before the claim are analysed
    assert result.stopped is None


def test_an_unsound_claim():
    text = cut(INACCURACY, 6, "claim E")  # E leads QD 9C: S's club takes one of the last two tricks
    result = analyse_record(first(text), first_step=21)
    assert result.claim.as_dict() == {"seat": "E", "sound": False, "step": 25}
    assert [step.step for step in result.steps] == [21, 22, 23, 24]
    assert result.as_dict()["claim"] == {"seat": "E", "sound": False, "step": 25}


# --- bad input ----------------------------------------------------------------------

def test_a_record_with_an_illegal_play_is_analysed_up_to_it():
    text = FATE.replace("S:8D E:9D", "S:8H E:9D").replace("S:8H E:TD", "S:8D E:TD")
    result = analyse_record(first(text), first_step=25)
    assert [step.step for step in result.steps] == [25, 26]
    assert result.stopped.as_dict() == {
        "reason": "illegal-play", "step": 27,
        "message": "trick 7: South played 8♥ but held 8♦ and had to follow diamonds"}
    assert result.complete is False


def test_an_illegal_play_in_trick_1_from_the_first_card():
    result = analyse_record(first(SMALL_ILLEGAL))
    assert [step.step for step in result.steps] == [1, 2, 3]
    assert (result.stopped.reason, result.stopped.step) == ("illegal-play", 4)
    assert "East played Q♠" in result.stopped.message and "follow clubs" in result.stopped.message
    assert result.totals.of("NS").cards == 2 and result.totals.of("EW").cards == 1


def test_hands_not_known_nor_rebuilt():
    text = cut(INACCURACY.replace("hand W KS TS 7S KH QH JH KD TD", "hand W -"), 6, "*")
    result = analyse_record(first(text))
    assert result.as_dict()["stopped"] == {
        "reason": "hands-unknown", "step": None,
        "message": "the hands as dealt are not all known and cannot be rebuilt from the play: no position can be "
                   "analysed"}
    assert (result.steps, result.complete) == ((), False)


def test_hands_rebuilt_from_the_play_are_analysed():
    text = INACCURACY.replace("hand W KS TS 7S KH QH JH KD TD", "hand W -")
    result = analyse_record(first(text), first_step=25)
    assert result.stopped is None
    assert result.steps == analyse_record(first(INACCURACY), first_step=25).steps


def test_an_unknown_card_stops_the_analysis_there():
    text = INACCURACY.replace("8. E:9C N:7C", "8. E:9C N:??")
    result = analyse_record(first(text), first_step=25)
    assert [step.step for step in result.steps] == [25, 26, 27, 28, 29]
    assert (result.stopped.reason, result.stopped.step) == ("hands-unknown", 30)
    assert result.stopped.message == "the card played at step 30 is not known (??): the analysis stops there"


def test_no_play_to_analyse():
    void = analyse_record(first('[Dealer "N"]\n[Variant "coinche"]\n\nauction W:pass S:pass E:pass N:pass\n'))
    assert void.as_dict()["stopped"] == {"reason": "no-play", "message": "everybody passed: no card play to analyse",
                                         "step": None}
    assert void.complete  # nothing was left unanalysed
    unreadable = analyse_record(first('[Dealer "N"]\n\nplay\n1. N:XX\n'))
    assert unreadable.stopped.reason == "no-play" and unreadable.stopped.message.startswith("the record cannot be read")
    assert (unreadable.rules, unreadable.complete) == ("?", False)


def test_a_time_limit_of_nothing_stops_at_once():
    result = analyse_record(first(INACCURACY), max_seconds=0)
    assert result.as_dict()["stopped"] == {"reason": "time-limit", "step": 1,
                                           "message": "the time limit passed at step 1: nothing analysed"}
    assert (result.steps, result.complete) == ((), False)


def test_a_time_limit_in_the_middle_keeps_what_was_analysed(monkeypatch):
    class Clock:  # each look at the clock is one second later
        now = time.monotonic()

        @classmethod
        def monotonic(cls) -> float:
            cls.now += 1
            return cls.now

    monkeypatch.setattr(analysis, "time", Clock)
    result = analyse_record(first(INACCURACY), max_seconds=2.5, first_step=25)
    assert [step.step for step in result.steps] == [25, 26]
    assert result.stopped.as_dict() == {"reason": "time-limit", "step": 27,
                                        "message": "the time limit passed at step 27: steps 25-26 analysed"}
    assert result.totals.of("E") == Tally(1, 10, 1, 0, 0)


def test_a_time_limit_interrupts_the_search_of_a_first_card():
    deal = """[Dealer "S"]\n[Variant "coinche"]\n[Rules "ffb-coinche"]\n
hand N JS TS AD 9D 7D KC TC 7C
hand E KS QS KH QH JH QD JD AC
hand S 9S 8S 7S TH 9H 8H TD 9C
hand W AS AH 7H KD 8D QC JC 8C
auction E:pass N:pass W:80C S:pass E:90H N:coinche W:pass S:pass E:pass
play
1. E:KH N:JS W:AH S:9H
"""
    start = time.monotonic()
    result = analyse_record(first(deal), max_seconds=0.03)
    assert time.monotonic() - start < 2
    assert result.stopped.reason == "time-limit" and not result.complete
    assert len(result.steps) == result.stopped.step - 1


# --- the JSON form ---------------------------------------------------------------------

def test_the_json_form_round_trips():
    result = analyse_record(first(cut(FATE, 7, "claim N")), first_step=25)
    data = json.loads(json.dumps(result.as_dict()))
    assert list(data) == ["version", "rules", "complete", "stopped", "steps", "claim", "totals"]
    assert (data["version"], data["rules"], data["complete"], data["stopped"]) == (1, "ffb-coinche", False, None)
    assert list(data["steps"][0]) == ["step", "trick", "seat", "card", "values", "scores", "made", "best", "cost",
                                      "mark", "fate_changed"]
    assert list(data["totals"]) == ["N", "E", "S", "W", "NS", "EW"]
    back = DealAnalysis.from_dict(data)
    assert back == result and back.as_dict() == data
    stopped = analyse_record(first(INACCURACY), max_seconds=0)
    assert DealAnalysis.from_dict(json.loads(json.dumps(stopped.as_dict()))) == stopped
    assert StepAnalysis.from_dict(data["steps"][3]) == result.step(28)
    with pytest.raises(ValueError, match="version"):
        DealAnalysis.from_dict({**data, "version": 2})


# --- many records, annotations -------------------------------------------------------------

def test_records_in_worker_processes_give_the_same_analyses_in_input_order():
    texts = [SMALL_ILLEGAL, cut(INACCURACY.replace("hand W KS TS 7S KH QH JH KD TD", "hand W -"), 6, "*"),
             '[Dealer "N"]\n[Variant "coinche"]\n\nauction W:pass S:pass E:pass N:pass\n']
    here = list(analyse_records([first(text) for text in texts]))
    assert [a.stopped.reason for a in here] == ["illegal-play", "hands-unknown", "no-play"]
    assert list(analyse_records(texts, jobs=2)) == here
    assert list(analyse_records([parse_record(text) for text in texts], jobs=2)) == here


def test_annotate_marks_the_cards_and_keeps_the_users_annotations():
    record = parse_record(FATE.replace("E:9D", "E:9D! {je tente}"))
    result = analyse_record(record, first_step=25)
    marked = annotate(record, result)
    entry = marked.tricks[6].plays[3]
    assert (entry.annotation, entry.comments) == ("!", ("je tente", "analysis ??: best: TD (+23, the contract fails)"))
    assert parse_record(str(marked)) == marked
    assert annotate(marked, result) == marked  # annotating again changes nothing

    plain = parse_record(INACCURACY)
    marked = annotate(plain, analyse_record(plain, first_step=25))
    entry = marked.tricks[6].plays[0]
    assert (entry.annotation, entry.comments) == ("?!", ("best: 9C (+10)",))
    assert "7. E:QD?! {best: 9C (+10)} N:8C W:7S S:TC" in str(marked)
    assert parse_record(str(marked)) == marked
    assert [e for t in marked.tricks for e in t.plays if e.annotation] == [entry]
