"""Throughput of a checked replay: new PlayState, a legality check at every card, then the score.

Generates N random complete deals per rules profile (shuffle, a random contract, random
legal cards), stores hands and card sequences, then times replaying them and prints
deals/s per profile and overall. Target: >= 10,000 deals/s on one core.

    python3 bench/bench_replay.py [N]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from notation.values import ALL_CARDS, SEATS, Denomination, Seat  # noqa: E402
from replayer.engine.contract import Contract  # noqa: E402
from replayer.engine.play import PlayState  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402
from replayer.engine.scoring import finished_deal, score_deal  # noqa: E402
from replayer.engine.cardmasks import cards_of  # noqa: E402

Deal = tuple[dict[Seat, tuple], Contract, Seat, tuple]


def random_contract(rng: random.Random, rules: Rules) -> Contract:
    denominations = list(Denomination) if rules.sa_ta else [d for d in Denomination if d.is_suit]
    taker, denomination = rng.choice(SEATS), rng.choice(denominations)
    if not rules.is_coinche:
        return Contract(taker, denomination)
    return Contract(taker, denomination, value=rng.choice(range(80, 170, 10)), doubling=rng.choice((0, 0, 1, 2)))


def random_deal(rng: random.Random, rules: Rules) -> Deal:
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    hands = {seat: tuple(cards[8 * i:8 * i + 8]) for i, seat in enumerate(SEATS)}
    contract = random_contract(rng, rules)
    dealer = rng.choice(SEATS)
    state = PlayState(hands, contract, rules, dealer=dealer)
    played = []
    while not state.is_over:
        card = rng.choice(sorted(cards_of(state.legal_mask())))
        state.push(card)
        played.append(card)
    return hands, contract, dealer, tuple(played)


def replay(deals: list[Deal], rules: Rules) -> int:
    total = 0
    for hands, contract, dealer, played in deals:
        state = PlayState(hands, contract, rules, dealer=dealer)
        push = state.push
        for card in played:
            push(card)
        total += score_deal(finished_deal(state), rules).scores[0]
    return total


def main() -> None:
    print(measured.describe())
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    rng = random.Random(2026)
    grand_deals, grand_time = 0, 0.0
    for profile in PROFILES:
        rules = Rules.parse(profile)
        deals = [random_deal(rng, rules) for _ in range(count)]
        # CPU time of this process, best of 3: the figure for one core even on a shared machine.
        elapsed = min(_timed(replay, deals, rules) for _ in range(3))
        grand_deals += count
        grand_time += elapsed
        print(f"{profile:15s} {count / elapsed:10,.0f} deals/s  ({elapsed * 1e6 / count:.1f} us/deal)")
    print(f"{'overall':15s} {grand_deals / grand_time:10,.0f} deals/s")


def _timed(function, *args) -> float:
    start = time.process_time()
    function(*args)
    return time.process_time() - start


if __name__ == "__main__":
    main()
