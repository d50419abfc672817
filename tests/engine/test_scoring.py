"""Scoring of a deal (rules.md §1, §7, §9) and of a match: exact breakdowns worked out by hand."""

from __future__ import annotations

import random

import pytest

from notation.values import ALL_CARDS, SEATS, Card, Denomination, Seat, Team
from notation.record import MeldKind
from replayer.engine.contract import Contract
from replayer.engine.melds import Meld, best_declaration, check_announcement, score_melds
from replayer.engine.play import PlayState
from replayer.engine.rules import PROFILES, Rules
from replayer.engine.scoring import (FinishedDeal, MatchOverError, MatchState, Outcome, finished_deal,
                                     round_points, score_deal, void_deal_score)

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
NS, EW = Team.NS, Team.EW
SPLIT = (3, 2, 2, 1)  # tricks per seat when nobody is capot
NS_CAPOT, EW_CAPOT = (5, 0, 3, 0), (0, 4, 0, 4)


def contract(denomination: str = "H", value: int | None = None, doubling: int = 0, *, taker: Seat = N,
             capot: bool = False, generale: bool = False) -> Contract:
    return Contract(taker, Denomination.parse(denomination), value, capot, generale, doubling)


def deal(c: Contract, ns: int, last: Team = NS, tricks=SPLIT, belote=(0, 0), melds=None,
         total: int = 152) -> FinishedDeal:
    """NS took ``ns`` card points, EW the rest of ``total``."""
    return FinishedDeal(c, (ns, total - ns), last, tricks, belote, melds or {}, N)


def meld(kind: MeldKind, text: str) -> Meld:
    hand = [Card.parse(t) for t in text.split()]
    result = check_announcement(hand, kind, hand, Rules.parse("ffb-annonces"))
    assert isinstance(result, Meld)
    return result


CLASSIC = Rules.parse("ffb")
COINCHE = Rules.parse("ffb-coinche")


def sides(score) -> tuple[int, int]:
    return score.scores


# --- classic ---------------------------------------------------------------------

def test_classic_made():
    score = score_deal(deal(contract(), 92, belote=(20, 0)), CLASSIC)
    assert score.outcome is Outcome.MADE
    assert score.ns.points == 102 and score.ns.last_trick == 10 and score.ns.total == 122
    assert score.ew.points == 60 and score.ew.total == 60
    assert sides(score) == (122, 60)
    assert score.takers is NS and score.takers_score == 122 and score.defenders_score == 60
    assert score.ns.role == "takers" and score.ew.role == "defenders"


def test_classic_made_by_east():
    score = score_deal(deal(contract(taker=E), 50, last=EW), CLASSIC)
    assert score.outcome is Outcome.MADE and sides(score) == (50, 112) and score.takers is EW


def test_classic_failed():
    score = score_deal(deal(contract(), 70, last=EW), CLASSIC)
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 162)


@pytest.mark.parametrize("kept, expected", [(True, (20, 162)), (False, (0, 182))])
def test_classic_failed_belote(kept, expected):
    score = score_deal(deal(contract(), 70, last=EW, belote=(20, 0)), CLASSIC.replace(belote_kept_on_failure=kept))
    assert score.outcome is Outcome.FAILED and sides(score) == expected


def test_classic_failed_defenders_keep_their_belote():
    score = score_deal(deal(contract(), 70, last=EW, belote=(0, 20)), CLASSIC)
    assert sides(score) == (0, 182)


def test_classic_defence_capot_adds_90():
    score = score_deal(deal(contract(), 0, last=EW, tricks=EW_CAPOT), CLASSIC)
    assert score.capot is EW and score.ew.points == 252 and score.ew.last_trick == 100
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 252)


@pytest.mark.parametrize("capot_score, points", [("der100", 252), ("flat250", 250)])
def test_classic_takers_capot(capot_score, points):
    score = score_deal(deal(contract(), 152, tricks=NS_CAPOT), CLASSIC.replace(capot_score=capot_score))
    assert score.capot is NS and score.outcome is Outcome.MADE and sides(score) == (points, 0)


