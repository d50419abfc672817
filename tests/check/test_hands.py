"""A seat given two hands (issue 15 H): the reader refuses such a deal and so does
``from_json``, but a ``Record`` built in code can hold one; ``validate`` reports each hand
after a seat's first (``hand-size``), takes the first ones as the deal, and never raises."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

import pytest

from notation import Hand, JSONFormatError, Record, Seat, from_json, parse_record, to_json
from replayer.check.validator import validate

ROOT = Path(__file__).resolve().parents[2]
N, E, S, W = (Seat.parse(seat) for seat in "NESW")
SECOND = "{} is given a second hand: a seat has one hand of 8 cards"
DEAL = ("N AH TH 7H KD JD 7D AC 7C, E KS KH 8H AD 9D 8D 9C 8C, S JS 7S QH JH 9H TD JC TC, "
        "W AS QS TS 9S 8S QD KC QC")


@pytest.fixture(scope="module")
def record() -> Record:
    """A clean classic deal (samples/01): its hands N E S W at lines 20 to 23."""
    return parse_record((ROOT / "samples" / "01-classic-round1.belote").read_text(encoding="utf-8"))


def _findings(record: Record) -> list[tuple[str, str, int | None]]:
    return [(f.rule, f.message, f.location.line) for f in validate(record).findings]


def test_the_sample_is_clean(record):
    assert [(hand.seat, hand.pos.line) for hand in record.hands] == [(N, 20), (E, 21), (S, 22), (W, 23)]
    assert _findings(record) == []


def test_two_equal_hands_for_one_seat_give_a_finding_not_a_key_error(record):
    """The issue's case: ``validate(from_json(...))`` raised KeyError in ``_duplicates``.
    ``from_json`` now refuses the JSON; the same record built in code is reported."""
    value = to_json(record)
    value["hands"].append(value["hands"][0])
    with pytest.raises(JSONFormatError) as caught:
        from_json(value)
    assert str(caught.value) == "hands: 5 items, at most 4"
    value["hands"][1:] = [value["hands"][0]]
    with pytest.raises(JSONFormatError) as caught:
        from_json(value)
    assert str(caught.value) == "hands[1]: 2 hands for seat N, at most 1"
    twice = dataclasses.replace(record, hands=(*record.hands, record.hands[0]))
    assert _findings(twice) == [("hand-size", SECOND.format("North"), 20)]
    assert validate(twice.data()).findings == validate(twice).findings


HandsOf = Callable[[dict[Seat, Hand]], tuple[Hand, ...]]


@pytest.mark.parametrize("hands, findings", [
    # North's second hand holds East's cards and East has none: East is rebuilt from the play
    (lambda h: (h[N], Hand(N, h[E].cards), h[S], h[W]),
     [("hand-size", SECOND.format("North"), None),
      ("hands-rebuilt", f"hands of East rebuilt from the 32 cards played: {DEAL}", None)]),
    # a second hand not known (-); a known one after an unknown one: North is rebuilt
    (lambda h: (h[N], Hand(N, None), h[E], h[S], h[W]), [("hand-size", SECOND.format("North"), None)]),
    (lambda h: (Hand(N, None), h[N], h[E], h[S], h[W]),
     [("hand-size", SECOND.format("North"), 20),
      ("hands-rebuilt", f"hands of North rebuilt from the 32 cards played: {DEAL}", None)]),
    # five and six hands
    (lambda h: (h[N], h[E], h[E], h[S], h[W]), [("hand-size", SECOND.format("East"), 21)]),
    (lambda h: (h[N], h[E], h[S], h[W], Hand(W, (None, None)), h[W]),
     [("hand-size", SECOND.format("West"), 23), ("hand-size", SECOND.format("West"), None)]),
])
def test_a_seat_given_two_hands_is_reported_whatever_the_hands(record, hands: HandsOf, findings):
    twice = dataclasses.replace(record, hands=hands({hand.seat: hand for hand in record.hands}))
    assert _findings(twice) == findings
