"""Whether a claim holds: the claimer's side must take every remaining trick.

A claim is sound when the claimer's side has a way of playing that wins every
remaining trick whatever the opponents play, every hand being known (the record
shows all four hands). That is an AND-OR search over the legal plays left: at
most 8 tricks of at most 4 x 8 choices, pruned at the first trick lost and
memoised on (hands, leader) at trick boundaries, so it is small in practice; a
node budget keeps a pathological case bounded (the claim is then reported as
not checked).
"""

from __future__ import annotations

from notation.values import ALL_CARDS, SEATS, Team

from .play import PlayState

NODE_BUDGET = 50_000  # about half a second at worst


class _OutOfBudget(Exception):
    pass


def claim_holds(state: PlayState, team: Team, budget: int = NODE_BUDGET) -> bool | None:
    """Whether ``team`` takes every remaining trick against any defence; ``None`` if
    the search ran out of budget. ``state`` is left as it was."""
    counter = [budget]
    try:
        return _search(state, team, {}, counter)
    except _OutOfBudget:
        return None


def _search(state: PlayState, team: Team, memo: dict, counter: list[int]) -> bool:
    turn = state.turn
    if turn is None:  # the deal is over
        return True
    boundary = not state.current_trick
    if boundary:
        key = (tuple(state.hand_mask(seat) for seat in SEATS), state.leader)
        known = memo.get(key)
        if known is not None:
            return known
    ours = turn.team is team
    mask = state.legal_mask()
    result = not ours
    while mask:  # highest rank first: the claimers' best tries and the defenders' likely refutations
        counter[0] -= 1
        if counter[0] < 0:
            raise _OutOfBudget
        index = mask.bit_length() - 1
        mask ^= 1 << index
        state.push_unchecked(ALL_CARDS[index])
        won = bool(state.current_trick) or state.leader.team is team
        holds = won and _search(state, team, memo, counter)
        state.pop()
        if holds == ours:  # a winning card for the claimers, a refutation for the opponents
            result = holds
            break
    if boundary:
        memo[key] = result
    return result
