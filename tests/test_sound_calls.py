"""The validator's fast path through a taking or an auction (``replayer.sound_calls``)
against the states' own checked path, call by call on random sequences."""

from __future__ import annotations

import random

import pytest

from notation.values import ALL_CARDS, SEATS, Call, CallKind, Denomination
from notation.record import CallEntry
from replayer.auction import AuctionState, BiddingState, TakingState
from replayer.rules import PROFILES, Rules
from replayer.sound_calls import push_sound_calls

VARIANTS = [Rules.parse(name) for name in PROFILES] + [
    Rules.parse("ffb; jack_forces_dealer=true; round2_sa_ta=true"),
    Rules.parse("ffb; round2_same_suit=true; direction=cw"),
    Rules.parse("ffb-coinche; coinche_out_of_turn=true; surcoinche=false; generale=500"),
    Rules.parse("ffb-contree; decoincher=true; bid_values=any_step; bid_step=5"),
]
WORDS = (["pass"] * 6 + ["take", "coinche", "surcoinche", "S", "H", "D", "C", "SA", "TA", "capotH", "capotSA",
                          "generaleTA", "generaleC"] + [f"{v}{d}" for v in (75, 80, 85, 90, 100, 120, 160, 170)
                                                         for d in ("S", "H", "SA", "TA")])


def state_fields(state: BiddingState) -> tuple:
    own = (state._contract,) if isinstance(state, TakingState) else (
        state._turn, state._bid, state._doubling, state._coincher, state._passes)
    return (tuple(state._history), state.turn, state.contract) + own


def random_entries(rng: random.Random, state: BiddingState, count: int) -> list[CallEntry]:
    """Mostly legal calls by the seat in turn, with wrong seats and illegal calls now and then."""
    entries = []
    probe = state
    for _ in range(count):
        legal = probe.legal_calls()
        call = rng.choice(legal) if legal and rng.random() < 0.85 else Call.parse(rng.choice(WORDS))
        seat = None if rng.random() < 0.3 else (probe.turn if rng.random() < 0.9 else rng.choice(SEATS))
        entries.append(CallEntry(call, seat))
        probe.push_unchecked(call, seat)
    for _ in entries:
        probe.pop()
    return entries


def fresh(rules: Rules, dealer, turned) -> BiddingState:
    return AuctionState(rules, dealer) if rules.is_coinche else TakingState(rules, dealer, turned)


@pytest.mark.parametrize("seed", range(4))
def test_the_fast_path_makes_exactly_the_calls_the_checked_path_allows(seed: int) -> None:
    rng = random.Random(seed)
    stops = 0
    for _ in range(600):
        rules = rng.choice(VARIANTS)
        dealer, turned = rng.choice(SEATS), rng.choice(ALL_CARDS)
        entries = random_entries(rng, fresh(rules, dealer, turned), rng.randrange(1, 14))
        fast, slow = fresh(rules, dealer, turned), fresh(rules, dealer, turned)
        done = push_sound_calls(fast, entries)
        expected = 0
        for entry in entries:
            if slow.explain(entry.call, entry.seat) is not None or (
                    entry.seat is not None and entry.seat is not slow.turn):  # an interjection is the slow path's
                break
            slow.push_unchecked(entry.call, entry.seat)
            expected += 1
        assert done == expected, (str(rules), dealer, turned, [str(e.call) for e in entries])
        assert state_fields(fast) == state_fields(slow)
        stops += done < len(entries)
        for entry in entries[done:]:  # both go on alike after the fast path stops
            fast.push_unchecked(entry.call, entry.seat)
            slow.push_unchecked(entry.call, entry.seat)
        assert state_fields(fast) == state_fields(slow)
    assert stops > 100  # the sequences do hit illegal and out-of-turn calls


def test_a_clean_auction_is_made_in_one_go_and_can_be_taken_back() -> None:
    state = AuctionState(Rules.parse("ffb-coinche"), SEATS[0])
    calls = [CallEntry(Call.parse(word)) for word in "80H pass 90S coinche surcoinche".split()]
    assert push_sound_calls(state, calls) == 5
    assert state.is_over and str(state.contract) == "90S surcoinche by E"
    assert state.pop().call == Call(CallKind.SURCOINCHE)
    assert state.turn is not None and state.contract.doubling == 1
    assert state.pop().call == Call(CallKind.COINCHE) and state.contract.doubling == 0
    assert state.contract.denomination is Denomination.SPADES
