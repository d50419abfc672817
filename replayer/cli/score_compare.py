"""``belote score --compare``: each deal under two or more rule sets side by side.

- ``spread_compare`` and ``ScoreCommand``: ``--compare A B`` read as ``--compare A --compare B``
  (click gives an option a fixed number of values);
- ``compared_with_matches``: each record compared (``replayer.check.compare.compare_rules``),
  and each match checked under every rule set after its last deal;
- ``compare_lines`` and ``match_compare_lines``: their text. The table is ``score_lines``' (the
  same rows, a label of 20 and columns of 11 per side) with one column group per rule set,
  named A, B... in a legend above it; a row about the whole deal too wide for its group (a
  formula, mostly) is written below its label, one line per rule set; rows that differ start
  with ``*`` (and are bold on a terminal).

The command itself is ``score_command`` in ``replayer.cli``.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import click

from notation.parser import ParseResult

from ..check.compare import Cell, Comparison, FindingsChange, Row, Scored, compare_rules
from ..check.findings import Finding
from ..check.matches import MatchReport, check_match, match_key, with_match_checks
from ..check.report import Report
from ..engine.rules import Rules
from .render import printable, record_title


# --- the command line -----------------------------------------------------------

def spread_compare(args: list[str]) -> list[str]:
    """``--compare A B C`` as ``--compare A --compare B --compare C``: click gives an option a
    fixed number of values, so the words after the value of ``--compare``, up to the next
    option (or ``--``), are each made a ``--compare`` of their own before click reads them.
    FILE may come last all the same (``--compare A B FILE``): when no other word is left for
    it, the last of those words is FILE."""
    spread: list[str] = []
    state = "word"  # "value": the next word is an option's own value; "more": more values of --compare
    positionals = 0
    added: int | None = None  # where the last "--compare" put in stands in ``spread``
    for number, arg in enumerate(args):
        if arg == "--":
            positionals += len(args) - number - 1
            spread += args[number:]
            break
        if state == "value":  # click takes it whatever it looks like
            spread.append(arg)
            state = "more" if spread[-2] == "--compare" else "word"
            continue
        if state == "more" and not arg.startswith("-"):  # ("-", standard input, is FILE)
            added = len(spread)
            spread += ["--compare", arg]
            continue
        state = "value" if arg in ("--compare", "--rules") else "more" if arg.startswith("--compare=") else "word"
        positionals += arg == "-" or not arg.startswith("-")
        spread.append(arg)
    if positionals == 0 and added is not None:
        del spread[added]  # that word is FILE
    return spread


class ScoreCommand(click.Command):
    """``belote score``, whose ``--compare`` takes every word after it (``spread_compare``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread_compare(args))


# --- the deals and the matches ----------------------------------------------------

def compared_with_matches(results: Iterator[ParseResult], rule_sets: tuple[Rules, ...]
                          ) -> Iterator[Comparison | tuple[MatchReport, ...]]:
    """Each record compared, and after a match's last deal its check under each rule set
    (``with_match_checks`` finds the matches from the first rule set's reports)."""
    pending: dict[int, Comparison] = {}  # by record index: the deals of the match under way

    def first_reports() -> Iterator[Report]:
        for result in results:
            comparison = compare_rules(result, rule_sets)
            pending[comparison.report.index] = comparison
            yield comparison.report

    for item in with_match_checks(first_reports(), rule_sets[0]):
        if isinstance(item, Report):
            yield pending[item.index] if match_key(item) is not None else pending.pop(item.index)
            continue
        deals = [pending.pop(deal.record) for deal in item.deals]
        yield (item,) + tuple(check_match([deal.scored[i].report for deal in deals], rules)
                              for i, rules in enumerate(rule_sets) if i)


# --- the text ----------------------------------------------------------------------

_LABEL = 20  # the width of a row's label, as in score_lines
_SIDE = 11  # the width of a side's column, as in score_lines
_GROUP = 2 * _SIDE  # a rule set's columns: NS and EW
DIFFERS_MARK = "*"


