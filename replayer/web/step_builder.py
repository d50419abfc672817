"""Building a deal's steps (``Timeline``, in ``steps``) from a record and its report.

``build_timeline(record, report)`` replays the record as the validator credited it (the seat
of each call and card, the hands as dealt, the contract): the calls on the engine's taking or
auction for the contract standing after each, the cards on ``PlayState`` for the tricks, their
winners and the card points; on the way it keeps what the whole table knows (the suits each
player has shown out of, the cards of a hand known to all) and lays the record's comments and
the validator's findings on the steps they are about. Nothing is validated again.
"""

from __future__ import annotations

import dataclasses

from notation.values import SEATS, SUITS, Card, Rank, Seat, Suit, canonical_hand_order
from notation.record import Record

from replayer.engine.bidding import AuctionState, BiddingState, TakingState
from replayer.engine.cardmasks import table
from replayer.engine.contract import Contract
from replayer.engine.play import PlayState
from replayer.engine.rules import Rules
from replayer.check.findings import Finding
from replayer.check.report import Replayed, Report
from replayer.check.validator import resolve_rules

from .steps import (CALL, CARD, CLAIM, DEAL, END, AnnouncementView, CallView, HandView, Note, PlayedCard, Step,
                    Timeline, TrickView)

# Findings with no card of their own that are about how the deal ended.
END_RULES = frozenset({"result-mismatch", "result-unreadable", "not-rescored", "incomplete-play",
                       "play-stopped", "hidden-cards", "too-many-cards", "short-trick"})
CLAIM_RULES = frozenset({"claim-inconsistent", "claim-unchecked"})
ANNOUNCEMENT_RULES = frozenset({"melds-not-played", "announcement-not-held", "announcement-wrong-kind",
                                "announcement-card-reused"})
BELOTE_PAIR = {Rank.KING: Rank.QUEEN, Rank.QUEEN: Rank.KING}


def build_timeline(record: Record, report: Report) -> Timeline:
    """The timeline of ``record`` as its ``report`` says the validator replayed it: the seats it
    credited each call and card to, the hands as dealt, the contract; nothing is validated again."""
    rules = report.rules or resolve_rules(record)[0]
    replayed = report.replay or Replayed()
    entries = [entry for trick in record.tricks for entry in trick.plays[:4]]
    numbered = [(number, position) for number, trick in enumerate(record.tricks, 1)
                for position in range(1, min(len(trick.plays), 4) + 1)]
    calls = _calls(record, replayed, report.findings)
    dealt = _dealt(record, replayed, rules)
    builder = _Builder(dealt, _first_leader(replayed.contract, report.dealer, rules))
    builder.snapshot(DEAL, None, notes=_deal_notes(record), turn=calls[0].seat if calls else builder.first_leader,
                     first="call" if calls else "card", leading=not calls)
    for view, contract in zip(calls, _standing(record, calls, rules, report.dealer)):
        builder.call(view, contract, calls[view.number].seat if view.number < len(calls) else None,
                     record.turned if record.taking is not None else None, last=view.number == len(calls))
    play_start = len(calls)
    plays = replayed.plays
    announcements = _announcements(record, report.findings, plays, play_start)
    builder.melds = {seat: [c for a in announcements if a.valid and a.announcement.seat is seat
                            for c in a.announcement.cards] for seat in SEATS}
    if replayed.contract is not None and plays and report.dealer is not None:
        known = {seat: cards for seat, (cards, unknown) in dealt.items() if not unknown}
        state = PlayState(known, replayed.contract, rules, dealer=report.dealer)
        for (seat, card), entry, (number, position) in zip(plays, entries, numbered):
            if state.turn is not seat:
                state.give_turn(seat)
            state.push_unchecked(card, entry.declaration)
            index = len(builder.steps)
            notes = _card_notes(seat, card, entry.comments, record.tricks[number - 1].comments, number,
                                [a for a in announcements if a.step == index])
            builder.play(state, PlayedCard(seat, card, number, position, entry.declaration, entry.annotation,
                                           entry.comments), notes)
        if replayed.claimed_by is not None:
            state.claim(replayed.claimed_by)
            builder.state = state
            notes = tuple(Note("The claim", text, "claim", record.claim.seat)
                          for text in record.claim.comments) if record.claim else ()
            builder.snapshot(CLAIM, None, notes=notes)
    _announced_without_a_card(builder.steps, announcements, play_start)
    builder.snapshot(END, None)
    steps = _attach(builder.steps, report.findings, builder.card_steps, builder.trick_ends)
    return Timeline(
        steps=steps, rules=report.rules_text, dealer=report.dealer, contract=replayed.contract,
        players=tuple(record.player(seat) for seat in SEATS),  # type: ignore[arg-type]
        turned=record.turned, calls=calls, bidding=_bidding_kind(record),
        announcements=announcements, claim=replayed.claimed_by,
        score=report.score, recorded=report.recorded, findings=report.findings,
        trick_ends=tuple(builder.trick_ends), not_replayed=_not_replayed(len(plays), entries, numbered),
        unchecked=report.unchecked, play_start=play_start, comments=record.comments, clockwise=rules.clockwise)


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


