"""``belote analyse FILE...``: the double-dummy analysis of every record (docs/analysis.md).

Each record is analysed by ``check.analysis`` (the value of every legal card at every step,
the cost and mark of each card played, the claim checked), in this process, in ``--jobs N``
worker processes, or on a Dask distributed cluster (``--scheduler ADDRESS``). Whichever way
it runs, every record goes through the same task (``analysis.analysis_task``: the record's
text in, the analysis as JSON data out) and the analyses come back in input order: the
output is the same.

Output: text (per deal, per trick, each card with its value, the best card(s) when another,
the mark; totals per player and side, per file), JSON (one document), or with
``--annotate`` the records themselves in the notation, the marks written as annotation
glyphs and comments.

Exit codes: 0 every record analysed to its end, 1 some analysis stopped early (an illegal
play, unknown hands, the time limit, a record that cannot be read), 2 usage or input
trouble (a missing or unreadable file, bad rules, a scheduler that cannot be reached).
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import click

from notation.parser import ParseResult, parse
from notation.writer import FILE_HEADER, write_record
from notation.errors import WriteError

from ..check.analysis import (GLYPHS, MARKS, DealAnalysis, Executor, StepAnalysis, Tally, Totals, analysed,
                              analysis_task, annotate, local_executor)
from ..engine.rules import Rules
from . import EXCLUDE_OPTION, RULES_OPTION, syntax_problem
from .import_command import analyse_archive
from .inputs import InputError, expand, open_input
from .render import printable



# --- the command ----------------------------------------------------------------

@click.command("analyse")
@click.argument("files", nargs=-1)
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format (see below); --annotate writes the notation instead.")
@click.option("--annotate", is_flag=True,
              help="Write the records back in the notation, each marked card with its glyph (?! inaccuracy, "
                   "? mistake, ?? blunder) and a comment {best: TH (+24)}.")
@RULES_OPTION
@click.option("--max-seconds", "max_seconds", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Stop the analysis of a record after S seconds, with what it has (per record).")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Analyse the records in N worker processes; the output is the same, in input order.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Analyse the records on the Dask distributed cluster of this scheduler "
                   "(tcp://host:8786); needs the dask extra: pip install 'belote-replayer[dask]'.")
@EXCLUDE_OPTION
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="Analyse the records of this archive that have no analysis yet and store the analyses "
                   "(docs/archive.md), instead of FILES.")
def analyse_command(files: tuple[str, ...], output: str, annotate: bool, rules: Rules | None,
                    max_seconds: float | None, jobs: int, scheduler: str | None, exclude: tuple[str, ...],
                    db_path: str | None = None) -> None:
    """The double-dummy analysis of every record of FILES: at each card played, the
    value of every legal card (the final card points of each side when both sides
    then play their best), the best card(s), what the card played cost its side and
    a mark (inaccuracy 10-19 card points, mistake 20-39, blunder 40 or more or a card
    that changes the contract's fate); a claim is said sound or not; totals per
    player and side, per deal and per file.

    FILES are record files, directories (every *.belote file below them: see
    --exclude) or - for standard input.

    JSON output: one document, {"records": [{"file", "record", "lines",
    "analysis"}...], "files": [{"file", "records", "totals"}...], "totals",
    "summary"}; each analysis as docs/analysis.md describes it.

    Exit status: 0 every record analysed to its end, 1 some analysis stopped
    early (illegal play, unknown hands, time limit, unreadable record), 2 usage
    or input trouble.
    """
    if db_path is not None:  # the archive's records, their analyses stored there (Archive.analyse)
        analyse_archive(db_path, files=files, jobs=jobs, max_seconds=max_seconds, rules=rules, scheduler=scheduler,
                        annotate=annotate, output=output)
    if not files:
        raise click.UsageError("Missing argument 'FILES...'.")
    if scheduler is not None and jobs > 1:
        raise click.UsageError("--jobs and --scheduler cannot be used together: the cluster's workers do the work")
    # Where the records come from: (name, records) pairs, each analysed by the loop below (the
    # archive's records, `--db PATH` above, are analysed and stored by the archive itself).
    sources = file_sources(files, exclude)
    sink: Sink = AnnotateSink() if annotate else JSONSink() if output == "json" else TextSink()
    tally = RunTally()
    with _executor(jobs, scheduler) as executor:
        for name, records in sources:
            try:
                count = 0
                for result, analysis in analysed(records, executor, rules, max_seconds):
                    count += 1
                    tally.add(analysis)
                    sink.emit(name, result, analysis)
                if count == 0:
                    raise InputError(f"{name}: no record found")
                sink.end_file(name)
            except InputError as error:
                error.show()
                tally.trouble = True
    sink.close(tally)
    sys.exit(tally.exit_code)


def file_sources(files: tuple[str, ...], exclude: tuple[str, ...]) -> Iterator[tuple[str, Iterator[ParseResult]]]:
    """Each input (a directory stands for its record files) and its records, read as they are
    analysed; an input that cannot be read raises ``InputError`` when its records are asked for."""
    for name in expand(files, exclude):
        yield name, _file_records(name)


def _file_records(name: str) -> Iterator[ParseResult]:
    with open_input(name) as source:
        yield from parse(source)


# --- running the tasks ------------------------------------------------------------

@contextmanager
def _executor(jobs: int, scheduler: str | None) -> Iterator[Executor]:
    if scheduler is None:
        with local_executor(jobs) as executor:
            yield executor
        return
    with _dask_executor(scheduler) as executor:
        yield executor


@contextmanager
def _dask_executor(address: str) -> Iterator[Executor]:
    """A client of the Dask cluster at ``address``; its workers must have this package installed."""
    # dask is an optional extra (pip install 'belote-replayer[dask]'), imported only when --scheduler is
    # given: the one import inside a function in the package, so that `belote` runs without dask.
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError("--scheduler needs dask: pip install 'belote-replayer[dask]'") from None
    try:
        client = Client(address, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(f"--scheduler {address}: cannot reach the scheduler: {error}") from None
    try:
        threads = sum(client.nthreads().values()) or 1
        yield Executor(lambda task: client.submit(analysis_task, *task, pure=False), lambda future: future.result(),
                       4 * threads)
    finally:
        client.close()


# --- the outputs --------------------------------------------------------------------

@dataclass
class RunTally:
    """What a run analysed, for the summary and the exit status."""

    records: int = 0
    complete: int = 0
    stopped: dict[str, int] = field(default_factory=dict)  # reason -> records
    trouble: bool = False  # an input could not be read

    def add(self, analysis: DealAnalysis) -> None:
        self.records += 1
        self.complete += analysis.complete
        if analysis.stopped is not None and not analysis.complete:
            self.stopped[analysis.stopped.reason] = self.stopped.get(analysis.stopped.reason, 0) + 1

    @property
    def exit_code(self) -> int:
        return 2 if self.trouble else 1 if self.complete < self.records else 0

    def as_dict(self) -> dict[str, Any]:
        return {"records": self.records, "complete": self.complete, "stopped": dict(sorted(self.stopped.items())),
                "ok": self.exit_code == 0}

    def text(self) -> str:
        stopped = ", ".join(f"{count} {reason}" for reason, count in sorted(self.stopped.items()))
        return (f"{self.records} record(s) analysed, {self.complete} to the end"
                + (f", {self.records - self.complete} stopped early ({stopped})" if stopped else ""))


class Sink:
    def __init__(self) -> None:
        self.totals = Totals()  # of the run
        self.file_totals = Totals()
        self.file_records = 0

    def emit(self, name: str, result: ParseResult, analysis: DealAnalysis) -> None:
        self.file_totals += analysis.totals
        self.file_records += 1
        self.totals += analysis.totals

    def end_file(self, name: str) -> None:
        self.file_totals, self.file_records = Totals(), 0

    def close(self, tally: RunTally) -> None:
        pass


class TextSink(Sink):
    def emit(self, name: str, result: ParseResult, analysis: DealAnalysis) -> None:
        super().emit(name, result, analysis)
        click.echo("\n".join(printable(line) for line in analysis_lines(name, result, analysis)) + "\n")

    def end_file(self, name: str) -> None:
        if self.file_records > 1:
            click.echo("\n".join(printable(line) for line in [f"{name}: totals of {self.file_records} records",
                                                             *totals_lines(self.file_totals)]) + "\n")
        super().end_file(name)

    def close(self, tally: RunTally) -> None:
        click.echo(tally.text())


def analysis_lines(name: str, result: ParseResult, analysis: DealAnalysis) -> list[str]:
    """The text of one record's analysis."""
    source = result.source
    lines = [f"{name}: record {result.index + 1} (lines {source.first_line}-{source.last_line}) [{analysis.rules}]"]
    trick = 0
    for step in analysis.steps:
        if step.trick != trick:
            trick = step.trick
            lines.append(f"  trick {trick}")
        lines.append(step_line(step))
    claim = analysis.claim
    if claim is not None:
        verdict = {True: "sound", False: f"unsound: {claim.seat.team.other} can take a trick",
                   None: "not checked"}[claim.sound]
        lines.append(f"  claim by {claim.seat} before step {claim.step}: {verdict}")
    if analysis.stopped is not None:
        where = f" at step {analysis.stopped.step}" if analysis.stopped.step is not None else ""
        lines.append(f"  stopped{where} ({analysis.stopped.reason}): {analysis.stopped.message}")
    if analysis.steps:
        lines += totals_lines(analysis.totals)
    return lines


def step_line(step: StepAnalysis) -> str:
    """``   28. E 9D  EW  66   best TD 89 (-23)   ?? blunder, the contract fails``."""
    side = "NS" if step.seat.index & 1 == 0 else "EW"
    value = step.played.points[step.seat.index & 1]
    line = f"    {step.step:>2}. {step.seat} {str(step.card):<2}  {side} {value:>3}"
    if step.cost:
        best = step.best_option.points[step.seat.index & 1]
        line += f"   best {' '.join(map(str, step.best))} {best} (-{step.cost})"
    if step.mark is not None:
        line += f"   {GLYPHS[step.mark]} {step.mark}"
        if step.fate_changed:
            line += ", the contract makes" if step.played.made else ", the contract fails"
    return line


def totals_lines(totals: Totals) -> list[str]:
    rows = [f"  {'totals':<8}{'cards':>6}{'cost':>6}" + "".join(f"{GLYPHS[mark]:>4}" for mark in MARKS)]
    for key in ("N", "E", "S", "W", "NS", "EW"):
        tally: Tally = totals.of(key)
        rows.append(f"  {key:<8}{tally.cards:>6}{tally.cost:>6}" + "".join(f"{tally.count(mark):>4}" for mark in MARKS))
    return rows


class JSONSink(Sink):
    """One JSON document, each record's analysis printed when it is ready."""

    def __init__(self) -> None:
        super().__init__()
        self.first = True
        self.files: list[dict[str, Any]] = []
        click.echo('{"records": [', nl=False)

    def emit(self, name: str, result: ParseResult, analysis: DealAnalysis) -> None:
        super().emit(name, result, analysis)
        source = result.source
        text = json.dumps({"file": name, "record": result.index, "lines": [source.first_line, source.last_line],
                           "analysis": analysis.as_dict()}, ensure_ascii=False)
        click.echo(("\n" if self.first else ",\n") + text, nl=False)
        self.first = False

    def end_file(self, name: str) -> None:
        self.files.append({"file": name, "records": self.file_records, "totals": self.file_totals.as_dict()})
        super().end_file(name)

    def close(self, tally: RunTally) -> None:
        files = json.dumps(self.files, ensure_ascii=False)
        click.echo(f'\n],\n"files": {files},\n"totals": {json.dumps(self.totals.as_dict())},\n'
                   f'"summary": {json.dumps(tally.as_dict())}}}')


class AnnotateSink(Sink):
    """The records in the notation, marked (``analysis.annotate``); a record that cannot be read
    cannot be written back: it is reported on stderr and left out."""

    def __init__(self) -> None:
        super().__init__()
        click.echo(FILE_HEADER, nl=False)

    def emit(self, name: str, result: ParseResult, analysis: DealAnalysis) -> None:
        super().emit(name, result, analysis)
        record = result.record
        if record is None:
            click.echo(syntax_problem(name, result.errors[0], "cannot annotate"), err=True)
            return
        try:
            text = write_record(annotate(record, analysis))
        except WriteError as error:
            click.echo(printable(f"{name}:{result.source.first_line}: cannot annotate: {error}"), err=True)
            return
        click.echo("\n" + text, nl=False)

    def close(self, tally: RunTally) -> None:
        click.echo(tally.text(), err=True)


__all__ = ["analyse_command", "analysed", "analysis_lines", "step_line", "totals_lines"]