def compare_lines(comparison: Comparison) -> list[str]:
    """One deal under every rule set: title, legend, table, findings that appear or vanish."""
    report = comparison.report
    lines = [record_title(report).removesuffix(f" [{report.rules_text}]")]
    notes = [scored.note for scored in comparison.scored]
    tabled = any(note is None for note in notes)  # a breakdown to line up under some rule set
    said_once = not tabled and len(set(notes)) == 1  # the same reason under every rule set: said once, below
    for scored in comparison.scored:
        note = f"  ({scored.note})" if scored.note and not said_once else ""
        lines.append(printable(f"  {scored.label}: {scored.rules_text}{note}"))
    if tabled:
        lines += table_lines(comparison)
    elif said_once and comparison.scored[0].score is not None:
        lines.append("  void deal under every rule set: nobody took, no score (0-0)")
    elif said_once:
        lines.append("  not scored under any rule set:")
        lines += [f"    {_finding_line(f)}" for f in comparison.scored[0].findings]
    for change in comparison.changes:
        lines += change_lines(change, comparison.scored)
    return lines


def table_lines(comparison: Comparison) -> list[str]:
    """The side-by-side breakdown, its rows that differ marked."""
    scored = comparison.scored
    lines = [f"  {'':{_LABEL}}" + "".join(f"{s.label:>{_GROUP}}" for s in scored),
             f"  {'':{_LABEL}}" + "".join(f"{'NS':>{_SIDE}}{'EW':>{_SIDE}}" for _ in scored)]
    for row in comparison.rows:
        lines += _row_lines(row, scored)
    if any(row.differs for row in comparison.rows):
        lines.append(f"  ({DIFFERS_MARK}: differs between the rule sets)")
    else:
        lines.append("  the breakdown is the same under every rule set")
    return lines


def _row_lines(row: Row, scored: Sequence[Scored]) -> list[str]:
    mark = DIFFERS_MARK if row.differs else " "
    if row.per_side:
        text = "".join(f"{_cell_text(cells[0]):>{_SIDE}}{_cell_text(cells[1]):>{_SIDE}}" for cells in row.values)
        lines = [f"{mark} {row.label:{_LABEL}}{text}"]
    elif all(len(_cell_text(cells[0])) < _GROUP for cells in row.values):
        lines = [f"{mark} {row.label:{_LABEL}}" + "".join(f"{_cell_text(c[0]):>{_GROUP}}" for c in row.values)]
    else:  # too wide for its columns: one line per rule set below the label
        lines = [f"{mark} {row.label}"]
        lines += [f"      {s.label}  {_cell_text(cells[0])}" for s, cells in zip(scored, row.values)]
    return [click.style(line, bold=True) if row.differs else line for line in lines]


def _cell_text(value: Cell) -> str:
    return "-" if value is None else str(value)


def change_lines(change: FindingsChange, scored: Sequence[Scored]) -> list[str]:
    """What changes in the findings from one rule set to another."""
    base, other = scored[change.base].label, scored[change.other].label
    lines = []
    for verb, findings in (("appear", change.appear), ("vanish", change.vanish)):
        if not findings:
            lines.append(f"  findings that {verb} under {other}: none")
            continue
        lines.append(f"  findings that {verb} under {other} ({len(findings)}):")
        lines += [f"    {_finding_line(f)}" for f in findings]
    lines.append(f"  findings under both {base} and {other}: {len(change.same)}")
    return lines


def _finding_line(finding: Finding) -> str:
    """``LINE:COLUMN: severity [rule] message`` on one line (no legal alternatives)."""
    where = f"{finding.location.line}:{finding.location.column or 1}: " if finding.location.line is not None else ""
    return printable(f"{where}{finding.severity.value} [{finding.rule}] {finding.message}")


def match_compare_lines(matches: Sequence[MatchReport], labels: Sequence[str]) -> list[str]:
    """A match's totals under each rule set (``labels`` name them), marked when they differ,
    each followed by its match findings."""
    # the first line of a match's text is "NAME: deals, target, totals, winner"
    name = " / ".join(x for x in (matches[0].event, matches[0].round) if x) or "match"
    facts = [match.text().splitlines()[0].removeprefix(f"{name}: ") for match in matches]
    mark = DIFFERS_MARK if any(fact != facts[0] for fact in facts) else " "
    lines = [printable(f"{name}: the match under each rule set")]
    for label, fact, match in zip(labels, facts, matches):
        line = f"{mark} {label}: {fact}"
        lines.append(click.style(line, bold=True) if mark == DIFFERS_MARK else line)
        lines += [f"      {_finding_line(f)}" for f in match.findings]
    return lines
