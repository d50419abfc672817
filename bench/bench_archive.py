"""Archive speed: import throughput (parse + validate + store) and search latency.

    python3 bench/bench_archive.py [--records 100000] [--distinct 2000] [--jobs 2]
                                   [--db PATH] [--repeat 40]

Writes a file of ``--records`` different generated records (``--distinct`` deals
from every rules profile, each under many different tag sets: events, rounds,
players, dates, some comments and some wrong Result tags, so that every search
filter has something to find), imports it into a fresh archive with ``--jobs``
worker processes (records/s, CPU of the parent and of the workers), imports it
again (every record a duplicate), then times typical searches at the archive level
(``Archive.search``, no web layer): p50, p95 and the worst of ``--repeat`` runs of
each, varying the searched value. ``--db PATH`` keeps the archive there; given an
archive that already holds records, the import is skipped and only searches run.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from notation.values import SEATS  # noqa: E402
from replayer.archive import Archive, SearchQuery  # noqa: E402
from replayer.engine.generator import generate_record  # noqa: E402
from replayer.engine.rules import PROFILES, Rules  # noqa: E402

FIRST = ("Anne", "Bruno", "Claire", "Denis", "Odile", "Gérard", "Nadia", "Louis", "Sophie", "Marc", "Julie",
         "Paul", "Inès", "Hugo", "Léa", "Karim", "Emma", "Yves", "Rose", "Théo", "Alice", "Omar", "Lucie",
         "Jean", "Chloé", "Noah", "Zoé", "Malik", "Jeanne", "Victor")
LAST = ("Martin", "Lefèvre", "Dubois", "Moreau", "Perrin", "Faure", "Haddad", "Gauthier", "Bernard", "Petit",
        "Durand", "Leroy", "Roux", "Fontaine", "Chevalier", "Garnier", "Mercier", "Blanc", "Guerin", "Boyer",
        "Girard", "Andre", "Lambert", "Bonnet", "Francois", "Legrand", "Garcia", "Rousseau", "Vincent", "Muller")
TOWNS = ("Lyon", "Villeurbanne", "Montpellier", "Marseille", "Toulouse", "Nantes", "Lille", "Bordeaux",
         "Grenoble", "Dijon", "Rennes", "Nice", "Brest", "Metz", "Tours", "Internet")
KINDS = ("Club du jeudi", "Tournoi", "Championnat", "Coupe", "Open", "Festival", "Soirée", "Ligue")
WORDS = ("bonne entame", "erreur de défausse", "coup brillant", "capot manqué", "belle coinche", "litige",
         "mauvaise lecture", "squeeze", "le reste est à nous", "trop court en atout")
DEALS_PER_ROUND = 8


def tag_sets(count: int, seed: int = 11):
    """``count`` different tag sets; runs of DEALS_PER_ROUND share Event and Round (a match)."""
    rng = random.Random(seed)
    players = [f"{first} {last}" for first in FIRST for last in LAST]
    for start in range(0, count, DEALS_PER_ROUND):
        town = rng.choice(TOWNS)
        event = f"{rng.choice(KINDS)} de {town} {rng.randint(2020, 2026)}"
        date = f"{rng.randint(2020, 2026)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"
        table = rng.sample(players, 4)
        round_ = str(start // DEALS_PER_ROUND + 1)
        for deal in range(1, min(DEALS_PER_ROUND, count - start) + 1):
            yield {"Event": event, "Site": town, "Date": date, "Round": round_, "Deal": str(deal),
                   "North": table[0], "East": table[1], "South": table[2], "West": table[3]}


def make_file(path: Path, records: int, distinct: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in PROFILES]
    deals = []
    for i in range(distinct):
        text = str(generate_record(rng, profiles[i % len(profiles)], SEATS[i % 4], deal_number=i + 1,
                                   redeal_void=True))
        head, body = text.split("\n\n", 1)
        kept = [line for line in head.split("\n") if line.split(" ", 1)[0][1:] in ("Dealer", "Variant", "Rules",
                                                                                   "Target", "Result")]
        deals.append((kept, body))
    with open(path, "w", encoding="utf-8") as out:
        for i, tags in enumerate(tag_sets(records)):
            kept, body = deals[i % distinct]
            if i % 10 == 3:  # a wrong Result: an invalid record
                kept = [line if not line.startswith("[Result") else '[Result "1-1"]' for line in kept]
            lines = [f'[{name} "{value}"]' for name, value in tags.items()] + kept
            comment = f"{{{rng.choice(WORDS)}}}\n" if i % 5 == 0 else ""
            out.write("\n".join(lines) + "\n\n" + comment + body + "\n")


def cpu_times() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def timed_import(archive: Archive, path: Path, jobs: int, label: str) -> None:
    before, start = cpu_times(), time.perf_counter()
    summary = archive.import_files([path], jobs=jobs)
    elapsed = time.perf_counter() - start
    parent, workers = (after - first for after, first in zip(cpu_times(), before))
    count = summary.imported + summary.duplicates
    print(f"{label:<28} {elapsed:7.2f} s {count / elapsed:9,.0f} records/s  (imported {summary.imported:,}, "
          f"duplicates {summary.duplicates:,}, invalid {summary.invalid:,}, unparseable "
          f"{len(summary.unparseable)}; CPU parent {parent:.1f} s, workers {workers:.1f} s; "
          f"load {os.getloadavg()[0]:.2f})")


def queries(rng: random.Random) -> dict[str, Callable[[], SearchQuery]]:
    """Typical searches, each drawing its value anew at every run."""
    def player() -> str:
        return rng.choice(FIRST) + " " + rng.choice(LAST)

    def year() -> int:
        return rng.randint(2020, 2026)

    def month(year: int, month: int) -> SearchQuery:  # a month alone: YYYY-MM-31 is no date in April
        return SearchQuery(date_from=f"{year}-{month:02d}", date_to=f"{year}-{month:02d}")

    def in_year(**fields: str) -> SearchQuery:  # one year drawn: a range that ends before it starts is refused
        drawn = str(year())
        return SearchQuery(date_from=drawn, date_to=drawn, **fields)

    return {
        "first page, newest first": lambda: SearchQuery(),
        "player (full name)": lambda: SearchQuery(player=player()),
        "player (first name prefix)": lambda: SearchQuery(player=rng.choice(FIRST)[:3]),
        "full text (comment word)": lambda: SearchQuery(text=rng.choice(WORDS).split()[0]),
        "full text with a stray quote": lambda: SearchQuery(text='"' + rng.choice(TOWNS)),
        "event": lambda: SearchQuery(event=f"{rng.choice(KINDS)} {rng.choice(TOWNS)}"),
        "date range (a month)": lambda: month(year(), rng.randint(1, 12)),
        "variant, sorted by event": lambda: SearchQuery(variant=rng.choice(("belote", "coinche", "contree")),
                                                        sort="event", descending=False),
        "contract (denomination)": lambda: SearchQuery(contract=rng.choice(("H", "SA", "TA", "80S"))),
        "invalid only": lambda: SearchQuery(validity="invalid"),
        "valid, player, year": lambda: in_year(validity="valid", player=rng.choice(LAST)),
        "sorted by errors": lambda: SearchQuery(sort="errors"),
        "deep page (page 2000)": lambda: SearchQuery(page=2000),
        "deep page, variant filter": lambda: SearchQuery(variant="coinche", page=rng.randint(500, 1300)),
        "last page, ascending date": lambda: SearchQuery(descending=False, page=10**6),
    }


def time_searches(archive: Archive, repeat: int) -> None:
    rng = random.Random(5)
    worst_p95 = 0.0
    print(f"{'search (archive level)':<30} {'p50':>8} {'p95':>8} {'max':>8}   rows of the last run")
    for label, make in queries(rng).items():
        times, page = [], None
        for _ in range(repeat):
            query = make()
            start = time.perf_counter()
            page = archive.search(query)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        worst_p95 = max(worst_p95, p95)
        print(f"{label:<30} {statistics.median(times):6.1f}ms {p95:6.1f}ms {times[-1]:6.1f}ms   "
              f"total {page.total:,}, page {page.page}/{page.pages}")
    print(f"worst p95: {worst_p95:.1f} ms (target < 100 ms); load {os.getloadavg()[0]:.2f}")


def main() -> None:
    print(measured.describe())
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--records", type=int, default=100_000)
    options.add_argument("--distinct", type=int, default=2_000)
    options.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    options.add_argument("--db", type=Path, default=None)
    options.add_argument("--repeat", type=int, default=40)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db_path = args.db or Path(folder) / "bench.sqlite"
        with Archive(db_path) as archive:
            if archive.count() == 0:
                path = Path(folder) / "records.belote"
                start = time.perf_counter()
                make_file(path, args.records, min(args.distinct, args.records))
                print(f"{args.records:,} records ({path.stat().st_size / 2**20:.1f} MB) written in "
                      f"{time.perf_counter() - start:.1f} s; {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
                timed_import(archive, path, args.jobs, f"import, jobs={args.jobs}")
                timed_import(archive, path, args.jobs, "import again (duplicates)")
            print(f"archive: {archive.count():,} records, {db_path.stat().st_size / 2**20:.0f} MB")
            time_searches(archive, args.repeat)


if __name__ == "__main__":
    main()
