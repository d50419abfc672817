"""The headers-only scan reads plain records straight from the bytes: it must agree with the line splitter."""

from __future__ import annotations

import importlib.util
import io
import random
from pathlib import Path

import pytest

from notation import scan
from notation.scan import Headers, scan_headers
from test_fuzz import SEED_TEXT, mutate

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(ROOT.glob("samples/*.belote")) + sorted(ROOT.glob("samples/invalid/*.belote"))


def _bench_record():
    spec = importlib.util.spec_from_file_location("bench_parse", ROOT / "bench" / "bench_parse.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.record


def generated(count: int) -> bytes:
    record = _bench_record()
    return ("% belote-notation 1.0\n" + "".join("\n" + record(i) for i in range(count))).encode("utf-8")


def both(data: bytes, monkeypatch) -> tuple[list[Headers], list[Headers]]:
    fast = list(scan_headers(io.BytesIO(data)))
    with monkeypatch.context() as patch:
        patch.setattr(scan, "_FAST", False)
        slow = list(scan_headers(io.BytesIO(data)))
    return fast, slow


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_fast_and_slow_scans_agree_on_every_sample(path, monkeypatch):
    fast, slow = both(path.read_bytes(), monkeypatch)
    assert fast == slow and fast


def test_fast_and_slow_scans_agree_on_a_generated_file_also_cut_in_small_blocks(monkeypatch):
    data = generated(2000)
    fast, slow = both(data, monkeypatch)
    assert len(fast) == 2000 and fast == slow
    assert fast[1].tags[0] == ("Event", "Club du jeudi 0") and fast[1].byte_offset == data.index(b"\n[Event", 100) + 1
    monkeypatch.setattr(scan, "BLOCK", 97)  # cuts fall inside tag lines and blank runs
    assert list(scan_headers(io.BytesIO(data))) == slow


def test_plain_records_never_reach_the_line_splitter(monkeypatch):
    data = generated(50)[len(b"% belote-notation 1.0\n\n"):]
    def refuse(source):
        raise AssertionError("slow path taken")
    monkeypatch.setattr(scan, "split_records", refuse)
    assert len(list(scan_headers(data))) == 50


def test_odd_records_fall_back_and_still_agree(monkeypatch):
    record = _bench_record()
    plain = [record(i) for i in range(6)]
    odd = [plain[0].replace("\n", "\r\n"), plain[1] + "\n{a comment\n\nwith a blank line}\nplay\n",
           plain[2].replace("play\n", "play\n% escape\n"), plain[3].replace("Lyon", "Besançon"),
           plain[4] + "\nbody after a blank line\n", '[A "x\\"y"]  [B "z"] ; two tags\n\n' + plain[5]]
    data = "\n".join(p + "\n" + o for p, o in zip(plain, odd)).encode("utf-8") + b"\n \t\n\n" + plain[0].encode() + b"\n[Z \"\xff\"]\n"
    fast, slow = both(b"\xef\xbb\xbf" + data, monkeypatch)
    assert fast == slow and fast[-1].ok is False
    assert [h.tags[:2] for h in fast if h.tags[:1] == (("A", 'x"y'),)] == [(("A", 'x"y'), ("B", "z"))]


def test_handoff_to_the_line_splitter_on_a_long_stretch_without_cuts(monkeypatch):
    data = generated(300)
    fast, slow = both(data, monkeypatch)
    monkeypatch.setattr(scan, "_HANDOFF", 500)
    monkeypatch.setattr(scan, "BLOCK", 4096)
    assert list(scan_headers(io.BytesIO(data))) == slow == fast


def test_fast_and_slow_scans_agree_on_mutated_files(monkeypatch):
    rng = random.Random(20261129)
    for _ in range(1500):
        data = mutate(rng, SEED_TEXT[rng.randrange(0, 1500):]) * rng.randint(1, 3)
        fast, slow = both(data, monkeypatch)
        assert fast == slow, data
