"""The classic taking and the coinche auction: legal calls, ends, contracts, errors."""

from __future__ import annotations

import random

import pytest

from notation.values import COINCHE, PASS, SURCOINCHE, TAKE, Call, Card, Denomination, Seat
from replayer.engine.bidding import (AuctionClosedError, AuctionError, AuctionState, IllegalCallError,
                                     OutOfTurnError, TakingState, bids_above, explain_illegal_call, new_bidding)
from replayer.engine.contract import Contract
from replayer.engine.rules import PROFILES, Rules

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def calls(text: str) -> list[Call]:
    return [Call.parse(word) for word in text.split()]


def texts(state) -> str:
    return " ".join(str(c) for c in state.legal_calls())


def taking(rules: str = "ffb", dealer: Seat = N, turned: str = "9H", said: str = "") -> TakingState:
    state = TakingState(Rules.parse(rules), dealer, Card.parse(turned))
    for call in calls(said):
        state.push(call)
    return state


def auction(rules: str = "ffb-coinche", dealer: Seat = N, said: str = "") -> AuctionState:
    state = AuctionState(Rules.parse(rules), dealer)
    for call in calls(said):
        state.push(call)
    return state


# --- classic taking ----------------------------------------------------------------------

@pytest.mark.parametrize("rules, dealer, order", [
    ("ffb", N, (W, S, E, N)),  # ccw, dealer's next speaks first
    ("ffb", E, (N, W, S, E)),
    ("ffb; direction=cw", N, (E, S, W, N)),
    ("korean", N, (N, E, S, W)),  # cw, the dealer speaks first
    ("ffb; first_speaker=dealer", S, (S, E, N, W)),
])
def test_speaking_order(rules, dealer, order):
    state = taking(rules, dealer)
    assert state.order == order
    seen = []
    while not state.is_over:
        seen.append(state.turn)
        state.push(PASS)
    assert tuple(seen) == order + order


def test_round1_take_or_pass():
    state = taking()
    assert state.round == 1
    assert texts(state) == "pass take"
    state.push(TAKE)
    assert state.is_over and not state.is_void
    assert state.contract == Contract(W, Denomination.HEARTS)
    assert state.legal_calls() == []


def test_round2_names_other_suits_only_by_default():
    state = taking(said="pass pass pass pass")
    assert state.round == 2 and state.turn is W
    assert texts(state) == "pass S D C"


def test_round2_same_suit_and_sa_ta():
    assert texts(taking("ffb; round2_same_suit=true", said="pass " * 4)) == "pass S H D C"
    assert texts(taking("ffb; round2_sa_ta=true", said="pass " * 4)) == "pass S D C SA TA"
    both = "ffb; round2_same_suit=true; round2_sa_ta=true"
    assert texts(taking(both, said="pass " * 4)) == "pass S H D C SA TA"


def test_round2_name_makes_the_contract():
    state = taking(said="pass pass pass pass pass C")
    assert state.is_over
    assert state.contract == Contract(S, Denomination.CLUBS)
    assert [str(c) for c in state.history] == ["W pass", "S pass", "E pass", "N pass", "W pass", "S C"]


def test_eight_passes_make_the_deal_void():
    state = taking(said="pass " * 7)
    assert not state.is_over
    state.push(PASS)
    assert state.is_over and state.is_void and state.contract is None and state.turn is None


def test_jack_forces_dealer():
    rules = "ffb; jack_forces_dealer=true"
    assert texts(taking(rules, turned="JD", said="pass pass pass")) == "take"
    assert texts(taking(rules, turned="JD", said="pass pass")) == "pass take"  # not the dealer
    assert texts(taking(rules, turned="TD", said="pass pass pass")) == "pass take"  # not a jack
    assert texts(taking("ffb", turned="JD", said="pass pass pass")) == "pass take"  # option off


