"""The express path (notation.compact + replayer.express) against the full way, record by record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import replayer.archive_import as archive_import
from notation.values import SEATS
from notation.compact import read_canonical
from notation.parser import parse_record, read_raw
from notation.scan import split_records
from notation.writer import write_record
from replayer.express import express_report
from replayer.engine.generator import generate_record
from replayer.engine.rules import PROFILES, Rules
from replayer.engine.cardmasks import mask_of
from replayer.validator import validate, validate_stream

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _generated(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in PROFILES]
    return [str(generate_record(rng, profiles[i % len(profiles)], SEATS[i % 4], deal_number=i + 1,
                                redeal_void=True)) for i in range(count)]


GENERATED = _generated(240)


def _one(text: str):
    (raw,) = split_records(text)
    return raw


def _same_as_full(raw) -> bool:
    """The express report (when there is one) is the full way's; returns whether there is one."""
    express = express_report(raw)
    full = validate(read_raw(raw))
    if express is not None:
        assert express == full
        assert {finding.rule for finding in full.findings} <= {"result-mismatch"}
    return express is not None


def test_every_generated_record_goes_the_express_way_with_the_same_report():
    assert all(_same_as_full(_one(text)) for text in GENERATED)


def test_the_samples_that_go_the_express_way_report_the_same():
    taken = 0
    for path in sorted(SAMPLES.rglob("*.belote")):
        for raw in split_records(path.read_bytes()):
            taken += _same_as_full(raw)
    assert taken >= 5  # the clean canonical samples: some take the express way


def test_what_the_compact_reader_reads_is_what_the_parser_reads():
    for text in GENERATED[:80] + [_commented(GENERATED[0], "a {note"), _commented(GENERATED[1], "")]:
        compact, record = read_canonical(text), parse_record(text)
        assert compact is not None and write_record(record) == text  # only canonical text is read
        assert compact.tags == record.tags and compact.comments == record.comments
        assert compact.hands == tuple(mask_of(hand.cards) for hand in record.hands)
        assert compact.turned == record.turned
        assert compact.auction == (record.auction is not None)
        assert compact.calls == tuple((entry.seat, entry.call) for entry in record.auction or record.taking)
        assert compact.announcements == tuple((a.seat, a.kind, mask_of(a.cards), len(a.cards))
                                              for a in record.announcements)
        plays = record.plays
        assert compact.cards == tuple(entry.card.index for entry in plays)
        assert compact.seats == tuple(entry.seat for entry in plays)
        assert compact.declarations == tuple(entry.declaration for entry in plays)


def _with_belote() -> str:
    return next(text for text in GENERATED if " belote" in text and "rebelote" in text)


def _first_card(text: str, line_start: str) -> tuple[int, int]:
    """(start, end) of the first card word on the line that starts with ``line_start``."""
    start = text.index("\n" + line_start) + 1 + len(line_start)
    return start, text.index(" ", start)


def _annotated(text: str) -> str:
    _, end = _first_card(text, "1. ")
    return text[:end] + "!" + text[end:]


def _ten_spelt_10(text: str) -> str:
    start = text.index(" T", text.index("\nhand N "))
    return text[:start] + " 10" + text[start + 2:]


def _unsorted_hand(text: str) -> str:
    start = text.index("hand N ") + len("hand N ")
    end = text.index("\n", start)
    cards = text[start:end].split(" ")
    return text[:start] + " ".join(cards[1:2] + cards[:1] + cards[2:]) + text[end:]


def _hands_swapped(text: str) -> str:
    return text.replace("hand N ", "hand X ", 1).replace("hand E ", "hand N ", 1).replace("hand X ", "hand E ", 1)


# Texts that are not canonical (the compact reader says None) though they parse.
NOT_CANONICAL = {
    "lowercase call": lambda t: t.replace(":pass", ":Pass", 1),
    "no blank line after the tags": lambda t: t.replace('"]\n\n', '"]\n', 1),
    "two spaces": lambda t: t.replace("play\n1. ", "play\n1.  ", 1),
    "a comment": lambda t: t.replace("play\n", "play\n{a note}\n", 1),
    "spaces inside a record comment": lambda t: t.replace('"]\n\n', '"]\n\n{ a note }\n', 1),
    "a trick comment": lambda t: t.replace("\n2. ", " ; fine\n2. ", 1),
    "an annotation": _annotated,
    "hands out of order": _hands_swapped,
    "a hand not sorted": _unsorted_hand,
    "tags out of order": lambda t: t.replace("[Site", '[Zzz "1"]\n[Site', 1),
    "ten written 10": _ten_spelt_10,
    "a claim": lambda t: t[:t.index("\n8. ")] + "\nclaim N\n",
    "a star": lambda t: t + "*\n",
}


