"""The state of a deal at every step, for replay viewers.

``build_timeline(record, report)`` replays a record (already validated into
``report``) through the engine and keeps a snapshot after every card: step 0 is
the deal before the first card (hands as dealt or rebuilt, the taking or
auction, the announcements), step k follows the k-th card, then a claim step
when the record claims and an end step with the score breakdown. The tricks,
their winners and the card points come from ``PlayState``; the findings of the
validator are attached to the step they are about. Plain values, no web and no
database: ``Timeline.as_dict()`` is JSON-ready.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from notation.values import SEATS, Call, Card, Seat, Team, canonical_hand_order
from notation.record import Announcement, Record

from replayer.engine.cardmasks import table
from replayer.engine.contract import Contract
from replayer.engine.play import PlayState
from replayer.engine.rules import Rules, RulesError
from replayer.engine.scoring import DealScore
from replayer.check.findings import Finding, Severity
from replayer.check.report import Replayed, Report
from replayer.check.validator import resolve_rules

DEAL, CARD, CLAIM, END = "deal", "card", "claim", "end"

# Findings with no card of their own that are about how the deal ended.
END_RULES = frozenset({"result-mismatch", "result-unreadable", "not-rescored", "incomplete-play",
                       "play-stopped", "hidden-cards", "too-many-cards", "short-trick"})
CLAIM_RULES = frozenset({"claim-inconsistent", "claim-unchecked"})
ANNOUNCEMENT_RULES = frozenset({"melds-not-played", "announcement-not-held", "announcement-wrong-kind",
                                "announcement-card-reused"})


# --- values -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HandView:
    """A seat's cards at a step: the known ones, in hand order, and how many are unknown."""

    seat: Seat
    cards: tuple[Card, ...]
    unknown: int = 0

    @property
    def size(self) -> int:
        return len(self.cards) + self.unknown

    def as_dict(self) -> dict[str, Any]:
        return {"seat": str(self.seat), "cards": [str(c) for c in self.cards], "unknown": self.unknown}


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of the play: who played it, in which trick and at which position (1-4)."""

    seat: Seat
    card: Card
    trick: int
    position: int
    declaration: str | None = None  # "belote" or "rebelote", said with this card
    annotation: str | None = None
    comments: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"seat": str(self.seat), "card": str(self.card), "trick": self.trick, "position": self.position,
                "declaration": self.declaration, "annotation": self.annotation, "comments": list(self.comments)}


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick, finished or in progress: ``winner`` is the seat winning it so far."""

    number: int
    leader: Seat
    plays: tuple[PlayedCard, ...]
    winner: Seat | None
    points: int
    complete: bool

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "leader": str(self.leader), "plays": [p.as_dict() for p in self.plays],
                "winner": str(self.winner) if self.winner else None, "points": self.points,
                "complete": self.complete}


