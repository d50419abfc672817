"""The record splitter cuts plain records straight from the bytes: it must agree with the line-by-line splitter."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from notation import scan
from notation.scan import MAX_LINE, RawRecord, split_records
from test_fuzz import SEED_TEXT, mutate
from test_scan_fast import _bench_record, generated

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(ROOT.glob("samples/*.belote")) + sorted(ROOT.glob("samples/invalid/*.belote"))


def slow(data: bytes, monkeypatch) -> list[RawRecord]:
    with monkeypatch.context() as patch:
        patch.setattr(scan, "_FAST", False)
        return list(split_records(io.BytesIO(data)))


def both(data: bytes, monkeypatch) -> tuple[list[RawRecord], list[RawRecord]]:
    return list(split_records(io.BytesIO(data))), slow(data, monkeypatch)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_fast_and_slow_splits_agree_on_every_sample(path, monkeypatch):
    fast, slow_ = both(path.read_bytes(), monkeypatch)
    assert fast == slow_ and fast


def test_fast_and_slow_splits_agree_on_a_generated_file_also_cut_in_small_blocks(monkeypatch):
    data = generated(1000)
    fast, slow_ = both(data, monkeypatch)
    assert len(fast) == 1000 and fast == slow_
    assert fast[1].byte_offset == data.index(b"\n[Event", 100) + 1 and fast[1].text.startswith('[Event "Club')
    assert fast[1].first_line == data[:fast[1].byte_offset].count(b"\n") + 1
    assert list(split_records(data)) == slow_ == list(split_records(data.decode()))
    rng = random.Random(7)
    for size in [97, 1, 4096] + [rng.randint(2, 3000) for _ in range(5)]:
        monkeypatch.setattr(scan, "BLOCK", size)  # cuts fall inside tag lines, blank runs and bodies
        assert list(split_records(io.BytesIO(data))) == slow_, size


def test_plain_records_never_reach_the_line_splitter(monkeypatch):
    data = generated(50)[len(b"% belote-notation 1.0\n\n"):]
    def refuse(*args):
        raise AssertionError("slow path taken")
    monkeypatch.setattr(scan, "_split_lines", refuse)
    assert len(list(split_records(data))) == 50


def test_odd_records_fall_back_and_still_agree(monkeypatch):
    record = _bench_record()
    plain = [record(i) for i in range(8)]
    odd = [plain[0].replace("\n", "\r\n"), plain[1] + "\n{a comment\n\nwith a blank line}\nplay\n",
           plain[2].replace("play\n", "play\n% escape\n"), plain[3].replace("Lyon", "Besançon"),
           plain[4] + "\nbody after a blank line\n", '[A "x\\"y"]  [B "z"] ; two tags\n\n' + plain[5],
           plain[6] + "  \t\n", plain[7].replace("\n\n", "\n \n\t\n", 1)]
    data = "\n".join(p + "\n" + o for p, o in zip(plain, odd)).encode("utf-8") + b"\n \t\n\n" + plain[0].encode() + b"\n[Z \"\xff\"]\n"
    for tail in (b"", b"hand N -", b"\n\n\n"):
        fast, slow_ = both(b"\xef\xbb\xbf" + data + tail, monkeypatch)
        assert fast == slow_ and (fast[-1].problem is not None or tail)
        assert fast[1].byte_offset == len(plain[0].encode()) + 4  # the BOM counts
        headers = list(scan.scan_headers(b"\xef\xbb\xbf" + data + tail))
        assert [(h.first_line, h.last_line, h.byte_offset) for h in headers] == [
            (raw.first_line, raw.last_line, raw.byte_offset) for raw in slow_]


def test_over_long_lines_and_records_give_the_same_limit_problems_whatever_the_blocks(monkeypatch):
    plain = _bench_record()(1).encode()
    long_line = b'[Event "' + b"x" * (MAX_LINE + 10) + b'"]\nhand N -\n'
    data = plain + b"\n" + long_line + b"\n" + plain + b"\n" + b"{" + b"y" * (3 * MAX_LINE) + b"}\n\n" + plain
    expected = slow(data, monkeypatch)
    assert [raw.problem is not None for raw in expected] == [False, True, False, True, False]
    assert list(split_records(data)) == expected == list(split_records(io.BytesIO(data)))
    for size in (1000, 65536, 3 * MAX_LINE):
        monkeypatch.setattr(scan, "BLOCK", size)
        assert list(split_records(io.BytesIO(data))) == expected, size
    monkeypatch.setattr(scan, "MAX_RECORD", 2000)  # records over the limit, and a handoff to the line splitter
    monkeypatch.setattr(scan, "_HANDOFF", 1500)
    monkeypatch.setattr(scan, "BLOCK", 1000)
    long_record = plain + plain.split(b"\n\n")[1] * 4  # one body after another: 2,900 bytes without a cut
    data = (plain + b"\n") * 3 + long_record + b"\n" + (plain + b"\n") * 3 + long_record
    expected = slow(data, monkeypatch)
    assert [raw.problem.kind if raw.problem else None for raw in expected] == [None] * 3 + ["limit"] + [None] * 3 + ["limit"]
    handed_off = []
    line_splitter = scan._split_lines
    def watched(blocks, *args):
        handed_off.append(not isinstance(blocks, tuple))  # the rest of the input, not a stretch
        return line_splitter(blocks, *args)
    monkeypatch.setattr(scan, "_split_lines", watched)
    assert list(split_records(io.BytesIO(data))) == expected and any(handed_off)


def test_fast_and_slow_splits_agree_on_mutated_files(monkeypatch):
    rng = random.Random(20261129)
    for _ in range(1500):
        data = mutate(rng, SEED_TEXT[rng.randrange(0, 1500):]) * rng.randint(1, 3)
        fast, slow_ = both(data, monkeypatch)
        assert fast == slow_, data


def test_a_blank_line_of_spaces_after_tags_alone_is_left_out_of_the_record(monkeypatch):
    data = b'[A "a"]\n  \n\n[B "b"]\nplay\n'
    fast, slow_ = both(data, monkeypatch)
    assert fast == slow_ and [(raw.text, raw.line_count) for raw in fast] == [('[A "a"]\n', 1), ('[B "b"]\nplay\n', 2)]
    assert [(h.first_line, h.last_line) for h in scan.scan_headers(data)] == [(1, 1), (4, 5)]
