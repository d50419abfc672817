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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.parser import parse  # noqa: E402
from notation.splitter import scan_headers  # noqa: E402
from notation.writer import write_record  # noqa: E402

COINCHE_BODY = """\
hand N AS KS QS JH TH 9D 8C 7C
hand E JS TS 9H 8H 7H AD KD QD
hand S 9S 8S 7S AH KH QH TD 9C
hand W JD QC 8D AC TC JC KC 7D
auction W:pass N:80H E:pass S:100H W:coinche N:pass E:pass S:pass
announce S tierce AH KH QH
play
1. W:JD N:9D E:AD S:TD
2. E:KD S:AH! W:7D N:8C
3. S:KH belote W:AC N:JH E:7H
4. N:TH E:8H S:QH rebelote W:TC
5. S:9S W:QC N:AS E:TS
6. N:KS E:JS S:8S W:KC ; E keeps the lead
7. E:9H S:9C W:JC N:QS
8. E:QD S:7S W:8D N:7C
"""
CLASSIC_BODY = """\
hand N AC KC QC JC 9H 8H 7S TS
hand E AS KS QS JS TC 9C 8C 7C
hand S AH KH QH JH TH 9D 8D 7D
hand W AD KD QD JD TD 9S 8S 7H
turned JH
taking E:pass S:take
announce E carre AS KS QS JS {quatre valets? non}
announce S quinte AH KH QH JH TH
play
1. E:AS S:7D W:7H N:7S
2. E:KS S:8D W:8S N:TS
3. E:QS S:9D W:9S N:KC
4. E:JS S:JH! W:AD N:AC
5. S:AH W:KD N:QC E:TC
6. S:KH belote W:QD N:JC E:9C
7. S:QH rebelote W:JD N:9H E:8C
8. S:TH W:TD N:8H E:7C
"""


def record(i: int) -> str:
    coinche = i % 2 == 0
    tags = [("Event", f"Club du jeudi {i // 1000}"), ("Site", "Lyon"), ("Date", "2026.03.06"),
            ("Round", str(i // 20 + 1)), ("Deal", str(i % 20 + 1)), ("North", "Anne"), ("East", "Bruno"),
            ("South", "Claire"), ("West", "Denis"), ("Dealer", "S" if coinche else "N"),
            ("Variant", "coinche" if coinche else "belote"),
            ("Rules", "ffb-coinche" if coinche else "ffb-annonces"), ("Target", "1000"),
            ("Score", f"{i % 700}-{i % 500}"), ("Result", "?")]
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return head + "\n" + (COINCHE_BODY if coinche else CLASSIC_BODY)


def build(path: str, count: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("% belote-notation 1.0\n")
        for i in range(count):
            out.write("\n" + record(i))


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