@pytest.mark.parametrize("said, call, rule, error", [
    ("", "S", "taking.round1-take-or-pass", IllegalCallError),
    ("", "80S", "taking.round1-take-or-pass", IllegalCallError),
    ("pass " * 4, "take", "taking.round2-name-or-pass", IllegalCallError),
    ("pass " * 4, "H", "taking.round2-turned-suit", IllegalCallError),
    ("pass " * 4, "SA", "taking.round2-sa-ta", IllegalCallError),
    ("take", "pass", "auction.closed", AuctionClosedError),
    ("pass " * 8, "S", "auction.closed", AuctionClosedError),
])
def test_taking_errors(said, call, rule, error):
    state = taking(said=said)
    with pytest.raises(error) as caught:
        state.push(Call.parse(call))
    assert caught.value.rule == rule
    assert caught.value.call == Call.parse(call)
    assert str(caught.value.call) in str(caught.value)
    assert explain_illegal_call(state, Call.parse(call)).rule == rule


def test_taking_errors_name_the_seat_and_why():
    state = taking(said="pass " * 4)
    with pytest.raises(IllegalCallError, match=r"^W cannot call H: the turned suit \(hearts\) may not be "
                                               r"named in round 2$") as caught:
        state.push(Call.parse("H"))
    assert caught.value.seat is W
    state = taking(turned="JS", rules="ffb; jack_forces_dealer=true", said="pass pass pass")
    with pytest.raises(IllegalCallError, match="^N cannot call pass: the dealer must take"):
        state.push(PASS)


def test_taking_out_of_turn():
    state = taking()
    with pytest.raises(OutOfTurnError, match="^N cannot call take: it is W's turn to call$") as caught:
        state.push(TAKE, N)
    assert caught.value.seat is N and caught.value.rule == "auction.out-of-turn"
    state.push(TAKE, W)  # the seat in turn, given explicitly
    assert state.contract == Contract(W, Denomination.HEARTS)


def test_taking_unchecked_keeps_the_seats_of_later_calls():
    state = taking()
    state.push_unchecked(PASS, E)  # wrongly seated
    assert state.turn is S  # the second speaker, whatever the first call's seat
    state.push_unchecked(Call.parse("C"), S)  # a name in round 1: taken as made
    assert state.contract == Contract(S, Denomination.CLUBS) and state.is_over
    state.push_unchecked(TAKE, E)  # after the close: recorded, no effect
    assert state.contract == Contract(S, Denomination.CLUBS)
    assert len(state) == 3
    assert state.pop() == (E, TAKE)
    assert state.pop() == (S, Call.parse("C"))
    assert state.contract is None and state.turn is S


def test_taking_pop_restores_round_and_turn():
    state = taking(said="pass " * 4 + "S")
    state.pop()
    assert state.turn is W and state.round == 2 and state.contract is None
    for _ in range(4):
        state.pop()
    assert state.turn is W and state.round == 1
    with pytest.raises(IndexError):
        state.pop()


# --- coinche auction ---------------------------------------------------------------------

SUITS4 = "S H D C".split()


def ladder(values, denominations=SUITS4) -> list[str]:
    return [f"{v}{d}" for v in values for d in denominations]


def test_opening_calls_ffb_contree():
    state = auction("ffb-contree")  # no SA/TA, no générale
    expected = ["pass"] + ladder(range(80, 161, 10)) + [f"capot{d}" for d in SUITS4]
    assert texts(state).split() == expected
    assert state.turn is W


def test_opening_calls_with_sa_ta_and_generale():
    state = auction("pagat-coinche")
    six = SUITS4 + ["SA", "TA"]
    expected = (["pass"] + ladder(range(80, 161, 10), six) + [f"capot{d}" for d in six]
                + [f"generale{d}" for d in six])
    assert texts(state).split() == expected


def test_each_bid_must_be_higher():
    state = auction("ffb-contree", said="pass 140D")
    assert state.turn is E
    assert texts(state).split() == ["pass", "coinche"] + ladder([150, 160]) + [f"capot{d}" for d in SUITS4]
    state.push(Call.parse("capotS"))
    assert texts(state) == "pass coinche"  # nothing above capot without générale
    with pytest.raises(IllegalCallError, match=r"^N cannot call capotH: a bid must be higher than capotS by E$"):
        state.push(Call.parse("capotH"))


def test_generale_over_capot():
    state = auction("pagat-coinche", said="capotH")
    assert texts(state).split()[2:] == [f"generale{d}" for d in SUITS4 + ["SA", "TA"]]