def test_classic_defence_capot_flat250_still_gives_failure_base_plus_90():
    rules = CLASSIC.replace(capot_score="flat250")
    assert sides(score_deal(deal(contract(), 0, last=EW, tricks=EW_CAPOT), rules)) == (0, 252)


@pytest.mark.parametrize("tie, outcome, expected, hold", [
    ("litige", Outcome.LITIGE, (0, 81), 81),
    ("made", Outcome.MADE, (81, 81), 0),
    ("failed", Outcome.FAILED, (0, 162), 0),
])
def test_classic_tie(tie, outcome, expected, hold):
    score = score_deal(deal(contract(), 71), CLASSIC.replace(tie=tie))
    assert score.outcome is outcome and sides(score) == expected and score.litige_hold == hold


def test_classic_melds_go_to_the_best_meld_side():
    rules = Rules.parse("ffb-annonces")
    melds = {N: [meld(MeldKind.TIERCE, "7C 8C 9C")], E: [meld(MeldKind.QUARTE, "7S 8S 9S TS")]}
    score = score_deal(deal(contract(), 100, melds=melds), rules)
    # NS 110, EW 52 + 50 melds = 102: made
    assert score.meld_team is EW and score.ew.melds == 50 and score.ns.melds == 0
    assert score.outcome is Outcome.MADE and sides(score) == (110, 102)


@pytest.mark.parametrize("lost, expected", [(True, (0, 212)), (False, (50, 162))])
def test_classic_failed_takers_melds(lost, expected):
    rules = Rules.parse("ffb-annonces").replace(melds_lost_on_failure=lost)
    melds = {S: [meld(MeldKind.QUARTE, "7S 8S 9S TS")]}
    score = score_deal(deal(contract(), 40, last=EW, melds=melds), rules)  # 90 against 122
    assert score.outcome is Outcome.FAILED and sides(score) == expected


def test_melds_ignored_where_rules_have_none():
    melds = {S: [meld(MeldKind.QUARTE, "7S 8S 9S TS")]}
    assert sides(score_deal(deal(contract(), 92, melds=melds), CLASSIC)) == (102, 60)


@pytest.mark.parametrize("rounding, ns, expected", [
    ("nearest10_5up", 75, (90, 80)),  # 85 - 77
    ("nearest10_5down", 75, (80, 80)),
    ("nearest10_5up", 74, (80, 80)),  # 84 - 78
    ("none", 75, (85, 77)),
])
def test_classic_rounding(rounding, ns, expected):
    score = score_deal(deal(contract(), ns), CLASSIC.replace(rounding=rounding))
    assert sides(score) == expected
    assert score.ns.rounding == expected[0] - score.ns.total


def test_litige_hold_is_rounded():
    score = score_deal(deal(contract(), 71), CLASSIC.replace(rounding="nearest10_5up"))
    assert sides(score) == (0, 80) and score.litige_hold == 80


# --- card points by denomination ---------------------------------------------------

def test_raw_scaled_ta_ffb_example():
    rules = CLASSIC.replace(sa_ta=True, ta_values="raw_scaled")
    score = score_deal(deal(contract("TA"), 188, belote=(20, 0), total=248), rules)
    assert score.ns.points == 124 and score.ns.total == 144  # 198 -> 124, + 20 belote
    assert score.ew.points == 38  # 60 x 162 / 258 = 37.67
    assert sides(score) == (144, 38)


@pytest.mark.parametrize("ta_values, capot_points", [("raw", 348), ("raw_scaled", 252), ("pagat", 252)])
def test_ta_capot(ta_values, capot_points):
    rules = CLASSIC.replace(sa_ta=True, ta_values=ta_values)
    total = 248 if ta_values.startswith("raw") else 152
    score = score_deal(deal(contract("TA"), total, tricks=NS_CAPOT, total=total), rules)
    assert sides(score) == (capot_points, 0)


def test_raw_scaled_capot_flat250():
    rules = CLASSIC.replace(sa_ta=True, ta_values="raw_scaled", capot_score="flat250")
    assert sides(score_deal(deal(contract("TA"), 248, tricks=NS_CAPOT, total=248), rules)) == (250, 0)


# --- coinche -------------------------------------------------------------------------

