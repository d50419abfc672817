"""The reports the archive keeps (``Report.stored()``, ``Report.from_stored``): nothing is lost on
the way through JSON, the archive keeps exactly what ``validate`` says of a record's text, and
the pages show what was kept without validating anything again."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from notation import parse, write_record
from replayer.archive import Archive, stored_record
from replayer.check import validator
from replayer.check.report import Report
from replayer.check.validator import validate
from replayer.cli import generated_records
from replayer.engine.rules import PROFILES, Rules

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.belote")) + sorted((ROOT / "samples" / "invalid").glob("*.belote"))


def through_json(report: Report) -> Report:
    """The report as the archive gives it back: stored, written as JSON, read, rebuilt."""
    return Report.from_stored(json.loads(json.dumps(report.stored(), ensure_ascii=False)), report.tags)


def assert_round_trips(report: Report) -> None:
    again = through_json(report)
    assert again == report, report.text()
    assert again.stored() == report.stored() and again.text() == report.text()


# --- Report.stored() and Report.from_stored() -------------------------------------------------


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.relative_to(ROOT / "samples").as_posix())
@pytest.mark.parametrize("repair", [True, False], ids=["repairs", "no-repairs"])
def test_every_sample_report_comes_back_from_json_equal(path, repair):
    results = list(parse(path))
    assert results
    for result in results:
        assert_round_trips(validate(result, repair=repair))


def test_reports_with_repairs_syntax_errors_and_replays_come_back_equal():
    reports = [validate(result) for path in SAMPLES for result in parse(path)]
    assert any(f.repairs for report in reports for f in report.findings)  # repair suggestions stored
    assert any(report.rules is None for report in reports)  # a record that does not read
    assert any(report.replay is not None and report.replay.plays for report in reports)
    assert any(report.replay is not None and report.replay.claimed_by is not None for report in reports)
    assert any(report.replay is not None and report.replay.void for report in reports)


@pytest.fixture(scope="module")
def generated() -> list[str]:
    """A few hundred records of the engine's generator, every profile: matches, each cut short."""
    rng = random.Random(2026)
    texts = []
    for profile in PROFILES:
        texts += [write_record(record) for record in generated_records(rng, Rules.parse(profile), 40)]
    return texts


def test_generated_reports_come_back_from_json_equal(generated):
    assert len(generated) >= 280
    for text in generated:
        (result,) = parse(text)
        report = validate(result)
        assert report.ok, report.text()
        assert_round_trips(report)
        assert_round_trips(validate(result.record, index=3))  # a Record made in code: the same way


def test_damaged_generated_reports_come_back_from_json_equal(generated, mutate):
    """Faults, repairs, syntax errors, records cut short: whatever a report holds is kept."""
    rng = random.Random(7)
    rules_seen = set()
    repaired = 0
    for text in generated[::2]:
        for data in (mutate(rng, text.encode("utf-8")), swapped_cards(rng, text).encode("utf-8")):
            for result in parse(data):
                report = validate(result)
                rules_seen |= report.rule_ids
                repaired += any(f.repairs for f in report.findings)
                assert_round_trips(report)
                assert_round_trips(report.renumbered(5, 40))
    assert {"syntax-error", "card-not-held"} <= rules_seen and len(rules_seen) > 10, rules_seen
    assert repaired > 20


