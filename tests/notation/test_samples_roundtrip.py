"""Every samples/*.belote file: each record reads without error and its canonical form is a fixed point."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation import dumps, parse, parse_file, write_record

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.belote"))


@pytest.mark.skipif(not SAMPLES, reason="no samples/*.belote yet")
@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_round_trips(path):
    results = list(parse_file(str(path)))
    assert results, f"{path.name} holds no record"
    for result in results:
        assert result.ok, str(result.errors[0])
        text = write_record(result.record)
        assert [r.record for r in parse(text)] == [result.record]
    canonical = dumps(r.record for r in results)
    assert dumps(r.record for r in parse(canonical)) == canonical