def test_any_step_values():
    state = auction("ffb-contree; bid_values=any_step")
    values = {c.value for c in state.legal_calls() if c.value}
    assert values == set(range(80, 161))
    state.push(Call.parse("115H"))
    assert {c.value for c in state.legal_calls() if c.value} == set(range(125, 161))
    state.push(Call.parse("155S"))
    assert texts(state) == "pass coinche capotS capotH capotD capotC"
    with pytest.raises(IllegalCallError, match="must be higher by at least 10 than 115H by W"):
        auction("ffb-contree; bid_values=any_step", said="115H").push(Call.parse("120S"))


def test_multiples_reject_off_ladder_values():
    state = auction("ffb-contree")
    for bad in ("85H", "70H", "170H"):
        with pytest.raises(IllegalCallError, match=r"a bid is a multiple of 10 from 80 to 160") as caught:
            state.push(Call.parse(bad))
        assert caught.value.rule == "auction.bid-value"
    twenties = bids_above(Rules.parse("ffb-contree; bid_step=20"), 0)
    assert sorted({c.value for c in twenties if c.value}) == [80, 100, 120, 140, 160]


@pytest.mark.parametrize("rules, said, call, rule", [
    ("ffb-contree", "", "80SA", "auction.denomination"),
    ("ffb-contree", "", "generaleH", "auction.generale-off"),
    ("ffb-contree", "", "take", "auction.not-an-auction-call"),
    ("ffb-contree", "", "H", "auction.not-an-auction-call"),
    ("ffb-contree", "", "coinche", "auction.coinche-no-bid"),
    ("ffb-contree", "80H pass", "coinche", "auction.coinche-own-side"),
    ("ffb-contree", "80H", "surcoinche", "auction.surcoinche-no-coinche"),
    ("ffb-contree", "80H coinche", "coinche", "auction.coinche-twice"),
    ("ffb-contree", "80H coinche pass", "surcoinche", "auction.surcoinche-by-defence"),
    ("ffb-contree", "80H coinche", "90H", "auction.bid-after-coinche"),
    ("ffb-contree", "80H coinche pass", "90H", "auction.coincher-partner-must-pass"),
    ("ffb-contree; surcoinche=false", "80H coinche", "surcoinche", "auction.surcoinche-off"),
    ("ffb-contree", "80H coinche surcoinche", "pass", "auction.closed"),
    ("ffb-contree", "80H 90S", "80C", "auction.bid-not-higher"),
])
def test_auction_errors(rules, said, call, rule):
    state = auction(rules, said=said)
    problem = explain_illegal_call(state, Call.parse(call))
    assert problem.rule == rule
    assert problem.message.startswith(f"{state.turn or N} cannot call {call}:")
    with pytest.raises(AuctionError) as caught:
        state.push(Call.parse(call))
    assert caught.value.rule == rule and caught.value.call == Call.parse(call)
    assert isinstance(caught.value, ValueError)


def test_coinche_only_by_opponents_in_turn():
    state = auction("ffb-contree", said="80H")  # W bid; S (an opponent) is in turn
    assert state.turn is S and texts(state).startswith("pass coinche 90S")
    state.push(PASS)
    assert state.turn is E and "coinche" not in texts(state)  # the bidder's partner
    state.push(PASS)
    assert state.turn is N and "coinche" in texts(state)
    state.push(COINCHE)
    assert state.turn is W and state.doubling == 1 and state.coincher is N
    assert texts(state) == "pass surcoinche"  # the bidder
    state.push(PASS)
    assert state.turn is S and texts(state) == "pass"  # the coincher's partner
    state.push(PASS)
    assert state.turn is E and texts(state) == "pass surcoinche"
    state.push(PASS)
    assert state.is_over
    assert state.contract == Contract(W, Denomination.HEARTS, 80, doubling=1)


def test_surcoinche_ends_at_once():
    state = auction("ffb-contree", said="pass 100S coinche surcoinche")
    assert state.is_over and state.turn is None
    assert state.contract == Contract(S, Denomination.SPADES, 100, doubling=2)


