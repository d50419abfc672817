"""Throughput of parse + validate + rescore, beside python-chess's ``read_game`` in the same run.

    python3 bench/bench_validate.py [--records 20000] [--distinct 2000] [--rounds 3] [--jobs 2]

Builds two files of the same generated deals (every profile): in canonical form, and as a
person types them (``replayer.engine.generator.typed_by_hand``: 10 for T, suit symbols,
lower case, CRLF, comments, several tags a line, calls over two lines...). Then, in turns
(``--rounds``; the machine's speed drifts, so the best of each is kept):

* python-chess ``read_game`` on 3,000 random games of 80 plies (the anchor: a reader of
  another game's notation, in Python too);
* ``validate_stream`` of each file in this process (split, read, validate, rescore);
* ``validate_stream(jobs=N)`` of the canonical file, and N independent processes each
  validating the whole file (what N processes can gain on this machine right now: on a
  shared machine, less than N);
* as a new user measures it, whole processes, paired: ``belote validate`` of ``--cli-records``
  records of each file against a process reading the 3,000 games with ``read_game``.

Prints records/s, each figure as a ratio to the anchor, the speed-up of N processes, and the
resident memory at 10 % and at the end of a stream (flat memory: the two are close).
Needs python-chess (``pip install '.[bench]'``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from anchor import chess_games, chess_rate  # noqa: E402

from notation.values import SEATS  # noqa: E402
from replayer.check.streams import validate_stream  # noqa: E402
from replayer.cli import generated_records  # noqa: E402
from replayer.engine.generator import generate_record, typed_by_hand  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as stats:
        return int(stats.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def make_files(folder: Path, records: int, distinct: int, seed: int = 7) -> tuple[Path, Path]:
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in PROFILES]
    texts = [str(generate_record(rng, profiles[i % len(profiles)], SEATS[i % 4], deal_number=i + 1,
                                 redeal_void=True)) for i in range(distinct)]
    typed = [typed_by_hand(text, rng) for text in texts]
    canonical_path, typed_path = folder / "canonical.belote", folder / "typed.belote"
    for path, corpus in ((canonical_path, texts), (typed_path, typed)):
        with open(path, "w", encoding="utf-8", newline="") as out:
            for i in range(records):
                out.write(corpus[i % distinct])
                out.write("\n")
    return canonical_path, typed_path


def rate(path: Path, records: int, jobs: int = 1) -> tuple[float, float, float]:
    """Records/s of validate_stream (wall time for several processes, CPU time for one), and the
    resident memory at 10 % and at the end."""
    early = 0.0
    count = 0
    clock = time.perf_counter if jobs > 1 else time.process_time
    start = clock()
    with open(path, "rb") as stream:
        for count, _ in enumerate(validate_stream(stream, jobs=jobs), 1):
            if count == records // 10:
                early = rss_mb()
    elapsed = clock() - start
    assert count == records, (count, records)
    return count / elapsed, early, rss_mb()


def _validate_file(path: Path) -> int:
    with open(path, "rb") as stream:
        return sum(1 for _ in validate_stream(stream))


def independent_speedup(path: Path, jobs: int) -> float:
    """What ``jobs`` processes gain right now when each validates the whole file on its own,
    with nothing to share: the most that ``validate_stream(jobs=...)`` could gain."""
    start = time.perf_counter()
    _validate_file(path)
    one = time.perf_counter() - start
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        start = time.perf_counter()
        pool.map(_validate_file, [path] * jobs)
        several = time.perf_counter() - start
    return jobs * one / several


CHESS_SCRIPT = """
import sys, chess.pgn
with open(sys.argv[1], encoding="utf-8") as stream:
    count = 0
    while chess.pgn.read_game(stream) is not None:
        count += 1
