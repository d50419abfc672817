"""The engine's per-call and per-card paths, as a validator drives them.

Generates N deals (``replayer.engine.generator``, the profiles in turn), then times,
per deal:

* bidding: a fresh taking or auction, and for every call ``explain(call, seat)``
  then ``push_unchecked(call, seat)``;
* play: a fresh ``PlayState`` and, for each of the 32 cards, the seat written
  checked against ``turn``, then ``fault(index)`` and ``apply(index, word)``.

``--old DIR`` also times the code this engine replaced, in the same run: DIR holds a
copy of the former ``replayer`` package renamed ``replayer_old`` (its inlined fast
paths ``sound_calls.push_sound_pairs`` and ``PlayState._push_plays``), and the
ratio new / old is printed.

    python3 bench/bench_engine.py [--deals N] [--old DIR]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import sys
import time
from pathlib import Path

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from notation.values import SEATS  # noqa: E402
from replayer.engine.bidding import new_bidding  # noqa: E402
from notation.values import card_index  # noqa: E402
from replayer.engine.cardmasks import mask_of  # noqa: E402
from replayer.engine.generator import generate_deal  # noqa: E402
from replayer.engine.play import PlayState  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402

ROUNDS = 9


def make_deals(count: int) -> list[tuple]:
    """(rules, dealer, turned, calls, masks, contract, plays) of ``count`` deals that are played."""
    rng = random.Random(2026)
    profiles = [Rules.parse(name) for name in PROFILES]
    deals = []
    while len(deals) < count:
        rules = profiles[len(deals) % len(profiles)]
        deal = generate_deal(rng, rules, SEATS[len(deals) % 4], redeal_void=True)
        calls = tuple((seat, call) for seat, call in deal.calls)
        masks = tuple(mask_of(hand) for hand in deal.hands)
        plays = tuple((card_index(entry.card), entry.seat, entry.declaration) for entry in deal.plays)
        deals.append((rules, deal.dealer, deal.turned, calls, masks, deal.contract, plays))
    return deals


def bid_new(deals: list[tuple]) -> None:
    for rules, dealer, turned, calls, _, _, _ in deals:
        state = new_bidding(rules, dealer, turned)
        explain, push = state.explain, state.push_unchecked
        for seat, call in calls:
            if explain(call, seat) is not None:
                raise AssertionError("a generated call is refused")
            push(call, seat)


def play_new(deals: list[tuple]) -> None:
    for rules, dealer, _, _, masks, contract, plays in deals:
        state = PlayState(masks, contract, rules, dealer=dealer)
        fault, apply = state.fault, state.apply
        for index, seat, word in plays:
            if seat is not state.turn or fault(index) is not None:
                raise AssertionError("a generated card is refused")
            apply(index, word)


def bid_old(deals: list[tuple], old) -> None:
    sound_calls = old.sound_calls
    for rules, dealer, turned, calls, _, _, _ in deals:
        state = old.auction.new_bidding(rules, dealer, turned)
        if sound_calls.push_sound_pairs(state, calls) != len(calls):
            raise AssertionError("a generated call is refused")


def play_old(deals: list[tuple], old) -> None:
    state_class = old.play.PlayState
    for rules, dealer, _, _, masks, contract, plays in deals:
        state = state_class(masks, contract, rules, dealer=dealer)
        indexes, seats, words = zip(*plays)
        if state._push_plays(indexes, seats, words) != 32:
            raise AssertionError("a generated card is refused")


def timed(runs: dict[str, tuple]) -> dict[str, float]:
    """CPU seconds of this process for each run (function and arguments), the best of
    ROUNDS rounds that take every run in turn, the collector off: the figure for one core
    even on a shared machine, old and new measured under the same conditions."""
    best = {name: float("inf") for name in runs}
    gc.disable()
    try:
        for _ in range(ROUNDS):
            for name, (function, *args) in runs.items():
                start = time.process_time()
                function(*args)
                best[name] = min(best[name], time.process_time() - start)
    finally:
        gc.enable()
    return best


def main() -> None:
    print(measured.describe())
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--old", type=Path, help="a folder holding the former engine as the package replayer_old")
    args = parser.parse_args()
    deals = make_deals(args.deals)
    count = len(deals)
    runs: dict[str, tuple] = {"bidding": (bid_new, deals), "play": (play_new, deals)}
    if args.old:
        sys.path.insert(0, str(args.old))
        old = argparse.Namespace(**{name: importlib.import_module(f"replayer_old.{name}")
                                    for name in ("auction", "sound_calls", "play")})
        runs.update({"old bidding": (bid_old, deals, old), "old play": (play_old, deals, old)})
    figures = timed(runs)
    for name in ("bidding", "play", "total"):
        seconds = figures["bidding"] + figures["play"] if name == "total" else figures[name]
        line = f"{name:8s} new {seconds * 1e6 / count:7.1f} us/deal"
        if args.old:
            before = figures["old bidding"] + figures["old play"] if name == "total" else figures["old " + name]
            line += f"   old {before * 1e6 / count:7.1f} us/deal   new/old {seconds / before:4.2f}"
        print(line)


if __name__ == "__main__":
    main()
