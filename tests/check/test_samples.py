"""The sample records of ``samples/``.

* every ``samples/*.belote`` reads without errors and validates with no error
  finding, its Result tag equal to the rescored deal (a stopped play, ``*``,
  has neither), and each match in it checks clean;
* the canonical samples are byte for byte what the writer prints;
* every ``samples/invalid/NAME.belote`` yields EXACTLY the findings listed in
  ``NAME.expected`` (rule id, line:column, severity);
* the lenient sample reads as its canonical rewrite, and as the canonical
  records it transcribes (seat prefixes aside).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from notation.parser import parse
from notation.record import Record
from notation.writer import dumps
from replayer.check.findings import CATALOGUE
from replayer.check.matches import check_matches
from replayer.check.validator import validate

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
LENIENT = SAMPLES / "16-lenient-import.belote"
VALID = sorted(SAMPLES.glob("*.belote"))
CANONICAL = [path for path in VALID if path != LENIENT]
INVALID = sorted((SAMPLES / "invalid").glob("*.belote"))

# The canonical records the lenient sample transcribes, in order: (file, record index).
LENIENT_SOURCES = (("05-belote-rebelote.belote", 0), ("09-coinche-surcoinche.belote", 0),
                   ("04-announcements.belote", 0))

_EXPECTED_LINE = re.compile(r"^(\d+|-):(\d+|-) ([a-z0-9-]+) (error|warning|info)$")


def records_of(path: Path) -> list[Record]:
    results = list(parse(path))
    assert results, f"{path.name} holds no record"
    for result in results:
        assert result.ok, f"{path.name}: {result.errors[0] if result.errors else 'no record'}"
    return [result.record for result in results]


def findings_of(path: Path) -> list[tuple[str, str, str, str]]:
    """(line, column, rule, severity) of every finding: each record's, then each match's."""
    reports = [validate(result) for result in parse(path)]
    found = [f for report in reports for f in report.findings]
    found += [f for match in check_matches(reports) for f in match.findings]
    rows = [(_text(f.location.line), _text(f.location.column), f.rule, str(f.severity)) for f in found]
    return sorted(rows, key=_order)


def read_expected(path: Path) -> list[tuple[str, str, str, str]]:
    """The ``.expected`` file: ``#`` lines and blank lines skipped, one finding a line."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _EXPECTED_LINE.match(line)
        assert match, f"{path.name}:{number}: not 'line:column rule-id severity': {line!r}"
        rows.append(match.groups())
    return rows


def _text(number: int | None) -> str:
    return "-" if number is None else str(number)


def _order(row: tuple[str, str, str, str]) -> tuple:
    line, column, rule, _ = row
    return (int(line) if line != "-" else 1 << 30, int(column) if column != "-" else 0, rule)


def strip_seats(record: Record) -> Record:
    """The record without seat prefixes on its calls and cards."""
    calls = {name: tuple(dataclasses.replace(c, seat=None) for c in getattr(record, name))
             for name in ("taking", "auction") if getattr(record, name) is not None}
    tricks = tuple(dataclasses.replace(t, plays=tuple(dataclasses.replace(e, seat=None) for e in t.plays))
                   for t in record.tricks)
    return dataclasses.replace(record, tricks=tricks, **calls)


# --- the valid samples ----------------------------------------------------------------------

def test_there_are_enough_samples() -> None:
    assert len(VALID) >= 16
    assert len(INVALID) >= 15


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_sample_validates_clean_and_its_result_is_the_rescore(path: Path) -> None:
    records = records_of(path)
    reports = [validate(record) for record in records]
    for record, report in zip(records, reports):
        assert report.ok, report.text()
        if record.stopped:  # a play stopped on purpose is not rescored
            assert report.rescored is None and record.result is None
            assert report.rule_ids == {"play-stopped"}
        else:
            assert record.result is not None and report.rescored == record.result, report.text()
    for match in check_matches(reports):
        assert match.ok, match.text()


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: p.name)
def test_sample_is_in_canonical_form(path: Path) -> None:
    assert dumps(records_of(path)).encode("utf-8") == path.read_bytes()


def test_match_sample_runs_to_its_target() -> None:
    reports = [validate(record) for record in records_of(SAMPLES / "12-match.belote")]
    (match,) = check_matches(reports)
    assert match.ok and match.winner is not None
    assert max(match.totals) >= match.target
    assert len({report.tag("Dealer") for report in reports}) == 4  # the deal goes round the table
    assert any(report.score.outcome.value == "void" for report in reports)


