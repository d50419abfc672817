"""The tests mirror the packages: a folder per package, each a package of its own (so that
test modules of the same name may live in two folders); what tests share is in
``conftest.py`` (fixtures) and ``data/``: no test imports another test module or a bench script."""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FOLDERS = {"notation": "notation", "engine": "replayer/engine", "check": "replayer/check",
           "archive": "replayer/archive", "cli": "replayer/cli", "web": "replayer/web"}


def test_every_test_folder_is_a_package_that_mirrors_one():
    folders = {path.name for path in TESTS.iterdir() if path.is_dir() and path.name not in ("data", "__pycache__")}
    assert folders == set(FOLDERS)
    for folder, package in FOLDERS.items():
        assert (TESTS / folder / "__init__.py").is_file(), folder
        assert (ROOT / package / "__init__.py").is_file(), package
    assert [path.name for path in TESTS.glob("test_*.py")] == ["test_layout.py"]


def test_no_test_imports_another_test_module_or_a_bench_script():
    local = {path.stem for path in TESTS.rglob("*.py")} | {"tests", "bench"}
    local |= {path.stem for path in (ROOT / "bench").glob("*.py")}
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = ["." if node.level else node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in local, f"{path.relative_to(ROOT)} imports {name}"


def test_the_tests_folder_is_not_on_the_path():
    """With ``tests/`` on ``sys.path``, ``tests/notation/`` would shadow the ``notation`` package."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "pythonpath" not in settings
    import notation

    assert Path(notation.__file__).resolve().parent != TESTS / "notation"
    assert Path(notation.__file__).name in ("__init__.py", "__init__.pyc")


def test_an_installed_package_runs_its_compiled_modules():
    """``pip install .`` compiles the modules of setup.py's COMPILED (docs/architecture.md), and
    the suite imports the installed package (tests/conftest.py): so every test runs them."""
    import notation

    if Path(notation.__file__).resolve().parent == ROOT / "notation":
        pytest.skip("testing the checkout: an editable or no install, pure Python")
    if os.environ.get("BELOTE_PURE_PYTHON") == "1":
        pytest.skip("installed with BELOTE_PURE_PYTHON=1: pure Python")
    setup = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = next(node.value for node in setup.body if isinstance(node, ast.Assign)
                  and any(isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets))
    compiled = ast.literal_eval(listed)
    assert compiled
    for path in compiled:
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert module.__file__.endswith(".so"), module.__file__


LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter on the packages under ``root``, with the contracts of its pyproject.toml."""
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", "pyproject.toml"], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"}, capture_output=True, text=True, timeout=120)


def test_every_import_points_down_the_layers():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 4 kept, 0 broken." in run.stdout


LAYERS, NO_LIBRARIES, NO_LARK, ARCHIVE = ("Layers", "The notation, the engine and the checks need",
                                         "Only the notation reads with Lark", "The archive serves no pages")


@pytest.mark.parametrize("module, line, contracts", [
    ("replayer/engine/play.py", "from replayer.check import findings", [LAYERS]),
    # the archive brings sqlite_utils in with it
    ("notation/values.py", "import replayer.archive", [LAYERS, NO_LIBRARIES]),
    ("replayer/check/faults.py", "import sqlite_utils", [NO_LIBRARIES]),
    ("replayer/archive/store.py", "import flask", [ARCHIVE]),
    ("replayer/engine/rules.py", "import lark", [NO_LARK]),
])
def test_an_import_up_the_layers_breaks_a_contract(tmp_path, module, line, contracts):
    for name in ("notation", "replayer"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    path = tmp_path / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    run = lint_imports(tmp_path)
    assert run.returncode == 1
    broken = [text for text in run.stdout.splitlines() if text.endswith(" BROKEN")]
    assert [name for name in (LAYERS, NO_LIBRARIES, NO_LARK, ARCHIVE)
            if any(text.startswith(name) for text in broken)] == contracts, run.stdout
