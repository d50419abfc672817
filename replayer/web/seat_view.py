"""What one seat knows at one step of a deal: the one-seat ("play as") view, for the API.

The replay page's one-seat view shows the same and nothing more (``templates/_table.html``
reads the same ``Step`` fields): the seat's own hand, the cards played so far, the calls
made so far and the contract standing, the turned card (and, once the taker holds it, that
it is in the taker's hand), the melds announced so far (their cards once shown, at the end
of trick 1), the other card of a belote once said, the suits each player has shown out of,
the findings about what has already happened. Nothing about later steps, no hand but the
seat's own. At the end of the deal every hand is shown, as at a real table.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from notation.values import SEATS, Seat
from replayer.check.findings import Finding

from .steps import END, HandView, Note, Step, Timeline


def seat_view(timeline: Timeline, seat: Seat, index: int) -> dict[str, Any]:
    """The JSON of the table at step ``index`` as ``seat`` sees it."""
    step = timeline.step(index)
    over = step.kind == END
    return {
        "seat": str(seat), "step": step.index, "last": timeline.last, "kind": step.kind, "label": step.label(),
        "rules": timeline.rules, "dealer": str(timeline.dealer) if timeline.dealer else None,
        "players": {str(s): name for s, name in zip(SEATS, timeline.players)},
        "bidding": timeline.bidding, "turned": str(timeline.turned) if timeline.turned else None,
        "calls": [call.as_dict() for call in timeline.calls_until(step.index)],
        "contract": str(step.contract) if step.contract else None,
        "contract_pretty": step.contract.pretty() if step.contract else None,
        "announcements": [_announcement(a.as_dict(), over or (step.index >= a.shown and a.valid))
                          for a in timeline.announced_by(step.index)],
        "hands": [_hand(hand, hand.seat is seat or over) for hand in step.hands],
        "trick": step.trick.as_dict() if step.trick else None,
        "tricks": [trick.as_dict() for trick in step.tricks],
        "points": list(step.points), "tricks_won": list(step.tricks_won),
        "turn": str(step.turn) if step.turn else None,
        "legal": [str(c) for c in step.legal] if step.turn is seat else [],
        "voids": {str(s): [str(suit) for suit in step.voids[s.index]] for s in SEATS},
        "notes": [note.as_dict() for note in visible_notes(step, seat)],
        "findings": [f.as_dict() for _, f in seat_findings(timeline, seat, step.index)],
        "score": timeline.score.as_dict() if over and timeline.score else None,
        "recorded": list(timeline.recorded) if over and timeline.recorded else None,
    }


def seat_findings(timeline: Timeline, seat: Seat, index: int) -> list[tuple[int, Finding]]:
    """(step, finding) pairs the seat may read at step ``index``: those about the calls and cards
    so far, the end's at the end. The deal's (step 0) wait for the end: they may list the hands
    (hands rebuilt, a card dealt twice). About another seat's card, only what was done: the
    message and the legal cards would tell what that hand holds."""
    over = timeline.step(index).kind == END
    found = []
    for step in timeline.steps[:index + 1]:
        if step.index == 0 and not over:
            continue
        for finding in step.findings:
            private = step.card is not None and step.card.seat is not seat and not over
            found.append((step.index, _redacted(finding, step) if private else finding))
    return found


def _redacted(finding: Finding, step: Step) -> Finding:
    assert step.card is not None
    played = step.card
    return dataclasses.replace(finding, alternatives=(), repairs=(),
                               message=f"trick {played.trick}: {played.seat.full_name} played {played.card.pretty()}, "
                                       f"against the rule {finding.rule}")


def visible_notes(step: Step, seat: Seat) -> tuple[Note, ...]:
    """The comments of a step the seat may read: about what has happened (a call, a card, an
    announcement, the claim), a trick once it is over, its own hand; not the record's comments
    nor the other hands' (a transcriber's remark may tell what is to come or what is held)."""
    def readable(note: Note) -> bool:
        if note.kind == "trick":
            return step.trick is not None and step.trick.complete
        if note.kind == "hand":
            return note.seat is seat
        return note.kind in ("call", "card", "announcement", "claim") or step.kind == END

    return tuple(note for note in step.notes if readable(note))


def _hand(hand: HandView, shown: bool) -> dict[str, Any]:
    """A hand as the seat sees it: all of it (its own, or every hand at the end), else the cards
    known to the table, how many others it holds, and what it has played."""
    if shown:
        return {"seat": str(hand.seat), "cards": [str(c) for c in hand.cards], "hidden": 0,
                "unknown": hand.unknown, "played": [str(c) for c in hand.played]}
    return {"seat": str(hand.seat), "cards": [str(c) for c in hand.public], "hidden": hand.size - len(hand.public),
            "unknown": 0, "played": [str(c) for c in hand.played]}


def _announcement(data: dict[str, Any], shown: bool) -> dict[str, Any]:
    """An announcement as the table knows it: its kind; its cards, whether it holds and why not
    once shown (a valid meld at the end of trick 1; an invalid one is never shown before the end)."""
    return data if shown else {**data, "cards": [], "valid": None, "findings": []}
