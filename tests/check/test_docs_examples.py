"""Issue 15 K: every record shown in the documentation is a record that validates as its
text says: each ```belote block of docs/*.md and README.md reads and validates with no
finding, and the import-form example of docs/notation.md reads to the same record as the
canonical one before it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from notation.jsonio import from_json
from notation.parser import parse
from notation.writer import write_record
from replayer.check.validator import validate

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


def blocks(path: Path, language: str) -> list[tuple[int, str]]:
    """(line, text) of each fenced block of ``language`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in re.finditer(rf"^```{language}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)]


RECORDS = [(path, line, text) for path in DOCS for line, text in blocks(path, "belote")]


def test_the_documentation_shows_records() -> None:
    assert [path.name for path, _, _ in RECORDS] == ["notation.md"] * 3 + ["README.md"]


@pytest.mark.parametrize("path, line, text", RECORDS, ids=[f"{p.name}:{n}" for p, n, _ in RECORDS])
def test_each_record_of_the_documentation_validates_clean(path: Path, line: int, text: str) -> None:
    results = list(parse(text))
    assert len(results) == 1 and results[0].ok, results[0].errors
    report = validate(results[0])
    assert report.findings == () and report.ok
    assert report.recorded is None or report.recorded == report.rescored


def test_the_import_form_reads_to_the_canonical_coinche_example() -> None:
    canonical, typed = [text for path, _, text in RECORDS if path.name == "notation.md"][1:]
    [one], [other] = parse(canonical), parse(typed)
    assert write_record(one.record) == write_record(other.record)


def test_the_json_example_reads() -> None:
    [(_, example)] = blocks(ROOT / "docs" / "notation.md", "json")
    record = from_json(json.loads(example))
    assert record.tag("Dealer") == "S" and record.stopped and len(record.tricks) == 1
