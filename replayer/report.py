"""The report of one record's validation: plain data, cheap to make and to pickle."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from notation.values import Seat

from .engine.scoring import DealScore
from .findings import Finding, Severity


@dataclass(frozen=True, slots=True)
class Report:
    """The validation of one record: findings in order of position, the rescored deal
    and its comparison with the recorded Result. Plain data: it pickles cheaply."""

    index: int
    findings: tuple[Finding, ...]
    rules: str
    tags: tuple[tuple[str, str], ...] = ()
    dealer: Seat | None = None
    score: DealScore | None = None
    recorded: tuple[int, int] | None = None
    lines: tuple[int, int] | None = None  # the record's first and last line in its file
    unchecked: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """No error (warnings and notes allowed)."""
        findings = self.findings
        return not findings or not any(f.severity is Severity.ERROR for f in findings)  # most records: none

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def rule_ids(self) -> set[str]:
        return {f.rule for f in self.findings}

    @property
    def rescored(self) -> tuple[int, int] | None:
        return self.score.scores if self.score is not None else None

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def as_dict(self) -> dict[str, Any]:
        return {
            "record": self.index, "ok": self.ok, "rules": self.rules,
            "lines": list(self.lines) if self.lines else None,
            "dealer": str(self.dealer) if self.dealer else None,
            "findings": [f.as_dict() for f in self.findings],
            "score": self.score.as_dict() if self.score else None,
            "recorded_result": list(self.recorded) if self.recorded else None,
            "result_matches": None if self.recorded is None or self.score is None
            else self.recorded == self.score.scores,
            "unchecked": list(self.unchecked),
        }

    def text(self) -> str:
        """A human rendering: one line per finding, then the rescored breakdown."""
        where = f" (lines {self.lines[0]}-{self.lines[1]})" if self.lines else ""
        status = "ok" if self.ok else f"{len(self.errors)} error(s)"
        out = [f"record {self.index + 1}{where}: {status} [{self.rules}]"]
        out += [f"  {line}" for f in self.findings for line in str(f).splitlines()]
        if self.score is not None:
            out += [f"  | {line}" for line in self.score.lines()]
            if self.recorded is not None:
                same = "matches" if self.recorded == self.score.scores else "differs"
                out.append(f"  | recorded Result {self.recorded[0]}-{self.recorded[1]}: {same}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()


_SET_INDEX, _SET_FINDINGS, _SET_RULES, _SET_TAGS, _SET_DEALER, _SET_SCORE, _SET_RECORDED, _SET_LINES, \
    _SET_UNCHECKED = (Report.__dict__[f.name].__set__ for f in dataclasses.fields(Report))


def new_report(index: int, findings: tuple[Finding, ...], rules: str, tags: tuple[tuple[str, str], ...] = (),
               dealer: Seat | None = None, score: DealScore | None = None, recorded: tuple[int, int] | None = None,
               lines: tuple[int, int] | None = None, unchecked: tuple[str, ...] = ()) -> Report:
    """``Report(...)``, the same value, made by setting the slots directly: a frozen
    dataclass's ``__init__`` goes through ``object.__setattr__`` for every field,
    which costs twice as much, and a report is made for every record (twice with
    worker processes: in the worker, then in the parent)."""
    report = _new_object(Report)
    _SET_INDEX(report, index)
    _SET_FINDINGS(report, findings)
    _SET_RULES(report, rules)
    _SET_TAGS(report, tags)
    _SET_DEALER(report, dealer)
    _SET_SCORE(report, score)
    _SET_RECORDED(report, recorded)
    _SET_LINES(report, lines)
    _SET_UNCHECKED(report, unchecked)
    return report


_new_object = object.__new__