assert count == 3000, count
"""


def belote_command() -> list[str]:
    """``belote`` as installed beside this Python, else ``python -m replayer.cli``."""
    script = Path(sys.executable).with_name("belote")
    return [str(script)] if script.exists() else [sys.executable, "-m", "replayer.cli"]


def process_seconds(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: error findings (none in generated records, but allowed)
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr}")
    return elapsed


def match_files(folder: Path, records: int, seed: int = 11) -> tuple[Path, Path]:
    """Whole generated matches, as ``belote generate`` writes them (every profile in turn, the
    same records typed by hand in the second file): a file a club would check."""
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in PROFILES]
    share = -(-records // len(profiles))
    texts = [str(record) for number, rules in enumerate(profiles)
             for record in generated_records(rng, rules, min(share, records - number * share), f"Bench {number}")]
    canonical, typed = folder / "matches.belote", folder / "matches-typed.belote"
    canonical.write_text("\n".join(texts), encoding="utf-8")
    with open(typed, "w", encoding="utf-8", newline="") as out:
        out.write("\n".join(typed_by_hand(text, rng) for text in texts))
    return canonical, typed


def whole_processes(folder: Path, pgn: str, records: int, pairs: int) -> None:
    """``belote validate`` against python-chess reading PGN, each a whole process, in pairs."""
    pgn_path = folder / "games.pgn"
    pgn_path.write_text(pgn, encoding="utf-8")
    canonical, typed = match_files(folder, records)
    chess_command = [sys.executable, "-c", CHESS_SCRIPT, str(pgn_path)]
    print(f"\nwhole processes, {pairs} pairs: belote validate of {records:,} records (whole matches) / "
          f"read_game of 3,000 games (records/s over games/s):")
    for name, path in (("canonical", canonical), ("typed by hand", typed)):
        ratios = []
        for _ in range(pairs):
            games = 3000 / process_seconds(chess_command)
            belote = records / process_seconds(belote_command() + ["validate", str(path)])
            ratios.append(belote / games)
        print(f"  {name:<15} median {statistics.median(ratios):5.2f}x, best {max(ratios):5.2f}x "
              f"(last pair: {belote:,.0f} records/s, {games:,.0f} games/s)")


def main() -> None:
    print(measured.describe())
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cli-records", type=int, default=7_000)
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    pgn = chess_games()
    with tempfile.TemporaryDirectory() as folder:
        canonical, typed = make_files(Path(folder), args.records, args.distinct)
        best: dict[str, float] = {}
        memory: dict[str, tuple[float, float]] = {}
        for round_ in range(1, args.rounds + 1):
            figures = {"chess read_game": chess_rate(pgn)}
            for name, path in (("canonical", canonical), ("typed by hand", typed)):
                figures[name], early, end = rate(path, args.records)
                memory[name] = (early, end)
            figures[f"canonical, jobs={args.jobs}"], _, _ = rate(canonical, args.records, args.jobs)
            figures["canonical, jobs=1 (wall)"] = args.records / _wall(canonical, args.records)
            print(f"round {round_}: " + ", ".join(f"{k} {v:,.0f}/s" for k, v in figures.items())
                  + f"; load {os.getloadavg()[0]:.2f}")
            for key, value in figures.items():
                best[key] = max(best.get(key, 0.0), value)
        anchor = best["chess read_game"]
        print(f"\nbest of {args.rounds} rounds, {args.records:,} records ({args.distinct:,} distinct deals):")
        for key, value in best.items():
            print(f"  {key:<28} {value:9,.0f} /s   {value / anchor:5.2f}x chess")
        speedup = best[f"canonical, jobs={args.jobs}"] / best["canonical, jobs=1 (wall)"]
        ceiling = independent_speedup(canonical, args.jobs)
        print(f"  jobs={args.jobs} speed-up: {speedup:.2f}x ({args.jobs} independent processes gain "
              f"{ceiling:.2f}x now: {speedup / ceiling:.0%} of it)")
        for name, (early, end) in memory.items():
            print(f"  memory, {name}: {early:.0f} MB at 10 %, {end:.0f} MB at the end")
        if args.cli_records:
            whole_processes(Path(folder), pgn, args.cli_records, args.pairs)


def _wall(path: Path, records: int) -> float:
    start = time.perf_counter()
    with open(path, "rb") as stream:
        count = sum(1 for _ in validate_stream(stream))
    assert count == records
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
