"""The same figures for several builds of the code, measured in turns in one session.

    python3 bench/compare_builds.py [--rounds 3] [--tasks canon,typed,scan,import,cli-canon,cli-typed]
        [--old /tmp/oldtree] [--canonical FILE] [--typed FILE]

On a shared machine only ratios measured in the same run mean something: each round runs
every task once for every build, one after the other, each in a fresh process, and the
best of the rounds is kept. The builds:

* ``compiled``: the installed package (``pip install .``: the modules of setup.py's
  COMPILED are C extensions), run from outside the checkout;
* ``pure``: this checkout's .py files first on ``sys.path`` (nothing compiled in it);
* ``old``: an older checkout given with ``--old`` (its own module layout: the old express
  path, ``replayer.validator.validate_stream``, ``notation.scan.scan_headers``);
* ``chess``: python-chess ``read_game`` on 3,000 random games of 80 plies, the anchor.

Tasks: ``canon``/``typed``, split + read + validate + rescore of a file in one process
(CPU records/s); ``scan``, ``scan_headers`` (records/s); ``import``, ``Archive.import_files``
into a new archive, one process (CPU records/s); ``cli-canon``/``cli-typed``, a whole
``belote validate FILE`` process (wall records/s; for chess, a process reading the games).
Prints each figure and its ratio to ``old`` (when given) and to ``chess``.
``CHESS_GAMES`` (environment) sets the number of games of the anchor, for a quick try.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = str(Path(__file__).resolve().parent)  # anchor.py, for the worker processes

WORKER = r'''
import os, sys, tempfile, time
root, task, path, records, bench = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
if root != "-":
    sys.path.insert(0, root)
old = os.path.isfile(os.path.join(root, "replayer", "validator.py")) if root != "-" else False
if task == "chess":
    sys.path.insert(0, bench)  # the anchor's module imports nothing of the project
    from anchor import chess_games, read_all
    pgn = chess_games(int(os.environ.get("CHESS_GAMES", 3000)))
    if path != "-":  # write the games for chess_process, and stop
        open(path, "w").write(pgn)
        sys.exit()
    def run():
        return read_all(pgn)
elif task == "validate":
    data = open(path, "rb").read()
    if old:
        from replayer.validator import validate_stream
    else:
        from replayer.check.streams import validate_stream
    def run():
        return sum(1 for _ in validate_stream(data))
elif task == "scan":
    data = open(path, "rb").read()
    if old:
        from notation.scan import scan_headers
    else:
        from notation.splitter import scan_headers
    def run():
        return sum(1 for _ in scan_headers(data))
elif task == "import":
    from replayer.archive import Archive
    def run():
        with tempfile.TemporaryDirectory() as folder:
            with Archive(os.path.join(folder, "a.db")) as archive:
                archive.import_files([path])
            return records
run()
start = time.process_time()
count = run()
print(count / (time.process_time() - start))
'''

CLI = r'''
import sys
root = sys.argv[1]
if root != "-":
    sys.path.insert(0, root)
from replayer.cli import main
sys.argv = ["belote"] + sys.argv[2:]
main()
'''


def in_process(python: str, root: str, task: str, path: str, records: int = 0) -> float:
    out = subprocess.run([python, "-c", WORKER, root, task, path, str(records), BENCH], capture_output=True, text=True,
                         cwd=tempfile.gettempdir())
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return float(out.stdout.split()[-1])


def whole_process(python: str, root: str, path: str, records: int) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", CLI, root, "validate", path], capture_output=True, cwd=tempfile.gettempdir())
    return records / (time.perf_counter() - start)


def chess_process(python: str, pgn: str) -> float:
    """Games/s of a whole process reading the games of ``pgn`` with ``read_game``."""
    reader = "import sys, chess.pgn\nstream = open(sys.argv[1])\nwhile chess.pgn.read_game(stream) is not None: pass"
    start = time.perf_counter()
    subprocess.run([python, "-c", reader, pgn], capture_output=True, cwd=tempfile.gettempdir())
    return int(os.environ.get("CHESS_GAMES", 3000)) / (time.perf_counter() - start)


def count_records(path: str) -> int:
    out = subprocess.run([sys.executable, "-c", "import sys, pathlib; from notation.splitter import scan_headers; "
                          "print(sum(1 for _ in scan_headers(pathlib.Path(sys.argv[1]))))", path],
                         capture_output=True, text=True, cwd=tempfile.gettempdir(),
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    return int(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", default="canon,typed,scan,import,cli-canon,cli-typed")
    parser.add_argument("--old", help="an older checkout to compare with (its root folder)")
    parser.add_argument("--canonical", default="/tmp/cli7k/canonical.belote")
    parser.add_argument("--typed", default="/tmp/cli7k/typed.belote")
    args = parser.parse_args()
    python = sys.executable
    builds = {"compiled": "-", "pure": str(ROOT)}
    if args.old:
        builds["old"] = args.old
    counts = {path: count_records(path) for path in (args.canonical, args.typed)}
    best: dict[tuple[str, str], float] = {}
    tasks = args.tasks.split(",")

    def keep(task: str, build: str, rate: float) -> None:
        best[task, build] = max(best.get((task, build), 0.0), rate)
        print(f"round {round_ + 1} {task:<10} {build:<9} {rate:>10,.0f}/s", flush=True)

    pgn = os.path.join(tempfile.mkdtemp(), "games.pgn")
    subprocess.run([python, "-c", WORKER, "-", "chess", pgn, "0", BENCH], check=True)  # the anchor's games, for chess_process
    for round_ in range(args.rounds):
        keep("anchor", "chess", in_process(python, "-", "chess", "-"))  # read_game in one process, CPU
        if any(task.startswith("cli") for task in tasks):
            keep("anchor-cli", "chess", chess_process(python, pgn))  # a whole process reading the games, wall
        for task in tasks:
            path = args.typed if task.endswith("typed") else args.canonical
            for build, root in builds.items():
                if task.startswith("cli"):
                    rate = whole_process(python, root, path, counts[path])
                else:
                    rate = in_process(python, root, {"canon": "validate", "typed": "validate"}.get(task, task), path,
                                      counts[path])
                keep(task, build, rate)
    print()
    for task in tasks:
        anchor = best["anchor-cli" if task.startswith("cli") else "anchor", "chess"]
        parts = []
        for build in builds:
            rate = best[task, build]
            old = f", {rate / best[task, 'old']:.2f}x old" if "old" in builds and build != "old" else ""
            parts.append(f"{build} {rate:,.0f}/s ({rate / anchor:.2f}x chess{old})")
        print(f"{task:<10} " + "; ".join(parts))
    print(f"chess: read_game {best['anchor', 'chess']:,.0f} games/s"
          + (f", a whole process {best['anchor-cli', 'chess']:,.0f} games/s" if ("anchor-cli", "chess") in best else ""))

if __name__ == "__main__":
    main()
