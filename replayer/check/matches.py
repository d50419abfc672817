"""Matches: consecutive deals of one Event and Round, checked as a whole.

A match is a run of consecutive records with the same ``Event`` and ``Round``
tags (records with neither tag are single deals, not matches). Along the match
the running totals are kept with the scoring module's ``MatchState`` (litige
holds carried to the next scored deal, the target, the winner), and checked
against the records:

* ``Score`` is the match score before the deal: it must equal the running total
  (``score-tag-mismatch``); the first deal's must be 0-0. Where the ``Deal`` tags say that
  deals are missing (a file that starts in the middle of a match, a deal not stored), the
  totals go on from the ``Score`` of the deal after the gap;
* the dealer passes to the next player in the rules' direction after every
  deal, void deals included (``dealer-rotation``);
* no deal is played once a side has won (``match-over``);
* a litige hold still open at the end is lost (``litige-lost``, a note).

A deal the validator could not rescore adds its recorded Result when it has one
(its score being unknown otherwise, the totals after it are not checked); a record the
reader refused keeps its place with the tags read from its head. Findings point at the
``Score`` or ``Dealer`` tag they are about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from notation.values import Seat, Team
from notation.record import parse_score_pair

from ..engine.rules import Rules, rules_from_text
from ..engine.scoring import CountedDeal, MatchState, Outcome
from .findings import Finding, Location, make_finding
from .report import Report


@dataclass(frozen=True, slots=True)
class MatchDeal:
    """One deal of a match: the totals before it (running and recorded) and after it."""

    record: int
    deal: str | None  # the Deal tag
    dealer: Seat | None
    before: tuple[int, int] | None  # running totals before the deal (None once unknown)
    recorded_before: tuple[int, int] | None  # the Score tag
    scores: tuple[int, int] | None  # this deal's points (rescored, else the recorded Result)
    after: tuple[int, int] | None
    pending_litige: int

    def as_dict(self) -> dict[str, Any]:
        return {"record": self.record, "deal": self.deal, "dealer": str(self.dealer) if self.dealer else None,
                "before": _pair(self.before), "recorded_before": _pair(self.recorded_before),
                "scores": _pair(self.scores), "after": _pair(self.after), "pending_litige": self.pending_litige}


@dataclass(frozen=True, slots=True)
class MatchReport:
    """The check of one match."""

    event: str | None
    round: str | None
    rules: Rules
    target: int
    deals: tuple[MatchDeal, ...]
    findings: tuple[Finding, ...]
    totals: tuple[int, int] | None
    winner: Team | None
    pending_litige: int
    start: tuple[int, int] = (0, 0)  # the totals before its first deal: not 0-0 for an excerpt

    @property
    def ok(self) -> bool:
        return not any(f.severity.rank == 0 for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "round": self.round, "rules": str(self.rules), "target": self.target,
                "ok": self.ok, "totals": _pair(self.totals), "winner": str(self.winner) if self.winner else None,
                "pending_litige": self.pending_litige, "start": list(self.start),
                "deals": [d.as_dict() for d in self.deals],
                "findings": [f.as_dict() for f in self.findings]}

    def text(self) -> str:
        name = " / ".join(x for x in (self.event, self.round) if x) or "match"
        totals = f"{self.totals[0]}-{self.totals[1]}" if self.totals else "unknown"
        winner = f", won by {self.winner}" if self.winner else ", no winner yet"
        start = f" from {_text(self.start)} (an excerpt)" if self.start != (0, 0) else ""
        out = [f"{name}: {len(self.deals)} deals to {self.target}{start}, totals {totals}{winner}"]
        out += [f"  {f}" for f in self.findings]
        return "\n".join(out)


def _pair(pair: tuple[int, int] | None) -> list[int] | None:
    return list(pair) if pair is not None else None


def match_key(report: Report) -> tuple[str | None, str | None] | None:
    """The (Event, Round) of a report, ``None`` for a single deal outside any match."""
    event, round_ = report.tag("Event"), report.tag("Round")
    if not event and not round_:
        return None
    return event, round_


def with_match_checks(reports: Iterable[Report], rules: Rules | None = None) -> Iterator[Report | MatchReport]:
    """Every report as it comes, and each match's check right after its last deal.

    It streams: a report is passed on before its match is complete.
    """
    group: list[Report] = []
    for report in reports:
        key = match_key(report)
        if group and key != match_key(group[0]):
            yield check_match(group, rules)
            group = []
        if key is not None:
            group.append(report)
        yield report
    if group:
        yield check_match(group, rules)


def check_matches(reports: Iterable[Report], rules: Rules | None = None) -> Iterator[MatchReport]:
    """The check of each match among ``reports`` (single deals are left out)."""
    return (item for item in with_match_checks(reports, rules) if isinstance(item, MatchReport))


def check_match(reports: Sequence[Report], rules: Rules | None = None) -> MatchReport:
    """Check a match given the validation reports of its deals, in order."""
    rules = rules or _rules_of(reports)
    state = MatchState(rules)
    start = (0, 0)
    findings: list[Finding] = []
    deals: list[MatchDeal] = []
    known = True  # whether the running totals are still known
    previous: Seat | None = None
    previous_number: int | None = 0  # the Deal tag of the deal before (0: none yet, None: not a number)
    for number, report in enumerate(reports, 1):
        where = _at(report, None)
        recorded_before = parse_score_pair(report.tag("Score"))
        deal_number = _deal_number(report)
        missing = deal_number - previous_number - 1 if deal_number is not None and previous_number is not None else 0
        previous_number = deal_number
        if missing > 0 and recorded_before is not None:  # deals not in the file: go on from this one's Score
            state.resume(recorded_before)
            known, start = True, recorded_before if number == 1 else start
        for _ in range(max(missing, 0) % 4):  # the deal went round the missing deals too
            previous = previous.next(rules.clockwise) if previous else None
        before = state.totals if known else None
        if known and recorded_before is not None and recorded_before != before:
            findings.append(make_finding("score-tag-mismatch", f"deal {number}: Score {_text(recorded_before)} "
                                         f"but the match stands at {_text(before)} before this deal",
                                         _at(report, "Score")))
        dealer = report.dealer
        if previous is not None and dealer is not None and dealer is not previous.next(rules.clockwise):
            expected = previous.next(rules.clockwise)
            findings.append(make_finding("dealer-rotation", f"deal {number}: {dealer.full_name} deals but "
                                         f"{expected.full_name} should, after {previous.full_name} "
                                         f"(direction {rules.direction})", _at(report, "Dealer"), seat=dealer))
        previous = dealer or (previous.next(rules.clockwise) if previous else None)
        if state.winner is not None:
            findings.append(make_finding("match-over", f"deal {number} is played after {state.winner} won the "
                                         f"match ({_text(state.totals)}, target {state.target})", where))
            deals.append(MatchDeal(report.index, report.tag("Deal"), dealer, before, recorded_before,
                                   report.rescored, None, state.pending_litige))
            continue
        score = _deal_score(report)
        if score is None:
            known = False
        if known and score is not None:  # known: the deals so far, this one included, scored
            state.add(score)
        deals.append(MatchDeal(report.index, report.tag("Deal"), dealer, before, recorded_before,
                               score.scores if score else report.recorded,
                               state.totals if known else None, state.pending_litige))
    if known and state.pending_litige and reports:
        last = reports[-1]
        findings.append(make_finding("litige-lost", f"a litige hold of {state.pending_litige} is still open at "
                                     f"the end of the match: it is lost", Location(last.index)))
    return MatchReport(reports[0].tag("Event") if reports else None, reports[0].tag("Round") if reports else None,
                       rules, state.target, tuple(deals), tuple(findings), state.totals if known else None,
                       state.winner if known else None, state.pending_litige, start)


def _deal_number(report: Report) -> int | None:
    """The deal's number in its match, from its Deal tag (ASCII digits only), when it has one."""
    deal = (report.tag("Deal") or "").strip()
    return int(deal) if deal.isascii() and deal.isdigit() and len(deal) < 7 else None