def _standing(record: Record, calls: tuple[CallView, ...], rules: Rules, dealer: Seat | None) -> list[Contract | None]:
    """The contract standing after each call, the calls replayed on the engine's taking or
    auction as the validator credited them; ``None`` throughout when they cannot be replayed
    (the validator says why: no turned card, an auction under taking rules...)."""
    nothing: list[Contract | None] = [None] * len(calls)
    if not calls or dealer is None or (record.auction is not None) != rules.is_coinche:
        return nothing
    state: BiddingState
    if rules.is_coinche:
        state = AuctionState(rules, dealer)
    elif record.turned is not None:
        state = TakingState(rules, dealer, record.turned)
    else:
        return nothing
    standing = []
    for view in calls:
        state.push_unchecked(view.call, view.seat)
        standing.append(state.contract)
    return standing


class _Builder:
    """Keeps the hands, tricks and what the table knows while the calls and cards are pushed,
    and snapshots them."""

    def __init__(self, dealt: dict[Seat, tuple[list[Card], int]], first_leader: Seat | None) -> None:
        self.first_leader = first_leader
        self.dealt = {seat: canonical_hand_order(cards) for seat, (cards, _) in dealt.items()}
        self.hands = {seat: list(cards) for seat, (cards, _) in dealt.items()}
        self.unknown = {seat: unknown for seat, (_, unknown) in dealt.items()}
        self.played: dict[Seat, list[Card]] = {seat: [] for seat in SEATS}
        self.public: dict[Seat, set[Card]] = {seat: set() for seat in SEATS}
        self.voids: dict[Seat, set[Suit]] = {seat: set() for seat in SEATS}
        self.melds: dict[Seat, list[Card]] = {}  # valid announcements: shown once trick 1 is over
        self.views = {seat: self._view(seat) for seat in SEATS}  # one hand changes a step: rebuild that one
        self.contract: Contract | None = None
        self.state: PlayState | None = None
        self.trick: list[PlayedCard] = []
        self.tricks: list[TrickView] = []
        self.steps: list[Step] = []
        self.card_steps: dict[tuple[int, int], int] = {}
        self.trick_ends: list[int] = []

    def call(self, view: CallView, contract: Contract | None, next_seat: Seat | None, turned: Card | None,
             last: bool) -> None:
        """A call made; after the last one a classic taker holds the turned card, in everyone's sight."""
        self.contract = contract
        if last and contract is not None and turned is not None:
            self.public[contract.taker].add(turned)
            self.views[contract.taker] = self._view(contract.taker)
        notes = tuple(Note(f"{view.seat.full_name if view.seat else '?'}: {view.call.pretty()}", text, "call",
                           view.seat) for text in view.comments)
        turn = next_seat if not last else self.first_leader
        self.snapshot(CALL, None, notes=notes, call=view, turn=turn, leading=last)

    def play(self, state: PlayState, played: PlayedCard, notes: tuple[Note, ...]) -> None:
        self.state = state
        self.contract = state.contract
        seat, card = played.seat, played.card
        if card in self.hands[seat]:
            self.hands[seat].remove(card)
        elif self.unknown[seat]:
            self.unknown[seat] -= 1  # one of the cards nobody wrote down
        self.played[seat].append(card)
        if played.position == 1:
            self.trick = []
        elif card.suit is not self.trick[0].card.suit and not (state.rules.follow_or_trump
                                                               and card.suit is state.contract.trump):
            self.voids[seat].add(self.trick[0].card.suit)  # (a trump may stand for the suit led: no sign)
        if played.declaration == "belote" and card.rank in BELOTE_PAIR:
            self.public[seat].add(Card.of(BELOTE_PAIR[card.rank], card.suit))  # the other card is now known
        self.trick.append(played)
        trick = self._trick(state, played)
        if trick.complete:
            self.tricks.append(trick)
            self.trick_ends.append(len(self.steps))
            if played.trick == 1:  # the melds announced are shown at the second trick
                for meld_seat, cards in self.melds.items():
                    self.public[meld_seat].update(cards)
                    self.views[meld_seat] = self._view(meld_seat)
        self.views[seat] = self._view(seat)
        self.card_steps[(played.trick, played.position)] = len(self.steps)
        self.snapshot(CARD, played, trick, notes=notes)

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

    def snapshot(self, kind: str, played: PlayedCard | None, trick: TrickView | None = None, *,
                 notes: tuple[Note, ...] = (), call: CallView | None = None, turn: Seat | None = None,
                 first: str = "card", leading: bool = False) -> None:
        """The table now. ``turn``: the seat to speak or lead before the play (the play's own
        turn after); ``leading``: the play is about to start, so that seat may lead any card."""
        state = self.state
        hands = tuple(self.views[seat] for seat in SEATS)
        legal: tuple[Card, ...] = ()
        if state is None:
            points, won = (0, 0), (0, 0)
            if leading and turn is not None and not self.unknown[turn]:
                legal = self.views[turn].cards
        else:
            points = state.card_points()
            counts = state.trick_counts()
            won, turn = (counts[0] + counts[2], counts[1] + counts[3]), state.turn
            if trick is None and kind == CLAIM and state.current_trick:
                trick = self._open_trick(state)
            if kind == CARD and turn is not None and not self.unknown[turn]:
                allowed = state.legal_cards()
                legal = tuple(c for c in self.views[turn].cards if c in allowed)
        if kind in (CLAIM, END):
            turn = None
        voids = tuple(tuple(s for s in SUITS if s in self.voids[seat]) for seat in SEATS)
        self.steps.append(Step(len(self.steps), kind, played, hands, trick, tuple(self.tricks), points, won, turn,
                               call=call, contract=self.contract, notes=notes, voids=voids, legal=legal,
                               first=first))

    def _view(self, seat: Seat) -> HandView:
        held = canonical_hand_order(self.hands[seat])
        public = self.public[seat]
        return HandView(seat, held, self.unknown[seat], self.dealt[seat],  # type: ignore[arg-type]
                        tuple(self.played[seat]), tuple(c for c in held if c in public))  # type: ignore[misc]


