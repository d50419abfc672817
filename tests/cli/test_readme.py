"""The README's two set-up commands stay true: CI runs the test command word for word,
and the main job's command exists in the command line."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from replayer.cli import belote

ROOT = Path(__file__).resolve().parents[2]


def _shell_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_ci_runs_the_readme_test_command() -> None:
    ci_lines = [line for line in (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
                if line and not line.startswith(("#", "set ", "cd ", "export "))]
    assert ci_lines == [_shell_blocks()[1]]
    assert ci_lines[0].endswith("-m pytest -q")


def test_main_job_serves_the_site() -> None:
    main_job = _shell_blocks()[0]
    assert main_job.endswith(".venv/bin/belote serve")
    result = CliRunner().invoke(belote, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--db" in result.output


def test_pip_install_installs_every_package_the_command_line_needs() -> None:
    """``pip install .`` (the main job's command) installs the packages pyproject.toml lists: every
    package of the checkout must be among them, or ``belote`` fails to import once installed."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    packages = {".".join(init.parent.relative_to(ROOT).parts) for top in ("notation", "replayer")
                for init in (ROOT / top).rglob("__init__.py")}
    assert packages and packages <= listed