def test_coinche_made():
    score = score_deal(deal(contract("H", 100), 102), COINCHE)  # 112 - 50
    assert score.outcome is Outcome.MADE and score.contract_value == 100 and score.multiplier == 1
    assert sides(score) == (210, 50)
    assert score.ns.rounding == -2


def test_coinche_failed():
    score = score_deal(deal(contract("H", 120), 102), COINCHE)
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 280)


@pytest.mark.parametrize("doubling, belote, expected", [
    (1, (0, 0), (520, 0)), (1, (20, 0), (540, 0)), (1, (0, 20), (520, 20)), (2, (0, 0), (1040, 0)),
])
def test_coinche_made_doubled_whole(doubling, belote, expected):
    score = score_deal(deal(contract("H", 100, doubling), 102, belote=belote), COINCHE)
    assert score.outcome is Outcome.MADE and sides(score) == expected


@pytest.mark.parametrize("doubling, expected", [(1, (20, 600)), (2, (20, 1200))])
def test_coinche_failed_doubled_whole(doubling, expected):
    score = score_deal(deal(contract("H", 140, doubling), 102, belote=(20, 0)), COINCHE)  # 132 < 140
    assert score.outcome is Outcome.FAILED and sides(score) == expected


def test_coinche_takers_capot_doubled_uses_base_plus_90():
    score = score_deal(deal(contract("H", 100, 1), 152, tricks=NS_CAPOT), COINCHE)
    assert sides(score) == ((250 + 100) * 2, 0)


def test_coinche_failed_never_adds_90():
    score = score_deal(deal(contract("H", 80), 0, last=EW, tricks=EW_CAPOT), COINCHE)
    assert sides(score) == (0, 240)


def test_coinche_melds_made_and_doubled():
    melds = {N: [meld(MeldKind.TIERCE, "7C 8C 9C")]}
    score = score_deal(deal(contract("H", 100), 102, melds=melds), COINCHE)
    assert sides(score) == (130 + 100, 50)  # 132 rounded to 130
    score = score_deal(deal(contract("H", 100, 1), 102, melds=melds), COINCHE)
    assert sides(score) == ((180 + 100) * 2, 0)
    score = score_deal(deal(contract("H", 140, 1), 102, melds=melds), COINCHE)  # 132 < 140
    assert sides(score) == (0, (160 + 20 + 140) * 2)


PAGAT = Rules.parse("pagat-coinche")  # contract_only


def test_contract_only_scope():
    assert sides(score_deal(deal(contract("H", 100, 1), 102), PAGAT)) == (110 + 200, 50)
    assert sides(score_deal(deal(contract("H", 100, 2), 102), PAGAT)) == (110 + 400, 50)
    score = score_deal(deal(contract("H", 120, 1), 102, belote=(0, 20)), PAGAT)
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 160 + 240 + 20)


def test_base_and_contract_scope():
    rules = COINCHE.replace(multiplier_scope="base_and_contract")
    assert sides(score_deal(deal(contract("H", 100), 102), rules)) == (210, 50)
    score = score_deal(deal(contract("H", 100, 1), 102, belote=(20, 0)), rules)
    assert sides(score) == (160 + 200 + 20, 0)
    score = score_deal(deal(contract("H", 100, 1), 92, belote=(0, 20)), rules)  # 102 >= 100 > 80
    assert sides(score) == (160 + 200 + 20, 0)  # every belote to the takers
    score = score_deal(deal(contract("H", 140, 1), 102, belote=(20, 20)), rules)
    assert score.outcome is Outcome.FAILED and sides(score) == (20, 160 + 280 + 20)


def test_capot_bid():
    score = score_deal(deal(contract("H", capot=True), 152, tricks=NS_CAPOT), COINCHE)
    assert score.outcome is Outcome.MADE and score.contract_value == 250 and sides(score) == (250 + 250, 0)
    score = score_deal(deal(contract("H", capot=True), 150, tricks=(4, 0, 3, 1)), COINCHE)
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 160 + 250)


def test_generale():
    rules = PAGAT  # générale 500
    score = score_deal(deal(contract("H", generale=True), 152, tricks=(8, 0, 0, 0)), rules)
    assert score.outcome is Outcome.MADE and sides(score) == (250 + 500, 0)
    score = score_deal(deal(contract("H", generale=True), 152, tricks=(7, 0, 1, 0)), rules)
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 160 + 500)