def _deal_notes(record: Record) -> tuple[Note, ...]:
    """The comments shown at the deal: the record's, each hand's, the turned card's."""
    notes = [Note("The record", text, "record") for text in record.comments]
    notes += [Note(f"{hand.seat.full_name}'s hand", text, "hand", hand.seat)
              for hand in record.hands for text in hand.comments]
    notes += [Note("The turned card", text, "turned") for text in record.turned_comments]
    return tuple(notes)


def _card_notes(seat: Seat, card: Card, comments: tuple[str, ...], trick_comments: tuple[str, ...], number: int,
                announced: list[AnnouncementView]) -> tuple[Note, ...]:
    """The comments shown at a card: the trick's (at each of its cards), the announcements its
    seat makes with it, its own."""
    notes = [Note(f"Trick {number}", text, "trick") for text in trick_comments]
    notes += _announcement_notes(announced)
    notes += [Note(f"{seat.full_name}: {card.pretty()}", text, "card", seat) for text in comments]
    return tuple(notes)


def _announcement_notes(announced: list[AnnouncementView]) -> list[Note]:
    return [Note(f"{a.announcement.seat.full_name} announces a {a.announcement.kind.value}", text,
                 "announcement", a.announcement.seat) for a in announced for text in a.announcement.comments]


def _announced_without_a_card(steps: list[Step], announcements: tuple[AnnouncementView, ...], play_start: int) -> None:
    """The comments of an announcement whose seat plays no card go to the step before the play."""
    notes = tuple(_announcement_notes([a for a in announcements if a.step == play_start]))
    if notes and play_start < len(steps):
        steps[play_start] = dataclasses.replace(steps[play_start], notes=steps[play_start].notes + notes)


