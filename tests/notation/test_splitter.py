"""The splitter (``notation.splitter``): files into records, without ever holding a file whole.

Where records begin and end (blank lines after the tag pairs, comments over blank lines,
escape lines, a byte-order mark, CRLF), the limits (over-long lines and records), the same
records whatever way the file comes in (bytes, text, a stream read in blocks of any size,
chunks for worker processes), and the tag pairs ``scan_headers`` gives.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from notation import splitter
from notation.splitter import MAX_LINE, Headers, RawRecord, chunks, scan_headers, split_records

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(ROOT.glob("samples/*.belote")) + sorted(ROOT.glob("samples/invalid/*.belote"))


def cut(data: bytes | str) -> list[tuple[str, int, int]]:
    """(text, first line, byte offset) of each record."""
    return [(raw.text, raw.first_line, raw.byte_offset) for raw in split_records(data)]


def every_way(data: bytes, monkeypatch, sizes=(1, 2, 3, 7, 97, 4096)) -> list[RawRecord]:
    """The records of ``data`` from bytes, text and streams read in blocks of ``sizes``: all the same."""
    records = list(split_records(data))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        assert list(split_records(text)) == records
        assert list(split_records(io.StringIO(text))) == records
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark cut over blocks: see test_a_byte_order_mark_...
        sizes = [max(size, 3) for size in sizes]
    for size in sizes:
        with monkeypatch.context() as patch:
            patch.setattr(splitter, "BLOCK", size)
            assert list(split_records(io.BytesIO(data))) == records, size
    return records


def by_chunks(data: bytes, size: int) -> list[RawRecord]:
    """The records of ``data`` split chunk by chunk, as a worker process splits its chunk."""
    records: list[RawRecord] = []
    for piece, line, offset in chunks(data, size):
        records += split_records(piece, index=len(records), line=line, offset=offset)
    return records


# --- where a record begins and ends -----------------------------------------------------------


def test_blank_lines_end_a_record():
    assert cut("hand N -\n\nhand S -\n \t\n\nplay\n") == [("hand N -\n", 1, 0), ("hand S -\n", 3, 10),
                                                       ("play\n", 6, 23)]


def test_blank_lines_after_the_tag_pairs_go_on_with_the_record():
    text = '[Event "a"]\n[Site "b"]\n\n\nhand N -\n\n[Event "c"]\n \t\nplay\n'
    assert cut(text) == [('[Event "a"]\n[Site "b"]\n\n\nhand N -\n', 1, 0), ('[Event "c"]\n \t\nplay\n', 7, 35)]


def test_blank_lines_after_tag_pairs_then_a_tag_pair_start_a_new_record():
    data = b'[A "a"]\n  \n\n[B "b"]\nplay\n'
    records = list(split_records(data))
    assert [(raw.text, raw.line_count, raw.first_line, raw.last_line) for raw in records] == [
        ('[A "a"]\n', 1, 1, 1), ('[B "b"]\nplay\n', 2, 4, 5)]
    assert [(h.first_line, h.last_line) for h in scan_headers(data)] == [(1, 1), (4, 5)]


def test_a_blank_line_after_the_body_ends_the_record_even_before_more_body():
    assert cut('[Event "a"]\nplay\n\nhand N AS\n') == [('[Event "a"]\nplay\n', 1, 0), ("hand N AS\n", 4, 18)]


def test_a_comment_holds_blank_lines_unless_a_tag_pair_follows_them():
    text = 'hand N -\n{a comment\n\n  \nwith blank lines}\nplay\n\n[Event "b"]\nplay\n'
    assert [(raw.text, raw.first_line) for raw in split_records(text)] == [
        ("hand N -\n{a comment\n\n  \nwith blank lines}\nplay\n", 1), ('[Event "b"]\nplay\n', 8)]
    never_closed = '[Event "a"]\n\n{never closed\n\n[Event "b"]\n\nhand N -\n'
    assert [(raw.text, raw.first_line) for raw in split_records(never_closed)] == [
        ('[Event "a"]\n\n{never closed\n', 1), ('[Event "b"]\n\nhand N -\n', 5)]


def test_braces_in_a_tag_value_or_after_a_semicolon_open_no_comment():
    text = '[Event "a {b"]\nplay ; not {a comment\n\nhand N -\n'
    assert [raw.first_line for raw in split_records(text)] == [1, 4]


def test_escape_lines_are_kept_and_marked_and_a_run_of_them_alone_is_no_record():
    data = b'% belote-notation 1.0\n\n[Event "a"]\n% private\nhand N -\n{a\n% in a comment\n}\nplay\n\n% alone\n%\n'
    (raw,) = split_records(data)
    assert (raw.first_line, raw.line_count, raw.escapes) == (3, 7, (1,))
    assert raw.text == '[Event "a"]\n% private\nhand N -\n{a\n% in a comment\n}\nplay\n'
    assert raw.grammar_text() == '[Event "a"]\n\nhand N -\n{a\n% in a comment\n}\nplay\n'  # numbering kept
    assert list(split_records(b"% only\n% escape lines\n")) == []
    assert list(split_records(b"%\n\n\n")) == []


def test_escape_lines_with_blank_lines_among_them_alone_are_no_record():
    assert list(split_records(b"% only\n% escape lines\n\n%\n")) == []
    from notation import parse

    text = '% belote-notation 1.0\n\n% a second note\n\n[Event "a"]\nplay\n'
    assert [result.record.tags for result in parse(text)] == [(("Event", "a"),)]


def test_escape_lines_before_a_body_go_on_as_tag_lines_do():
    (raw,) = split_records("% a note\n\nplay\n")
    assert (raw.text, raw.escapes, raw.first_line) == ("% a note\n\nplay\n", (0,), 1)


def test_a_byte_order_mark_is_no_text_but_its_bytes_count():
    data = b'\xef\xbb\xbf[E "x"]\nhand N -\n\n[E "y"]\nplay\n'
    records = list(split_records(data))
    assert [(raw.text, raw.first_line, raw.byte_offset) for raw in records] == [
        ('[E "x"]\nhand N -\n', 1, 0), ('[E "y"]\nplay\n', 4, len(b'\xef\xbb\xbf[E "x"]\nhand N -\n\n'))]
    assert list(split_records(data.decode("utf-8"))) == records  # "\ufeff" in a text: the same
    assert [h.byte_offset for h in scan_headers(io.BytesIO(data))] == [0, 21]
    # only the file's first bytes: a chunk further on keeps what it is given
    assert list(split_records(b"play\n", offset=40))[0].byte_offset == 40
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(splitter, "BLOCK", 3)  # the mark alone in the first block
        assert list(split_records(io.BytesIO(data))) == records


@pytest.mark.parametrize("size", [1, 2])
def test_a_byte_order_mark_cut_over_the_first_blocks_is_no_text_either(size, monkeypatch):
    data = b'\xef\xbb\xbf[E "x"]\nhand N -\n\n[E "y"]\nplay\n'
    monkeypatch.setattr(splitter, "BLOCK", size)
    assert [raw.text for raw in split_records(io.BytesIO(data))] == ['[E "x"]\nhand N -\n', '[E "y"]\nplay\n']


def test_crlf_line_ends_become_lf_and_offsets_stay_those_of_the_file():
    data = b'[E "x"]\r\nhand N -\r\n\r\n[E "y"]\r\nplay\r\n'
    assert cut(data) == [('[E "x"]\nhand N -\n', 1, 0), ('[E "y"]\nplay\n', 4, 21)]
    assert data[21:].startswith(b'[E "y"]')


def test_the_last_line_needs_no_line_end_and_trailing_blanks_are_no_record():
    assert cut("hand N -\n\nplay") == [("hand N -\n", 1, 0), ("play\n", 3, 10)]
    assert cut("play\n\n \t\n\n") == [("play\n", 1, 0)]
    assert cut("") == [] and cut("\n \n\t\n") == []


def test_lines_and_offsets_continue_those_given_for_a_chunk():
    (first, second) = split_records(b"play\n\nhand N -\n", index=7, line=41, offset=1000)
    assert (first.index, first.first_line, first.byte_offset) == (7, 41, 1000)
    assert (second.index, second.first_line, second.last_line, second.byte_offset) == (8, 43, 43, 1006)


# --- limits ------------------------------------------------------------------------------------


def test_bad_utf8_is_a_problem_of_its_record_only():
    data = b'play\n\n[Event "caf\xe9"]\nhand N -\n\nplay\n'
    records = list(split_records(data))
    assert [raw.problem is None for raw in records] == [True, False, True]
    problem = records[1].problem
    assert (problem.kind, problem.line, problem.column, problem.byte_offset) == ("encoding", 3, 12, 17)
    assert [h.ok for h in scan_headers(data)] == [True, False, True]


def test_over_long_lines_and_records_give_the_same_problems_whatever_the_blocks(monkeypatch, club_record_text):
    plain = club_record_text(1).encode()
    long_line = b'[Event "' + b"x" * (MAX_LINE + 10) + b'"]\nhand N -\n'
    data = plain + b"\n" + long_line + b"\n" + plain + b"\n" + b"{" + b"y" * (3 * MAX_LINE) + b"}\n\n" + plain
    expected = list(split_records(data))
    assert [raw.problem is not None for raw in expected] == [False, True, False, True, False]
    line = plain.count(b"\n") + 2
    problem = expected[1].problem
    assert (problem.kind, problem.line, problem.column) == ("limit", line, MAX_LINE + 1)
    assert expected[1].first_line == line and len(expected[1].text) < 1000
    assert expected[2].byte_offset == len(plain) + 1 + len(long_line) + 1
    assert expected[4].byte_offset == len(data) - len(plain)
    assert list(split_records(io.BytesIO(data))) == expected
    for size in (1000, 65536, 3 * MAX_LINE):
        monkeypatch.setattr(splitter, "BLOCK", size)
        assert list(split_records(io.BytesIO(data))) == expected, size
    assert by_chunks(data, 5000) == expected


def test_records_over_the_size_limit_keep_their_first_lines_and_the_next_record(monkeypatch, club_record_text):
    monkeypatch.setattr(splitter, "MAX_RECORD", 2000)
    monkeypatch.setattr(splitter, "_HOLD", 1500)  # bytes held without a blank line: whole lines are taken
    plain = club_record_text(1).encode()
    long_record = plain + plain.split(b"\n\n")[1] * 4  # one body after another: 2,900 bytes without a cut
    data = (plain + b"\n") * 3 + long_record + b"\n" + (plain + b"\n") * 3 + long_record
    expected = list(split_records(data))
    assert [raw.problem.kind if raw.problem else None for raw in expected] == [None] * 3 + ["limit"] + [
        None] * 3 + ["limit"]
    assert expected[3].problem.message == "record longer than 2000 bytes"
    assert expected[4].byte_offset == 3 * (len(plain) + 1) + len(long_record) + 1
    for size in (97, 1000, 4096):
        monkeypatch.setattr(splitter, "BLOCK", size)
        assert list(split_records(io.BytesIO(data))) == expected, size


# --- the same records whatever way the file comes in ----------------------------------------------


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_every_sample_splits_the_same_every_way_and_by_chunks(path, monkeypatch):
    data = path.read_bytes()
    records = every_way(data, monkeypatch)
    assert records and [raw.index for raw in records] == list(range(len(records)))
    assert by_chunks(data, 200) == records == by_chunks(data, 1 << 20)
    assert list(split_records(path)) == records  # a path


def test_a_club_file_splits_the_same_in_blocks_of_any_size_and_by_chunks(monkeypatch, club_file):
    data = club_file(1000)
    records = every_way(data, monkeypatch, sizes=(97, 1, 4096))
    assert len(records) == 1000
    assert records[1].byte_offset == data.index(b"\n[Event", 100) + 1 and records[1].text.startswith('[Event "Club')
    assert records[1].first_line == data[:records[1].byte_offset].count(b"\n") + 1
    rng = random.Random(7)
    for size in [rng.randint(2, 3000) for _ in range(5)]:
        monkeypatch.setattr(splitter, "BLOCK", size)  # cuts fall inside tag lines, blank runs and bodies
        assert list(split_records(io.BytesIO(data))) == records, size
    monkeypatch.undo()
    for size in (1, 700, 64_000):
        assert by_chunks(data, size) == records, size


def odd_file(club_record_text) -> bytes:
    """Plain records and odd ones: CRLF, a comment over a blank line, an escape line, accents, a body
    after a blank line, two tags on a line, trailing blanks, spaces in a blank line, bad UTF-8."""
    plain = [club_record_text(i) for i in range(8)]
    odd = [plain[0].replace("\n", "\r\n"), plain[1] + "\n{a comment\n\nwith a blank line}\nplay\n",
           plain[2].replace("play\n", "play\n% escape\n"), plain[3].replace("Lyon", "Besançon"),
           plain[4] + "\nbody after a blank line\n", '[A "x\\"y"]  [B "z"] ; two tags\n\n' + plain[5],
           plain[6] + "  \t\n", plain[7].replace("\n\n", "\n \n\t\n", 1)]
    return ("\ufeff" + "\n".join(p + "\n" + o for p, o in zip(plain, odd))).encode("utf-8") + \
        b"\n \t\n\n" + plain[0].encode() + b'\n[Z "\xff"]\n'


@pytest.mark.parametrize("tail", [b"", b"hand N -", b"\n\n\n"])
def test_odd_records_split_the_same_every_way(monkeypatch, club_record_text, tail):
    data = odd_file(club_record_text) + tail
    records = every_way(data, monkeypatch)
    assert len(records) == 21  # the odd ones: a comment, a body and a record of tags alone apart
    assert records[-1].problem is not None or tail
    assert records[1].byte_offset == len(club_record_text(0).encode()) + 4  # the BOM counts
    assert by_chunks(data, 300) == records
    headers = list(scan_headers(data))
    assert [(h.first_line, h.last_line, h.byte_offset) for h in headers] == [
        (raw.first_line, raw.last_line, raw.byte_offset) for raw in records]


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def check_cut(data: bytes, records: list[RawRecord]) -> None:
    """Each record is the file's lines where it says it is, in order, and no other line is lost."""
    lines = lines_of(data)
    taken = set()
    end = 0
    for raw in records:
        assert raw.first_line > end and data[:raw.byte_offset].count(b"\n") + 1 == raw.first_line
        end = raw.last_line
        taken.update(range(raw.first_line, raw.last_line + 1))
        if raw.problem is None:
            written = b"\n".join(lines[raw.first_line - 1:raw.last_line]) + b"\n"
            if raw.first_line == 1:
                written = written.removeprefix(b"\xef\xbb\xbf")
            assert raw.text == written.decode("utf-8").replace("\r\n", "\n")
    for number, line in enumerate(lines, 1):  # outside the records: blank lines and escape lines alone
        if number not in taken:
            text = line.removeprefix(b"\xef\xbb\xbf") if number == 1 else line
            assert not text.strip(b" \t\r\x0b\x0c") or text[:1] == b"%", (number, line)


