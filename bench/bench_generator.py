"""Throughput of the random deal generator: deals per second for each rules profile.

Deals per second of CPU time (the process clock, so other load on the machine counts less).
Run: ``python3 bench/bench_generator.py [deals_per_profile]`` (default 2000).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.cards import SEATS  # noqa: E402
from replayer.generator import deal_record, generate_deal  # noqa: E402
from replayer.rules import PROFILES, Rules  # noqa: E402


def bench(profile: str, count: int, records: bool) -> float:
    rules = Rules.parse(profile)
    rng = random.Random(2024)
    start = time.process_time()
    for number in range(count):
        deal = generate_deal(rng, rules, SEATS[number % 4])
        if records:
            deal_record(deal, deal_number=number + 1)
    return count / (time.process_time() - start)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(f"{'profile':16} {'deals/s':>9} {'records/s':>10}   ({count} deals each)")
    for profile in PROFILES:
        print(f"{profile:16} {bench(profile, count, False):9.0f} {bench(profile, count, True):10.0f}")


if __name__ == "__main__":
    main()
