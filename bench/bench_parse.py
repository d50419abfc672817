"""Throughput of the notation reader: full parse, headers-only scan, peak memory.

Run: python3 bench/bench_parse.py [records]   (default 100,000)
Rates are given per second of CPU time (time.process_time, what one core
delivers even on a busy machine) and per second of wall time.
Builds a file of realistic records (a full 8-trick coinche deal and a classic
deal with announcements, tags varied per record), then prints records/s for
parse(), scan_headers(), write_record() (the canonical text of the records of
the 10k file, parsed beforehand), and the peak memory of parse() at 10k and N records.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)
sys.path.append(str(measured.ROOT))  # for tests.conftest; appended, so an installed package comes first

from notation.parser import parse  # noqa: E402
from notation.splitter import scan_headers  # noqa: E402
from notation.writer import write_record  # noqa: E402
from tests.conftest import club_record  # noqa: E402  (the club records the tests read too)

def build(path: str, count: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("% belote-notation 1.0\n")
        for i in range(count):
            out.write("\n" + club_record(i))


def timed_parse(path: str) -> tuple[int, int, float, float]:
    good = bad = 0
    wall, cpu = time.perf_counter(), time.process_time()
    with open(path, "rb") as stream:
        for result in parse(stream):
            if result.ok:
                good += 1
            else:
                bad += 1
    return good, bad, time.perf_counter() - wall, time.process_time() - cpu


def timed_scan(path: str) -> tuple[int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    with open(path, "rb") as stream:
        count = sum(1 for _ in scan_headers(stream))
    return count, time.perf_counter() - wall, time.process_time() - cpu


def timed_write(path: str) -> tuple[int, float, float]:
    with open(path, "rb") as stream:
        records = [result.record for result in parse(stream) if result.record is not None]
    wall, cpu = time.perf_counter(), time.process_time()
    for record in records:
        write_record(record)
    return len(records), time.perf_counter() - wall, time.process_time() - cpu


def peak_memory(path: str) -> int:
    tracemalloc.start()
    with open(path, "rb") as stream:
        for _ in parse(stream):
            pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    print(measured.describe())
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        big, small = os.path.join(tmp, "big.belote"), os.path.join(tmp, "small.belote")
        build(big, count)
        build(small, min(10_000, count))
        print(f"file: {count} records, {os.path.getsize(big) / 1e6:.1f} MB")
        good, bad, wall, cpu = timed_parse(big)
        print(f"parse:        {good + bad} records ({bad} bad): {(good + bad) / cpu:,.0f} records/s of CPU time, "
              f"{(good + bad) / wall:,.0f} records/s of wall time")
        scanned, wall, cpu = timed_scan(big)
        print(f"scan_headers: {scanned} records: {scanned / cpu:,.0f} records/s of CPU time, "
              f"{scanned / wall:,.0f} records/s of wall time")
        written, wall, cpu = timed_write(small)
        print(f"write_record: {written} records: {written / cpu:,.0f} records/s of CPU time, "
              f"{written / wall:,.0f} records/s of wall time")
        print(f"peak memory of parse(): {peak_memory(small) / 1e3:,.0f} kB at {min(10_000, count)} records, "
              f"{peak_memory(big) / 1e3:,.0f} kB at {count} records")


if __name__ == "__main__":
    main()
