"""The README's two set-up commands stay true: CI runs the test command word for word,
and the main job's command exists in the command line."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from replayer.cli import belote

ROOT = Path(__file__).resolve().parent.parent


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