def test_damaged_files_split_the_same_every_way_and_lose_no_line(monkeypatch, seed_text, mutate):
    rng = random.Random(20261129)
    for _ in range(1500):
        data = mutate(rng, seed_text[rng.randrange(0, 1500):]) * rng.randint(1, 3)
        records = list(split_records(data))
        check_cut(data, records)
        with monkeypatch.context() as patch:
            patch.setattr(splitter, "BLOCK", rng.randint(1, 300))
            assert list(split_records(io.BytesIO(data))) == records, data
        assert by_chunks(data, rng.randint(1, 400)) == records, data
        assert [(h.first_line, h.last_line, h.byte_offset, h.ok) for h in scan_headers(data)] == [
            (raw.first_line, raw.last_line, raw.byte_offset, raw.problem is None) for raw in records]


def test_chunks_cut_where_a_record_always_ends(club_file):
    data = club_file(50)
    pieces = list(chunks(data, 1000))
    assert len(pieces) > 10 and b"".join(piece for piece, _, _ in pieces) == data
    for piece, line, offset in pieces:
        assert data[offset:offset + len(piece)] == piece and data[:offset].count(b"\n") + 1 == line
        assert offset == 0 or (data[offset - 2:offset] == b"\n\n" and piece.startswith(b"["))
    assert list(chunks(b"", 10)) == []
    assert list(chunks(data, len(data) * 2)) == [(data, 1, 0)]


