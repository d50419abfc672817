"""Throughput of parse + validate + rescore, on one core and with worker processes.

    python3 bench/bench_validate.py [--records 100000] [--distinct 2000] [--jobs 2] [--rounds 3]

Writes a file of generated records (every profile; ``--distinct`` different deals
repeated to ``--records``), then times: parsing alone; parse + validate with
``jobs=1`` (generated records are canonical and sound: they take the express path,
``replayer.express``); the same records the full way (parsed into the model, then
validated: what a record typed by hand costs); ``jobs=N`` (with the CPU time of the
parent and of the workers); jobs=1 and jobs=N again in turns (``--rounds``), the
best of each compared, since the machine's speed drifts; validating records parsed
beforehand; and the parent's own work per record of the workers (unpickling and
unpacking their reports, timed alone). Prints records/s, the speed-up, the load, the
resident memory at 10 % and at 100 % of the stream (flat memory means the two are
close whatever the file size), and what a pure CPU loop gains with the same number
of processes (the ceiling when other programs share the cores).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.values import SEATS  # noqa: E402
from notation.parser import parse  # noqa: E402
from replayer.engine.generator import generate_record  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402
from replayer.check.streams import RECORD_BYTES, chunks, unpack, validate_chunk  # noqa: E402
from notation.parser import read_raw  # noqa: E402
from notation.splitter import split_records  # noqa: E402
from replayer.express import express_report  # noqa: E402
from replayer.check.validator import CHUNK, new_report, validate, validate_raw, validate_stream  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as stats:
        return int(stats.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def cpu_times() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _burn(n: int) -> float:
    start, total = time.perf_counter(), 0
    for i in range(n):
        total += i
    return time.perf_counter() - start


def available_speedup(jobs: int, n: int = 3_000_000) -> float:
    """What ``jobs`` processes gain on a pure CPU loop right now: the ceiling for the
    parallel figure when other programs share the cores."""
    start = time.perf_counter()
    for _ in range(jobs):
        _burn(n)
    serial = time.perf_counter() - start
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        start = time.perf_counter()
        pool.map(_burn, [n] * jobs)
        parallel = time.perf_counter() - start
    return serial / parallel


def make_file(path: Path, records: int, distinct: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in PROFILES]
    # void classic deals are left out: their 5-card hands are not read by the parser yet
    texts = [str(generate_record(rng, profiles[i % len(profiles)], SEATS[i % 4], deal_number=i + 1,
                                 redeal_void=True)) for i in range(distinct)]
    with open(path, "w", encoding="utf-8") as out:
        for i in range(records):
            out.write(texts[i % distinct])
            out.write("\n")


def timed(label: str, path: Path, count, records: int) -> float:
    start = time.perf_counter()
    seen = count()
    elapsed = time.perf_counter() - start
    assert seen == records, (seen, records)
    rate = records / elapsed
    print(f"{label:<34} {elapsed:7.2f} s  {rate:9,.0f} records/s   load {os.getloadavg()[0]:.2f}")
    return rate


def validate_only(path: Path, count: int) -> None:
    """Validate + rescore of records parsed beforehand: CPU time of this process, best of 3."""
    parsed = list(itertools.islice(parse(path), count))
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for record in parsed:
            validate(record)
        best = min(best, time.process_time() - start)
    print(f"{'validate + rescore only (CPU)':<34} {best:7.2f} s  {count / best:9,.0f} records/s   "
          f"({best / count * 1e6:.0f} us a record over {count:,})")


def parent_only(path: Path, count: int) -> None:
    """The parent's work per record with worker processes, alone: unpickle the packed
    reports of a chunk as the pool's result thread does, unpack them, read ``ok``.
    CPU time of this process, best of 3, over the chunks of the first ``count`` records."""
    from multiprocessing.reduction import ForkingPickler

    blobs, seen = [], 0
    for chunk in chunks(path.open("rb"), CHUNK * RECORD_BYTES):
        packed = validate_chunk(chunk, None, True, validate_raw)
        blobs.append(bytes(ForkingPickler.dumps(packed)))
        seen += len(packed)
        if seen >= count:
            break
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        index = 0
        for blob in blobs:
            for packed in ForkingPickler.loads(blob):
                unpack(packed, index, new_report).ok
                index += 1
        best = min(best, time.process_time() - start)
    print(f"{'parent work alone (CPU)':<34} {best:7.2f} s  {seen / best:9,.0f} records/s   "
          f"({best / seen * 1e6:.1f} us a record over {seen:,}; {sum(map(len, blobs)) / seen:.0f} bytes pickled)")


def full_way(path: Path) -> int:
    """Parse + validate + rescore without the express path: every record into the model."""
    with open(path, "rb") as stream:
        return sum(1 for raw in split_records(stream) if validate(read_raw(raw)))


def run_stream(path: Path, jobs: int, records: int, marks: list[float]) -> int:
    seen = errors = 0
    with open(path, "rb") as stream:
        for report in validate_stream(stream, jobs=jobs):
            seen += 1
            errors += not report.ok
            if seen == records // 10:
                marks.append(rss_mb())
    marks.append(rss_mb())
    if errors:
        print(f"  ({errors} records with errors)")
    return seen


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--records", type=int, default=100_000)
    options.add_argument("--distinct", type=int, default=2_000)
    options.add_argument("--jobs", type=int, default=2)
    options.add_argument("--rounds", type=int, default=3, help="runs of jobs=1 and jobs=N, in turns")
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.txt"
        make_file(path, args.records, min(args.distinct, args.records))
        size = path.stat().st_size / 2**20
        print(f"{args.records:,} records, {size:.1f} MB, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
        timed("parse only", path, lambda: sum(1 for _ in parse(path)), args.records)
        marks: list[float] = []
        one = timed("parse + validate + rescore, jobs=1", path,
                    lambda: run_stream(path, 1, args.records, marks), args.records)
        print(f"  resident memory {marks[0]:.0f} MB at 10 %, {marks[1]:.0f} MB at the end")
        with open(path, "rb") as stream:
            checked = list(itertools.islice(split_records(stream), 5_000))
        express = sum(express_report(raw) is not None for raw in checked)
        print(f"  {express:,} of the first {len(checked):,} records take the express path")
        timed("the same the full way, jobs=1", path, lambda: full_way(path), args.records)
        marks = []
        before = cpu_times()
        many = timed(f"parse + validate + rescore, jobs={args.jobs}", path,
                     lambda: run_stream(path, args.jobs, args.records, marks), args.records)
        parent, workers = (after - start for after, start in zip(cpu_times(), before))
        print(f"  resident memory (parent) {marks[0]:.0f} MB at 10 %, {marks[1]:.0f} MB at the end")
        print(f"  CPU: parent {parent:.2f} s ({parent / args.records * 1e6:.0f} us a record), "
              f"workers {workers:.2f} s in all; jobs=1 took {args.records / one:.2f} s")
        # The machine's speed drifts (other guests share its cores): jobs=1 and jobs=N are run in
        # turns and the best of each compared, so that both are measured in the same conditions.
        for _ in range(args.rounds - 1):
            one = max(one, timed("  again, jobs=1", path, lambda: run_stream(path, 1, args.records, []),
                                 args.records))
            many = max(many, timed(f"  again, jobs={args.jobs}", path,
                                   lambda: run_stream(path, args.jobs, args.records, []), args.records))
        print(f"best of {args.rounds}: jobs=1 {one:,.0f} records/s, jobs={args.jobs} {many:,.0f} records/s: "
              f"speed-up {many / one:.2f}x (a pure CPU loop gains {available_speedup(args.jobs):.2f}x on this "
              f"machine now)")
        parent_only(path, min(args.records, 5_000))
        validate_only(path, min(args.records, 5_000))  # last: the parsed records stay in this process's memory


if __name__ == "__main__":
    main()