@pytest.mark.parametrize("rules, outcome, expected", [
    (PAGAT, Outcome.FAILED, (0, 160 + 80)),  # 81 < 82
    (PAGAT.replace(bid80_needs_82=False), Outcome.MADE, (80 + 80, 80)),  # 81 >= 80, no need to beat 81
    (Rules.parse("ffb-coinche"), Outcome.FAILED, (0, 240)),  # must beat the defence's 81
    (Rules.parse("ffb-contree"), Outcome.MADE, (160, 80)),
])
def test_bid80_needs_82_and_must_beat_defence(rules, outcome, expected):
    score = score_deal(deal(contract("H", 80), 71), rules)  # 81 - 81
    assert score.outcome is outcome and sides(score) == expected


@pytest.mark.parametrize("rounding, ns, outcome, expected", [
    ("nearest10_5up", 75, Outcome.FAILED, (0, 250)),  # 85 < 90: rounding to 90 does not make it
    ("nearest10_5up", 85, Outcome.MADE, (100 + 90, 70)),  # 95 -> 100, 67 -> 70
    ("nearest10_5down", 85, Outcome.MADE, (90 + 90, 70)),
    ("nearest10_5up", 74, Outcome.FAILED, (0, 250)),
])
def test_coinche_rounding(rounding, ns, outcome, expected):
    score = score_deal(deal(contract("H", 90), ns), COINCHE.replace(rounding=rounding))
    assert score.outcome is outcome and sides(score) == expected


def test_contree_belote_lost_on_failure():
    score = score_deal(deal(contract("H", 140), 102, belote=(20, 0)), Rules.parse("ffb-contree"))
    assert score.outcome is Outcome.FAILED and sides(score) == (0, 160 + 140 + 20)


def test_coinche_failed_takers_keep_melds_when_not_lost():
    rules = COINCHE.replace(melds_lost_on_failure=False)
    melds = {N: [meld(MeldKind.TIERCE, "7C 8C 9C")]}
    score = score_deal(deal(contract("H", 140), 102, melds=melds), rules)
    assert sides(score) == (20, 300)


def test_round_points():
    assert [round_points(x, "nearest10_5up") for x in (84, 85, 86, 0, 5)] == [80, 90, 90, 0, 10]
    assert [round_points(x, "nearest10_5down") for x in (84, 85, 86, 0, 5)] == [80, 80, 90, 0, 0]
    assert round_points(85, "none") == 85


def test_void_deal_and_breakdown_text():
    void = void_deal_score()
    assert void.outcome is Outcome.VOID and void.scores == (0, 0)
    assert score_deal(FinishedDeal(None), CLASSIC) == void
    score = score_deal(deal(contract("H", 100), 102), COINCHE)
    assert score.as_dict()["score"] == [210, 50] and score.as_dict()["sides"][0]["team"] == "NS"
    assert score.lines()[-1] == "score NS 210, EW 50"


# --- a match ---------------------------------------------------------------------------

def _scored(taker: Seat, ns_points: int, last: Team, rules: Rules = CLASSIC):
    return score_deal(deal(contract(taker=taker), ns_points, last=last), rules)


def test_match_litige_carried_to_the_next_scored_deal():
    match = MatchState(CLASSIC)
    match.add(_scored(N, 71, NS))  # litige: EW 81, 81 held
    assert match.totals == (0, 81) and match.pending_litige == 81
    match.add(void_deal_score())
    assert match.pending_litige == 81
    match.add(_scored(E, 81, EW))  # another tie (takers EW 81): NS 81 now, 81 more held
    assert match.totals == (81, 81) and match.pending_litige == 162
    match.add(_scored(E, 40, EW))  # EW takers make it: 40 - 122
    assert match.totals == (121, 81 + 122 + 162) and match.pending_litige == 0


def test_match_hold_goes_to_the_defence_when_the_next_takers_fail():
    match = MatchState(CLASSIC)
    match.add(_scored(N, 71, NS))
    match.add(_scored(E, 100, NS))  # EW takers fail (52 - 110): NS 162 + the hold
    assert match.totals == (162 + 81, 81)