def test_samples_show_what_the_readme_says() -> None:
    """Spot checks that the samples hold the situations their names promise."""
    def outcomes(name: str) -> list[str]:
        return [validate(r).score.outcome.value for r in records_of(SAMPLES / name)]

    assert outcomes("03-void-deal.belote") == ["void"]
    assert outcomes("07-litige.belote") == ["litige"]
    assert outcomes("08-dedans.belote") == ["failed"]
    (capot,) = [validate(r).score for r in records_of(SAMPLES / "06-capot.belote")]
    assert capot.capot is not None and capot.outcome.value == "made"
    bids = [validate(r).score.contract for r in records_of(SAMPLES / "10-capot-bid.belote")]
    assert all(contract.capot for contract in bids)
    denominations = [validate(r).score.contract.denomination.value
                     for r in records_of(SAMPLES / "11-sans-atout-tout-atout.belote")]
    assert denominations == ["SA", "TA"]
    announced = {(a.kind.value, a.cards[0].rank.value if a.kind.value == "carre" else "")
                 for r in records_of(SAMPLES / "04-announcements.belote") for a in r.announcements}
    assert {("tierce", ""), ("quarte", ""), ("quinte", "")} <= announced
    assert {("carre", rank) for rank in "J9ATKQ"} <= announced


SEED_PROFILES = ("namu-classic", "namu-annonces", "namu-coinche", "club-classic", "sata-classic", "sata-coinche",
                 "club-coinche")


def test_every_seed_profile_has_a_valid_sample() -> None:
    """docs/seeds.md: one complete valid record (at least) for each seed page's profile."""
    named = {record.tag("Rules") for path in VALID for record in records_of(path)}
    assert set(SEED_PROFILES) <= named


def test_namu_match_plays_on_at_exactly_500() -> None:
    """000, match_end=exceed: a side standing at 500 has not won; the match ends over 500."""
    reports = [validate(record) for record in records_of(SAMPLES / "18-namu-match.belote")]
    (match,) = check_matches(reports)
    assert match.ok and match.target == 500 and max(match.totals) > 500
    assert any(500 in deal.after for deal in match.deals[:-1])


# --- the invalid samples --------------------------------------------------------------------

def test_every_invalid_sample_has_its_expected_findings() -> None:
    stems = {path.stem for path in INVALID}
    assert stems == {path.stem for path in (SAMPLES / "invalid").glob("*.expected")}


@pytest.mark.parametrize("path", INVALID, ids=lambda path: path.name)
def test_invalid_sample_yields_exactly_its_expected_findings(path: Path) -> None:
    expected = read_expected(path.with_suffix(".expected"))
    assert expected, "an invalid sample must expect at least one finding"
    assert expected == sorted(expected, key=_order), "the .expected lines must be sorted"
    assert findings_of(path) == expected


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_expected_findings_are_catalogued_and_placed(path: Path) -> None:
    rows = read_expected(path.with_suffix(".expected"))
    for line, column, rule, severity in rows:
        assert rule in CATALOGUE and severity == CATALOGUE[rule][0].value
        assert line != "-" and column != "-"  # every designed fault has a place in the file
    assert any(severity == "error" for *_, severity in rows) or path.stem in NOTES_ONLY


# Invalid samples whose findings are notes, not faults: an old profile name (rules-alias).
NOTES_ONLY = {"rules-alias"}


# --- the lenient sample ---------------------------------------------------------------------

def test_lenient_sample_is_written_leniently() -> None:
    raw = LENIENT.read_bytes()
    text = raw.decode("utf-8")
    assert raw.startswith(b"\xef\xbb\xbf") and "\r\n" in text and "\t" in text
    assert all(symbol in text for symbol in "♠♥♦♣")
    assert re.search(r"\b10[shdc♠♥♦♣]", text) and re.search(r"\b[rdv][♠♥♦♣shdc]", text, re.IGNORECASE)
    assert "passe" in text and "contre" in text and "cinquante" in text
    play = text[text.index("PLAY"):]
    assert not re.search(r"\b[NESW]:", play)  # no seat prefixes
    assert not text.startswith("%")


def test_lenient_sample_reads_as_its_canonical_rewrite() -> None:
    records = records_of(LENIENT)
    rewrite = dumps(records)
    again = [result.record for result in parse(rewrite)]
    assert again == records
    assert dumps(again) == rewrite  # the rewrite is stable


def test_lenient_sample_reads_as_the_records_it_transcribes() -> None:
    records = records_of(LENIENT)
    sources = [records_of(SAMPLES / name)[index] for name, index in LENIENT_SOURCES]
    assert records == [strip_seats(record) for record in sources]


# --- the index --------------------------------------------------------------------------------

def test_readme_lists_every_sample() -> None:
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    for path in VALID + INVALID:
        assert path.name in readme, f"{path.name} is not in samples/README.md"
