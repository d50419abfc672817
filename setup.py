"""The build: setuptools (pyproject.toml holds the metadata) plus the hot modules compiled with mypyc.

``pip install .`` compiles the modules of ``COMPILED`` (the reader and the validator's inner
loop: docs/architecture.md, "Compiled modules") into C extensions that sit beside their .py
files in the installed package. The .py files stay the one implementation; a compiled module
is the same code, type-checked by mypy and translated to C.

``BELOTE_PURE_PYTHON`` chooses:

* unset: a regular install (``pip install .``, a wheel) is compiled; an editable install
  (``pip install -e .``) is not, so that edits to the source take effect (a compiled module
  built in place would sit beside its .py in the source tree and shadow it);
* ``1``: nothing is compiled, whatever the install;
* ``0``: compiled, even an editable install (the .so files then land in the source tree:
  delete them, or reinstall, after editing a compiled module).
"""

from __future__ import annotations

import os
import shutil
import sys

from setuptools import setup

# Compiled with mypyc, chosen by profiling (bench/): each earns its place by a measured gain.
COMPILED = [
    "notation/lexer.py",
    "notation/splitter.py",
    "notation/reader.py",
    "notation/writer.py",
    "replayer/engine/cardmasks.py",
    "replayer/engine/bidding.py",
    "replayer/engine/play.py",
    "replayer/engine/melds.py",
    "replayer/engine/scoring.py",
    "replayer/engine/solver.py",
    "replayer/check/faults.py",
    "replayer/check/validator.py",
]


def compile_wanted() -> bool:
    choice = os.environ.get("BELOTE_PURE_PYTHON", "").strip()
    if choice not in ("", "0", "1"):
        sys.exit(f"BELOTE_PURE_PYTHON must be 0, 1 or unset, not {choice!r}")
    if choice:
        return choice == "0"
    editable = any(arg in ("editable_wheel", "develop") for arg in sys.argv)
    return not editable


def ext_modules() -> list:
    # only a build compiles (not the metadata steps pip runs before it: mypyc takes a while)
    building = any(arg in ("bdist_wheel", "build", "build_ext", "install", "editable_wheel", "develop")
                   for arg in sys.argv)
    if not building:
        return []
    # pip builds in the source tree: a compiled module left in build/lib by an earlier build
    # would be packed into this one, even a pure one; build/ is only ever an output
    shutil.rmtree("build", ignore_errors=True)
    if not compile_wanted():
        return []
    from mypyc.build import mypycify

    extensions = mypycify(COMPILED, opt_level="3")
    for extension in extensions:  # no C compiler: the .py files, pure Python, rather than no install at all
        extension.optional = True
    return extensions


setup(ext_modules=ext_modules())
