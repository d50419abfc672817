"""Throughput of the random deal generator: deals per second for each rules profile.

Each figure is the best of three runs, timed on the process's CPU clock, so that other
load on a shared machine distorts it less. "deals/s" is ``generate_deal`` alone;
"records/s" adds building the ``Record``.

Run: ``python3 bench/bench_generator.py [deals_per_run]`` (default 1000).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from notation.values import SEATS  # noqa: E402
from replayer.engine.generator import deal_record, generate_deal  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402

RUNS = 3


def rate(profile: str, count: int, records: bool) -> float:
    rules = Rules.parse(profile)
    best = float("inf")
    for run in range(RUNS):
        rng = random.Random(run)
        start = time.process_time()
        for number in range(count):
            deal = generate_deal(rng, rules, SEATS[number % 4])
            if records:
                deal_record(deal, deal_number=number + 1)
        best = min(best, time.process_time() - start)
    return count / best


def main() -> None:
    print(measured.describe())
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"{'profile':16} {'deals/s':>9} {'records/s':>10}   (best of {RUNS} runs of {count} deals)")
    for profile in PROFILES:
        print(f"{profile:16} {rate(profile, count, False):9.0f} {rate(profile, count, True):10.0f}")


if __name__ == "__main__":
    main()