@pytest.mark.parametrize("change", sorted(NOT_CANONICAL))
def test_text_in_another_form_goes_the_full_way(change):
    text = NOT_CANONICAL[change](_with_belote())
    assert text != _with_belote()
    raws = list(split_records(text))
    assert all(express_report(raw) is None for raw in raws)
    if change != "a claim":
        assert read_canonical(raws[0].text) is None


def _swap_plays(text: str) -> str:
    """Trick 2's first card exchanged with trick 5's first card (seat prefixes kept)."""
    two, five = _first_card(text, "2. "), _first_card(text, "5. ")
    a, b = text[two[0] + 2:two[1]], text[five[0] + 2:five[1]]
    return text[:two[0] + 2] + b + text[two[1]:five[0] + 2] + a + text[five[1]:]


def _card_twice(text: str) -> str:
    """Trick 2's first card replaced by trick 1's first card."""
    one, two = _first_card(text, "1. "), _first_card(text, "2. ")
    return text[:two[0] + 2] + text[one[0] + 2:one[1]] + text[two[1]:]


def _seats_rotated(text: str) -> str:
    """The seat prefixes of trick 3 moved round by one."""
    start = text.index("\n3. ") + 4
    end = text.index("\n", start)
    after = {"N:": "E:", "E:": "S:", "S:": "W:", "W:": "N:"}
    words = [after.get(word[:2], word[:2]) + word[2:] for word in text[start:end].split(" ")]
    return text[:start] + " ".join(words) + text[end:]


def _belote_moved(text: str) -> str:
    """The belote words taken off their cards, ``belote`` put on trick 1's first card."""
    text = text.replace(" rebelote", "").replace(" belote", "")
    _, end = _first_card(text, "1. ")
    return text[:end] + " belote" + text[end:]


# Canonical texts with a fault: the express way must step aside and the full way finds it.
FAULTS = {
    "an unreadable Result": lambda t: t.replace('[Result "', '[Result "x', 1),
    "no Dealer tag": lambda t: "\n".join(line for line in t.split("\n") if not line.startswith("[Dealer")),
    "a Dealer that is no seat": lambda t: t.replace('[Dealer "', '[Dealer "Q', 1),
    "an unknown Rules tag": lambda t: t.replace('[Rules "', '[Rules "nosuch', 1),
    "two cards swapped": _swap_plays,
    "the wrong seat prefixes": _seats_rotated,
    "a card twice": _card_twice,
    "a belote word on another card": _belote_moved,
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_faulty_record_goes_the_full_way(fault):
    text = FAULTS[fault](_with_belote())
    assert text != _with_belote()
    for raw in split_records(text):
        full = validate(read_raw(raw))
        assert full.findings, fault  # the change makes a finding...
        assert express_report(raw) is None  # ...which only the full way can report


def _wrong_result(text: str) -> str:
    return text.replace('[Result "', '[Result "1', 1)


def test_a_wrong_result_is_reported_the_express_way_as_the_full_way_does():
    for text in GENERATED[:40]:
        raw = _one(_wrong_result(text))
        express, full = express_report(raw), validate(read_raw(raw))
        assert express == full
        (finding,) = full.findings
        assert finding.rule == "result-mismatch" and finding.location.line == text.split("\n").index(
            next(line for line in text.split("\n") if line.startswith("[Result"))) + 1
        assert finding.location.column == 1


def test_validate_stream_gives_the_full_reports_in_one_and_two_processes():
    texts = GENERATED[:60] + [NOT_CANONICAL["a comment"](GENERATED[0]), FAULTS["two cards swapped"](_with_belote()),
                              _wrong_result(GENERATED[1])]
    source = "\n".join(texts)
    full = [validate(read_raw(raw)) for raw in split_records(source)]
    assert list(validate_stream(source)) == full
    assert list(validate_stream(source.encode(), jobs=2, chunk=4)) == full


def _commented(text: str, note: str) -> str:
    return text.replace('"]\n\n', '"]\n\n{' + note + '}\n', 1)


def test_the_archive_row_of_an_express_record_is_the_full_way_row(monkeypatch):
    texts = GENERATED[:24] + [_commented(GENERATED[30], "bonne entame"),
                              _commented(_commented(GENERATED[31], "b"), "a"), _wrong_result(GENERATED[32])]
    raws = [_one(text) for text in texts]
    assert all(express_report(raw) is not None for raw in raws)
    express = [archive_import.read_record(raw, None) for raw in raws]
    monkeypatch.setattr(archive_import, "express_check", lambda raw, rules: None)
    full = [archive_import.read_record(raw, None) for raw in raws]
    assert express == full
