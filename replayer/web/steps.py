"""The state of a deal at every step, for replay viewers: plain values (``step_builder``
builds them from a record and its report).

A ``Timeline`` holds a snapshot of every step: step 0 is the deal before anything
is said (the hands as dealt or rebuilt), then one step per call of the taking or auction
(with the contract standing after it), one step per card, a claim step when the record
claims and an end step with the score breakdown. Card ``n`` of the play is step
``play_start + n``. The tricks, their winners and the card points come from ``PlayState``;
the findings of the validator and the record's comments are attached to the step they are
about. Each step also says what the whole table knows (the suits each player has shown out
of, the cards of a hand known to all), which the one-seat view shows and nothing more.
Plain values, no web and no database: ``Timeline.as_dict()`` is JSON-ready.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.values import SEATS, Call, Card, Seat, Suit
from notation.record import Announcement

from replayer.engine.contract import Contract
from replayer.engine.scoring import DealScore
from replayer.check.findings import Finding, Severity

DEAL, CALL, CARD, CLAIM, END = "deal", "call", "card", "claim", "end"


# --- values -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HandView:
    """A seat's cards at a step: ``cards`` still held (the known ones, in hand order) and how
    many more are unknown; ``dealt``: the known cards as dealt; ``played``: the cards it has
    played, in play order; ``public``: the cards it still holds that the whole table knows
    (the turned card it took, its melds once shown, the other card of a belote)."""

    seat: Seat
    cards: tuple[Card, ...]
    unknown: int = 0
    dealt: tuple[Card, ...] = ()
    played: tuple[Card, ...] = ()
    public: tuple[Card, ...] = ()

    @property
    def size(self) -> int:
        return len(self.cards) + self.unknown

    def as_dict(self) -> dict[str, Any]:
        return {"seat": str(self.seat), "cards": [str(c) for c in self.cards], "unknown": self.unknown,
                "played": [str(c) for c in self.played], "public": [str(c) for c in self.public]}


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
    comments: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "seat": str(self.seat) if self.seat else None, "call": str(self.call),
                "pretty": self.call.pretty(), "annotation": self.annotation, "comments": list(self.comments),
                "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class AnnouncementView:
    """A meld announced, with the step at which its seat announces it (its first card) and the
    step from which its cards are shown (the end of trick 1)."""

    announcement: Announcement
    findings: tuple[Finding, ...] = ()
    step: int = 0
    shown: int = 0

    @property
    def valid(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        a = self.announcement
        return {"seat": str(a.seat), "kind": a.kind.value, "cards": [str(c) for c in a.cards],
                "valid": self.valid, "step": self.step, "shown": self.shown,
                "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class Note:
    """A comment of the record, shown at its step: ``about`` says what it comments on."""

    about: str
    text: str
    kind: str = "card"  # what it is about: record, hand, turned, call, announcement, trick, card, claim
    seat: Seat | None = None  # the seat whose hand, call, card or announcement it is about

    def as_dict(self) -> dict[str, Any]:
        return {"about": self.about, "text": self.text, "kind": self.kind,
                "seat": str(self.seat) if self.seat else None}


@dataclass(frozen=True, slots=True)
class Step:
    """The table after step ``index``: ``call`` is the call just made (call steps), ``card`` the
    card just played (card steps); ``contract`` the contract standing then."""

    index: int
    kind: str  # DEAL, CALL, CARD, CLAIM or END
    card: PlayedCard | None
    hands: tuple[HandView, ...]  # N E S W
    trick: TrickView | None  # the trick on the table (just finished at its 4th card)
    tricks: tuple[TrickView, ...]  # finished tricks, in order
    points: tuple[int, int]  # card points (NS, EW) so far, without the last-trick bonus
    tricks_won: tuple[int, int]  # (NS, EW)
    turn: Seat | None  # who calls or plays next
    findings: tuple[Finding, ...] = ()
    call: CallView | None = None
    contract: Contract | None = None
    notes: tuple[Note, ...] = ()
    voids: tuple[tuple[Suit, ...], ...] = ((), (), (), ())  # N E S W: the suits it has shown out of
    legal: tuple[Card, ...] = ()  # the cards the seat to play may play, when its hand is known
    first: str = "card"  # at the deal: what comes first, "call" or "card"

    @property
    def illegal(self) -> bool:
        """The card or call of this step breaks a rule (an error finding is about it)."""
        return self.kind in (CARD, CALL) and any(f.severity is Severity.ERROR for f in self.findings)

    def hand(self, seat: Seat) -> HandView:
        return self.hands[seat.index]

    def label(self) -> str:
        if self.kind == DEAL:
            return f"The deal, before the first {self.first}"
        if self.kind == CALL:
            assert self.call is not None
            who = self.call.seat.full_name if self.call.seat else "?"
            return f"Call {self.call.number}: {who} says {self.call.call.pretty()}"
        if self.kind == CLAIM:
            return "Claim"
        if self.kind == END:
            return "End of the deal"
        assert self.card is not None
        c = self.card
        return f"Trick {c.trick}, card {c.position}: {c.seat.full_name} plays {c.card.pretty()}"

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "label": self.label(),
                "call": self.call.as_dict() if self.call else None,
                "card": self.card.as_dict() if self.card else None,
                "contract": str(self.contract) if self.contract else None,
                "hands": [h.as_dict() for h in self.hands],
                "trick": self.trick.as_dict() if self.trick else None,
                "tricks": [t.number for t in self.tricks], "winners": [str(t.winner) for t in self.tricks],
                "points": list(self.points), "tricks_won": list(self.tricks_won),
                "turn": str(self.turn) if self.turn else None, "illegal": self.illegal,
                "legal": [str(c) for c in self.legal],
                "voids": {str(seat): [str(s) for s in self.voids[seat.index]] for seat in SEATS},
                "notes": [n.as_dict() for n in self.notes],
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
    play_start: int = 0  # the step before the first card: card n is step play_start + n
    comments: tuple[str, ...] = ()  # the record's own comments (after its tags)
    clockwise: bool = False  # the direction of play and speech

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def taker(self) -> Seat | None:
        return self.contract.taker if self.contract else None

    @property
    def dealt(self) -> tuple[HandView, ...]:
        """The hands as dealt (N E S W)."""
        return self.steps[0].hands

    @property
    def result_matches(self) -> bool | None:
        if self.recorded is None or self.score is None:
            return None
        return self.recorded == self.score.scores

    def clamp(self, index: int) -> int:
        return max(0, min(index, self.last))

    def card_step(self, trick: int, position: int) -> int:
        """The step of the card at ``position`` (1-4) of trick ``trick`` (1-8)."""
        before = self.trick_ends[trick - 2] if 1 < trick <= len(self.trick_ends) + 1 else self.play_start
        return before + position

    @property
    def card_steps(self) -> tuple[Step, ...]:
        """The steps of the cards played, in order."""
        return tuple(step for step in self.steps if step.kind == CARD)

    @property
    def call_steps(self) -> tuple[Step, ...]:
        return tuple(step for step in self.steps if step.kind == CALL)

    def step(self, index: int) -> Step:
        return self.steps[self.clamp(index)]

    @property
    def speaking_order(self) -> tuple[Seat, ...]:
        """The four seats from the first to speak, in the direction of speech (none without calls)."""
        first = self.calls[0].seat if self.calls else None
        if first is None:
            return ()
        order = [first]
        for _ in range(3):
            order.append(order[-1].next(self.clockwise))
        return tuple(order)

    def calls_until(self, index: int) -> tuple[CallView, ...]:
        """The calls made by step ``index``."""
        return self.calls[:max(0, min(index, len(self.calls)))]

    def announced_by(self, index: int) -> tuple[AnnouncementView, ...]:
        """The announcements made by step ``index`` (each seat announces with its first card)."""
        return tuple(a for a in self.announcements if a.step <= index)

    def finding_steps(self) -> tuple[int, ...]:
        """The steps that carry an error or a warning, in order."""
        return tuple(s.index for s in self.steps
                     if any(f.severity is not Severity.INFO for f in s.findings))

    def next_finding(self, index: int) -> int | None:
        """The first step after ``index`` with an error or warning (wrapping to the start)."""
        steps = self.finding_steps()
        return next((s for s in steps if s > index), steps[0] if steps and steps[0] != index else None)

    def next_trick(self, index: int) -> int:
        """Shift+Right: the end of the trick after the one shown (the end of the taking or
        auction from the deal), else the last step."""
        if index < self.play_start:
            return self.play_start
        return next((end for end in self.trick_ends if end > index), self.last)

    def previous_trick(self, index: int) -> int:
        """Shift+Left: the end of the trick before (the end of the taking or auction), else the deal."""
        if index > self.play_start and not any(end < index for end in self.trick_ends):
            return self.play_start
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
            "comments": list(self.comments),
            "calls": [c.as_dict() for c in self.calls],
            "announcements": [a.as_dict() for a in self.announcements],
            "claim": str(self.claim) if self.claim else None,
            "score": self.score.as_dict() if self.score else None,
            "recorded": list(self.recorded) if self.recorded else None, "result_matches": self.result_matches,
            "play_start": self.play_start, "trick_ends": list(self.trick_ends),
            "finding_steps": list(self.finding_steps()),
            "not_replayed": self.not_replayed, "unchecked": list(self.unchecked),
            "steps": [s.as_dict() for s in self.steps],
        }
