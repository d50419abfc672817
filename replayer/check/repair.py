"""Repair suggestions: the smallest edits that make a faulty record consistent.

For one offending card (an illegal play, a card not held, a card played twice) three
kinds of edit are tried, each touching that card only, so the search stays small (at
most 31 + 8 + 10 candidates):

* two cards swapped: the offending card and any other card played (within its trick:
  size 1, across tricks: size 2), a belote mark travelling with its card;
* a card given to the wrong seat: the offending card, dealt to another seat, exchanged
  with one card of the hand of the seat that played it (size 2);
* a mistyped card: the offending card read with another rank or another suit, one
  character away (size 1).

Each candidate is validated again by the function the validator hands over (without
repairs, under the same rules); the candidates that leave fewer errors than the record
has are ranked by errors left, then edit size, and shown as the record lines they
rewrite, in canonical form.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator

from notation import RecordData, write_data
from notation.lexer import UNKNOWN
from notation.values import ALL_CARDS, Seat

from ..engine.rules import Rules
from .findings import Finding, Repair, Severity
from .report import Report

REPAIRABLE = frozenset({"card-not-held", "must-follow", "must-trump", "must-overtrump", "must-undertrump",
                        "trump-lead-must-go-over", "ta-must-beat", "duplicate-card", "shown-void"})
MAX_SUGGESTIONS = 3

Validate = Callable[[RecordData, Rules, int, bool], Report]  # (data, rules, index, repair) -> report
Touched = tuple  # ("trick", trick, other trick) or ("hands", seat, other seat): the lines an edit rewrites


def suggest_repairs(data: RecordData, rules: Rules, finding: Finding, errors: int, validate: Validate,
                    limit: int = MAX_SUGGESTIONS) -> tuple[Repair, ...]:
    """Ranked repairs for the card of ``finding`` in ``data`` (which has ``errors`` errors)."""
    loc = finding.location
    if finding.rule not in REPAIRABLE or loc.trick is None or loc.card is None or loc.trick > len(data.tricks):
        return ()
    plays = data.trick_plays(loc.trick - 1)
    if loc.card > len(plays) or data.plays[plays[loc.card - 1]][0] == UNKNOWN:
        return ()
    number = plays[loc.card - 1]
    scored = []
    for candidate, description, size, touched in _candidates(data, number, finding):
        report = validate(candidate, rules, data.index, False)
        left = sum(1 for f in report.findings if f.severity is Severity.ERROR)
        if left < errors:
            scored.append((left, size, description, candidate, touched))
    scored.sort(key=lambda item: (item[0], item[1]))
    return tuple(Repair(description, _lines(data, candidate, touched), left, size)
                 for left, size, description, candidate, touched in scored[:limit])


def _trick_of(data: RecordData, number: int) -> int:
    """The trick (from 0) of play ``number``."""
    return next(t for t in range(len(data.tricks) - 1, -1, -1) if data.tricks[t][0] <= number)


def _candidates(data: RecordData, number: int, finding: Finding) -> Iterator[tuple[RecordData, str, int, Touched]]:
    card = data.plays[number][0]
    trick = _trick_of(data, number)
    where = _where(data, number)
    for other, (index, _, _, _) in enumerate(data.plays):
        if other == number or index == UNKNOWN or index == card:
            continue
        other_trick = _trick_of(data, other)
        yield (_swap(data, number, other), f"swap {_pretty(card)} ({where}) and {_pretty(index)} "
               f"({_where(data, other)})", 1 if other_trick == trick else 2, ("trick", trick, other_trick))
    if finding.seat:
        yield from _hand_moves(data, card, Seat.parse(finding.seat))
    for other_card in _one_character_away(card):
        yield (_set_card(data, number, other_card), f"read {_pretty(card)} as {_pretty(other_card)} ({where})", 1,
               ("trick", trick, trick))


def _hand_moves(data: RecordData, card: int, seat: Seat) -> Iterator[tuple[RecordData, str, int, Touched]]:
    """The card dealt to another seat, exchanged with each card of ``seat``'s hand."""
    mine = next((cards for hand_seat, cards, _, _ in data.hands if hand_seat is seat), None)
    holder = next((hand_seat for hand_seat, cards, _, _ in data.hands if cards and card in cards and hand_seat is not seat),
                  None)
    if not mine or holder is None:
        return
    for give in mine:
        if give == UNKNOWN:
            continue
        yield (_exchange(data, seat, give, holder, card), f"deal {_pretty(card)} to {seat.full_name} and "
               f"{_pretty(give)} to {holder.full_name} (hand lines)", 2, ("hands", seat, holder))


def _one_character_away(card: int) -> Iterator[int]:
    """The cards of another rank in the suit, then of the same rank in another suit."""
    suit, rank = card & ~7, card & 7
    yield from (suit | other for other in range(8) if other != rank)
    yield from (other * 8 | rank for other in range(4) if other * 8 != suit)


def _pretty(index: int) -> str:
    return ALL_CARDS[index].pretty()


def _where(data: RecordData, number: int) -> str:
    seat = data.plays[number][1]
    return f"trick {_trick_of(data, number) + 1}" + (f", {seat.full_name}" if seat else "")


# --- edits --------------------------------------------------------------------

def _with_cards(data: RecordData, changes: dict[int, tuple[int, str | None]]) -> RecordData:
    """``data`` with plays given other cards (and belote words): play number -> (card, word)."""
    plays = list(data.plays)
    words = dict(data.declarations)
    for number, (card, word) in changes.items():
        _, seat, note, place = plays[number]
        plays[number] = (card, seat, note, place)
        if word is None:
            words.pop(number, None)
        else:
            words[number] = word
    return dataclasses.replace(data, plays=plays, declarations=words)


def _swap(data: RecordData, a: int, b: int) -> RecordData:
    words = data.declarations
    return _with_cards(data, {a: (data.plays[b][0], words.get(b)), b: (data.plays[a][0], words.get(a))})


def _set_card(data: RecordData, number: int, card: int) -> RecordData:
    return _with_cards(data, {number: (card, data.declarations.get(number))})


def _exchange(data: RecordData, seat: Seat, give: int, holder: Seat, card: int) -> RecordData:
    """``seat`` gets ``card`` in place of ``give``, which goes to ``holder`` in place of ``card``."""
    hands = []
    for hand_seat, cards, place, comments in data.hands:
        if hand_seat is seat and cards is not None:
            cards = [card if c == give else c for c in cards]
        elif hand_seat is holder and cards is not None:
            cards = [give if c == card else c for c in cards]
        hands.append((hand_seat, cards, place, comments))
    return dataclasses.replace(data, hands=hands)


# --- showing an edit ------------------------------------------------------------

def _lines(original: RecordData, edited: RecordData, touched: Touched) -> tuple[tuple[int | None, str], ...]:
    """The rewritten lines of the edited record, canonical, with the original line numbers."""
    text = write_data(edited).splitlines()
    if touched[0] == "trick":
        numbers = sorted({touched[1], touched[2]})
        return tuple((_line(original.trick_position(t)), _find(text, f"{t + 1}. ")) for t in numbers)
    places = {seat: place for seat, _, place, _ in original.hands}
    return tuple((_line(original.position(places.get(seat, 0))), _find(text, f"hand {seat} "))
                 for seat in sorted(touched[1:], key=lambda s: s.index))


def _line(position: tuple[int, int] | None) -> int | None:
    return position[0] if position is not None else None


def _find(lines: list[str], prefix: str) -> str:
    return next((line for line in lines if line.startswith(prefix)), "")
