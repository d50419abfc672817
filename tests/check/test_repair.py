"""Repair suggestions: a swapped, misdealt or mistyped card is found and put right."""

from __future__ import annotations

import dataclasses
import random

import pytest

from notation.values import Card, Seat
from notation.record import Record, Trick
from replayer.engine.generator import generate_record
from replayer.engine.rules import PROFILES, Rules
from replayer.check.validator import validate

SEATS = tuple(Seat)


def played_records(seed: int, count: int):
    """Generated records of every profile that have a full play."""
    rng = random.Random(seed)
    profiles = [Rules.parse(name) for name in PROFILES]
    made = []
    while len(made) < count:
        rules = profiles[len(made) % len(profiles)]
        record = generate_record(rng, rules, SEATS[len(made) % 4], redeal_void=True)
        if len(record.tricks) == 8:
            made.append(record)
    return made


def swap(record: Record, a: tuple[int, int], b: tuple[int, int]) -> Record:
    tricks = [list(t.plays) for t in record.tricks]
    first, second = tricks[a[0]][a[1]], tricks[b[0]][b[1]]
    tricks[a[0]][a[1]] = dataclasses.replace(first, card=second.card, declaration=second.declaration)
    tricks[b[0]][b[1]] = dataclasses.replace(second, card=first.card, declaration=first.declaration)
    return dataclasses.replace(record, tricks=tuple(Trick(tuple(p)) for p in tricks))


def trick_lines(record: Record) -> dict[str, str]:
    """The canonical trick lines of a record, by their "n. " prefix."""
    return {line.split(" ")[0]: line for line in str(record).splitlines() if line[:1].isdigit()}


def first_repairs(report):
    return next(f.repairs for f in report.findings if f.repairs)


def test_a_swap_of_two_cards_is_found_and_the_top_repair_restores_the_original():
    rng = random.Random(11)
    checked = 0
    for record in played_records(3, 24):
        assert validate(record).ok
        slots = [(t, p) for t in range(8) for p in range(4)]
        a, b = sorted(rng.sample(slots, 2))
        seat_a, seat_b = record.tricks[a[0]].plays[a[1]].seat, record.tricks[b[0]].plays[b[1]].seat
        if seat_a is seat_b:
            continue  # a seat's own cards swapped may well be legal
        report = validate(swap(record, a, b))
        assert not report.ok
        top = first_repairs(report)[0]
        assert top.findings_left == 0
        original = trick_lines(record)
        assert {text.split(" ")[0] for _, text in top.lines} == {f"{a[0] + 1}.", f"{b[0] + 1}."}
        for _, text in top.lines:
            assert text == original[text.split(" ")[0]]
        checked += 1
    assert checked >= 12


def test_repair_message_names_both_cards_and_their_tricks():
    record = played_records(4, 1)[0]
    # the first card of trick 1 and the first card of trick 8 belong to different seats?
    a, b = (0, 0), next((7, p) for p in range(4) if record.tricks[7].plays[p].seat
                        is not record.tricks[0].plays[0].seat)
    broken = swap(record, a, b)
    top = first_repairs(validate(broken))[0]
    card_a, card_b = record.tricks[0].plays[0].card, record.tricks[7].plays[b[1]].card
    seat_a, seat_b = record.tricks[0].plays[0].seat, record.tricks[7].plays[b[1]].seat
    assert top.description == (f"swap {card_b.pretty()} (trick 1, {seat_a.full_name}) and "
                               f"{card_a.pretty()} (trick 8, {seat_b.full_name})")
    assert top.size == 2


def test_a_mistyped_card_is_read_as_the_card_one_character_away():
    record = played_records(5, 1)[0]
    entry = record.tricks[2].plays[1]
    wrong_suit = next(Card.of(entry.card.rank, s) for s in type(entry.card.suit) if s is not entry.card.suit)
    tricks = list(record.tricks)
    plays = list(tricks[2].plays)
    plays[1] = dataclasses.replace(entry, card=wrong_suit)
    tricks[2] = Trick(tuple(plays))
    report = validate(dataclasses.replace(record, tricks=tuple(tricks)))
    repairs = first_repairs(report)
    assert f"read {wrong_suit.pretty()} as {entry.card.pretty()} (trick 3, {entry.seat.full_name})" in [
        r.description for r in repairs if r.findings_left == 0]
    best = [r for r in repairs if r.findings_left == 0 and r.size == 1]
    assert best and repairs[0].findings_left == 0 and repairs[0].size == 1


def test_a_card_dealt_to_the_wrong_seat_is_given_back_on_the_hand_lines():
    record = played_records(6, 1)[0]
    first = record.tricks[0].plays[0]
    other = next(e for e in record.tricks[0].plays if e.seat is not first.seat)
    hands = []
    for hand in record.hands:  # the first card led is written in the other seat's hand
        if hand.seat is first.seat:
            hand = dataclasses.replace(hand, cards=tuple(other.card if c is first.card else c for c in hand.cards))
        elif hand.seat is other.seat:
            hand = dataclasses.replace(hand, cards=tuple(first.card if c is other.card else c for c in hand.cards))
        hands.append(hand)
    report = validate(dataclasses.replace(record, hands=tuple(hands)))
    assert "card-not-held" in report.rule_ids
    repairs = first_repairs(report)
    fixes = {r.description: r for r in repairs}
    wanted = (f"deal {first.card.pretty()} to {first.seat.full_name} and {other.card.pretty()} to "
              f"{other.seat.full_name} (hand lines)")
    assert wanted in fixes and fixes[wanted].findings_left == 0
    lines = dict((text.split(" ")[1], text) for _, text in fixes[wanted].lines)
    original = {line.split(" ")[1]: line for line in str(record).splitlines() if line.startswith("hand ")}
    assert lines == {str(first.seat): original[str(first.seat)], str(other.seat): original[str(other.seat)]}


@pytest.mark.parametrize("repair", [True, False])
def test_clean_records_get_no_repairs_and_repair_can_be_turned_off(repair):
    record = played_records(7, 1)[0]
    broken = swap(record, (0, 0), (7, 3))
    report = validate(broken, repair=repair)
    assert any(f.repairs for f in report.findings) is (repair and not report.ok)
    assert not any(f.repairs for f in validate(record).findings)