def test_coinche_out_of_turn_interjection():
    state = auction("ffb-contree; coinche_out_of_turn=true", said="80H pass")  # W bid, E in turn
    assert state.interjectors() == [N, S]
    with pytest.raises(IllegalCallError, match="^E cannot call coinche: only an opponent"):
        state.push(COINCHE)  # the bidder's partner, in turn
    with pytest.raises(IllegalCallError, match="^W cannot call coinche: only an opponent") as caught:
        state.push(COINCHE, W)  # the bidder, out of turn
    assert caught.value.seat is W and caught.value.rule == "auction.coinche-own-side"
    state.push(COINCHE, S)  # S interjects; the turn passes to the player after S: E
    assert state.turn is E and state.coincher is S and state.interjectors() == []
    assert [str(c) for c in state.history] == ["W 80H", "S pass", "S coinche"]
    assert texts(state) == "pass surcoinche"
    state.push(PASS)
    assert state.turn is N and texts(state) == "pass"  # S's partner
    state.push(PASS)
    assert state.turn is W and texts(state) == "pass surcoinche"
    state.push(PASS)
    assert state.is_over and state.contract.doubling == 1


def test_interjection_needs_the_option():
    state = auction("ffb-contree", said="80H")
    with pytest.raises(OutOfTurnError, match="^N cannot call coinche: it is S's turn to call$"):
        state.push(COINCHE, N)
    assert state.interjectors() == []


def test_the_player_in_turn_may_still_coinche_with_interjections_on():
    state = auction("ffb-contree; coinche_out_of_turn=true", said="80H")  # S in turn
    assert state.interjectors() == [N]
    state.push(COINCHE)
    assert state.coincher is S and state.turn is E


def test_decoincher_lets_anyone_bid_higher():
    state = auction("korean-coinche", dealer=N, said="80H")  # cw, dealer speaks: N bid, E in turn
    state.push(COINCHE)
    assert state.turn is S
    assert texts(state).split()[:3] == ["pass", "surcoinche", "90S"]
    state.push(PASS)
    assert texts(state).split()[:2] == ["pass", "90S"]  # the coincher's partner may bid too
    state.push(Call.parse("90C"))  # W cancels the coinche
    assert state.doubling == 0 and state.coincher is None
    assert state.contract == Contract(W, Denomination.CLUBS, 90)
    assert texts(state).split()[:2] == ["pass", "coinche"]  # N may coinche the new bid


def test_three_passes_after_a_bid_end_the_auction():
    state = auction("ffb-contree", said="pass 90D pass pass")
    assert not state.is_over
    state.push(PASS)
    assert state.is_over and state.contract == Contract(S, Denomination.DIAMONDS, 90)


def test_a_pass_does_not_stop_a_later_bid():
    state = auction("ffb-contree", said="pass pass pass 80S pass pass 90H pass pass")
    assert not state.is_over and state.turn is S
    state.push(PASS)
    assert state.contract == Contract(E, Denomination.HEARTS, 90)


def test_four_passes_void():
    state = auction("ffb-contree", said="pass pass pass")
    assert not state.is_over
    state.push(PASS)
    assert state.is_void and state.contract is None


def test_capot_and_generale_contracts():
    assert auction("pagat-coinche", said="capotTA pass pass pass").contract == \
        Contract(W, Denomination.ALL_TRUMPS, None, capot=True)
    assert auction("pagat-coinche", said="pass generaleSA pass pass pass").contract == \
        Contract(S, Denomination.NO_TRUMPS, None, generale=True)


def test_auction_pop_restores_everything():
    state = auction("ffb-contree", said="80H coinche")
    state.pop()
    assert state.doubling == 0 and state.turn is S and state.contract == Contract(W, Denomination.HEARTS, 80)
    state.pop()
    assert state.contract is None and state.turn is W


def test_auction_unchecked_keeps_a_sensible_state():
    state = auction("ffb-contree")
    state.push_unchecked(Call.parse("70H"), W)  # under the ladder: stands as a bid
    assert state.contract == Contract(W, Denomination.HEARTS, 70)
    assert "80S" in texts(state)
    state.push_unchecked(COINCHE, N)  # the bidder's partner would be S... N is an opponent, out of turn
    assert state.doubling == 1 and state.turn is W
    state.push_unchecked(SURCOINCHE, N)  # by the defence: taken as made
    assert state.is_over and state.contract.doubling == 2
    state.push_unchecked(PASS, E)  # after the close: no effect
    assert state.is_over and len(state) == 4


def test_unchecked_impossible_coinche_counts_as_a_pass():
    state = auction("ffb-contree")
    for _ in range(3):
        state.push_unchecked(COINCHE)
    assert state.doubling == 0 and not state.is_over
    state.push_unchecked(SURCOINCHE)
    assert state.is_void