def swapped_cards(rng: random.Random, text: str) -> str:
    """Two cards of the play swapped: card faults, with repair suggestions."""
    lines = text.split("\n")
    plays = [i for i, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    if len(plays) < 2:
        return text
    a, b = rng.sample(plays, 2)
    words_a, words_b = lines[a].split(" "), lines[b].split(" ")
    i, j = rng.randrange(1, len(words_a)), rng.randrange(1, len(words_b))
    if ":" in words_a[i] and ":" in words_b[j]:
        (seat_a, card_a), (seat_b, card_b) = words_a[i].split(":"), words_b[j].split(":")
        words_a[i], words_b[j] = f"{seat_a}:{card_b}", f"{seat_b}:{card_a}"
    lines[a], lines[b] = " ".join(words_a), " ".join(words_b)
    return "\n".join(lines)


# --- the archive keeps what validate says ---------------------------------------------------------


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Archive:
    """The samples, the invalid samples and generated records, imported (some by worker processes)."""
    from replayer.archive import importer

    path = tmp_path_factory.mktemp("stored") / "belote.sqlite"
    generated = tmp_path_factory.mktemp("generated") / "generated.belote"
    rng = random.Random(3)
    records = [record for profile in PROFILES for record in generated_records(rng, Rules.parse(profile), 12)]
    generated.write_text("".join(write_record(record) + "\n" for record in records), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch, Archive(path) as opened:
        opened.import_files(SAMPLES)
        patch.setattr(importer, "PARALLEL_BYTES", 0)  # worker processes whatever the size
        patch.setattr(importer, "CHUNK_RECORDS", 5)
        opened.import_files([generated], jobs=2)
        summary = opened.import_text(str(records[0]).replace("[Deal \"1\"]", "[Deal \"71\"]"), rules="ffb; tie=made")
        assert summary.imported == 1  # rules given at the import
        yield opened


def test_the_stored_report_of_every_imported_record_is_validate_of_its_text(archive):
    ids = [row["id"] for row in archive.db.query("SELECT id FROM records ORDER BY id")]
    assert len(ids) > 100
    for record_id in ids:
        row = archive.get(record_id)
        stored = stored_record(row)
        assert stored.error is None and stored.record is not None
        (result,) = parse(row["raw"])  # lines from 1: those of the record's own text
        rules = None if row["source"] != "<text>" else Rules.parse(row["rules"])
        expected = validate(result, rules, 0, repair=False)
        assert stored.report == expected, row["raw"]
        assert stored.report.lines == (1, row["raw"].count("\n"))
        assert stored.record == result.record
        assert not any(f.repairs for f in stored.report.findings)  # reports are stored without repairs
        findings = [(f["rule"], f["line"], f["column"]) for f in archive.findings(record_id)]
        assert sorted(findings, key=str) == sorted(
            ((f.rule, f.location.line, f.location.column) for f in expected.findings), key=str)


# --- the pages show the stored report: nothing validated again ----------------------------------


def test_the_pages_of_a_stored_record_and_match_never_validate(app, client, monkeypatch):
    from replayer.web import replay_views
    from replayer.web.db import get_archive

    with Archive(app.config["DB"]) as archive:  # a faulty record, with repairs had it been validated here
        (faulty,) = archive.import_files([ROOT / "samples" / "invalid" / "card-not-held.belote"]).ids
    with app.app_context():
        archive = get_archive()
        match_id = next(archive.db.query("SELECT id FROM matches ORDER BY id"))["id"]
        first = next(archive.db.query("SELECT id FROM records ORDER BY id"))["id"]

    def refuse(*args, **kwargs):
        raise AssertionError("a page validated a stored record again")

    # every validation ends by making its Report: the validator's name for the class is patched (a
    # compiled validator calls its own functions directly, so patching one of them would not show)
    monkeypatch.setattr(validator, "Report", refuse)
    replay_views.analyse.cache_clear()  # nothing cached from another test
    with pytest.raises(AssertionError, match="validated"):  # the patch is in place
        validate(next(parse(ROOT / "samples" / "01-classic-round1.belote")))
    for record_id in (first, faulty):
        for url in (f"/r/{record_id}", f"/r/{record_id}?step=end", f"/r/{record_id}/embed", f"/r/{record_id}/steps",
                    f"/r/{record_id}.json", f"/api/records/{record_id}"):
            response = client.get(url)
            assert response.status_code == 200, (url, response.get_data(as_text=True)[:500])
    for url in (f"/m/{match_id}", f"/m/{match_id}.json", "/", "/api/records"):
        assert client.get(url).status_code == 200, url
    api = client.get(f"/api/records/{faulty}").get_json()
    assert api["report"]["findings"] and not any("repairs" in f for f in api["report"]["findings"])