@dataclass(frozen=True, slots=True)
class CallView:
    """One call of the taking or auction with the seat the replay credits it to."""

    number: int
    seat: Seat | None
    call: Call
    annotation: str | None
    findings: tuple[Finding, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "seat": str(self.seat) if self.seat else None, "call": str(self.call),
                "pretty": self.call.pretty(), "annotation": self.annotation,
                "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class AnnouncementView:
    announcement: Announcement
    findings: tuple[Finding, ...] = ()

    @property
    def valid(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        a = self.announcement
        return {"seat": str(a.seat), "kind": a.kind.value, "cards": [str(c) for c in a.cards],
                "valid": self.valid, "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class Step:
    """The table after step ``index``: ``card`` is the card just played (card steps)."""

    index: int
    kind: str  # DEAL, CARD, CLAIM or END
    card: PlayedCard | None
    hands: tuple[HandView, ...]  # N E S W: what each seat still holds
    trick: TrickView | None  # the trick on the table (just finished at its 4th card)
    tricks: tuple[TrickView, ...]  # finished tricks, in order
    points: tuple[int, int]  # card points (NS, EW) so far, without the last-trick bonus
    tricks_won: tuple[int, int]  # (NS, EW)
    turn: Seat | None  # who plays next
    findings: tuple[Finding, ...] = ()

    @property
    def illegal(self) -> bool:
        """The card of this step breaks a rule (an error finding is about it)."""
        return self.kind == CARD and any(f.severity is Severity.ERROR for f in self.findings)

    def hand(self, seat: Seat) -> HandView:
        return self.hands[seat.index]

    def label(self) -> str:
        if self.kind == DEAL:
            return "The deal, before the first card"
        if self.kind == CLAIM:
            return "Claim"
        if self.kind == END:
            return "End of the deal"
        assert self.card is not None
        c = self.card
        return f"Trick {c.trick}, card {c.position}: {c.seat.full_name} plays {c.card.pretty()}"

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "label": self.label(),
                "card": self.card.as_dict() if self.card else None,
                "hands": [h.as_dict() for h in self.hands],
                "trick": self.trick.as_dict() if self.trick else None,
                "tricks": [t.number for t in self.tricks], "winners": [str(t.winner) for t in self.tricks],
                "points": list(self.points), "tricks_won": list(self.tricks_won),
                "turn": str(self.turn) if self.turn else None, "illegal": self.illegal,
                "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class Timeline:
    """Every step of one record, with what does not change from step to step."""

    steps: tuple[Step, ...]
    rules: str
    dealer: Seat | None
    contract: Contract | None
    players: tuple[str | None, str | None, str | None, str | None]  # N E S W
    turned: Card | None
    calls: tuple[CallView, ...]
    bidding: str | None  # "taking", "auction" or None
    announcements: tuple[AnnouncementView, ...]
    claim: Seat | None
    score: DealScore | None
    recorded: tuple[int, int] | None
    findings: tuple[Finding, ...]
    trick_ends: tuple[int, ...]  # the step at which trick k (1-based: index k-1) is complete
    not_replayed: str | None = None  # why cards written after some point could not be replayed
    unchecked: tuple[str, ...] = ()

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def taker(self) -> Seat | None:
        return self.contract.taker if self.contract else None

    @property
    def result_matches(self) -> bool | None:
        if self.recorded is None or self.score is None:
            return None
        return self.recorded == self.score.scores

    def clamp(self, index: int) -> int:
        return max(0, min(index, self.last))

    def card_step(self, trick: int, position: int) -> int:
        """The step of the card at ``position`` (1-4) of trick ``trick`` (1-8): its number in the play."""
        before = self.trick_ends[trick - 2] if 1 < trick <= len(self.trick_ends) + 1 else 0
        return before + position

    @property
    def card_steps(self) -> tuple[Step, ...]:
        """The steps of the cards played, in order."""
        return tuple(step for step in self.steps if step.kind == CARD)

    def step(self, index: int) -> Step:
        return self.steps[self.clamp(index)]

    def finding_steps(self) -> tuple[int, ...]:
        """The steps that carry an error or a warning, in order."""
        return tuple(s.index for s in self.steps
                     if any(f.severity is not Severity.INFO for f in s.findings))

    def next_finding(self, index: int) -> int | None:
        """The first step after ``index`` with an error or warning (wrapping to the start)."""
        steps = self.finding_steps()
        return next((s for s in steps if s > index), steps[0] if steps and steps[0] != index else None)

    def next_trick(self, index: int) -> int:
        """Shift+Right: the end of the trick after the one shown, else the last step."""
        return next((end for end in self.trick_ends if end > index), self.last)

    def previous_trick(self, index: int) -> int:
        """Shift+Left: the end of the trick before, else the deal."""
        return next((end for end in reversed(self.trick_ends) if end < index), 0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "dealer": str(self.dealer) if self.dealer else None,
            "contract": str(self.contract) if self.contract else None,
            "contract_pretty": self.contract.pretty() if self.contract else None,
            "taker": str(self.taker) if self.taker else None,
            "trump": str(self.contract.trump) if self.contract and self.contract.trump else None,
            "players": {str(seat): name for seat, name in zip(SEATS, self.players)},
            "turned": str(self.turned) if self.turned else None, "bidding": self.bidding,
            "calls": [c.as_dict() for c in self.calls],
            "announcements": [a.as_dict() for a in self.announcements],
            "claim": str(self.claim) if self.claim else None,
            "score": self.score.as_dict() if self.score else None,
            "recorded": list(self.recorded) if self.recorded else None, "result_matches": self.result_matches,
            "trick_ends": list(self.trick_ends), "finding_steps": list(self.finding_steps()),
            "not_replayed": self.not_replayed, "unchecked": list(self.unchecked),
            "steps": [s.as_dict() for s in self.steps],
        }


# --- building -----------------------------------------------------------------

def build_timeline(record: Record, report: Report) -> Timeline:
    """The timeline of ``record`` as its ``report`` says the validator replayed it: the seats it
    credited each call and card to, the hands as dealt, the contract; nothing is validated again."""
    rules = report.rules or resolve_rules(record)[0]
    replayed = report.replay or Replayed()
    entries = [entry for trick in record.tricks for entry in trick.plays[:4]]
    numbered = [(number, position) for number, trick in enumerate(record.tricks, 1)
                for position in range(1, min(len(trick.plays), 4) + 1)]
    dealt = _dealt(record, replayed, rules)
    builder = _Builder(dealt, _first_leader(replayed.contract, report.dealer, rules))
    plays = replayed.plays
    builder.snapshot(DEAL, None)
    if replayed.contract is not None and plays and report.dealer is not None:
        known = {seat: cards for seat, (cards, unknown) in dealt.items() if not unknown}
        state = PlayState(known, replayed.contract, rules, dealer=report.dealer)
        for (seat, card), entry, (number, position) in zip(plays, entries, numbered):
            if state.turn is not seat:
                state.give_turn(seat)
            state.push_unchecked(card, entry.declaration)
            builder.play(state, PlayedCard(seat, card, number, position, entry.declaration, entry.annotation,
                                           entry.comments))
        if replayed.claimed_by is not None:
            state.claim(replayed.claimed_by)
            builder.state = state
            builder.snapshot(CLAIM, None)
    builder.snapshot(END, None)
    steps = _attach(builder.steps, report.findings, builder.card_steps, builder.trick_ends)
    return Timeline(
        steps=steps, rules=report.rules_text, dealer=report.dealer, contract=replayed.contract,
        players=tuple(record.player(seat) for seat in SEATS),  # type: ignore[arg-type]
        turned=record.turned, calls=_calls(record, replayed, report.findings), bidding=_bidding_kind(record),
        announcements=_announcements(record, report.findings), claim=replayed.claimed_by,
        score=report.score, recorded=report.recorded, findings=report.findings,
        trick_ends=tuple(builder.trick_ends), not_replayed=_not_replayed(len(plays), entries, numbered),
        unchecked=report.unchecked)


def _dealt(record: Record, replayed: Replayed, rules: Rules) -> dict[Seat, tuple[list[Card], int]]:
    """Per seat: the cards known as dealt and how many more are unknown."""
    size = 5 if replayed.void and not rules.is_coinche else 8
    dealt = {}
    for seat in SEATS:
        cards = replayed.hand(seat) or record.hand(seat)
        known = [card for card in cards or () if card is not None]
        dealt[seat] = (known, max(0, size - len(known)))
    return dealt


def _first_leader(contract: Contract | None, dealer: Seat | None, rules: Rules) -> Seat | None:
    if contract is None or dealer is None:
        return None
    return dealer if rules.first_leader == "dealer" else dealer.next(rules.clockwise)


class _Builder:
    """Keeps the hands and tricks while the cards are pushed, and snapshots them."""

    def __init__(self, dealt: dict[Seat, tuple[list[Card], int]], first_leader: Seat | None) -> None:
        self.first_leader = first_leader
        self.hands = {seat: list(cards) for seat, (cards, _) in dealt.items()}
        self.unknown = {seat: unknown for seat, (_, unknown) in dealt.items()}
        self.views = {seat: self._view(seat) for seat in SEATS}  # one hand changes a step: rebuild that one
        self.state: PlayState | None = None
        self.trick: list[PlayedCard] = []
        self.tricks: list[TrickView] = []
        self.steps: list[Step] = []
        self.card_steps: dict[tuple[int, int], int] = {}
        self.trick_ends: list[int] = []

    def play(self, state: PlayState, played: PlayedCard) -> None:
        self.state = state
        seat, card = played.seat, played.card
        if card in self.hands[seat]:
            self.hands[seat].remove(card)
        elif self.unknown[seat]:
            self.unknown[seat] -= 1  # one of the cards nobody wrote down
        self.views[seat] = self._view(seat)
        if played.position == 1:
            self.trick = []
        self.trick.append(played)
        trick = self._trick(state, played)
        if trick.complete:
            self.tricks.append(trick)
            self.trick_ends.append(len(self.steps))
        self.card_steps[(played.trick, played.position)] = len(self.steps)
        self.snapshot(CARD, played, trick)

    def _trick(self, state: PlayState, played: PlayedCard) -> TrickView:
        if state.current_trick:
            return self._open_trick(state)
        done = state.tricks[-1]
        return TrickView(played.trick, done.leader, tuple(self.trick), done.winner, done.points, True)

    def _open_trick(self, state: PlayState) -> TrickView:
        """The trick in progress, with the seat winning it so far."""
        plays = tuple(self.trick)
        winner, _ = state.current_winner  # type: ignore[misc]
        points = table(state.contract.denomination, state.rules.sa_ace, state.rules.ta_values).points
        return TrickView(plays[0].trick, plays[0].seat, plays, winner, sum(points[p.card.index] for p in plays),
                         False)

    def snapshot(self, kind: str, played: PlayedCard | None, trick: TrickView | None = None) -> None:
        state = self.state
        hands = tuple(self.views[seat] for seat in SEATS)
        if state is None:
            points, won, turn = (0, 0), (0, 0), self.first_leader
        else:
            points = state.card_points()
            counts = state.trick_counts()
            won, turn = (counts[0] + counts[2], counts[1] + counts[3]), state.turn
            if trick is None and kind == CLAIM and state.current_trick:
                trick = self._open_trick(state)
        if kind == END:
            turn = None
        self.steps.append(Step(len(self.steps), kind, played, hands, trick, tuple(self.tricks), points, won, turn))

    def _view(self, seat: Seat) -> HandView:
        return HandView(seat, canonical_hand_order(self.hands[seat]), self.unknown[seat])  # type: ignore[arg-type]



def _attach(steps: list[Step], findings: tuple[Finding, ...], card_steps: dict[tuple[int, int], int],
            trick_ends: list[int]) -> tuple[Step, ...]:
    """Give every finding the step it is about (see ``_step_of``)."""
    claim = next((s.index for s in steps if s.kind == CLAIM), None)
    by_step: dict[int, list[Finding]] = {}
    for finding in findings:
        by_step.setdefault(_step_of(finding, card_steps, trick_ends, claim, len(steps) - 1), []).append(finding)
    return tuple(_with_findings(step, tuple(by_step.get(step.index, ()))) for step in steps)


def _step_of(finding: Finding, card_steps: dict[tuple[int, int], int], trick_ends: list[int],
             claim: int | None, end: int) -> int:
    loc = finding.location
    if loc.trick is not None and loc.card is not None and (loc.trick, loc.card) in card_steps:
        return card_steps[(loc.trick, loc.card)]
    if finding.rule in CLAIM_RULES:
        return claim if claim is not None else end
    if finding.rule in END_RULES:
        return end
    if loc.trick is not None:  # a trick as a whole: the step that completes it, if it was replayed
        return trick_ends[loc.trick - 1] if loc.trick <= len(trick_ends) else end
    return 0  # the tags, the deal, the taking or auction, the announcements


def _with_findings(step: Step, findings: tuple[Finding, ...]) -> Step:
    return dataclasses.replace(step, findings=findings) if findings else step


def _bidding_kind(record: Record) -> str | None:
    if record.auction is not None:
        return "auction"
    return "taking" if record.taking is not None else None


def _calls(record: Record, replayed: Replayed, findings: tuple[Finding, ...]) -> tuple[CallView, ...]:
    entries = record.auction if record.auction is not None else record.taking or ()
    seats = replayed.call_seats
    about = {}
    for finding in findings:
        loc = finding.location
        if loc.trick is None and loc.card is not None and finding.rule not in ANNOUNCEMENT_RULES:
            about.setdefault(loc.card, []).append(finding)
    return tuple(CallView(number, seats[number - 1] if number <= len(seats) else entry.seat, entry.call,
                          entry.annotation, tuple(about.get(number, ())))
                 for number, entry in enumerate(entries, 1))


def _announcements(record: Record, findings: tuple[Finding, ...]) -> tuple[AnnouncementView, ...]:
    views = []
    for announcement in record.announcements:
        line = announcement.pos.line if announcement.pos is not None else None
        mine = tuple(f for f in findings if f.rule in ANNOUNCEMENT_RULES and line is not None
                     and f.location.line == line and f.seat == str(announcement.seat))
        views.append(AnnouncementView(announcement, mine))
    return tuple(views)


def _not_replayed(played: int, entries: list, numbered: list[tuple[int, int]]) -> str | None:
    if played >= len(entries):
        return None
    number, position = numbered[played]
    left = len(entries) - played
    return f"{left} card(s) from trick {number}, card {position} on could not be replayed"


# --- a stored double-dummy analysis, laid out on the steps --------------------

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
    """A stored analysis (``DealAnalysis.as_dict()``) as the replay shows it: the positions by
    card number, why it stopped, the claim, the totals per player and per side."""

    cards: dict[int, AnalysedCard]
    complete: bool
    rules: str
    stopped: dict[str, Any] | None
    claim: dict[str, Any] | None
    totals: dict[str, dict[str, int]]

    def to_play(self, step: Step) -> AnalysedCard | None:
        """The position the seat to play faces at ``step`` (the values of its legal cards)."""
        if step.kind not in (DEAL, CARD) or step.turn is None:
            return None
        position = self.cards.get(step.index + 1)
        return position if position is not None and position.seat is step.turn else None

    def mark_of(self, played: PlayedCard | None, number: int) -> AnalysedCard | None:
        """The analysed position in which ``played`` was played (``number``: its step), if analysed."""
        position = self.cards.get(number)
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
            step = timeline.steps[position.number] if 0 < position.number <= timeline.last else None
            if step is None or step.card is None or step.card.card is not position.card:
                continue
            cards[position.number] = position
        totals = {key: {name: int(value) for name, value in (data.get("totals") or {}).get(key, {}).items()}
                  for key in TOTAL_KEYS if key in (data.get("totals") or {})}
        stopped = data.get("stopped")
        claim = data.get("claim")
        return AnalysisView(cards, bool(data.get("complete")), str(data.get("rules") or ""),
                            stopped if isinstance(stopped, dict) else None, claim if isinstance(claim, dict) else None,
                            totals)
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
