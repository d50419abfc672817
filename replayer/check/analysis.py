"""The double-dummy analysis of a record: the value of every legal card at every step.

``analyse_record(record, rules=None)`` replays the record the way the validator does
(``faults.find_faults``: the same rules, dealer, hands as dealt or rebuilt, contract and
cards credited to their seats, the announcements checked by the validator's own code) and,
when all four hands are known, runs one ``engine.solver.Solver`` over every position of the
play. For each card played: the final card points (NS, EW) each legal card leads to under
best play by both sides, the deal score that follows (belote and melds as recorded) and
whether the contract is then made, the best card(s), the cost of the card played (what its
side loses against the best card) and a mark:

* ``inaccuracy``: a cost of 10 to 19 card points (``?!``);
* ``mistake``: 20 to 39 (``?``);
* ``blunder``: 40 or more, or any card that changes the contract's fate (``??``).

Totals per player (seat) and per side, for a deal (``DealAnalysis.totals``) and for many
(``match_totals``). A claim is said sound or not (the validator's check, ``claims.claim_holds``).
Bad input never raises: an illegal play stops the analysis there, unknown hands leave
nothing (or only what comes before an unknown card) to analyse, ``max_seconds`` stops it
with what it has; ``DealAnalysis.stopped`` says why and where.

``DealAnalysis.as_dict()`` is the JSON form (docs/analysis.md), ``DealAnalysis.from_dict`` reads it
back. ``analyse_records`` analyses a stream of records, in several processes if asked, the
analyses in input order and the same whichever way it ran; ``annotate`` writes the marks
into a record as annotation glyphs and comments.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Iterator, TypeVar

from notation import ParseResult, Record, RecordData
from notation.errors import RecordSyntaxError
from notation.lexer import UNKNOWN
from notation.parser import read_raw
from notation.record import CardEntry
from notation.splitter import split_records
from notation.values import ALL_CARDS, SEATS, Card, Seat

from ..engine.melds import Meld
from ..engine.play import PlayState, explain_illegal
from ..engine.rules import Rules, rules_name
from ..engine.scoring import FinishedDeal, Outcome, score_deal
from ..engine.solver import SolveInterrupted, Solver
from .faults import Faults, find_faults
from .findings import Finding, Severity
from .streams import worker_pool
from .validator import counted_melds, resolve_rules

VERSION = 1
T = TypeVar("T")

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
MARKS = (INACCURACY, MISTAKE, BLUNDER)
THRESHOLDS = {INACCURACY: 10, MISTAKE: 20, BLUNDER: 40}  # the least cost, in card points, of each mark
GLYPHS = {INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}  # the notation's annotations (docs/notation.md §2.7)

ILLEGAL_PLAY, HANDS_UNKNOWN, TIME_LIMIT, NO_PLAY = "illegal-play", "hands-unknown", "time-limit", "no-play"
STOP_REASONS = (ILLEGAL_PLAY, HANDS_UNKNOWN, TIME_LIMIT, NO_PLAY)

# The validator's findings that make a card of the play one the analysis cannot go past: the
# card is not the seat's to play there, or not legal, or the tricks are not of four cards.
PLAY_FAULTS = frozenset({"wrong-leader", "play-out-of-turn", "card-not-held", "must-follow", "trump-lead-must-go-over",
                         "ta-must-beat", "must-trump", "must-overtrump", "must-undertrump", "shown-void",
                         "duplicate-card", "short-trick", "too-many-cards"})
TOTAL_KEYS = ("N", "E", "S", "W", "NS", "EW")


def mark_of(cost: int, fate_changed: bool = False) -> str | None:
    """The mark of a card that costs ``cost`` card points (docs/analysis.md)."""
    if fate_changed or cost >= THRESHOLDS[BLUNDER]:
        return BLUNDER
    if cost >= THRESHOLDS[MISTAKE]:
        return MISTAKE
    if cost >= THRESHOLDS[INACCURACY]:
        return INACCURACY
    return None


# --- values -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CardOption:
    """One legal card and what the deal comes to when it is played and both sides then play
    their best: the final card points (NS, EW), the deal score (NS, EW), the contract made."""

    card: Card
    points: tuple[int, int]
    score: tuple[int, int]
    made: bool


@dataclass(frozen=True, slots=True)
class StepAnalysis:
    """One card played (``step``, 1-based in the play, ``trick`` 1..8) and every legal card it
    was played among."""

    step: int
    trick: int
    seat: Seat
    card: Card
    options: tuple[CardOption, ...]  # every legal card, in card order
    best: tuple[Card, ...]
    cost: int  # card points the seat's side loses against the best card
    mark: str | None
    fate_changed: bool  # made where the best card fails, or the other way round

    def option(self, card: Card) -> CardOption:
        for option in self.options:
            if option.card == card:
                return option
        raise KeyError(f"{card} was not a legal card at step {self.step}")

    @property
    def played(self) -> CardOption:
        return self.option(self.card)

    @property
    def best_option(self) -> CardOption:
        return self.option(self.best[0])

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "trick": self.trick, "seat": str(self.seat), "card": str(self.card),
                "values": {str(o.card): list(o.points) for o in self.options},
                "scores": {str(o.card): list(o.score) for o in self.options},
                "made": {str(o.card): o.made for o in self.options},
                "best": [str(card) for card in self.best], "cost": self.cost, "mark": self.mark,
                "fate_changed": self.fate_changed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StepAnalysis:
        options = tuple(CardOption(Card.parse(text), (points[0], points[1]),
                                   (data["scores"][text][0], data["scores"][text][1]), data["made"][text])
                        for text, points in data["values"].items())
        return cls(data["step"], data["trick"], Seat.parse(data["seat"]), Card.parse(data["card"]), options,
                   tuple(map(Card.parse, data["best"])), data["cost"], data["mark"], data["fate_changed"])


@dataclass(frozen=True, slots=True)
class Stop:
    """Why the analysis stopped before the end of the record, and at which step (the first
    card not analysed; None when there was none to analyse)."""

    reason: str  # one of STOP_REASONS
    message: str
    step: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "message": self.message, "step": self.step}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Stop:
        return cls(data["reason"], data["message"], data["step"])


@dataclass(frozen=True, slots=True)
class ClaimAnalysis:
    """The record's claim: who claimed, whether the claimer's side takes every remaining trick
    against best defence (None: not known, hands unknown or the check too large), and the step
    it stands at (the number of cards played before it, plus one)."""

    seat: Seat
    sound: bool | None
    step: int

    def as_dict(self) -> dict[str, Any]:
        return {"seat": str(self.seat), "sound": self.sound, "step": self.step}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClaimAnalysis:
        return cls(Seat.parse(data["seat"]), data["sound"], data["step"])


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's or a side's cards analysed, their total cost and their marks."""

    cards: int = 0
    cost: int = 0
    inaccuracy: int = 0
    mistake: int = 0
    blunder: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.cards + other.cards, self.cost + other.cost, self.inaccuracy + other.inaccuracy,
                     self.mistake + other.mistake, self.blunder + other.blunder)

    def count(self, mark: str) -> int:
        return {INACCURACY: self.inaccuracy, MISTAKE: self.mistake, BLUNDER: self.blunder}[mark]

    @classmethod
    def of(cls, step: StepAnalysis) -> Tally:
        return cls(1, step.cost, step.mark == INACCURACY, step.mark == MISTAKE, step.mark == BLUNDER)

    def as_dict(self) -> dict[str, int]:
        return {"cards": self.cards, "cost": self.cost, INACCURACY: self.inaccuracy, MISTAKE: self.mistake,
                BLUNDER: self.blunder}

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> Tally:
        return cls(data["cards"], data["cost"], data[INACCURACY], data[MISTAKE], data[BLUNDER])


