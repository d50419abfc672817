"""The running score sheet of a match: one row per deal, as a scorer keeps it.

``score_sheet(reports)`` takes the validation reports of a match's deals, in
deal order, and lays out what ``matches.check_match`` found (the running totals
kept by ``scoring.MatchState``, the litige holds, the winner, the Score tag and
dealer checks) together with each deal's contract, taker and outcome. It adds
no scoring of its own: litige points awarded in a deal are read off the totals
(``after - before - deal score``).

The engine side only: no web, no database. ``key`` of a row is the caller's
handle on the deal (the archive's record id); the sheet never interprets it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from notation.values import Seat, Team

from ..engine.contract import Contract
from ..engine.rules import Rules
from ..engine.scoring import TEAMS
from .findings import Finding
from .matches import MatchDeal, check_match
from .report import Report

SEAT_TAGS = (("North", Seat.NORTH), ("East", Seat.EAST), ("South", Seat.SOUTH), ("West", Seat.WEST))
UNSCORED = "unscored"  # a deal the validator could not rescore and with no Result to stand in
AS_RECORDED = "as recorded"  # not rescored: its Result counts instead
AFTER_THE_END = "after the end"  # a deal played once the match was won


@dataclass(frozen=True, slots=True)
class LitigeAward:
    """Held points from earlier ties that a deal gave to ``team``."""

    team: Team
    points: int


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal of the sheet. Pairs are (NS, EW); ``None`` where unknown."""

    number: int  # 1-based position of the deal in the match
    key: int | None
    deal: str | None  # the Deal tag
    dealer: Seat | None
    contract: Contract | None
    outcome: str  # an ``Outcome`` value, ``AS_RECORDED``, ``UNSCORED`` or ``AFTER_THE_END``
    scores: tuple[int, int] | None  # this deal's points (rescored, else its Result)
    recorded: tuple[int, int] | None  # the Result tag
    before: tuple[int, int] | None
    after: tuple[int, int] | None
    score_tag: tuple[int, int] | None  # the Score tag: the match score the record gives before the deal
    litige_held: int  # points held by this deal's tie
    litige_award: LitigeAward | None  # earlier holds this deal awarded
    litige_pending: int  # held points still open after this deal
    valid: bool  # the record has no error of its own
    errors: int
    findings: tuple[Finding, ...]  # the match findings about this deal

    @property
    def taker(self) -> Seat | None:
        return self.contract.taker if self.contract else None

    @property
    def contract_text(self) -> str | None:
        """The contract without its taker: ``110H coinche``, ``J``."""
        return str(self.contract).rsplit(" by ", 1)[0] if self.contract else None

    @property
    def score_tag_agrees(self) -> bool | None:
        """Whether the Score tag equals the running totals (``None``: nothing to compare)."""
        if self.score_tag is None or self.before is None:
            return None
        return self.score_tag == self.before

    def as_dict(self) -> dict[str, Any]:
        award = self.litige_award
        return {"number": self.number, "key": self.key, "deal": self.deal,
                "dealer": _str(self.dealer), "contract": self.contract_text, "taker": _str(self.taker),
                "outcome": self.outcome, "scores": _pair(self.scores), "recorded": _pair(self.recorded),
                "before": _pair(self.before), "after": _pair(self.after), "score_tag": _pair(self.score_tag),
                "score_tag_agrees": self.score_tag_agrees, "litige_held": self.litige_held,
                "litige_award": {"team": str(award.team), "points": award.points} if award else None,
                "litige_pending": self.litige_pending, "valid": self.valid, "errors": self.errors,
                "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A match's header and its running score sheet."""

    event: str | None
    round: str | None
    site: str | None
    date: str | None
    players: tuple[str | None, ...]  # N E S W, from the first deal
    variant: str | None
    rules: Rules
    target: int
    rows: tuple[SheetRow, ...]
    totals: tuple[int, int] | None
    winner: Team | None
    winning_deal: int | None  # the number of the deal that decided the match (``match_end``)
    pending_litige: int
    findings: tuple[Finding, ...]  # every match finding; ``location.record`` is the row index

    def player(self, seat: Seat) -> str | None:
        return self.players[seat.index]

    def team_names(self, team: Team) -> str:
        """``Odile Perrin & Nadia Haddad`` for NS, the team's name when nobody is named."""
        names = [name for i, name in enumerate(self.players) if name and TEAMS[i & 1] is team]
        return " & ".join(names) or str(team)

    def series(self, team: Team) -> list[int | None]:
        """The team's running total after each deal (``None`` once unknown)."""
        i = 0 if team is Team.NS else 1
        return [row.after[i] if row.after else None for row in self.rows]

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "round": self.round, "site": self.site, "date": self.date,
                "players": {tag.lower(): self.players[seat.index] for tag, seat in SEAT_TAGS},
                "variant": self.variant, "rules": str(self.rules), "target": self.target,
                "totals": _pair(self.totals), "winner": _str(self.winner), "winning_deal": self.winning_deal,
                "pending_litige": self.pending_litige, "rows": [r.as_dict() for r in self.rows],
                "findings": [f.as_dict() for f in self.findings]}


