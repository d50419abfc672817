"""What-if rules: one deal scored under two or more rule sets, side by side.

``compare_rules(record, [rules_a, rules_b, ...])`` validates the record once under each rule
set (the validator itself: the rules given replace the record's Rules and Variant tags, so a
tag finding such as ``rules-alias`` never shows) and lines the reports up:

- ``rows``: the breakdown as ``belote score`` prints it (the contract and what it is worth,
  the outcome and its formula, each side's card points, last trick, belote, melds, total,
  rounding and score, the final score, the recorded Result), each row flagged when its values
  differ between the rule sets;
- ``changes``: the findings that appear or vanish between rule set 1 and each other one; two
  findings are the same when their rule id, location and message are (a ``result-mismatch``
  whose numbers change is one that vanishes and one that appears).

It never raises on a bad record: a record that does not read, or a deal that cannot be scored
(a stopped play, a broken auction), gives rule sets without a score, each with the reason
(``Scored.note``). ``belote score --compare`` and the site's ``/r/<id>/compare`` show it;
``Comparison.as_dict()`` is its JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from notation import ParseResult, Record, RecordData

from ..engine.rules import Rules, rules_name
from ..engine.scoring import DealScore, Outcome, SideScore
from .findings import Finding, Location, Severity
from .report import Report
from .validator import validate

# The rows of a side's breakdown, (label, SideScore field), in the order ``belote score``
# prints them (``cli.render.score_lines`` reads this very tuple).
SCORE_ROWS: tuple[tuple[str, str], ...] = (
    ("card points", "card_points"), ("last trick", "last_trick"), ("cards + last trick", "points"),
    ("belote", "belote"), ("melds", "melds"), ("total", "total"), ("rounding", "rounding"),
    ("deal score", "score"),
)
# The rows about the whole deal before the sides' rows, (key, label, the value that says
# "nothing to show"): a row whose every value is that one is left out, as ``score_lines``
# leaves out the capot and litige lines of a deal without them.
_NOTHING = object()
DEAL_ROWS: tuple[tuple[str, str, object], ...] = (
    ("contract", "contract", _NOTHING), ("contract_value", "contract value", 0), ("multiplier", "multiplier", 1),
    ("capot", "capot", None), ("outcome", "outcome", _NOTHING), ("formula", "formula", None),
    ("litige_hold", "litige hold", 0),
)

Cell = int | str | None  # None: the rule set has no such value (not scored, or a void deal)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the side-by-side breakdown. ``values`` holds, per rule set, one cell for a
    row about the whole deal, or two (NS, EW) for a side's row (``per_side``)."""

    key: str
    label: str
    per_side: bool
    values: tuple[tuple[Cell, ...], ...]
    differs: bool

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "per_side": self.per_side,
                "values": [list(cells) if self.per_side else cells[0] for cells in self.values],
                "differs": self.differs}


@dataclass(frozen=True, slots=True)
class Scored:
    """The deal under one rule set: its rules, its score (None when it could not be scored)
    and findings, and the whole report."""

    label: str  # A, B, C...: how the renderings name the rule set
    rules: Rules
    score: DealScore | None
    findings: tuple[Finding, ...]
    report: Report

    @property
    def rules_text(self) -> str:
        return rules_name(self.rules)

    @property
    def errors(self) -> int:
        return sum(f.severity is Severity.ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity is Severity.WARNING for f in self.findings)

    @property
    def result_matches(self) -> bool | None:
        """Whether the recorded Result is the rescored one; None without either."""
        recorded = self.report.recorded
        return None if recorded is None or self.score is None else recorded == self.score.scores

    @property
    def note(self) -> str | None:
        """Why there is no breakdown (a void deal, or the finding that says why it is not
        scored); None when there is one."""
        score = self.score
        if score is not None:
            return "void deal: nobody took, no score" if score.outcome is Outcome.VOID else None
        reasons = ([f for f in self.findings if f.rule in ("not-rescored", "play-stopped")]
                   or [f for f in self.findings if f.severity is Severity.ERROR] or list(self.findings))
        return "not scored: " + (reasons[0].message if reasons else "the deal could not be scored")

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "rules": self.rules_text, "ok": self.report.ok, "note": self.note,
                "errors": self.errors, "warnings": self.warnings,
                "score": self.score.as_dict() if self.score is not None else None,
                "recorded_result": list(self.report.recorded) if self.report.recorded else None,
                "result_matches": self.result_matches,
                "findings": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True, slots=True)
class FindingsChange:
    """The findings of rule set ``other`` against those of rule set ``base`` (indexes into
    ``Comparison.scored``): those only ``other`` has, those only ``base`` has, those both have."""

    base: int
    other: int
    appear: tuple[Finding, ...]
    vanish: tuple[Finding, ...]
    same: tuple[Finding, ...]

    def as_dict(self, scored: Sequence[Scored]) -> dict[str, Any]:
        return {"from": scored[self.base].label, "to": scored[self.other].label,
                "appear": [f.as_dict() for f in self.appear], "vanish": [f.as_dict() for f in self.vanish],
                "same": [f.as_dict() for f in self.same]}