def test_legal_calls_are_accepted_and_others_refused():
    state = auction("pagat-coinche; bid_values=any_step", said="95H coinche")
    legal = state.legal_calls()
    assert [str(c) for c in legal] == ["pass", "surcoinche"]
    for call in calls("pass coinche surcoinche 105H capotS generaleC take H"):
        assert state.is_legal(call) == (call in legal)


def test_new_bidding():
    assert isinstance(new_bidding(Rules.parse("ffb"), N, Card.parse("7S")), TakingState)
    assert isinstance(new_bidding(Rules.parse("ffb-coinche"), N), AuctionState)
    with pytest.raises(ValueError):
        new_bidding(Rules.parse("ffb"), N)


# --- random walks: the legal list, the checks and the explanations agree ---------------------

UNIVERSE = ([PASS, TAKE, COINCHE, SURCOINCHE]
            + [Call.parse(d) for d in ("S", "H", "D", "C", "SA", "TA")]
            + [Call.parse(f"{v}{d}") for v in range(70, 175, 5) for d in ("S", "H", "D", "C", "SA", "TA")]
            + [Call.parse(f"{k}{d}") for k in ("capot", "generale") for d in ("S", "H", "D", "C", "SA", "TA")])
WALK_RULES = [
    "ffb", "ffb; round2_same_suit=true; round2_sa_ta=true; jack_forces_dealer=true", "korean",
    "ffb-coinche", "ffb-contree; coinche_out_of_turn=true", "pagat-coinche; bid_values=any_step",
    "korean-coinche", "korean-coinche; surcoinche=false; bid_step=20",
]


@pytest.mark.parametrize("rules_text", WALK_RULES)
def test_random_walks_agree(rules_text):
    rules = Rules.parse(rules_text)
    rng = random.Random(rules_text)
    for _ in range(20):
        state = new_bidding(rules, Seat(rng.choice("NESW")), Card.parse(rng.choice(["JH", "7S", "AD", "JC"])))
        steps = 0
        while not state.is_over:
            legal = state.legal_calls()
            assert legal[0] == PASS or legal == [TAKE]
            allowed = set(legal)
            assert len(allowed) == len(legal)
            for call in UNIVERSE:
                problem = explain_illegal_call(state, call)
                assert (problem is None) == (call in allowed), (call, state.history)
                if problem is not None:
                    assert problem.message.startswith(f"{state.turn} cannot call {call}: ")
            for seat in Seat:
                if seat is not state.turn:
                    interjection = explain_illegal_call(state, COINCHE, seat) is None
                    assert interjection == (isinstance(state, AuctionState) and seat in state.interjectors())
            # favour passes so that walks end, but bid and double often enough
            call = PASS if PASS in legal and rng.random() < 0.6 else rng.choice(legal)
            state.push(call)
            steps += 1
            assert steps < 200
        assert state.legal_calls() == []
        assert state.is_void == (state.contract is None)


# --- property: one rule, asked three ways; every move can be taken back --------------------

VARIANTS = [Rules.parse(name) for name in PROFILES] + [
    Rules.parse("ffb; jack_forces_dealer=true; round2_sa_ta=true"),
    Rules.parse("ffb; round2_same_suit=true; direction=cw"),
    Rules.parse("ffb-coinche; coinche_out_of_turn=true; surcoinche=false; generale=500"),
    Rules.parse("ffb-contree; decoincher=true; bid_values=any_step; bid_step=5"),
]
WORDS = (["pass"] * 6 + ["take", "coinche", "surcoinche", "S", "H", "D", "C", "SA", "TA", "capotH", "capotSA",
                          "generaleTA", "generaleC"] + [f"{v}{d}" for v in (75, 80, 85, 90, 100, 120, 160, 170)
                                                         for d in ("S", "H", "SA", "TA")])
PROBES = [Call.parse(word) for word in dict.fromkeys(WORDS)]


def snapshot(state) -> tuple:
    """Everything the public interface says about a state."""
    seen = (state.history, state.entries(), state.turn, state.contract, state.is_over, state.is_void, len(state),
            tuple(state.legal_calls()))
    if isinstance(state, AuctionState):
        return seen + (state.standing_bid, state.doubling, state.coincher, state.level, tuple(state.interjectors()))
    return seen + (state.round, state.dealer_must_take)


