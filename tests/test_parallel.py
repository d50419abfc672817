"""validate_stream with worker processes: chunks of whole records, reports packed and renumbered."""

from __future__ import annotations

import random

import pytest

import replayer.check.streams as parallel
from notation.values import SEATS
from notation.splitter import split_records
from replayer.engine.generator import generate_record
from replayer.check.streams import chunks, pack, unpack
from replayer.engine.rules import PROFILES, Rules
from replayer.check.validator import Report, validate_stream


def _texts(count: int = 24) -> list[str]:
    rng = random.Random(11)
    profiles = [Rules.parse(name) for name in PROFILES]
    texts = [str(generate_record(rng, profiles[i % len(profiles)], SEATS[i % 4], deal_number=i + 1,
                                 redeal_void=True)) for i in range(count)]
    texts[3] = texts[3].replace("\n", "\r\n")  # CRLF line ends
    texts[5] = "% an escape line\n" + texts[5]
    texts[7] = texts[7].replace("play\n", "play\n{a comment\n\nwith a blank line}\n", 1)
    texts[9] = texts[9].replace("play\n1. ", "play\n1. XZ ", 1)  # a syntax error
    return texts


SOURCE = ("\ufeff" + "\n".join(_texts())).encode("utf-8")


def test_chunks_hold_whole_records_with_their_lines_and_offsets():
    pieces = list(chunks(SOURCE, 700))
    assert len(pieces) > 5 and b"".join(data for data, _, _ in pieces) == SOURCE
    whole = list(split_records(SOURCE))
    rebuilt = []
    for data, line, offset in pieces:
        assert SOURCE[offset:offset + len(data)] == data and SOURCE[:offset].count(b"\n") == line
        rebuilt += [(raw.text, raw.first_line + line, raw.byte_offset + offset) for raw in split_records(data)]
    assert rebuilt == [(raw.text, raw.first_line, raw.byte_offset) for raw in whole]


@pytest.mark.parametrize("chunk", [1, 4, 400])
def test_two_jobs_give_the_reports_of_one(chunk):
    one = list(validate_stream(SOURCE, jobs=1))
    two = list(validate_stream(SOURCE, jobs=2, chunk=chunk))
    assert [r.index for r in two] == list(range(len(one))) and len(one) == 24
    assert two == one and [r.as_dict() for r in two] == [r.as_dict() for r in one]
    assert not one[9].ok and one[9].findings[0].location.record == 9


def test_a_file_with_nowhere_to_cut_is_read_by_the_parent(monkeypatch):
    monkeypatch.setattr(parallel, "MAX_STRETCH", 1000)
    monkeypatch.setattr(parallel, "_CUT", parallel.re.compile(rb"(?!)"))
    assert list(validate_stream(SOURCE, jobs=2, chunk=1)) == list(validate_stream(SOURCE, jobs=1))


def test_packed_reports_come_back_equal_and_renumbered():
    reports = list(validate_stream(SOURCE))
    for report in reports:
        assert unpack(pack(report), report.index, Report) == report
    moved = unpack(pack(reports[9]), 40, Report)
    assert moved.index == 40 and {f.location.record for f in moved.findings} == {40}
