"""Which code a benchmark measures: the installed package, else the checkout.

Each bench script imports this first (it sits beside them, on ``sys.path`` when a script
runs). ``pip install .`` compiles the hot modules (setup.py): a benchmark of the installed
package measures them, as users run them. With nothing installed (or ``--source``, or
``BELOTE_BENCH_SOURCE=1``) the checkout's pure-Python modules are measured instead.
``describe()`` says which, for the script's first line of output.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if ("--source" in sys.argv or os.environ.get("BELOTE_BENCH_SOURCE") == "1"
        or importlib.util.find_spec("notation") is None):
    if "--source" in sys.argv:
        sys.argv.remove("--source")
    sys.path.insert(0, str(ROOT))


def describe() -> str:
    import notation
    import replayer

    where = Path(notation.__file__).resolve().parent.parent
    compiled = sorted(str(path.relative_to(where)) for package in (notation, replayer)
                      for path in Path(package.__file__).resolve().parent.rglob("*.so"))
    kind = f"{len(compiled)} compiled modules" if compiled else "pure Python"
    return f"measuring the package in {where} ({kind})"
