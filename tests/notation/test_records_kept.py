"""No record is ever lost: over-long lines, merged records, unknown turned cards (issue 15 A, B).

Regression tests: every record of a file comes out of the splitter and the reader (as a
record or as an error), whatever way the file comes in, and what the writer prints reads
back as the same records. (The validator, the command line and the archive see the same
records: ``tests/check/test_streams.py``, ``tests/cli/test_cli.py``,
``tests/archive/test_archive.py``.)
"""

from __future__ import annotations

import io

from notation import splitter
from notation.errors import LimitError
from notation.jsonio import from_json, to_json
from notation.parser import parse, parse_record
from notation.splitter import MAX_RECORD, scan_headers, split_records
from notation.writer import dumps, write_record

LONG = 3_000_000  # the long line of the ``long_line_file`` fixture


def _splits(data: bytes, monkeypatch) -> dict[str, list]:
    """The records of ``data`` by every way in: text, bytes, a stream, a stream in small blocks."""
    ways = {"bytes": list(split_records(data)), "text": list(split_records(data.decode())),
            "stream": list(split_records(io.BytesIO(data)))}
    with monkeypatch.context() as patch:
        patch.setattr(splitter, "BLOCK", 4093)
        ways["small blocks"] = list(split_records(io.BytesIO(data)))
    return ways


def test_a_line_over_the_record_limit_is_an_error_record_and_every_other_record_is_kept(long_line_file,
                                                                                       monkeypatch):
    assert LONG > MAX_RECORD
    data = long_line_file
    for way, records in _splits(data, monkeypatch).items():
        assert [raw.problem is not None for raw in records] == [False, True, False], way
        assert [raw.first_line for raw in records] == [3, 36, 40], way
        assert records[1].problem.kind == "limit" and records[1].problem.line == 36, way
    results = list(parse(io.BytesIO(data)))
    assert [result.ok for result in results] == [True, False, True]
    assert isinstance(results[1].errors[0], LimitError) and results[1].errors[0].line == 36
    assert [result.record.tag("Deal") for result in (results[0], results[2])] == ["1", "2"]
    assert [h.first_line for h in scan_headers(data)] == [3, 36, 40]


def test_a_tag_line_over_the_record_limit_makes_one_error_record(long_event_file, monkeypatch):
    data = long_event_file
    for way, records in _splits(data, monkeypatch).items():
        assert len(records) == 1 and records[0].problem.kind == "limit" and records[0].first_line == 1, way
    assert len(list(scan_headers(data))) == 1


# --- B: what the writer prints reads back as the same records -------------------------------------

def test_a_record_of_tags_alone_stays_apart_from_a_record_without_tags():
    text = '[Event "a"]\nplay\n\nhand N AS\n'
    records = [result.record for result in parse(text)]
    assert len(records) == 2
    again = [result.record for result in parse(dumps(records))]
    assert again == records
    assert dumps(again) == dumps(records)  # idempotent


def test_an_unknown_turned_card_and_its_comment_are_written():
    text = '[Variant "belote"]\n\nturned ?? {la retourne}\ntaking pass take\n'
    record = parse_record(text)
    assert record.turned_comments == ("la retourne",)
    written = write_record(record)
    assert "turned ?? {la retourne}" in written
    assert parse_record(written) == record
    assert from_json(to_json(record)) == record
    assert to_json(record)["turned"] == "??"
