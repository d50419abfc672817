"""Load test of the real server: concurrent clients on loopback while an import writes.

    python3 bench/bench_load.py [--records 100000] [--db PATH] [--clients 16] [--seconds 30]
                                [--import-records 5000] [--import-delay 2] [--jobs 2]
                                [--seed 5] [--json] [--source]

1. The archive: ``--records`` generated records (``bench_archive.make_file``: every rules
   profile, varied tags, matches, some invalid records) imported with the archive's own
   import (``Archive.import_files``, ``--jobs`` workers) into ``--db`` (by default
   ``/tmp/belote-bench-load-<records>.sqlite``), built once and reused by later runs.
   Each run works on a copy of it in a scratch folder (SQLite's backup), so the cache
   keeps its records and every run starts from the same archive.
2. The server: ``belote serve --db COPY --host 127.0.0.1 --port 0 --no-samples`` (waitress)
   as a subprocess (``python -m replayer.cli``, the interpreter running this script),
   its stderr kept in a file; the test starts once ``/`` answers.
3. The load: after one untimed request of each kind (warm-up), ``--clients`` threads,
   each with its own keep-alive ``http.client`` connection to 127.0.0.1, loop for
   ``--seconds`` (no pause between requests) over a mix of what visitors do:
   archive searches (text, player, event, date range, variant, contract, validity, sorts,
   deep pages) on ``/`` and ``/api/records``; replays of random stored records stepped
   card by card (``/r/<id>?step=N`` then the next steps), seat views, embeds, every
   stage at once (``/r/<id>/steps``, what replay.js fetches), the JSON of a record
   (``/r/<id>.json``, ``/api/records/<id>``), its text; match pages and their JSON.
   Records and matches are drawn among the ids stored before the run.
4. The writes: ``--import-delay`` seconds into the load, ``belote import --db COPY --jobs
   N`` (the CLI, a separate process) imports ``--import-records`` new generated records,
   one transaction that holds the write lock from its start to its end. If it has not
   ended when ``--seconds`` are up, the clients keep going until it ends (the report says
   how long the load really lasted), so that every write contends with reads.

Every response is counted by status and timed per kind of page. An error is a connection
error or time-out, a status other than 200, or a body that says "database is locked".
The server's stderr is scanned for tracebacks, logged errors and "database is locked";
the import's exit status and output are reported. Prints the throughput, p50/p95/p99
and the worst per kind of page, overall, and before, during and after the import;
``--json`` prints the same as one JSON object (progress then goes to stderr). Exit status
1 when anything went wrong (an error, a 5xx, "database is locked" anywhere, a failed
import, a traceback in the server's log), else 0.

The clients share the machine with the server and the import (a small machine is
saturated: latencies are then mostly queueing in waitress's four threads). Nothing
listens beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import calendar
import http.client
import json
import math
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from bench_archive import FIRST, KINDS, LAST, TOWNS, WORDS, make_file  # noqa: E402

from replayer.archive import Archive  # noqa: E402

HOST = "127.0.0.1"  # loopback only
LOCKED = b"database is locked"
REQUEST_TIMEOUT = 60.0  # seconds a client waits for one answer before counting an error
START_TIMEOUT = 180.0  # seconds the server may take to answer its first request

OUT = sys.stdout  # progress lines: stderr with --json


def say(text: str) -> None:
    print(text, file=OUT, flush=True)


# --- the archive -----------------------------------------------------------------

def default_cache(records: int) -> Path:
    return Path(tempfile.gettempdir()) / f"belote-bench-load-{records}.sqlite"


def build_archive(path: Path, records: int, jobs: int, rebuild_allowed: bool) -> dict[str, Any]:
    """The cached archive at ``path`` with at least ``records`` records (built now, in a scratch
    file moved in place at the end, when it is missing)."""
    if path.exists():
        with Archive(path) as archive:
            count = archive.count()
        if count >= records:
            say(f"archive {path}: {count:,} records (cached)")
            return {"path": str(path), "records": count, "cached": True}
        if not rebuild_allowed:
            raise SystemExit(f"bench_load: {path} holds {count:,} records, fewer than --records {records:,}: "
                             "give another --db (this one is left as it is)")
        path.unlink()
    with tempfile.TemporaryDirectory(dir=path.parent) as scratch:
        text = Path(scratch) / "records.belote"
        started = time.perf_counter()
        make_file(text, records, min(records, 2000))
        written = time.perf_counter() - started
        say(f"wrote {records:,} records ({text.stat().st_size / 2**20:.0f} MB) in {written:.1f} s")
        building = Path(scratch) / "archive.sqlite"
        started = time.perf_counter()
        with Archive(building) as archive:
            summary = archive.import_files([text], jobs=jobs)
            count = archive.count()
        elapsed = time.perf_counter() - started
        say(f"imported {summary.imported:,} records in {elapsed:.1f} s ({summary.imported / elapsed:,.0f}/s, "
            f"jobs={jobs})")
        os.replace(building, path)
    return {"path": str(path), "records": count, "cached": False, "write_seconds": round(written, 1),
            "import_seconds": round(elapsed, 1)}


def copy_archive(source: Path, target: Path) -> float:
    """A consistent copy of the archive (SQLite's online backup: the WAL's content included)."""
    started = time.perf_counter()
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    return time.perf_counter() - started


def stored_ids(path: Path) -> tuple[list[int], list[int]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        records = [row[0] for row in db.execute("SELECT id FROM records")]
        matches = [row[0] for row in db.execute("SELECT id FROM matches")]
    return records, matches


def write_batch(path: Path, records: int, seed: int) -> None:
    """``records`` new records (deals of another seed than the archive's: none is a duplicate)."""
    make_file(path, records, min(records, 2000), seed=seed)


# --- the server and the import ---------------------------------------------------

def cli(*args: str) -> list[str]:
    """A ``belote`` command line run by this interpreter (the package ``measured`` chose)."""
    return [sys.executable, "-m", "replayer.cli", *args]


def child_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if str(ROOT) in sys.path[:2]:  # measured.py chose the checkout: so do the children
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


class Server:
    """``belote serve`` on 127.0.0.1 and a free port, until ``stop``."""

    def __init__(self, db: Path, folder: Path) -> None:
        self.command = cli("serve", "--db", str(db), "--host", HOST, "--port", "0", "--no-samples")
        self.stdout_path, self.stderr_path = folder / "serve.out", folder / "serve.err"
        self.port = 0
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(self.command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                            env=child_env(), cwd=folder)

    def wait_ready(self) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < START_TIMEOUT:
            if self.process.poll() is not None:
                raise SystemExit(f"bench_load: the server exited with {self.process.returncode}: "
                                 f"{self.stderr_path.read_text(errors='replace')[-2000:]}")
            if not self.port:
                found = re.search(r"Serving on http://[^:]+:(\d+)/", self.stdout_path.read_text(errors="replace"))
                self.port = int(found.group(1)) if found else 0
            if self.port:
                try:
                    connection = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
                    connection.request("GET", "/")
                    response = connection.getresponse()
                    response.read()
                    connection.close()
                    if response.status == 200:
                        return time.perf_counter() - started
                except OSError:
                    pass
            time.sleep(0.2)
        raise SystemExit(f"bench_load: the server did not answer within {START_TIMEOUT:.0f} s")

    def stop(self) -> int | None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def scan_server_log(text: str) -> dict[str, Any]:
    """What the server's stderr says: tracebacks, errors logged, "database is locked", and
    waitress's queue warnings (requests waiting for one of its threads: not errors)."""
    lines = text.splitlines()
    bad = [line for line in lines if "Traceback" in line or "database is locked" in line.lower()
           or re.search(r"\b(ERROR|CRITICAL)\b", line) or line.startswith("Exception")]
    return {"lines": len(lines), "tracebacks": sum("Traceback" in line for line in lines),
            "locked": sum("database is locked" in line.lower() for line in lines),
            "errors_logged": sum(bool(re.search(r"\b(ERROR|CRITICAL)\b", line)) for line in lines),
            "queue_warnings": sum("Task queue depth" in line for line in lines),
            "bad_lines": bad[:20]}


@dataclass
class Import:
    """``belote import`` of the batch, started by a timer and timed."""

    command: list[str]
    folder: Path
    process: subprocess.Popen | None = None
    started: float = 0.0
    ended: float = 0.0
    code: int | None = None

    def start(self) -> None:
        self.out, self.err = open(self.folder / "import.out", "wb"), open(self.folder / "import.err", "wb")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(self.command, stdout=self.out, stderr=self.err, stdin=subprocess.DEVNULL,
                                        env=child_env(), cwd=self.folder)

    def poll(self) -> bool:
        """Whether it has ended (its end time taken at the first poll that sees it)."""
        if self.process is None or self.code is not None:
            return self.code is not None
        code = self.process.poll()
        if code is not None:
            self.ended, self.code = time.perf_counter(), code
            self.out.close()
            self.err.close()
        return code is not None

    def result(self) -> dict[str, Any]:
        stdout = (self.folder / "import.out").read_text(errors="replace") if self.process else ""
        stderr = (self.folder / "import.err").read_text(errors="replace") if self.process else ""
        stderr = "\n".join(line.split("\r")[-1] for line in stderr.splitlines())  # the bar's last state
        return {"command": self.command, "exit_status": self.code,
                "seconds": round(self.ended - self.started, 2) if self.code is not None else None,
                "stdout": stdout.strip(), "stderr_tail": stderr.strip()[-1000:],
                "locked": "database is locked" in (stdout + stderr).lower()}


# --- the clients -----------------------------------------------------------------

@dataclass
class Sample:
    kind: str
    start: float  # perf_counter at the request's start
    ms: float
    status: int  # 0: no answer (connection error, time-out)


@dataclass
class Tally:
    samples: list[Sample] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    bytes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str, example: str) -> None:
        with self.lock:
            self.errors[what] += 1
            if len(self.examples) < 20:
                self.examples.append(example)