def _at(report: Report, tag: str | None) -> Location:
    """Where a match finding about ``report`` points: its ``tag`` when written, else its first line."""
    line = report.tag_line(tag) if tag else None
    if line is None and report.lines:
        line = report.lines[0]
    return Location(report.index, line, 1 if line else None)


def _deal_score(report: Report) -> CountedDeal | None:
    """The rescored deal; failing that, a deal carrying the recorded Result."""
    if report.score is not None:
        return report.score
    if report.recorded is None:
        return None
    ns, ew = report.recorded
    return _RecordedScore(ns, ew)


class _RecordedScore:
    """The recorded Result of a deal that could not be rescored: counts as made/failed
    with those points (a litige carried into it goes to the side with more points)."""

    def __init__(self, ns: int, ew: int) -> None:
        self.scores = (ns, ew)
        self.outcome = Outcome.MADE
        self.litige_hold = 0
        winner = Team.NS if ns >= ew else Team.EW
        self.takers, self.defenders = winner, winner.other

    def score(self, team: Team) -> int:
        return self.scores[0 if team is Team.NS else 1]


def _rules_of(reports: Sequence[Report]) -> Rules:
    """The rules of the first deal that was read (a record that could not be read has none)."""
    return next((report.rules for report in reports if report.rules is not None), rules_from_text("ffb"))


def _text(pair: tuple[int, int] | None) -> str:
    return f"{pair[0]}-{pair[1]}" if pair is not None else "?"
