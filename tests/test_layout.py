"""The tests mirror the packages: a folder per package, each a package of its own (so that
test modules of the same name may live in two folders); what tests share is in
``conftest.py`` (fixtures) and ``data/``: no test imports another test module or a bench script."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

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

    assert Path(notation.__file__).resolve().parent == ROOT / "notation"