def search_args(rng: random.Random) -> dict[str, Any]:
    """One archive search, as visitors make them (every filter, sorts, pages)."""
    year = rng.randint(2020, 2026)
    month = rng.randint(1, 12)
    last_day = calendar.monthrange(year, month)[1]  # (a 31 November is a 400: the form says so)
    choices: list[Callable[[], dict[str, Any]]] = [
        lambda: {},
        lambda: {"text": rng.choice(WORDS).split()[0]},
        lambda: {"text": rng.choice(TOWNS)},
        lambda: {"player": f"{rng.choice(FIRST)} {rng.choice(LAST)}"},
        lambda: {"player": rng.choice(FIRST)[:3]},
        lambda: {"player": rng.choice(LAST), "sort": "date", "order": "asc"},
        lambda: {"event": rng.choice(KINDS)},
        lambda: {"event": f"{rng.choice(KINDS)} {rng.choice(TOWNS)}", "page": rng.randint(1, 3)},
        lambda: {"date_from": f"{year}-{month:02d}-01", "date_to": f"{year}-{month:02d}-{last_day}"},
        lambda: {"date_from": str(year), "date_to": str(year), "page": rng.randint(1, 40)},
        lambda: {"variant": rng.choice(("belote", "coinche", "contree")), "sort": "event", "order": "asc"},
        lambda: {"contract": rng.choice(("H", "SA", "TA", "80S", "capot S", "110C"))},
        lambda: {"validity": "invalid", "sort": "errors"},
        lambda: {"validity": "valid", "player": rng.choice(LAST), "date_from": str(year)},
        lambda: {"profile": rng.choice(("ffb", "ffb-coinche", "ffb-contree"))},
        lambda: {"sort": rng.choice(("site", "contract", "created", "id")), "order": rng.choice(("asc", "desc"))},
        lambda: {"page": rng.randint(2, 4000)},
        lambda: {"variant": "coinche", "page": rng.randint(100, 1300), "per_page": rng.choice((25, 50, 100))},
    ]
    return rng.choice(choices)()