@dataclass(frozen=True, slots=True)
class Comparison:
    """One deal under several rule sets (see the module's docstring)."""

    scored: tuple[Scored, ...]
    rows: tuple[Row, ...]
    changes: tuple[FindingsChange, ...]  # rule set 1 against each other one, in order

    @property
    def report(self) -> Report:
        """The first rule set's report: the record's index, lines and tags for a title."""
        return self.scored[0].report

    @property
    def differs(self) -> bool:
        """Whether any row or any finding differs between the rule sets."""
        return any(row.differs for row in self.rows) or any(c.appear or c.vanish for c in self.changes)

    def as_dict(self) -> dict[str, Any]:
        return {"record": self.report.index, "rules": [s.rules_text for s in self.scored], "differs": self.differs,
                "rule_sets": [s.as_dict() for s in self.scored], "rows": [row.as_dict() for row in self.rows],
                "findings": [change.as_dict(self.scored) for change in self.changes]}


def label(index: int) -> str:
    """The name of rule set ``index`` (0-based) in the renderings: A, B... Z, then R27, R28..."""
    return chr(ord("A") + index) if index < 26 else f"R{index + 1}"


def compare_rules(record: RecordData | ParseResult | Record, rules_list: Sequence[Rules]) -> Comparison:
    """The deal of ``record`` validated under each of ``rules_list`` (two or more) and compared."""
    if len(rules_list) < 2:
        raise ValueError(f"compare_rules needs two or more rule sets, got {len(rules_list)}")
    scored = []
    for index, rules in enumerate(rules_list):
        # no repair suggestions: they cost some fifty validations each and the comparison shows none
        report = validate(record, rules, repair=False)
        scored.append(Scored(label(index), rules, report.score, report.findings, report))
    return Comparison(tuple(scored), breakdown_rows(scored),
                      tuple(findings_change(scored, 0, other) for other in range(1, len(scored))))


# --- the rows -------------------------------------------------------------------

def breakdown_rows(scored: Sequence[Scored]) -> tuple[Row, ...]:
    """The rows of the breakdown, each with its values under every rule set."""
    rows = []
    for key, name, nothing in DEAL_ROWS:
        values = [(_deal_value(s.score, key),) for s in scored]
        if nothing is _NOTHING or any(cells[0] not in (nothing, None) for cells in values):
            rows.append(_row(key, name, False, values))
    for name, field in SCORE_ROWS:
        rows.append(_row(field, name, True, [_side_values(s.score, field) for s in scored]))
    rows.append(_row("scores", "final score", False, [(_final(s.score),) for s in scored]))
    recorded = scored[0].report.recorded
    if recorded is not None:
        rows.append(_row("result", f"Result tag {recorded[0]}-{recorded[1]}", False,
                         [(_result_text(s.result_matches),) for s in scored]))
    return tuple(rows)


def _row(key: str, name: str, per_side: bool, values: Sequence[tuple[Cell, ...]]) -> Row:
    return Row(key, name, per_side, tuple(values), any(cells != values[0] for cells in values))


def _deal_value(score: DealScore | None, key: str) -> Cell:
    if score is None or score.outcome is Outcome.VOID:
        return "void" if score is not None and key == "outcome" else None
    if key == "contract":
        return str(score.contract) if score.contract is not None else None
    if key in ("outcome", "capot"):
        value = getattr(score, key)
        return None if value is None else str(value)
    if key == "formula":
        return score.formula or None
    number: int = getattr(score, key)
    return number


def _side_values(score: DealScore | None, field: str) -> tuple[Cell, Cell]:
    def value(side: SideScore | None) -> Cell:
        return None if side is None else int(getattr(side, field))
    return (None, None) if score is None else (value(score.ns), value(score.ew))


def _final(score: DealScore | None) -> Cell:
    if score is None:
        return None
    ns, ew = score.scores
    return f"{ns}-{ew}"


def _result_text(matches: bool | None) -> Cell:
    return None if matches is None else "matches" if matches else "differs"


# --- the findings -----------------------------------------------------------------

FindingKey = tuple[str, Location, str]


def finding_key(finding: Finding) -> FindingKey:
    """What makes two findings the same one: rule id, location and message (not the legal
    alternatives or repairs listed with it)."""
    return finding.rule, finding.location, finding.message


def findings_change(scored: Sequence[Scored], base: int, other: int) -> FindingsChange:
    """The findings of rule set ``other`` against rule set ``base``, each list in report order."""
    before = {finding_key(f) for f in scored[base].findings}
    after = {finding_key(f) for f in scored[other].findings}
    return FindingsChange(base, other,
                          tuple(f for f in scored[other].findings if finding_key(f) not in before),
                          tuple(f for f in scored[base].findings if finding_key(f) not in after),
                          tuple(f for f in scored[other].findings if finding_key(f) in before))