def test_match_target_and_winner():
    match = MatchState(target=300)
    match.add(_scored(N, 142, NS))  # 152 - 10
    assert match.winner is None
    match.add(_scored(N, 142, NS))
    assert match.totals == (304, 20) and match.winner is NS
    with pytest.raises(MatchOverError):
        match.add(_scored(N, 142, NS))


def test_match_equal_totals_over_target_play_on():
    match = MatchState(target=100)
    match.add(_scored(N, 71, NS, CLASSIC.replace(tie="made")))  # 81 - 81
    match.add(_scored(N, 71, NS, CLASSIC.replace(tie="made")))  # 162 - 162
    assert match.winner is None


# --- property: random deals per profile ---------------------------------------------

def _random_deal(rng: random.Random, rules: Rules) -> tuple[PlayState, list[Card]]:
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    hands = {seat: cards[8 * i:8 * i + 8] for i, seat in enumerate(SEATS)}
    denominations = list(Denomination) if rules.sa_ta else [d for d in Denomination if d.is_suit]
    value = rng.choice(range(80, 170, 10)) if rules.is_coinche else None
    c = Contract(rng.choice(SEATS), rng.choice(denominations), value, doubling=rng.choice((0, 1, 2)) if value else 0)
    state = PlayState(hands, c, rules, dealer=rng.choice(SEATS))
    while not state.is_over:
        legal = state.legal_mask()
        assert legal, "a seat in turn always has a legal card"
        for _ in range(rng.randrange(legal.bit_count())):
            legal &= legal - 1  # drop the lowest: the draw is the k-th legal card
        state.push(ALL_CARDS[(legal & -legal).bit_length() - 1])
    return state, hands


PROPERTY_DEALS = 2000  # per profile, spread over the TA tables where TA exists
DEAL_TOTALS = {"pagat": 162, "ffb2015": 162, "raw": 258, "raw_scaled": 258}


@pytest.mark.parametrize("profile", list(PROFILES))
def test_random_deals_total_and_replay(profile):
    base = Rules.parse(profile)
    rng = random.Random(profile)
    tables = ("pagat", "ffb2015", "raw", "raw_scaled") if base.sa_ta else ("pagat",)
    for ta_values in tables:
        rules = base.replace(ta_values=ta_values) if base.sa_ta else base
        for _ in range(PROPERTY_DEALS // len(tables)):
            state, hands = _random_deal(rng, rules)
            ns, ew = state.card_points()
            denomination = state.contract.denomination
            expected = DEAL_TOTALS[ta_values] if denomination is Denomination.ALL_TRUMPS else 162
            if denomination is Denomination.NO_TRUMPS and rules.sa_ace == 11:
                expected = 130  # sa_ace=11 (club-coinche, 004): 4 x 30 + 10
            assert ns + ew + 10 == expected
            melds = {seat: best_declaration(hands[seat], rules, denomination) for seat in SEATS} \
                if rules.melds else {}
            score = score_deal(finished_deal(state, melds), rules)
            if rules.melds:
                expected_melds = score_melds(melds, state.contract, state.first_leader, rules)
                assert (score.ns.melds, score.ew.melds) == expected_melds.points
                assert score.meld_team is expected_melds.team
            capot = score.capot is not None
            p = score.ns.points + score.ew.points
            if not capot:
                scaled = denomination is Denomination.ALL_TRUMPS and ta_values == "raw_scaled"
                assert p == (162 if scaled else expected)
            elif rules.capot_score == "flat250":  # sata-coinche (003): the capot side's points are 250
                assert p == 250
            else:
                assert p in (252, 348, expected + 90)  # + 90: 220 at SA with sa_ace=11 (club-coinche)
            # replaying the same cards gives the same score
            again = PlayState(hands, state.contract, rules, leader=state.first_leader)
            for _, card in state.plays:
                again.push(card)
            assert score_deal(finished_deal(again, melds), rules) == score
            # rewinding everything gives back the hands as dealt
            for _ in range(32):
                state.pop()
            assert all(state.hand(seat) == frozenset(hands[seat]) for seat in SEATS)