class Client(threading.Thread):
    """One visitor after another on one keep-alive connection, until ``stop`` is set."""

    def __init__(self, number: int, port: int, seed: int, records: list[int], matches: list[int],
                 tally: Tally, stop: threading.Event) -> None:
        super().__init__(name=f"client-{number}", daemon=True)
        self.port, self.rng, self.records, self.matches = port, random.Random(seed * 1000 + number), records, matches
        self.tally, self.stop = tally, stop
        self.samples: list[Sample] = []  # merged at the end (no lock per request)
        self.connection: http.client.HTTPConnection | None = None

    def get(self, kind: str, url: str) -> int:
        if self.connection is None:
            self.connection = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        started = time.perf_counter()
        try:
            self.connection.request("GET", url, headers={"Accept-Encoding": "identity"})
            response = self.connection.getresponse()
            body = response.read()
            status = response.status
            if response.will_close:
                self.connection.close()
                self.connection = None
        except (OSError, http.client.HTTPException) as error:
            self.samples.append(Sample(kind, started, (time.perf_counter() - started) * 1000, 0))
            self.tally.error("connection", f"{url}: {type(error).__name__}: {error}")
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return 0
        self.samples.append(Sample(kind, started, (time.perf_counter() - started) * 1000, status))
        self.tally.bytes += len(body)  # (a lost update now and then is harmless: informative)
        if LOCKED in body.lower():
            self.tally.error("database is locked", f"{url}: HTTP {status}: {_excerpt(body)}")
        if status >= 500:
            self.tally.error(f"HTTP {status}", f"{url}: HTTP {status}: {_excerpt(body)}")
        elif status != 200:
            self.tally.error(f"HTTP {status}", f"{url}: HTTP {status}: {_excerpt(body)}")
        return status

    def record(self) -> int:
        return self.rng.choice(self.records)

    def visit(self) -> None:
        rng = self.rng
        roll = rng.random() * 100
        if roll < 24:
            self.get("search page", "/?" + urlencode(search_args(rng)))
        elif roll < 30:
            self.get("search API", "/api/records?" + urlencode(search_args(rng)))
        elif roll < 54:  # a replay stepped card by card (or by trick), as the page's links do
            record, step = self.record(), rng.randint(0, 30)
            extra = {"seat": rng.choice("NESW")} if rng.random() < 0.15 else {}
            self.get("replay page", f"/r/{record}?" + urlencode({"step": step, **extra}))
            for _ in range(rng.randint(2, 5)):
                if self.stop.is_set():
                    break
                step += 4 if rng.random() < 0.2 else 1
                self.get("replay next step", f"/r/{record}?" + urlencode({"step": step, **extra}))
        elif roll < 59:
            self.get("replay end", f"/r/{self.record()}?step=end")
        elif roll < 63:
            self.get("embed", f"/r/{self.record()}/embed?step={rng.randint(0, 36)}")
        elif roll < 68:
            self.get("all steps (replay.js)", f"/r/{self.record()}/steps")
        elif roll < 75:
            self.get("record JSON", f"/r/{self.record()}.json")
        elif roll < 82:
            self.get("API record", f"/api/records/{self.record()}")
        elif roll < 85:
            self.get("record text", f"/r/{self.record()}.belote")
        elif self.matches and roll < 95:
            self.get("match page", f"/m/{rng.choice(self.matches)}")
        elif self.matches:
            self.get("match JSON", f"/m/{rng.choice(self.matches)}.json")

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.visit()
        except Exception as error:  # a bug of this script: say it, do not hide it as a slow server
            self.tally.error("client crash", f"{self.name}: {type(error).__name__}: {error}")
        finally:
            if self.connection is not None:
                self.connection.close()