def score_sheet(reports: Sequence[Report], keys: Sequence[int | None] | None = None,
                rules: Rules | None = None) -> ScoreSheet:
    """The score sheet of a match given its deals' reports in order (``keys``: one per report).

    The reports are numbered 0.. for the match check so that each finding lands on its row
    whatever indexes they carried (records validated one by one all have index 0)."""
    if keys is not None and len(keys) != len(reports):
        raise ValueError(f"{len(keys)} keys for {len(reports)} deals")
    numbered = [dataclasses.replace(r, index=i) if r.index != i else r for i, r in enumerate(reports)]
    match = check_match(numbered, rules)
    rows = tuple(_row(i, report, deal, keys[i] if keys is not None else None, match.findings)
                 for i, (report, deal) in enumerate(zip(numbered, match.deals)))
    first = numbered[0] if numbered else None
    return ScoreSheet(match.event, match.round, _tag(first, "Site"), _tag(first, "Date"),
                      tuple(_tag(first, tag) for tag, _ in SEAT_TAGS), _tag(first, "Variant"), match.rules,
                      match.target, rows, match.totals, match.winner, _winning_deal(rows, match.winner),
                      match.pending_litige, match.findings)


def _row(i: int, report: Report, deal: MatchDeal, key: int | None, findings: Sequence[Finding]) -> SheetRow:
    score = report.score
    own = tuple(f for f in findings if f.location.record == i)
    return SheetRow(i + 1, key, deal.deal, deal.dealer, score.contract if score else None, _outcome(report, own),
                    deal.scores, report.recorded, deal.before, deal.after, deal.recorded_before,
                    score.litige_hold if score is not None else 0, _award(deal), deal.pending_litige,
                    report.ok, len(report.errors), own)


def _outcome(report: Report, findings: Sequence[Finding]) -> str:
    if any(f.rule == "match-over" for f in findings):
        return AFTER_THE_END
    if report.score is not None:
        return str(report.score.outcome)
    return AS_RECORDED if report.recorded is not None else UNSCORED


def _award(deal: MatchDeal) -> LitigeAward | None:
    """Held points the deal gave away: what the totals grew by beyond the deal's own score."""
    if deal.before is None or deal.after is None or deal.scores is None:
        return None
    for team, (before, after, own) in zip(TEAMS, zip(deal.before, deal.after, deal.scores)):
        if after - before - own:
            return LitigeAward(team, after - before - own)
    return None


def _winning_deal(rows: Sequence[SheetRow], winner: Team | None) -> int | None:
    """The deal that decided the match: the last one counted (deals after it are not)."""
    if winner is None:
        return None
    counted = [row.number for row in rows if row.after is not None]
    return counted[-1] if counted else None


def _tag(report: Report | None, name: str) -> str | None:
    return report.tag(name) if report is not None else None


def _pair(pair: tuple[int, int] | None) -> list[int] | None:
    return list(pair) if pair is not None else None


def _str(value: object) -> str | None:
    return str(value) if value is not None else None
