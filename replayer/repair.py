"""Repair suggestions: the smallest edits that make a faulty record consistent.

For one offending card (an illegal play, a card not held, a card played twice)
three kinds of edit are tried, each touching that card only, so the search stays
small (at most 31 + 8 + 10 candidates):

* two cards swapped: the offending card and any other card played (within its
  trick: size 1, across tricks: size 2), a belote mark travelling with its card;
* a card given to the wrong seat: the offending card, dealt to another seat,
  exchanged with one card of the hand of the seat that played it (size 2);
* a mistyped card: the offending card read with another rank or another suit,
  one character away (size 1).

Each candidate is validated again (without repairs, under the same rules); the
candidates that leave fewer errors than the record has are ranked by errors
left, then edit size, and shown as the record lines they rewrite, in canonical
form.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

from notation.values import Card, Rank, Seat, Suit
from notation.record import Record, Trick

from .engine.rules import Rules
from .findings import Finding, Repair, Severity

REPAIRABLE = frozenset({"card-not-held", "must-follow", "must-trump", "must-overtrump", "must-undertrump",
                        "trump-lead-must-go-over", "ta-must-beat", "duplicate-card", "shown-void"})
MAX_SUGGESTIONS = 3

Slot = tuple[int, int]  # (trick index, position in the trick), both 0-based


def suggest_repairs(record: Record, rules: Rules, finding: Finding, errors: int,
                    limit: int = MAX_SUGGESTIONS) -> tuple[Repair, ...]:
    """Ranked repairs for the card of ``finding`` in ``record`` (which has ``errors`` errors)."""
    from .validator import validate  # validate() calls this module: import at call time

    loc = finding.location
    if finding.rule not in REPAIRABLE or loc.trick is None or loc.card is None:
        return ()
    slot = (loc.trick - 1, loc.card - 1)
    if slot[0] >= len(record.tricks) or slot[1] >= len(record.tricks[slot[0]].plays):
        return ()
    scored = []
    for candidate, description, size, touched in _candidates(record, slot, finding):
        report = validate(candidate, rules, repair=False)
        left = sum(1 for f in report.findings if f.severity is Severity.ERROR)
        if left < errors:
            scored.append((left, size, description, candidate, touched))
    scored.sort(key=lambda item: (item[0], item[1]))
    return tuple(Repair(description, _lines(record, candidate, touched), left, size)
                 for left, size, description, candidate, touched in scored[:limit])


def _candidates(record: Record, slot: Slot, finding: Finding) -> Iterator[tuple[Record, str, int, tuple]]:
    tricks = record.tricks
    card = tricks[slot[0]].plays[slot[1]].card
    if card is None:
        return
    where = _where(record, slot)
    for t, trick in enumerate(tricks):
        for p, entry in enumerate(trick.plays):
            if (t, p) == slot or entry.card is None or entry.card is card:
                continue
            size = 1 if t == slot[0] else 2
            yield (_swap(record, slot, (t, p)), f"swap {card.pretty()} ({where}) and "
                   f"{entry.card.pretty()} ({_where(record, (t, p))})", size, ("trick", slot[0], t))
    seat = Seat.parse(finding.seat) if finding.seat else None
    yield from _hand_moves(record, card, seat)
    for other in _one_character_away(card):
        yield (_set_card(record, slot, other), f"read {card.pretty()} as {other.pretty()} ({where})", 1,
               ("trick", slot[0], slot[0]))


def _hand_moves(record: Record, card: Card, seat: Seat | None) -> Iterator[tuple[Record, str, int, tuple]]:
    """The card dealt to another seat, exchanged with each card of ``seat``'s hand."""
    if seat is None:
        return
    mine = record.hand(seat)
    holder = next((h.seat for h in record.hands if h.cards and card in h.cards and h.seat is not seat), None)
    if not mine or holder is None:
        return
    for other in mine:
        if other is None:
            continue
        edited = _exchange(record, seat, other, holder, card)
        yield (edited, f"deal {card.pretty()} to {seat.full_name} and {other.pretty()} to {holder.full_name} "
               f"(hand lines)", 2, ("hands", seat, holder))


def _one_character_away(card: Card) -> Iterator[Card]:
    for rank in Rank:
        if rank is not card.rank:
            yield Card.of(rank, card.suit)
    for suit in Suit:
        if suit is not card.suit:
            yield Card.of(card.rank, suit)


# --- edits --------------------------------------------------------------------

def _where(record: Record, slot: Slot) -> str:
    entry = record.tricks[slot[0]].plays[slot[1]]
    seat = f", {entry.seat.full_name}" if entry.seat else ""
    return f"trick {slot[0] + 1}{seat}"


def _replace_plays(record: Record, changes: dict[Slot, tuple]) -> Record:
    tricks = list(record.tricks)
    for (t, p), (card, declaration) in changes.items():
        plays = list(tricks[t].plays)
        plays[p] = dataclasses.replace(plays[p], card=card, declaration=declaration)
        tricks[t] = Trick(tuple(plays), tricks[t].comments, tricks[t].pos)
    return dataclasses.replace(record, tricks=tuple(tricks))


def _swap(record: Record, a: Slot, b: Slot) -> Record:
    first, second = record.tricks[a[0]].plays[a[1]], record.tricks[b[0]].plays[b[1]]
    return _replace_plays(record, {a: (second.card, second.declaration), b: (first.card, first.declaration)})


def _set_card(record: Record, slot: Slot, card: Card) -> Record:
    entry = record.tricks[slot[0]].plays[slot[1]]
    return _replace_plays(record, {slot: (card, entry.declaration)})


def _exchange(record: Record, seat: Seat, give: Card, holder: Seat, card: Card) -> Record:
    """``seat`` gets ``card`` in place of ``give``, which goes to ``holder`` in place of ``card``."""
    hands = []
    for hand in record.hands:
        if hand.seat is seat:
            hand = dataclasses.replace(hand, cards=tuple(card if c is give else c for c in hand.cards))
        elif hand.seat is holder:
            hand = dataclasses.replace(hand, cards=tuple(give if c is card else c for c in hand.cards))
        hands.append(hand)
    return dataclasses.replace(record, hands=tuple(hands))


# --- showing an edit ------------------------------------------------------------

def _lines(original: Record, edited: Record, touched: tuple) -> tuple[tuple[int | None, str], ...]:
    """The rewritten lines of the edited record, canonical, with the original line numbers."""
    text = str(edited).splitlines()
    if touched[0] == "trick":
        numbers = sorted({touched[1], touched[2]})
        return tuple((_line_of(original.tricks[t].pos), _find(text, f"{t + 1}. ")) for t in numbers)
    seats = touched[1:]
    positions = {hand.seat: hand.pos for hand in original.hands}
    return tuple((_line_of(positions.get(seat)), _find(text, f"hand {seat} ")) for seat in sorted(
        seats, key=lambda s: s.index))


def _line_of(pos) -> int | None:
    return pos.line if pos is not None else None


def _find(lines: list[str], prefix: str) -> str:
    return next((line for line in lines if line.startswith(prefix)), "")