def warm_up(client: Client) -> None:
    """One request of each kind before the clock starts (templates compiled, caches and the
    file's pages warm): not timed, but an error there counts."""
    record = client.records[0]
    urls = ["/", "/?player=Odile", "/api/records?text=Lyon", f"/r/{record}?step=5", f"/r/{record}/embed",
            f"/r/{record}/steps", f"/r/{record}.json", f"/api/records/{record}", f"/r/{record}.belote"]
    if client.matches:
        urls += [f"/m/{client.matches[0]}", f"/m/{client.matches[0]}.json"]
    for url in urls:
        client.get("warm-up", url)
    if client.connection is not None:
        client.connection.close()


def _excerpt(body: bytes) -> str:
    text = re.sub(r"<[^>]+>", " ", body.decode("utf-8", "replace"))
    return " ".join(text.split())[:200]


# --- figures ---------------------------------------------------------------------

def percentile(ordered: list[float], p: float) -> float:
    """Nearest rank."""
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def figures(samples: list[Sample], seconds: float) -> dict[str, Any]:
    times = sorted(s.ms for s in samples)
    if not times:
        return {"n": 0}
    return {"n": len(times), "per_second": round(len(times) / seconds, 1) if seconds > 0 else None,
            "p50": round(percentile(times, 50), 1), "p95": round(percentile(times, 95), 1),
            "p99": round(percentile(times, 99), 1), "max": round(times[-1], 1)}


