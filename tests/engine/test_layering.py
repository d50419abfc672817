"""The engine depends on ``notation`` and the standard library only, and imports at the
top of its modules: the validator, the archive and the site build on it, never the
other way round. One exception: ``mypy_extensions``, the native integer types (``i64``)
the compiled solver is typed with, plain ``int`` at run time."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "replayer" / "engine"
TYPES_ONLY = {"mypy_extensions"}
MODULES = sorted(ENGINE.glob("*.py"))


def imports(tree: ast.Module) -> list[tuple[ast.stmt, str]]:
    """(statement, module) of every import in a module, with ``.`` for a relative one."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node, "." * node.level + (node.module or "")))
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_the_engine_imports_only_notation_and_the_standard_library(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert MODULES and imports(tree)
    for node, module in imports(tree):
        assert node in tree.body, f"{path.name}: import of {module} inside a function or a block"
        if module.startswith("."):
            assert not module.startswith(".."), f"{path.name} imports {module}, outside the engine"
            continue
        top = module.split(".")[0]
        assert top == "notation" or top in sys.stdlib_module_names or top in TYPES_ONLY, \
            f"{path.name} imports {module}"
