"""Throughput of parse + validate + rescore, beside python-chess's ``read_game`` in the same run.

    python3 bench/bench_validate.py [--records 20000] [--distinct 2000] [--rounds 3] [--jobs 2]

Builds two files of the same generated deals (every profile): in canonical form, and as a
person types them (``replayer.engine.generator.typed_by_hand``: 10 for T, suit symbols,
lower case, CRLF, comments, several tags a line, calls over two lines...). Then, in turns
(``--rounds``; the machine's speed drifts, so the best of each is kept):

* python-chess ``read_game`` on 3,000 random games of 80 plies (the anchor: a reader of
  another game's notation, in Python too);
* ``validate_stream`` of each file in this process (split, read, validate, rescore);
* ``validate_stream(jobs=N)`` of the canonical file, and a pure CPU loop in N processes
  (what N processes can gain on this machine right now).

Prints records/s, each figure as a ratio to the anchor, the speed-up of N processes, and the
resident memory at 10 % and at the end of a stream (flat memory: the two are close).
Needs python-chess (``pip install chess``).
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess  # noqa: E402
import chess.pgn  # noqa: E402

from notation.values import SEATS  # noqa: E402
from replayer.check.streams import validate_stream  # noqa: E402
from replayer.engine.generator import generate_record, typed_by_hand  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as stats:
        return int(stats.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def chess_games(count: int = 3000, plies: int = 80, seed: int = 1) -> str:
    """PGN of ``count`` random legal games of up to ``plies`` plies."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        games.append(str(game))
    return "\n\n".join(games) + "\n"


def chess_rate(pgn: str) -> float:
    stream, count = io.StringIO(pgn), 0
    start = time.process_time()
    while chess.pgn.read_game(stream) is not None:
        count += 1
    return count / (time.process_time() - start)


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


def _burn(n: int) -> float:
    start, total = time.perf_counter(), 0
    for i in range(n):
        total += i
    return time.perf_counter() - start


def available_speedup(jobs: int, n: int = 3_000_000) -> float:
    """What ``jobs`` processes gain on a pure CPU loop right now."""
    start = time.perf_counter()
    for _ in range(jobs):
        _burn(n)
    serial = time.perf_counter() - start
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        start = time.perf_counter()
        pool.map(_burn, [n] * jobs)
        parallel = time.perf_counter() - start
    return serial / parallel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
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
        print(f"  jobs={args.jobs} speed-up: {speedup:.2f}x (a pure CPU loop gains "
              f"{available_speedup(args.jobs):.2f}x with {args.jobs} processes now)")
        for name, (early, end) in memory.items():
            print(f"  memory, {name}: {early:.0f} MB at 10 %, {end:.0f} MB at the end")


def _wall(path: Path, records: int) -> float:
    start = time.perf_counter()
    with open(path, "rb") as stream:
        count = sum(1 for _ in validate_stream(stream))
    assert count == records
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