def table(rows: dict[str, dict[str, Any]]) -> list[str]:
    lines = [f"{'':<26} {'n':>6} {'req/s':>7} {'p50':>9} {'p95':>9} {'p99':>9} {'max':>9}"]
    for name, f in rows.items():
        if f.get("n"):
            lines.append(f"{name:<26} {f['n']:>6} {f['per_second']:>7} {f['p50']:>7.1f}ms {f['p95']:>7.1f}ms "
                         f"{f['p99']:>7.1f}ms {f['max']:>7.1f}ms")
        else:
            lines.append(f"{name:<26} {0:>6}")
    return lines


# --- the run ---------------------------------------------------------------------

def main() -> int:
    global OUT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000, help="records in the archive (100,000)")
    parser.add_argument("--db", type=Path, default=None,
                        help="the cached archive (built when missing; default /tmp/belote-bench-load-N.sqlite)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--import-records", type=int, default=5000, help="records imported during the load")
    parser.add_argument("--import-delay", type=float, default=2.0, help="seconds into the load the import starts")
    parser.add_argument("--jobs", type=int, default=2, help="import worker processes (the build and the load's)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.json:
        OUT = sys.stderr
    package = measured.describe()
    say(package)
    say(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")

    cache = args.db or default_cache(args.records)
    archive_info = build_archive(cache, args.records, args.jobs, rebuild_allowed=args.db is None)
    with tempfile.TemporaryDirectory(prefix="belote-load-") as scratch:
        folder = Path(scratch)
        db = folder / "archive.sqlite"
        seconds = copy_archive(cache, db)
        records, matches = stored_ids(db)
        say(f"copied the archive to {db} in {seconds:.1f} s: {len(records):,} records, {len(matches):,} matches")
        batch = folder / "batch.belote"
        write_batch(batch, args.import_records, seed=args.seed + 1000)
        say(f"wrote the batch to import: {args.import_records:,} records ({batch.stat().st_size / 2**20:.1f} MB)")

        server = Server(db, folder)
        importer = Import(cli("import", "--db", str(db), "--jobs", str(args.jobs), str(batch)), folder)
        tally, stop = Tally(), threading.Event()
        timer: threading.Timer | None = None
        clients: list[Client] = []
        try:
            say(f"server: {' '.join(server.command)}")
            ready = server.wait_ready()
            say(f"server ready on {HOST}:{server.port} in {ready:.1f} s")
            warm_up(Client(-1, server.port, args.seed, records, matches, tally, stop))
            clients = [Client(i, server.port, args.seed, records, matches, tally, stop) for i in range(args.clients)]
            timer = threading.Timer(args.import_delay, importer.start)
            started = time.perf_counter()
            for client in clients:
                client.start()
            timer.start()
            say(f"load: {args.clients} clients for {args.seconds:g} s; import in {args.import_delay:g} s: "
                f"{' '.join(importer.command)}")
            deadline = started + args.seconds
            while time.perf_counter() < deadline or not importer.poll():
                if server.process.poll() is not None:
                    tally.error("server exited", f"the server exited with {server.process.returncode}")
                    break
                if importer.process is None and time.perf_counter() > deadline + 60:
                    break  # the timer never fired: reported below
                time.sleep(0.05)
            stop.set()
            for client in clients:
                client.join(REQUEST_TIMEOUT + 5)
            elapsed = time.perf_counter() - started
        finally:
            stop.set()
            if timer is not None:
                timer.cancel()
                timer.join()
            if importer.process is not None and importer.process.poll() is None:
                importer.process.wait()
            importer.poll()
            server_code = server.stop()
        server_log = scan_server_log(server.stderr_path.read_text(errors="replace"))
        imported = importer.result()
        after = stored_ids(db)[0]

    samples = [s for client in clients for s in client.samples]
    for s in samples:
        tally.statuses[s.status] += 1
    kinds: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        kinds[s.kind].append(s)
    per_kind = {kind: figures(kinds[kind], elapsed) for kind in sorted(kinds, key=lambda k: -len(kinds[k]))}
    overall = figures(samples, elapsed)
    if importer.started:
        import_start, import_end = importer.started, importer.ended or time.perf_counter()
        phases_samples = {"before the import": [s for s in samples if s.start < import_start],
                          "during the import": [s for s in samples if import_start <= s.start < import_end],
                          "after the import": [s for s in samples if s.start >= import_end]}
        spans = {"before the import": import_start - started, "during the import": import_end - import_start,
                 "after the import": started + elapsed - import_end}
        phases = {name: figures(phase, spans[name]) for name, phase in phases_samples.items()}
    else:
        phases = {}

    failures = []
    if tally.errors:
        failures.append("client errors: " + ", ".join(f"{n} {what}" for what, n in tally.errors.most_common()))
    if server_log["tracebacks"] or server_log["locked"] or server_log["errors_logged"]:
        failures.append(f"server log: {server_log['tracebacks']} tracebacks, {server_log['errors_logged']} errors "
                        f"logged, {server_log['locked']} 'database is locked'")
    if imported["exit_status"] != 0:
        failures.append(f"the import did not succeed (exit status {imported['exit_status']})")
    if imported["locked"]:
        failures.append("the import said 'database is locked'")
    result = {
        "package": package, "cores": os.cpu_count(), "archive": archive_info,
        "options": {"records": args.records, "clients": args.clients, "seconds": args.seconds,
                    "import_records": args.import_records, "import_delay": args.import_delay, "jobs": args.jobs,
                    "seed": args.seed},
        "server": {"command": server.command, "exit_status_after_sigterm": server_code, "log": server_log},
        "load_average_after": round(os.getloadavg()[0], 2), "load_seconds": round(elapsed, 2), "requests": len(samples),
        "requests_per_second": round(len(samples) / elapsed, 1), "bytes": tally.bytes,
        "statuses": {str(code): n for code, n in sorted(tally.statuses.items())},
        "errors": dict(tally.errors), "error_examples": tally.examples,
        "overall": overall, "kinds": per_kind, "phases": phases,
        "import": {**imported, "started_after": round(importer.started - started, 2) if importer.started else None,
                   "records_before": len(records), "records_after": len(after)},
        "failures": failures, "ok": not failures,
    }
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        report(result)
    return 0 if not failures else 1


def report(r: dict[str, Any]) -> None:
    imp = r["import"]
    print(f"load: {r['requests']:,} requests in {r['load_seconds']:.1f} s = {r['requests_per_second']} requests/s "
          f"({r['options']['clients']} clients, {r['bytes'] / 2**20:.0f} MB; load {r['load_average_after']}); statuses "
          + ", ".join(f"{code}: {n:,}" for code, n in r["statuses"].items()))
    for line in table(r["kinds"]):
        print(line)
    print("-" * 80)
    for line in table({"overall": r["overall"], **r["phases"]})[1:]:
        print(line)
    seconds = f"{imp['seconds']:.1f} s" if imp["seconds"] is not None else "did not end"
    print(f"import: {seconds}, started {imp['started_after']} s into the load, exit status {imp['exit_status']}; "
          f"records {imp['records_before']:,} -> {imp['records_after']:,}")
    for line in imp["stdout"].splitlines():
        print(f"  | {line}")
    if imp["exit_status"] != 0 and imp["stderr_tail"]:
        for line in imp["stderr_tail"].splitlines()[-5:]:
            print(f"  ! {line}")
    log = r["server"]["log"]
    print(f"server log: {log['lines']} lines, {log['tracebacks']} tracebacks, {log['errors_logged']} errors "
          f"logged, {log['locked']} 'database is locked', {log['queue_warnings']} waitress queue warnings")
    for line in log["bad_lines"]:
        print(f"  ! {line}")
    if r["errors"]:
        print("errors: " + ", ".join(f"{what}: {n}" for what, n in r["errors"].items()))
        for example in r["error_examples"]:
            print(f"  ! {example}")
    o = r["overall"]
    verdict = "no error, no 'database is locked'" if r["ok"] else "FAILED: " + "; ".join(r["failures"])
    print(f"{verdict}; p95 overall {o.get('p95', 0):.0f} ms (p50 {o.get('p50', 0):.0f} ms, "
          f"p99 {o.get('p99', 0):.0f} ms), during the import "
          f"{r['phases'].get('during the import', {}).get('p95', 0):.0f} ms, "
          f"{r['requests_per_second']} requests/s")


if __name__ == "__main__":
    sys.exit(main())