@pytest.mark.parametrize("seed", range(4))
def test_random_call_sequences_keep_the_one_rule_and_take_back(seed):
    """On random call sequences (mostly legal calls, wrong seats and illegal calls now and
    then): ``explain`` allows a call exactly when ``legal_calls`` lists it; ``push`` makes
    what ``explain`` allows and refuses the rest with its rule, changing nothing;
    ``push_unchecked`` then ``pop`` gives back the same state, and pushing again the same
    state as before."""
    rng = random.Random(seed)
    refused = 0
    for _ in range(250):
        rules = rng.choice(VARIANTS)
        state = new_bidding(rules, rng.choice(list(Seat)), Card.parse(rng.choice(["JH", "7S", "AD", "JC", "9H"])))
        for _ in range(rng.randrange(1, 14)):
            legal = state.legal_calls()
            assert len(set(legal)) == len(legal)
            for call in PROBES + legal:
                assert (state.explain(call) is None) == (call in legal), (str(rules), str(call), state.history)
                assert (state.explain(call, state.turn) is None) == (call in legal)
            call = rng.choice(legal) if legal and rng.random() < 0.8 else rng.choice(PROBES)
            seat = None if rng.random() < 0.3 else (state.turn if rng.random() < 0.85 else rng.choice(list(Seat)))
            before = snapshot(state)
            problem = state.explain(call, seat)
            if problem is None:
                state.push(call, seat)
            else:
                refused += 1
                with pytest.raises(AuctionError) as caught:
                    state.push(call, seat)
                assert caught.value.rule == problem.rule and str(caught.value) == problem.message
                assert snapshot(state) == before
                state.push_unchecked(call, seat)
            after = snapshot(state)
            made = after[0][-1]
            assert after[0][:-1] == before[0] and made.call == call
            if seat is not None or before[2] is not None:
                assert made.seat is (seat or before[2])  # the seat written, else the seat in turn
            assert state.pop() == made
            assert snapshot(state) == before
            state.push_unchecked(call, made.seat)
            assert snapshot(state) == after
    assert refused > 100  # the sequences do hit illegal and out-of-turn calls


def test_a_clean_auction_made_call_by_call_can_be_taken_back():
    state = AuctionState(Rules.parse("ffb-coinche"), N)
    for word in "80H pass 90S coinche surcoinche".split():
        assert state.explain(Call.parse(word)) is None
        state.push_unchecked(Call.parse(word))
    assert state.is_over and str(state.contract) == "90S surcoinche by E"
    assert state.pop().call == SURCOINCHE
    assert state.turn is not None and state.contract.doubling == 1
    assert state.pop().call == COINCHE and state.contract.doubling == 0
    assert state.contract.denomination is Denomination.SPADES


def test_rule_numbers_are_ascii_digits():
    """Issue 15 J: only ASCII digits are digits in the notation, Rules tags included."""
    from replayer.engine.rules import Rules, RulesError

    assert Rules.parse("ffb; target=1500").target == 1500
    for bad in ("target=١٠٠٠", "target=1e3", "target=99999999999999999999"):
        with pytest.raises(RulesError, match=r"expected a whole number \(ASCII digits\)"):
            Rules.parse(f"ffb; {bad}")


def test_a_bid_ladder_has_at_most_a_thousand_values():
    """Every list of legal calls walks the ladder: a Rules tag may not make it millions long
    (``bid_max=999999; bid_step=1`` made a finding list six million calls)."""
    from replayer.engine.rules import MAX_BID_VALUES, Rules, RulesError

    assert MAX_BID_VALUES == 1000
    assert Rules.parse("club-coinche").bid_value_count == 101  # any value from 82 to 182
    longest = Rules.parse("ffb-coinche; bid_min=80; bid_max=1079; bid_step=1")
    assert longest.bid_value_count == 1000
    assert len(bids_above(longest, 0)) == 1000 * 6 + 6  # each value in six denominations, then capot in six
    with pytest.raises(RulesError, match=r"at most 1000 bid values: bid_min=80 to bid_max=999999 make 999920"):
        Rules.parse("ffb-coinche; bid_max=999999; bid_step=1")