def _attach(steps: list[Step], findings: tuple[Finding, ...], card_steps: dict[tuple[int, int], int],
            trick_ends: list[int]) -> tuple[Step, ...]:
    """Give every finding the step it is about (see ``_step_of``)."""
    claim = next((s.index for s in steps if s.kind == CLAIM), None)
    calls = sum(1 for s in steps if s.kind == CALL)
    by_step: dict[int, list[Finding]] = {}
    for finding in findings:
        by_step.setdefault(_step_of(finding, card_steps, trick_ends, claim, len(steps) - 1, calls), []).append(finding)
    return tuple(_with_findings(step, tuple(by_step.get(step.index, ()))) for step in steps)


def _step_of(finding: Finding, card_steps: dict[tuple[int, int], int], trick_ends: list[int],
             claim: int | None, end: int, calls: int) -> int:
    loc = finding.location
    if loc.trick is not None and loc.card is not None and (loc.trick, loc.card) in card_steps:
        return card_steps[(loc.trick, loc.card)]
    if finding.rule in CLAIM_RULES:
        return claim if claim is not None else end
    if finding.rule in END_RULES:
        return end
    if loc.trick is not None:  # a trick as a whole: the step that completes it, if it was replayed
        return trick_ends[loc.trick - 1] if loc.trick <= len(trick_ends) else end
    if loc.card is not None and finding.rule not in ANNOUNCEMENT_RULES and 0 < loc.card <= calls:
        return loc.card  # a call: call k is step k
    return 0  # the tags, the deal, the announcements


def _with_findings(step: Step, findings: tuple[Finding, ...]) -> Step:
    return dataclasses.replace(step, findings=findings) if findings else step


def _bidding_kind(record: Record) -> str | None:
    if record.auction is not None:
        return "auction"
    return "taking" if record.taking is not None else None


def _calls(record: Record, replayed: Replayed, findings: tuple[Finding, ...]) -> tuple[CallView, ...]:
    entries = record.auction if record.auction is not None else record.taking or ()
    seats = replayed.call_seats
    about: dict[int, list[Finding]] = {}
    for finding in findings:
        loc = finding.location
        if loc.trick is None and loc.card is not None and finding.rule not in ANNOUNCEMENT_RULES:
            about.setdefault(loc.card, []).append(finding)
    return tuple(CallView(number, seats[number - 1] if number <= len(seats) else entry.seat, entry.call,
                          entry.annotation, tuple(about.get(number, ())), entry.comments)
                 for number, entry in enumerate(entries, 1))


def _announcements(record: Record, findings: tuple[Finding, ...], plays: tuple[tuple[Seat, Card], ...],
                   play_start: int) -> tuple[AnnouncementView, ...]:
    """The announcements with their findings, the step each is made (its seat's first card) and
    the step its cards are shown (the end of trick 1)."""
    first_card = {}
    for number, (seat, _) in enumerate(plays[:4], 1):
        first_card.setdefault(seat, play_start + number)
    shown = play_start + 4
    views = []
    for announcement in record.announcements:
        line = announcement.pos.line if announcement.pos is not None else None
        mine = tuple(f for f in findings if f.rule in ANNOUNCEMENT_RULES and line is not None
                     and f.location.line == line and f.seat == str(announcement.seat))
        views.append(AnnouncementView(announcement, mine, first_card.get(announcement.seat, play_start), shown))
    return tuple(views)


def _not_replayed(played: int, entries: list, numbered: list[tuple[int, int]]) -> str | None:
    if played >= len(entries):
        return None
    number, position = numbered[played]
    left = len(entries) - played
    return f"{left} card(s) from trick {number}, card {position} on could not be replayed"
