"""validate_stream, in one process or with worker processes: chunks of whole records, reports
renumbered in the file, every record counted."""

from __future__ import annotations

import pickle

import pytest

from notation import splitter
from notation.splitter import chunks, split_records
from replayer.check.streams import validate_stream


@pytest.fixture(scope="module")
def source(generated_texts) -> bytes:
    """24 generated records, one with CRLF line ends, an escape line, a comment over a blank
    line, a syntax error; after a byte-order mark."""
    texts = generated_texts(24, seed=11)
    texts[3] = texts[3].replace("\n", "\r\n")  # CRLF line ends
    texts[5] = "% an escape line\n" + texts[5]
    texts[7] = texts[7].replace("play\n", "play\n{a comment\n\nwith a blank line}\n", 1)
    texts[9] = texts[9].replace("play\n1. ", "play\n1. XZ ", 1)  # a syntax error
    return ("\ufeff" + "\n".join(texts)).encode("utf-8")


def test_chunks_hold_whole_records_with_their_lines_and_offsets(source):
    pieces = list(chunks(source, 700))
    assert len(pieces) > 5 and b"".join(data for data, _, _ in pieces) == source
    whole = list(split_records(source))
    rebuilt = []
    for data, line, offset in pieces:
        assert source[offset:offset + len(data)] == data and source[:offset].count(b"\n") + 1 == line
        rebuilt += split_records(data, index=len(rebuilt), line=line, offset=offset)
    assert rebuilt == whole


@pytest.mark.parametrize("chunk", [1, 4, 400])
def test_two_jobs_give_the_reports_of_one(source, chunk):
    one = list(validate_stream(source, jobs=1))
    two = list(validate_stream(source, jobs=2, chunk=chunk))
    assert [r.index for r in two] == list(range(len(one))) and len(one) == 24
    assert two == one and [r.as_dict() for r in two] == [r.as_dict() for r in one]
    assert not one[9].ok and one[9].findings[0].location.record == 9


def test_a_file_with_nowhere_to_cut_is_read_by_the_parent(source, monkeypatch):
    expected = list(validate_stream(source, jobs=1))
    monkeypatch.setattr(splitter, "_HOLD", 1000 - splitter.MAX_LINE)  # a rest after 1,000 bytes without a cut
    monkeypatch.setattr(splitter, "_CUT", splitter.re.compile(rb"(?!)"))
    cut = list(chunks(source, 700))
    assert len(cut) == 1 and isinstance(cut[0][0], splitter.Rest)
    assert list(validate_stream(source, jobs=2, chunk=1)) == expected


def test_reports_pickle_and_come_back_equal_and_renumbered(source):
    reports = list(validate_stream(source))
    for report in reports:
        assert pickle.loads(pickle.dumps(report)) == report
    moved = reports[9].renumbered(40)
    assert moved.index == 40 and {f.location.record for f in moved.findings} == {40}
    assert moved.renumbered(9) == reports[9]
    shifted = reports[9].renumbered(9, 10)
    assert shifted.lines == (reports[9].lines[0] + 10, reports[9].lines[1] + 10)
    assert [f.location.line for f in shifted.findings] == [f.location.line + 10 for f in reports[9].findings]


@pytest.mark.parametrize("jobs", [1, 2])
def test_validate_counts_every_record_in_one_process_or_two(long_line_file, jobs):
    reports = list(validate_stream(long_line_file, jobs=jobs))
    assert [report.ok for report in reports] == [True, False, True]
    assert [f.rule for f in reports[1].findings] == ["syntax-error"]
    assert reports[1].findings[0].location.line == 36
