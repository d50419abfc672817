"""Site speed with a big archive: server time of the replay page and of the archive search.

    python3 bench/bench_site.py [--records 100000] [--db /tmp/belote-bench-site-100000.sqlite]
                                [--requests 300] [--jobs 2] [--seed 5]

Builds (once; the file is kept in /tmp and reused) an archive of ``--records``
generated records with the archive's own import (``bench_archive.make_file``:
every rules profile, varied tags, some invalid records), then times requests
through Flask's test client, ``time.perf_counter`` around each ``client.get``:

- the replay page ``/r/<id>?step=N`` for random ids and steps (the replay
  helper's cache of analysed records is cleared before each request, so every
  request parses, validates and builds its timeline from the stored text);
- the embed, the download JSON and the steps of every stage (informative);
- the archive page ``/`` with random searches (full text, player, event, date
  range, variant, contract, validity, sorts, deep pages).

Prints p50, p95 and the worst of each, and whether the targets (replay page
p95 < 50 ms, search p95 < 100 ms) are met.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import measured  # noqa: E402,F401  (the installed package, else the checkout: bench/measured.py)

from bench_archive import FIRST, KINDS, LAST, TOWNS, WORDS, make_file  # noqa: E402

from replayer.archive import Archive  # noqa: E402
from replayer.web import create_app  # noqa: E402
from replayer.web import replay_views  # noqa: E402

TARGETS = {"replay page": 50.0, "search": 100.0}


def build_archive(path: Path, records: int, jobs: int) -> None:
    """The archive at ``path`` with ``records`` records, built in a scratch file then moved
    in place, so an interrupted build never leaves a half-filled cache."""
    if path.exists():
        with Archive(path) as archive:
            if archive.count() >= records:
                print(f"archive {path}: {archive.count():,} records (cached)")
                return
        path.unlink()
    with tempfile.TemporaryDirectory() as scratch:
        text = Path(scratch) / "records.belote"
        started = time.perf_counter()
        make_file(text, records, min(records, 2000))
        print(f"wrote {records:,} records in {time.perf_counter() - started:.1f} s")
        building = path.with_name(path.name + ".building")
        started = time.perf_counter()
        with Archive(building) as archive:
            summary = archive.import_files([text], jobs=jobs)
        elapsed = time.perf_counter() - started
        print(f"imported {summary.imported:,} records in {elapsed:.1f} s ({summary.imported / elapsed:,.0f}/s)")
        os.replace(building, path)


def timed(client, urls: list[str], before: Callable[[], None] = lambda: None) -> list[float]:
    """Milliseconds per request; every response must be a success."""
    times = []
    for url in urls:
        before()
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        if response.status_code not in (200, 422):
            raise SystemExit(f"{url}: HTTP {response.status_code}")
    return times


def search_urls(rng: random.Random, count: int) -> list[str]:
    def one() -> str:
        year = rng.randint(2020, 2026)
        choices = [
            "/",
            f"/?text={rng.choice(WORDS).split()[0]}",
            f"/?text={rng.choice(TOWNS)}",
            f"/?player={rng.choice(FIRST)}+{rng.choice(LAST)}",
            f"/?player={rng.choice(FIRST)[:3]}",
            f"/?event={rng.choice(KINDS)}",
            f"/?date_from={year}-01-01&date_to={year}-06-30",
            f"/?variant={rng.choice(('belote', 'coinche', 'contree'))}&sort=event&order=asc",
            f"/?contract={rng.choice(('H', 'SA', 'TA', '80S'))}",
            "/?validity=invalid",
            f"/?validity=valid&player={rng.choice(LAST)}&date_from={year}",
            "/?sort=errors",
            f"/?page={rng.randint(2, 4000)}",
            f"/?variant=coinche&page={rng.randint(500, 1300)}",
        ]
        return rng.choice(choices)
    return [one() for _ in range(count)]


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    target = TARGETS.get(name)
    verdict = "" if target is None else f"  target p95 < {target:.0f} ms: {'met' if p95 < target else 'MISSED'}"
    print(f"{name:<28} n={len(times):<4} p50 {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms"
          f"  max {ordered[-1]:6.1f} ms{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    db = args.db or Path(tempfile.gettempdir()) / f"belote-bench-site-{args.records}.sqlite"
    build_archive(db, args.records, args.jobs)

    app = create_app({"DB": str(db), "LOAD_SAMPLES": False, "SECRET_KEY": "bench", "TESTING": True})
    client = app.test_client()
    with Archive(db) as archive:
        top = archive.db.execute("SELECT max(id) FROM records").fetchone()[0]
    rng = random.Random(args.seed)
    n = args.requests
    timed(client, ["/r/1", "/", "/r/1/embed"])  # warm up: templates compiled

    def ids(count: int) -> list[int]:
        return [rng.randint(1, top) for _ in range(count)]

    clear = replay_views.analyse.cache_clear
    report("replay page", timed(client, [f"/r/{i}?step={rng.randint(0, 40)}" for i in ids(n)], clear))
    report("replay page, seat view", timed(client, [f"/r/{i}?step={rng.randint(0, 40)}&seat=N"
                                                    for i in ids(n // 3)], clear))
    report("embed", timed(client, [f"/r/{i}/embed?step={rng.randint(0, 40)}" for i in ids(n // 3)], clear))
    report("download JSON", timed(client, [f"/r/{i}.json" for i in ids(n // 3)], clear))
    report("all steps (replay.js)", timed(client, [f"/r/{i}/steps" for i in ids(n // 10)], clear))
    report("search", timed(client, search_urls(rng, n)))


if __name__ == "__main__":
    main()
