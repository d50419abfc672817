"""Statistics pages on a big archive: server time of /stats/player/<name> for random players.

    python3 bench/bench_stats.py [--source /tmp/belote-bench-site-100000.sqlite]
                                 [--db /tmp/stats-bench.sqlite] [--requests 300] [--seed 5]

The archive of bench/bench_site.py (100,000 records) is copied to ``--db`` first (the
original is never opened: opening migrates it, which adds the statistics tables), then
opened once (the migration fills ``deal_players`` and ``player_totals``: its time is
printed). Requests go through Flask's test client, ``time.perf_counter`` around each
``client.get``: the player page for random players (with a date filter on one in four),
the players table, and the plain archive page ``/`` as the yardstick of this machine's
speed in this run (the machine is shared). Target: player page p95 < 200 ms.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import measured  # noqa: E402,F401  (the installed package, else the checkout)

from replayer.archive import Archive  # noqa: E402
from replayer.web import create_app  # noqa: E402

TARGET = 200.0


def timings(client, urls: list[str]) -> list[float]:
    out = []
    for url in urls:
        start = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return out


def report(name: str, values: list[float]) -> float:
    values = sorted(values)
    p95 = values[int(0.95 * (len(values) - 1))]
    print(f"{name:<22} p50 {statistics.median(values):7.1f} ms   p95 {p95:7.1f} ms   worst {values[-1]:7.1f} ms")
    return p95


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", default="/tmp/belote-bench-site-100000.sqlite")
    parser.add_argument("--db", default="/tmp/stats-bench.sqlite")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    db = Path(args.db)
    if not db.exists():
        shutil.copyfile(args.source, db)
    start = time.perf_counter()
    with Archive(db) as archive:
        print(f"opened (migrated if needed) in {time.perf_counter() - start:.1f} s; {archive.count():,} records")
        names = [row[0] for row in archive.db.execute("SELECT player FROM player_totals")]
    rng = random.Random(args.seed)
    app = create_app({"TESTING": True, "DB": str(db), "SECRET_KEY": "bench"})
    client = app.test_client()
    players = [f"/stats/player/{quote(rng.choice(names))}" + ("?date_from=2025" if i % 4 == 0 else "")
               for i in range(args.requests)]
    timings(client, players[:20] + ["/"] * 5)  # warm the caches
    plain = report("archive page /", timings(client, ["/"] * args.requests))
    p95 = report("player page", timings(client, players))
    report("players table /stats", timings(client, ["/stats", "/stats?sort=made_pct"] * 25))
    print(f"player page p95 {p95:.1f} ms = {p95 / plain:.2f} x the archive page's p95; "
          f"target < {TARGET:.0f} ms: {'met' if p95 < TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
