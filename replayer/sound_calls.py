"""The validator's fast path through a taking or an auction: the sound calls, inlined.

``push_sound_calls(state, entries)`` (``push_sound_pairs`` of (seat, call) pairs)
makes the calls of a record on a fresh ``TakingState`` or ``AuctionState`` for as
long as each one is made by the seat in turn (or by no seat written) and is
allowed, exactly as ``state.push`` would,
and returns how many it made. The first call that is not sound stops it: the
replay explains that call and pushes the rest one by one through the states'
own methods.

Why a second copy of the rules of ``auction.py``: there, a call goes through a
dozen small methods and properties (``turn``, ``_allows``, ``level``,
``Seat.next``, ``Seat.team``...), and a Python call costs about as much as
forty bytecodes; over the five to ten calls of a record that was a fifth of
the whole validation. Here the state lives in locals for the whole loop, seats
are compared by identity and the bid ladder is worked out once per bid. The
tests compare both paths call by call on random sequences
(``tests/test_sound_calls.py``), so the two cannot drift apart unnoticed.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Sequence

from notation.values import SEATS, Call, CallKind, Denomination, Rank, Seat
from notation.record import CallEntry

from .auction import (_CAPOT_LEVEL, _GENERALE_LEVEL, AuctionState, BiddingState, SeatedCall, TakingState,
                      bid_denominations, bid_level, bid_values_above)
from .contract import contract_of

PASS, TAKE, NAME, BID = CallKind.PASS, CallKind.TAKE, CallKind.NAME, CallKind.BID
COINCHE, SURCOINCHE, CAPOT, GENERALE = CallKind.COINCHE, CallKind.SURCOINCHE, CallKind.CAPOT, CallKind.GENERALE
_NORTH_SOUTH = (Seat.NORTH, Seat.SOUTH)
# The next seat by identity (Seat.next and Seat.index are Python-level calls).
_NEXT: dict[bool, dict[int, Seat]] = {
    clockwise: {id(seat): seat.next(clockwise) for seat in SEATS} for clockwise in (False, True)}
_SEAT, _CALL = attrgetter("seat"), attrgetter("call")  # of a CallEntry
# A SeatedCall built in C: NamedTuple.__new__ is written in Python.
_seated = tuple.__new__


def push_sound_calls(state: BiddingState, entries: Sequence[CallEntry]) -> int:
    """Push the leading sound calls of ``entries`` on ``state``; return how many."""
    return push_sound_pairs(state, list(zip(map(_SEAT, entries), map(_CALL, entries))))


def push_sound_pairs(state: BiddingState, calls: Sequence[tuple[Seat | None, Call]]) -> int:
    """``push_sound_calls`` of (seat written or None, call) pairs."""
    if type(state) is AuctionState:
        return _push_auction(state, calls)
    if type(state) is TakingState:
        return _push_taking(state, calls)
    return 0  # another kind of state: every call goes through the explaining path


def _push_taking(state: TakingState, calls: Sequence[tuple[Seat | None, Call]]) -> int:
    """rules.md §2: round 1 take or pass (no pass for the dealer over a turned jack
    with ``jack_forces_dealer``), round 2 a name of ``_round2_names`` or pass; the
    first take or name closes the taking."""
    history = state._history
    made = len(history)
    if state._contract is not None:
        return 0
    order, names = state.order, state._round2_names
    must_take = state.dealer if state.rules.jack_forces_dealer and state.turned.rank is Rank.JACK else None
    for done, (seat, call) in enumerate(calls):
        if made >= 8:
            return done
        turn = order[made % 4]
        if seat is not None and seat is not turn:
            return done
        kind = call.kind
        if made < 4:
            if kind is TAKE:
                state._contract = contract_of(turn, Denomination.of_suit(state.turned.suit))
            elif kind is not PASS or turn is must_take:
                return done
        elif kind is NAME and call.denomination in names:
            state._contract = contract_of(turn, call.denomination)
        elif kind is not PASS:
            return done
        history.append(_seated(SeatedCall, (turn, call)))
        made += 1
        if state._contract is not None:
            return done + 1
    return len(calls)


def _push_auction(state: AuctionState, calls: Sequence[tuple[Seat | None, Call]]) -> int:
    """rules.md §6, as ``AuctionState._allows`` and ``_apply`` say: a pass always; a
    coinche by an opponent of an uncoinched bid; a surcoinche by the bidding side
    of a coinched bid (it closes the auction); a bid above the standing one while
    no coinche stands (or with ``decoincher``)."""
    rules = state.rules
    history = state._history
    following = _NEXT[state.clockwise]
    turn, bid, doubling, coincher, passes = state._turn, state._bid, state._doubling, state._coincher, state._passes
    denominations = bid_denominations(rules)
    level = bid_level(bid.call) if bid is not None else 0
    values = bid_values_above(rules, level)
    may_surcoinche, decoincher, generale = rules.surcoinche, rules.decoincher, rules.generale
    done = 0
    for seat, call in calls:
        if turn is None or (seat is not None and seat is not turn):
            break
        kind = call.kind
        if kind is PASS:
            passes += 1
            after = None if passes >= (3 if bid is not None else 4) else following[id(turn)]
        elif kind is COINCHE:
            if bid is None or doubling or (turn in _NORTH_SOUTH) is (bid.seat in _NORTH_SOUTH):
                break
            doubling, coincher, passes = 1, turn, 0
            after = following[id(turn)]
        elif kind is SURCOINCHE:
            if not may_surcoinche or doubling != 1 or (turn in _NORTH_SOUTH) is not (bid.seat in _NORTH_SOUTH):
                break
            doubling, after = 2, None
        elif kind is BID or kind is CAPOT or kind is GENERALE:
            if (doubling and not decoincher) or call.denomination not in denominations:
                break
            if kind is BID:
                if call.value not in values:
                    break
                level = call.value
            elif kind is CAPOT and level < _CAPOT_LEVEL:
                level = _CAPOT_LEVEL
            elif kind is GENERALE and generale and level < _GENERALE_LEVEL:
                level = _GENERALE_LEVEL
            else:
                break
            bid, doubling, coincher, passes = _seated(SeatedCall, (turn, call)), 0, None, 0
            values = bid_values_above(rules, level)
            after = following[id(turn)]
        else:
            break
        history.append(_seated(SeatedCall, (turn, call)))
        turn = after
        done += 1
    state._turn, state._bid, state._doubling, state._coincher, state._passes = turn, bid, doubling, coincher, passes
    return done
