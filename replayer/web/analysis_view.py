"""A stored double-dummy analysis laid out on a replay's steps.

The archive keeps ``DealAnalysis.as_dict()`` (``check.analysis``); the replay reads it once
per request into an ``AnalysisView``: the position of each card played, by its number in the
play, so that a step finds the values of the cards its seat may play and the mark of the card
just played. Card number ``n`` is step ``offset + n`` of the timeline (the steps of the taking
or auction come first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.values import Card, Seat, Team

from .steps import CALL, CARD, DEAL, PlayedCard, Step, Timeline

MARK_GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
STOP_REASONS = {
    "illegal-play": "an illegal card was played",
    "hands-unknown": "not every hand is known",
    "time-limit": "its time limit was reached",
    "no-play": "no card was played",
}
TOTAL_KEYS = ("N", "E", "S", "W", "NS", "EW")


@dataclass(frozen=True, slots=True)
class AnalysedCard:
    """One position of the play analysed: the seat to play (card ``number``, from 1), the value of
    each of its legal cards, the best ones, and what the card it played cost."""

    number: int
    trick: int
    seat: Seat
    card: Card
    values: dict[Card, tuple[int, int]]  # the final card points (NS, EW) after that card and best play
    made: dict[Card, bool]
    best: frozenset[Card]
    cost: int
    mark: str | None  # "inaccuracy", "mistake", "blunder" or None
    fate_changed: bool

    def side_points(self, card: Card) -> int:
        """What the seat's own side ends with when ``card`` is played, then best play."""
        ns, ew = self.values[card]
        return ns if self.seat.team is Team.NS else ew

    @property
    def side_name(self) -> str:
        return "North–South" if self.seat.team is Team.NS else "East–West"

    @property
    def best_points(self) -> int:
        return max(self.side_points(card) for card in self.values)

    def badge_title(self, card: Card) -> str:
        """What a card's badge says in words (its ``title``)."""
        ns, ew = self.values[card]
        points = self.side_points(card)
        words = f"{card.pretty()}: {self.side_name} end with {points} card points ({ns}-{ew}) with best play after"
        if card in self.best:
            words += "; a best card"
        else:
            words += f"; {self.best_points - points} less than the best"
        if card in self.made:
            words += "; the contract is " + ("made" if self.made[card] else "lost")
        return words


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """A stored analysis as the replay shows it: the positions by card number, why it stopped,
    the claim, the totals per player and per side; ``offset``: the step before the first card."""

    cards: dict[int, AnalysedCard]
    complete: bool
    rules: str
    stopped: dict[str, Any] | None
    claim: dict[str, Any] | None
    totals: dict[str, dict[str, int]]
    offset: int = 0

    def to_play(self, step: Step) -> AnalysedCard | None:
        """The position the seat to play faces at ``step`` (the values of its legal cards)."""
        if step.kind not in (DEAL, CALL, CARD) or step.turn is None or step.index < self.offset:
            return None
        position = self.cards.get(step.index - self.offset + 1)
        return position if position is not None and position.seat is step.turn else None

    def mark_of(self, played: PlayedCard | None, index: int) -> AnalysedCard | None:
        """The analysed position in which ``played`` was played (``index``: its step), if analysed."""
        position = self.cards.get(index - self.offset)
        if position is None or played is None or position.card is not played.card:
            return None
        return position

    @property
    def stop_reason(self) -> str | None:
        if not self.stopped:
            return None
        reason = str(self.stopped.get("reason") or "")
        return STOP_REASONS.get(reason, reason or "it stopped")

    @property
    def span(self) -> tuple[int, int] | None:
        """The first and last cards analysed (numbers in the play), ``None`` when none was."""
        return (min(self.cards), max(self.cards)) if self.cards else None

    def stopped_at(self, step: Step) -> bool:
        """Whether the analysis stopped at or before the card ``step``'s seat is about to play."""
        number = int((self.stopped or {}).get("step") or 0)
        return number > 0 and step.kind in (DEAL, CALL, CARD) and step.turn is not None \
            and number <= step.index - self.offset + 1


def analysis_view(data: Any, timeline: Timeline) -> AnalysisView | None:
    """The analysis laid out on ``timeline``'s steps; ``None`` when it cannot be read (an archive
    edited by hand) or does not fit the deal (a position whose card is not the one the record
    plays there is left out)."""
    if not isinstance(data, dict):
        return None
    try:
        cards: dict[int, AnalysedCard] = {}
        for item in data.get("steps") or ():
            position = _analysed(item)
            index = timeline.play_start + position.number
            step = timeline.steps[index] if 0 < position.number and index <= timeline.last else None
            if step is None or step.kind != CARD or step.card is None or step.card.card is not position.card:
                continue
            cards[position.number] = position
        totals = {key: {name: int(value) for name, value in (data.get("totals") or {}).get(key, {}).items()}
                  for key in TOTAL_KEYS if key in (data.get("totals") or {})}
        stopped = data.get("stopped")
        claim = data.get("claim")
        return AnalysisView(cards, bool(data.get("complete")), str(data.get("rules") or ""),
                            stopped if isinstance(stopped, dict) else None, claim if isinstance(claim, dict) else None,
                            totals, timeline.play_start)
    except (KeyError, TypeError, ValueError, AttributeError):  # NotationError is a ValueError
        return None


def _analysed(item: dict[str, Any]) -> AnalysedCard:
    values = {Card.parse(card): (int(ns), int(ew)) for card, (ns, ew) in item["values"].items()}
    made = {Card.parse(card): bool(value) for card, value in (item.get("made") or {}).items()}
    mark = item.get("mark")
    return AnalysedCard(int(item["step"]), int(item.get("trick") or 0), Seat.parse(item["seat"]),
                        Card.parse(item["card"]), values, made,
                        frozenset(Card.parse(card) for card in item.get("best") or ()), int(item.get("cost") or 0),
                        mark if mark in MARK_GLYPHS else None, bool(item.get("fate_changed")))