@dataclass(frozen=True, slots=True)
class Totals:
    """A tally per seat (N E S W); the sides' are the sums of their two seats'."""

    seats: tuple[Tally, Tally, Tally, Tally] = (Tally(), Tally(), Tally(), Tally())

    @classmethod
    def of_steps(cls, steps: Iterable[StepAnalysis]) -> Totals:
        seats = [Tally(), Tally(), Tally(), Tally()]
        for step in steps:
            seats[step.seat.index] += Tally.of(step)
        return cls((seats[0], seats[1], seats[2], seats[3]))

    def __add__(self, other: Totals) -> Totals:
        a, b = self.seats, other.seats
        return Totals((a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]))

    @property
    def ns(self) -> Tally:
        return self.seats[0] + self.seats[2]

    @property
    def ew(self) -> Tally:
        return self.seats[1] + self.seats[3]

    def of(self, key: str) -> Tally:
        """The tally of a seat (``N``...) or a side (``NS``, ``EW``)."""
        if key == "NS":
            return self.ns
        if key == "EW":
            return self.ew
        return self.seats[Seat.parse(key).index]

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {key: self.of(key).as_dict() for key in TOTAL_KEYS}

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, int]]) -> Totals:
        seats = [Tally.from_dict(data[str(seat)]) for seat in SEATS]
        return cls((seats[0], seats[1], seats[2], seats[3]))


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """The analysis of one record (the JSON form: ``as_dict``, docs/analysis.md).

    ``complete``: every card of the record was analysed (true of a record with no card to
    analyse, whose ``stopped`` says so with ``no-play``); else ``stopped`` says why not."""

    VERSION: ClassVar[int] = VERSION

    rules: str
    complete: bool
    stopped: Stop | None
    steps: tuple[StepAnalysis, ...]
    claim: ClaimAnalysis | None
    totals: Totals

    def step(self, number: int) -> StepAnalysis | None:
        """The analysis of the card played at step ``number`` (1-based), if it was analysed."""
        for step in self.steps:
            if step.step == number:
                return step
        return None

    @property
    def marked(self) -> tuple[StepAnalysis, ...]:
        return tuple(step for step in self.steps if step.mark is not None)

    def as_dict(self) -> dict[str, Any]:
        return {"version": VERSION, "rules": self.rules, "complete": self.complete,
                "stopped": self.stopped.as_dict() if self.stopped else None,
                "steps": [step.as_dict() for step in self.steps],
                "claim": self.claim.as_dict() if self.claim else None, "totals": self.totals.as_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealAnalysis:
        if data.get("version") != VERSION:
            raise ValueError(f"analysis version {data.get('version')!r}: this program reads version {VERSION}")
        return cls(data["rules"], data["complete"], Stop.from_dict(data["stopped"]) if data["stopped"] else None,
                   tuple(map(StepAnalysis.from_dict, data["steps"])),
                   ClaimAnalysis.from_dict(data["claim"]) if data["claim"] else None,
                   Totals.from_dict(data["totals"]))


Analysis = DealAnalysis  # the shorter name


def match_totals(analyses: Iterable[DealAnalysis]) -> Totals:
    """The totals of many deals (a match, a file, an archive): the sum of their totals."""
    total = Totals()
    for analysis in analyses:
        total += analysis.totals
    return total


# --- one record -----------------------------------------------------------------

AnyRecord = Record | RecordData | ParseResult


def analyse_record(record: AnyRecord, rules: Rules | str | None = None, *, max_seconds: float | None = None,
                   first_step: int = 1) -> DealAnalysis:
    """The analysis of one record (see the module's docstring). ``rules`` override the record's
    tags, as for ``validate``. ``max_seconds`` bounds the time spent (the replay included): past
    it the analysis stops with what it has (``stopped``: ``time-limit``). ``first_step`` skips
    the cards before it (the analysis is then not ``complete``, and not ``stopped`` either)."""
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    if isinstance(record, ParseResult):
        if record.data is None:
            return _unreadable(record.errors)
        data = record.data
    elif isinstance(record, Record):
        data = record.data(record.source.index if record.source is not None else 0)
    else:
        data = record
    rules_used, _ = resolve_rules(data, rules, data.index)
    run = find_faults(data, rules_used, data.index)
    return _Analyser(run, deadline, first_step).analyse()


def analyse_text(text: str, rules: Rules | str | None = None, *, max_seconds: float | None = None,
                 first_line: int = 1) -> DealAnalysis:
    """The analysis of the one record ``text`` holds (its first line being line ``first_line``
    of its file): what a worker process or a cluster's worker runs."""
    raw = next(split_records(text, line=first_line), None)
    if raw is None:
        return _unreadable((RecordSyntaxError("no record", expected="a record"),))
    return analyse_record(read_raw(raw), rules, max_seconds=max_seconds)


def analysis_task(text: str, rules: Rules | str | None, max_seconds: float | None,
                  first_line: int = 1) -> dict[str, Any]:
    """``analyse_text`` as plain JSON data: what crosses from a worker (a process of the pool, a
    Dask worker) back to the caller, which reads it with ``DealAnalysis.from_dict``."""
    return analyse_text(text, rules, max_seconds=max_seconds, first_line=first_line).as_dict()


def _unreadable(errors: tuple[RecordSyntaxError, ...]) -> DealAnalysis:
    error = errors[0] if errors else RecordSyntaxError("the record cannot be read")
    where = f"line {error.line}: " if error.line else ""
    expected = f": expected {error.expected}" if error.expected else ""
    return DealAnalysis("?", False, Stop(NO_PLAY, f"the record cannot be read: {where}{error.problem}{expected}"),
                        (), None, Totals())


class _Analyser:
    """The analysis of one replayed record (``Faults``): the play walked again card by card,
    the solver asked at each position."""

    def __init__(self, run: Faults, deadline: float | None, first_step: int) -> None:
        self.run = run
        self.rules = run.rules
        self.deadline = deadline
        self.first_step = first_step
        self.steps: list[StepAnalysis] = []
        self.outcomes: dict[int, tuple[tuple[int, int], bool]] = {}  # search value s -> deal score, made
        self.belote = (0, 0)
        self.melds: dict[Seat, tuple[Meld, ...]] = {}
        self.first_player: Seat | None = None

    def analyse(self) -> DealAnalysis:
        stopped = self._walk()
        complete = stopped is None or (stopped.reason == NO_PLAY and not self.run.data.plays
                                       and self.run.data.claim is None)
        complete = complete and self.first_step <= 1
        return DealAnalysis(rules_name(self.rules), complete, stopped, tuple(self.steps), self._claim(),
                            Totals.of_steps(self.steps))

    # --- the walk ---------------------------------------------------------------

    def _walk(self) -> Stop | None:
        run = self.run
        data = run.data
        if run.void:
            return Stop(NO_PLAY, "everybody passed: no card play to analyse")
        if run.contract is None:
            return Stop(NO_PLAY, "no contract: the play cannot be replayed" if data.tricks or data.claim
                        else "no contract and no card play to analyse")
        if not data.plays:
            return None if data.claim is not None else Stop(NO_PLAY, "no card played: nothing to analyse")
        if run.masks is None or run.state is None or run.dealer is None:
            if any(f.rule in ("hand-size", "duplicate-card") and f.location.trick is None for f in run.findings):
                return Stop(HANDS_UNKNOWN, "the hands as dealt are not 32 distinct cards, 8 a hand: no position can "
                            "be analysed")
            return Stop(HANDS_UNKNOWN, "the hands as dealt are not all known and cannot be rebuilt from the play: "
                        "no position can be analysed")
        self.melds = counted_melds(run)  # as the validator counts them (it reports the bad ones)
        self.belote = run.state.belote_points()
        self.first_player = run.state.first_leader
        limit = _first_fault(run.findings)
        state = PlayState(run.masks, run.contract, self.rules, dealer=run.dealer)
        solver: Solver | None = None
        moves = run.state.moves
        for number, move in enumerate(moves, 1):
            seat, card = SEATS[move >> 5], ALL_CARDS[move & 31]
            if limit is not None and limit[0] <= number:
                return Stop(ILLEGAL_PLAY, limit[1], limit[0])
            if state.turn is not seat or state.fault(card.index) is not None:  # what the findings should have said
                return Stop(ILLEGAL_PLAY, _illegal(state, seat, card), number)
            if number >= self.first_step:
                if self.deadline is not None and time.monotonic() > self.deadline:
                    return self._out_of_time(number)
                if solver is None:
                    solver = Solver(state)
                try:
                    self.steps.append(self._step(solver, state, number, seat, card))
                except SolveInterrupted:
                    return self._out_of_time(number)
            state.apply(card.index)
        after = len(moves) + 1
        if limit is not None:
            return Stop(ILLEGAL_PLAY, limit[1], limit[0])
        if len(moves) < len(data.plays):
            if data.plays[len(moves)][0] == UNKNOWN:
                return Stop(HANDS_UNKNOWN, f"the card played at step {after} is not known (??): the analysis stops "
                            "there", after)
            return Stop(ILLEGAL_PLAY, f"the play cannot be replayed past step {len(moves)}", after)
        return None

    def _out_of_time(self, number: int) -> Stop:
        done = f"steps {self.first_step}-{number - 1} analysed" if number > self.first_step else "nothing analysed"
        return Stop(TIME_LIMIT, f"the time limit passed at step {number}: {done}", number)

    def _step(self, solver: Solver, state: PlayState, number: int, seat: Seat, card: Card) -> StepAnalysis:
        solution = solver.solve(state, deadline=self.deadline)
        options = []
        for value in solution.values:
            score, made = self._outcome(value.s, value.deal)
            options.append(CardOption(value.card, value.points, score, made))
        side = seat.index & 1
        best = solution.value_of(solution.best[0])
        played = solution.value_of(card)
        cost = best.points[side] - played.points[side]
        fate_changed = self._outcome(best.s, best.deal)[1] != self._outcome(played.s, played.deal)[1]
        return StepAnalysis(number, (number - 1) // 4 + 1, seat, card, tuple(options), solution.best, cost,
                            mark_of(cost, fate_changed), fate_changed)

    def _outcome(self, s: int, deal: FinishedDeal) -> tuple[tuple[int, int], bool]:
        """The deal score and whether the contract is made, the belote and melds as recorded."""
        known = self.outcomes.get(s)
        if known is None:
            score = score_deal(deal._replace(belote=self.belote, melds=self.melds, first_player=self.first_player),
                               self.rules)
            known = self.outcomes[s] = (score.scores, score.outcome is Outcome.MADE)
        return known

    # --- the claim --------------------------------------------------------------

    def _claim(self) -> ClaimAnalysis | None:
        """The claim as the validator checked it (``claim_holds`` on the position of the claim)."""
        run = self.run
        if run.data.claim is None:
            return None
        seat = run.data.claim[0]
        rules = {f.rule for f in run.findings}
        if run.masks is None or run.contract is None or "claim-unchecked" in rules:
            sound = None
        else:
            sound = "claim-inconsistent" not in rules
        played = len(run.state.moves) if run.state is not None and run.masks is not None else len(run.data.plays)
        return ClaimAnalysis(seat, sound, played + 1)


def _first_fault(findings: Iterable[Finding]) -> tuple[int, str] | None:
    """The step of the first card the validator found fault with (see ``PLAY_FAULTS``), and why."""
    first: tuple[int, str] | None = None
    for finding in findings:
        location = finding.location
        if finding.severity is not Severity.ERROR or finding.rule not in PLAY_FAULTS or location.trick is None:
            continue
        step = 4 * (location.trick - 1) + (location.card or 1)
        if first is None or step < first[0]:
            first = (step, finding.message)
    return first


def _illegal(state: PlayState, seat: Seat, card: Card) -> str:
    turn = state.turn
    if turn is not seat:
        return f"{seat.full_name} plays {card.pretty()} but it is {turn.full_name if turn else 'nobody'}'s turn"
    why = explain_illegal(state, card)
    return why.message() if why is not None else f"{seat.full_name} may not play {card.pretty()} here"


# --- many records -------------------------------------------------------------------

Task = tuple[str, Rules | None, float | None, int]  # analysis_task's arguments: text, rules, max_seconds, line


@dataclass
class Executor:
    """Where analyses run: ``submit`` starts one task (or runs it), ``result`` waits for its
    analysis (JSON data); ``window``: the tasks kept in flight. ``local_executor`` makes the
    one of this machine; ``belote analyse --scheduler`` makes a Dask cluster's."""

    submit: Callable[[Task], Any]
    result: Callable[[Any], dict[str, Any]]
    window: int


@contextmanager
def local_executor(jobs: int) -> Iterator[Executor]:
    """This process (``jobs`` 1), or a pool of ``jobs`` worker processes."""
    if jobs <= 1:
        yield Executor(lambda task: analysis_task(*task), lambda handle: handle, 0)
        return
    with worker_pool(jobs) as pool:
        yield Executor(lambda task: pool.apply_async(analysis_task, task), lambda handle: handle.get(), 2 * jobs)


def analysed(records: Iterable[T], executor: Executor, rules: Rules | None,
             max_seconds: float | None) -> Iterator[tuple[T, DealAnalysis]]:
    """Each record (anything ``as_task`` takes) with its analysis, in input order, at most
    ``executor.window`` records being analysed at once (memory stays flat, whatever the
    number of records); the analyses are the same wherever they ran."""
    pending: deque[tuple[T, Any]] = deque()
    for record in records:
        text, line = as_task(record)
        pending.append((record, executor.submit((text, rules, max_seconds, line))))
        while len(pending) > executor.window:
            done, handle = pending.popleft()
            yield done, DealAnalysis.from_dict(executor.result(handle))
    while pending:
        done, handle = pending.popleft()
        yield done, DealAnalysis.from_dict(executor.result(handle))


def analyse_records(records: Iterable[AnyRecord | str], rules: Rules | str | None = None, *,
                    max_seconds: float | None = None, jobs: int = 1) -> Iterator[DealAnalysis]:
    """The analysis of each record (a ``Record``, a ``RecordData``, a ``ParseResult`` or a
    record's text), in input order; with ``jobs > 1``, in that many worker processes, the
    records sent to them as text (a ``Record`` made in code is written out first). The
    analyses are the same whichever way they ran (``max_seconds`` aside: it is per record)."""
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    with local_executor(jobs) as executor:
        for _, analysis in analysed(records, executor, rules, max_seconds):
            yield analysis


def as_task(record: AnyRecord | str) -> tuple[str, int]:
    """A record as a worker gets it: its text and the line of its file it starts at."""
    if isinstance(record, str):
        return record, 1
    if isinstance(record, ParseResult):
        return record.source.text, record.source.first_line
    if isinstance(record, RecordData):
        return record.text, record.first_line
    if record.source is not None:
        return record.source.text, record.source.first_line
    return str(record), 1


# --- annotations --------------------------------------------------------------------

_OURS = re.compile(r"^(analysis (\?\?|\?!|\?): )?best: ")  # the comments an earlier annotate wrote


def annotate(record: Record, analysis: DealAnalysis) -> Record:
    """``record`` with the marks of ``analysis`` on its cards: the mark's glyph (``?!``, ``?``,
    ``??``) as the card's annotation and a comment ``best: TH (+24)`` (the best card(s) and the
    card points lost; ``, the contract fails`` or ``, the contract makes`` when the card
    changed the contract's fate). A card the user annotated keeps its glyph; the mark then
    heads the comment (``analysis ??: best: ...``). Comments of an earlier annotation are
    replaced, the user's kept; the record reads back the same (``parse(str(r)) == r``)."""
    marked = {step.step: step for step in analysis.marked}
    if not marked and not any(_OURS.match(c) for e in record.plays for c in e.comments):
        return record
    tricks = []
    number = 0
    for trick in record.tricks:
        entries = []
        for position, entry in enumerate(trick.plays):
            if position < 4:
                number += 1
            step = marked.get(number) if position < 4 else None
            entries.append(_annotated(entry, step))
        tricks.append(dataclasses.replace(trick, plays=tuple(entries)) if entries != list(trick.plays) else trick)
    return dataclasses.replace(record, tricks=tuple(tricks))


def _annotated(entry: CardEntry, step: StepAnalysis | None) -> CardEntry:
    comments = tuple(c for c in entry.comments if not _OURS.match(c))
    annotation = entry.annotation
    if step is not None and step.mark is not None and entry.card == step.card:
        glyph = GLYPHS[step.mark]
        text = comment_of(step)
        if annotation is None or annotation == glyph:
            annotation = glyph
        else:
            text = f"analysis {glyph}: {text}"
        comments += (text,)
    if comments == entry.comments and annotation == entry.annotation:
        return entry
    return dataclasses.replace(entry, annotation=annotation, comments=comments)


def comment_of(step: StepAnalysis) -> str:
    """``best: TH (+24)``: the best card(s) and the card points the card played lost."""
    fate = ""
    if step.fate_changed:
        fate = ", the contract makes" if step.played.made else ", the contract fails"
    return f"best: {' '.join(map(str, step.best))} (+{step.cost}{fate})"


__all__ = ["Analysis", "CardOption", "ClaimAnalysis", "DealAnalysis", "GLYPHS", "MARKS", "STOP_REASONS", "Stop",
           "StepAnalysis", "THRESHOLDS", "Tally", "Totals", "analyse_record", "analyse_records", "analyse_text",
           "analysed", "analysis_task", "annotate", "as_task", "comment_of", "local_executor", "mark_of",
           "match_totals", "Executor"]