# --- scan_headers ------------------------------------------------------------------------------


def test_scan_headers_gives_the_tag_pairs_where_the_record_is_and_whether_it_was_cut_cleanly():
    data = ('% belote-notation 1.0\n\n[Event "a \\"b\\" \\\\ c"] [Site "Lyon"] ; two on a line\n[Bad tag]\n'
            '[Deal "3"]\n\nplay\n\n  [Indented "yes"]\nplay\n\nhand N -\n\n[Event "caf').encode() + b'\xe9"]\n'
    headers = list(scan_headers(data))
    assert headers == [
        Headers(0, (("Event", 'a "b" \\ c'), ("Site", "Lyon"), ("Deal", "3")), 3, 7, 23, True),
        Headers(1, (("Indented", "yes"),), 9, 10, data.index(b"  [Indented"), True),
        Headers(2, (), 12, 12, data.index(b"hand N"), True),
        Headers(3, (("Event", "caf\ufffd"),), 14, 14, data.index(b'[Event "caf'), False)]  # bad UTF-8 replaced
    assert headers[0].headers == {"Event": 'a "b" \\ c', "Site": "Lyon", "Deal": "3"}


def test_scan_headers_reads_only_the_head_of_a_record():
    headers = list(scan_headers('[Event "a"]\nplay\n1. W:JH {[Site "not a tag"]}\n[Late "tag"]\n'))
    assert [h.tags for h in headers] == [(("Event", "a"),)]


def test_scan_headers_agrees_with_the_records_read(monkeypatch, club_file):
    from notation import parse

    data = club_file(120) + b"\n" + "\n".join(path.read_text(encoding="utf-8") for path in SAMPLES).encode()
    headers = list(scan_headers(io.BytesIO(data)))
    results = list(parse(data))
    assert len(headers) == len(results)
    for header, result in zip(headers, results):
        assert (header.first_line, header.last_line, header.byte_offset) == (
            result.source.first_line, result.source.last_line, result.source.byte_offset)
        if result.ok:
            assert header.tags == tuple(result.data.tags)
    monkeypatch.setattr(splitter, "BLOCK", 97)
    assert list(scan_headers(io.BytesIO(data))) == headers
