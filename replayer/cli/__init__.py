"""The ``belote`` command line: validate, score, fmt, convert, show, generate, import, serve.

A thin layer over the notation and the engine: each command opens its inputs
(``replayer.inputs``), streams the records through the parser, the validator or
the generator, and prints. Exit codes: 0 clean, 1 findings (errors, files that
would change, records that cannot be read), 2 usage or input trouble (missing,
directory, binary or empty input, unknown rules).
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
from contextlib import contextmanager
from typing import IO, Any, Iterator

import click

from notation.values import SEATS
from notation.errors import JSONFormatError, RecordSyntaxError, WriteError
from notation.jsonio import decode_json, from_json, to_json
from notation.parser import ParseResult, parse
from notation.record import Record
from notation.splitter import MAX_RECORD
from notation.writer import write_file

from ..engine.generator import generate_match
from ..engine.rules import Rules, RulesError
from ..check.findings import Finding, Severity
from .inputs import BLOCK, STDIN, Input, InputError, describe_os_error, expand, open_input
from ..check.compare import Comparison, label
from ..check.matches import MatchReport, with_match_checks
from .render import match_lines, printable, score_lines, show_lines
from .score_compare import ScoreCommand, compare_lines, compared_with_matches, match_compare_lines
from ..check.report import Report
from ..check.streams import validate_stream
from ..check.validator import fill_seats, validate

PROGRESS_MIN_BYTES = 1 << 20  # below this a run is short: no progress bar


def parse_rules(text: str, option: str = "--rules") -> Rules:
    """``Rules.parse``, a bad rules string being an ``InputError`` (exit 2) naming the option."""
    try:
        return Rules.parse(text)
    except RulesError as error:
        raise InputError(f"{option} {text!r}: {error}") from None


def _rules_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Rules | None:
    return None if value is None else parse_rules(value)


RULES_OPTION = click.option("--rules", "rules", metavar="RULES", callback=_rules_option,
                            help='Rules for every record, overriding its tags: a profile and options, '
                                 'e.g. "ffb-coinche; undertrump=must".')
EXCLUDE_OPTION = click.option("--exclude", "exclude", multiple=True, metavar="PATTERN",
                              help="Leave out the files below a directory of FILES whose path, relative to "
                                   "that directory, or one of its parts matches the glob PATTERN (e.g. invalid, "
                                   "'*-draft.belote'); repeatable. Files named themselves are never left out.")


class LazyGroup(click.Group):
    """A group whose heavier commands are imported when run (click's lazy loading): ``belote
    validate`` need not wait for Flask and the archive to load."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy  # command name -> "module:attribute"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module, name = self.lazy[cmd_name].split(":")
            command: click.Command = getattr(importlib.import_module(module), name)
            return command
        return super().get_command(ctx, cmd_name)


# The archive and the site have their own modules, loaded only when their command runs.
@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             lazy={"import": "replayer.cli.import_command:import_command", "analyse": "replayer.cli.analyse_command:analyse_command", "serve": "replayer.web.serve:serve_command",
                   "stats": "replayer.cli.stats_command:stats_command"})
def belote() -> None:
    """Record, check and replay games of Belote, Belote with announcements and Coinche."""


# --- validate -----------------------------------------------------------------

@belote.command("validate")
@click.argument("files", nargs=-1, required=True)
@RULES_OPTION
@EXCLUDE_OPTION
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format (see below).")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Validate in N processes; the output is in input order all the same.")
def validate_command(files: tuple[str, ...], rules: Rules | None, exclude: tuple[str, ...], output: str,
                     jobs: int) -> None:
    """Replay every record of FILES and report every fault.

    FILES are record files, directories (every *.belote file below them, in
    their subdirectories too: see --exclude) or - for standard input.

    Text output: one line per finding, FILE:LINE:COLUMN: SEVERITY [RULE-ID]
    MESSAGE (match findings too: Score tags, dealer rotation), then a summary.

    JSON output: one document, {"records": [...], "matches": [...], "summary":
    {...}}, each record being a report's as_dict() with its "file"; it is
    written record by record (the matches through a temporary file), so
    memory stays flat on huge files.

    Exit status: 0 no error finding, 1 error findings, 2 usage or input trouble.
    """
    sink = JSONSink() if output == "json" else TextSink()
    tally = Tally()
    for name in expand(files, exclude):
        try:
            with open_input(name) as source:
                count = 0
                for item in with_match_checks(_progress(source, validate_stream(source, rules, jobs))):
                    count += isinstance(item, Report)
                    tally.add(item)
                    sink.emit(name, item)
                if count == 0:
                    raise InputError(f"{name}: no record found")
        except InputError as error:
            error.show()
            tally.trouble = True
    sink.close(tally)
    sys.exit(tally.exit_code)


def _progress(source: Input, reports: Iterator[Report]) -> Iterator[Report]:
    """A progress bar on stderr over the bytes read, for a long run on a terminal."""
    if source.size is None or source.size < PROGRESS_MIN_BYTES or not sys.stderr.isatty():
        yield from reports
        return
    with click.progressbar(length=source.size, label=source.name, file=sys.stderr) as bar:
        for report in reports:
            bar.update(source.bytes_read - bar.pos)
            yield report


@dataclasses.dataclass
class Tally:
    """What a run found, for the summary and the exit status."""

    records: int = 0
    faulty: int = 0
    errors: int = 0
    warnings: int = 0
    trouble: bool = False  # an input could not be read

    def add(self, item: Report | MatchReport) -> None:
        is_record = isinstance(item, Report)
        self.records += is_record
        self.faulty += is_record and not item.ok
        self.errors += sum(f.severity is Severity.ERROR for f in item.findings)
        self.warnings += sum(f.severity is Severity.WARNING for f in item.findings)

    @property
    def exit_code(self) -> int:
        return 2 if self.trouble else 1 if self.errors else 0

    def as_dict(self) -> dict:
        return {"records": self.records, "faulty": self.faulty, "errors": self.errors,
                "warnings": self.warnings, "ok": self.exit_code == 0}

    def text(self) -> str:
        return (f"{self.records} record(s), {self.faulty} with errors: "
                f"{self.errors} error(s), {self.warnings} warning(s)")


class TextSink:
    def emit(self, name: str, item: Report | MatchReport) -> None:
        for finding in sorted(item.findings, key=lambda f: f.location.line is not None):
            click.echo(finding_text(name, finding, item))

    def close(self, tally: Tally) -> None:
        click.echo(tally.text())


def finding_text(name: str, finding: Finding, item: Report | MatchReport) -> str:
    """``FILE:LINE:COLUMN: severity [rule] message``; a finding about a whole record is put
    at the record's first line."""
    if finding.location.line is not None:
        return printable(f"{name}:{finding}")
    if isinstance(item, Report) and item.lines:
        return printable(f"{name}:{item.lines[0]}:1: {finding}")
    return printable(f"{name}: {finding}")


MATCHES_IN_MEMORY = 1 << 20  # bytes of match reports kept in memory; beyond, they go to a temporary file


class JSONSink:
    """One JSON document written item by item: records, then the matches, then the summary.

    Each record is printed when it is ready; each match is written when it is ready to a
    spool (in memory up to ``MATCHES_IN_MEMORY``, then on disk) that is copied out after the
    records, so memory stays flat whatever the number of matches."""

    def __init__(self) -> None:
        self.matches: IO[str] = tempfile.SpooledTemporaryFile(MATCHES_IN_MEMORY, mode="w+", encoding="utf-8")
        self.first = self.first_match = True
        click.echo('{"records": [', nl=False)

    def emit(self, name: str, item: Report | MatchReport) -> None:
        text = json.dumps({"file": name, **item.as_dict()}, ensure_ascii=False)
        if isinstance(item, MatchReport):
            self.matches.write(text if self.first_match else ",\n" + text)
            self.first_match = False
            return
        click.echo(("\n" if self.first else ",\n") + text, nl=False)
        self.first = False

    def close(self, tally: Tally) -> None:
        click.echo('\n],\n"matches": [', nl=False)
        self.matches.seek(0)
        while block := self.matches.read(BLOCK):
            click.echo(block, nl=False)
        self.matches.close()
        click.echo(f'],\n"summary": {json.dumps(tally.as_dict())}}}')


# --- score --------------------------------------------------------------------

def _compare_option(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[Rules, ...]:
    rule_sets = tuple(parse_rules(text, "--compare") for text in value)
    if len(rule_sets) == 1:
        raise click.BadParameter("give two or more rules texts, e.g. --compare ffb-coinche ffb-contree", ctx, param)
    return rule_sets


@belote.command("score", cls=ScoreCommand)
@click.argument("file")
@RULES_OPTION
@click.option("--compare", "compare", multiple=True, metavar="RULES...", callback=_compare_option,
              help='Score each deal under two or more rule sets side by side, e.g. --compare ffb-coinche '
                   '"ffb-coinche; rounding=none" (every word up to the next option; --compare A --compare B '
                   'works too): the rows that differ are marked *, then the findings that appear or vanish '
                   'under each rule set after the first. Not with --rules.')
def score_command(file: str, rules: Rules | None, compare: tuple[Rules, ...]) -> None:
    """The score breakdown of each deal of FILE, and each match's running totals.

    With --compare, each deal under every rule set given, side by side, and each
    match's totals under each of them.

    Exit status: 0 no error finding, 1 error findings (the breakdown is the deal as
    the engine rescores it; with --compare, under any of the rule sets), 2 usage or
    input trouble.
    """
    if compare:
        if rules is not None:
            raise click.UsageError("--rules and --compare do not go together: --compare names every rule set")
        sys.exit(compare_scores(file, compare))
    tally = Tally()
    with open_input(file) as source:
        for item in with_match_checks(validate_stream(source, rules)):
            tally.add(item)
            lines = score_lines(item) if isinstance(item, Report) else match_lines(item)
            click.echo("\n".join(lines) + "\n")
    if tally.records == 0:
        raise InputError(f"{file}: no record found")
    sys.exit(tally.exit_code)


def compare_scores(file: str, rule_sets: tuple[Rules, ...]) -> int:
    """``belote score --compare``: print each deal of FILE under every rule set, and each match's
    totals; return the exit status (1: an error finding under any rule set)."""
    tally = Tally()
    count = 0
    with open_input(file) as source:
        for item in compared_with_matches(parse(source), rule_sets):
            if isinstance(item, Comparison):
                count += 1
                for scored in item.scored:
                    tally.add(scored.report)
                lines = compare_lines(item)
            else:
                for match in item:
                    tally.add(match)
                lines = match_compare_lines(item, [label(i) for i in range(len(rule_sets))])
            click.echo("\n".join(lines) + "\n")
    if count == 0:
        raise InputError(f"{file}: no record found")
    return tally.exit_code


# --- fmt ----------------------------------------------------------------------

SPOOL_BYTES = 8 << 20  # a formatted file is kept in memory up to this size, on disk beyond


@belote.command("fmt")
@click.argument("files", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a file would change, and list it.")
@EXCLUDE_OPTION
def fmt_command(files: tuple[str, ...], check: bool, exclude: tuple[str, ...]) -> None:
    """Rewrite FILES in the canonical form, in place (- : stdin to stdout). A
    directory stands for every *.belote file below it, in its subdirectories too.

    Seat prefixes a transcriber left out are filled in when the record replays
    without fault. A file with a record that cannot be read is left untouched and
    reported (from stdin, the input is copied to stdout unchanged).

    Exit status: 0 nothing to change (or all rewritten), 1 a file would change
    (--check) or cannot be read as records, 2 usage or input trouble.
    """
    changed = failed = same = 0
    trouble = False
    for name in expand(files, exclude):
        try:
            outcome = format_input(name, check)
        except InputError as error:
            error.show()
            trouble = True
            continue
        changed += outcome == "changed"
        failed += outcome == "failed"
        same += outcome == "same"
    verb = "would be reformatted" if check else "reformatted"
    click.echo(f"{changed} file(s) {verb}, {same} unchanged, {failed} not formatted", err=True)
    sys.exit(2 if trouble else 1 if failed or (check and changed) else 0)


def format_input(name: str, check: bool) -> str:
    """Format one input; return "same", "changed" or "failed" (a record that cannot be
    read, or that the canonical form cannot express)."""
    with _spooled_stdin(name) as stdin, open_input(name, stdin) as source, \
            tempfile.SpooledTemporaryFile(SPOOL_BYTES) as formatted:
        try:
            count, errors = canonical_copy(source, formatted)
            problems = [syntax_problem(name, error, "cannot format") for error in errors]
        except WriteError as error:
            count, problems = 1, [f"{name}: cannot format: {error}"]
        if count == 0 and not problems:
            raise InputError(f"{name}: no record found")
        for problem in problems:
            click.echo(problem, err=True)
        source.rewind()
        formatted.seek(0)
        same = not problems and _same_bytes(source, formatted)
        if not problems and not same:
            click.echo(f"{'would reformat' if check else 'reformatted'} {name}", err=True)
        if name == STDIN and not check:
            source.rewind()
            formatted.seek(0)
            shutil.copyfileobj(source if problems else formatted, sys.stdout.buffer)
        elif not problems and not same and not check:
            formatted.seek(0)
            _replace(name, formatted)
    return "failed" if problems else "same" if same else "changed"


def syntax_problem(name: str, error: RecordSyntaxError, what: str) -> str:
    """``FILE:LINE:COLUMN: cannot ...: problem: expected ...`` on one line."""
    expected = f": expected {error.expected}" if error.expected else ""
    return printable(f"{name}:{error.line}:{error.column}: {what}: {error.problem}{expected}")


@contextmanager
def _spooled_stdin(name: str) -> Iterator[IO[bytes] | None]:
    """Standard input copied to a spool, to be read twice (formatted, then compared);
    ``None`` for a file, which ``open_input`` opens itself."""
    if name != STDIN:
        yield None
        return
    with tempfile.SpooledTemporaryFile(SPOOL_BYTES) as spool:
        shutil.copyfileobj(sys.stdin.buffer, spool)
        spool.seek(0)
        yield spool


def _same_bytes(first: Input, second: IO[bytes]) -> bool:
    while True:
        a, b = first.read(BLOCK), second.read(BLOCK)
        if a != b:
            return False
        if not a:
            return True


def _replace(name: str, formatted: IO[bytes]) -> None:
    """Replace file ``name`` by ``formatted`` at once (a temporary file renamed over it); a
    symbolic link stays a link: the file it leads to is replaced."""
    target = os.path.realpath(name)
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".belote-fmt-")
    try:
        with os.fdopen(handle, "wb") as out:
            shutil.copyfileobj(formatted, out)
        shutil.copymode(target, temporary)
        os.replace(temporary, target)
    except OSError as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise InputError(describe_os_error(name, error)) from None


def canonical_copy(source: Input, out: IO[bytes]) -> tuple[int, list[RecordSyntaxError]]:
    """Write the canonical form of every record of ``source`` to ``out`` (bytes); return
    the count of records written and the syntax errors (``out`` then holds only the
    records before the first one)."""
    errors: list[RecordSyntaxError] = []

    def records() -> Iterator[Record]:
        for result in parse(source):
            errors.extend(result.errors)
            if not errors and result.record is not None:
                yield fill_seats(result.record)

    text = io.TextIOWrapper(out, encoding="utf-8", newline="\n", write_through=True)
    count = write_file(records(), text)
    text.detach()
    return count, errors


# --- convert ------------------------------------------------------------------

JSON_LINE_LIMIT = MAX_RECORD * 4  # a record's JSON is a few times its notation


@belote.command("convert")
@click.option("--to", "target", type=click.Choice(["json", "notation"]), required=True,
              help="json: notation in, JSON Lines out; notation: JSON in, notation out.")
@click.option("-o", "--output", "out_name", default=STDIN, metavar="OUT", help="Write to OUT (default stdout).")
@click.option("--positions", is_flag=True, help="--to json: give each item its [line, column] as \"pos\".")
@click.argument("file")
def convert_command(target: str, out_name: str, positions: bool, file: str) -> None:
    """Convert FILE between the notation and JSON (the schema: notation/record.schema.json).

    JSON is written as JSON Lines: one record object per line. It is read as JSON
    Lines, or as one array of record objects when the input starts with "[".
    Records that cannot be read are reported on stderr and left out.

    Exit status: 0 all converted, 1 some records left out, 2 usage or input trouble.
    """
    problems = 0

    def kept(results: Iterator[Record | str]) -> Iterator[Record]:
        nonlocal problems
        for result in results:
            if isinstance(result, str):
                problems += 1
                click.echo(result, err=True)
            else:
                yield result

    if STDIN not in (file, out_name) and all(map(os.path.exists, (file, out_name))) \
            and os.path.samefile(file, out_name):
        raise InputError(f"{out_name}: the output would overwrite the input")
    with open_input(file) as source, _output(out_name) as out:
        if target == "json":
            count = 0
            for count, record in enumerate(kept(_records_of_notation(source)), 1):
                out.write(json.dumps(to_json(record, positions), ensure_ascii=False) + "\n")
        else:
            count = write_file(kept(_records_of_json(source)), out)
    if count == 0 and problems == 0:
        raise InputError(f"{file}: no record found")
    sys.exit(1 if problems else 0)


def _records_of_notation(source: Input) -> Iterator[Record | str]:
    """Each record of ``source``, or the message of why it cannot be read."""
    for result in parse(source):
        yield result.record if result.ok else syntax_problem(source.name, result.errors[0], "cannot convert")


def _records_of_json(source: Input) -> Iterator[Record | str]:
    """Each record of a JSON Lines input (or of one JSON array), or the message of why
    it cannot be read."""
    if source.head.lstrip()[:1] == b"[":
        values = _json_value(source.read(), 1, source.name)
        if isinstance(values, str):
            yield values
            return
        for index, value in enumerate(values):
            yield _json_record(value, f"{source.name}: record {index + 1}")
        return
    for number, line in enumerate(source.lines(JSON_LINE_LIMIT), 1):
        if line is None:
            yield f"{source.name}:{number}: line longer than {JSON_LINE_LIMIT} bytes"
        elif line.strip():
            value = _json_value(line, number, source.name)
            yield value if isinstance(value, str) else _json_record(value, f"{source.name}:{number}")


def _json_value(data: bytes, number: int, name: str) -> object:
    try:
        return decode_json(data)
    except JSONFormatError as error:  # bad JSON, bad UTF-8, nested too deeply to decode
        return f"{name}:{number}: {error}"


def _json_record(value: object, where: str) -> Record | str:
    try:
        return from_json(value)
    except JSONFormatError as error:
        return f"{where}: {error}"


@contextmanager
def _output(name: str) -> Iterator[IO[str]]:
    """Standard output for ``-``, else the file ``name`` (UTF-8, "\\n" line ends)."""
    if name == STDIN:
        yield sys.stdout
        return
    try:
        stream = open(name, "w", encoding="utf-8", newline="\n")
    except OSError as error:
        raise InputError(describe_os_error(name, error)) from None
    with stream:
        yield stream


# --- show ---------------------------------------------------------------------

@belote.command("show")
@click.argument("file")
@click.option("--record", "number", type=click.IntRange(1), default=None, metavar="N",
              help="Show only the N-th record of FILE (1-based); all of them by default.")
@RULES_OPTION
def show_command(file: str, number: int | None, rules: Rules | None) -> None:
    """Replay the records of FILE trick by trick: the hands, the taking or auction,
    announcements, each trick with who led and who won, the running card points,
    belote, the findings and the score breakdown.

    Exit status: 0, 1 if a record shown cannot be read or has errors, 2 usage or
    input trouble (or no record N).
    """
    count = faulty = 0
    with open_input(file) as source:
        for result in parse(source):
            count += 1
            if number is not None and count != number:
                continue
            report = validate(result, rules)
            faulty += not report.ok
            click.echo("\n".join(show(result, report)) + "\n")
            if number is not None:
                break
    if count == 0:
        raise InputError(f"{file}: no record found")
    if number is not None and count < number:
        raise InputError(f"{file}: no record {number}, the file has {count}")
    sys.exit(1 if faulty else 0)


def show(result: ParseResult, report: Report) -> list[str]:
    """The lines of ``belote show`` for one parsed record and its report."""
    if result.record is None:
        return [printable(line) for line in report.text().splitlines()]
    return show_lines(result.record, report)


# --- generate -----------------------------------------------------------------

@belote.command("generate")
@click.argument("count", type=click.IntRange(0))
@click.option("--profile", default="ffb", show_default=True, metavar="RULES",
              help='A rules profile, with options if wanted: "ffb-coinche; undertrump=must".')
@click.option("--seed", type=int, default=None, help="The random seed (a random one when omitted).")
def generate_command(count: int, profile: str, seed: int | None) -> None:
    """COUNT random legal records on stdout, in the notation: the deals of successive
    matches (Round 1, 2, ...), the last one cut at COUNT; the same seed gives the
    same records."""
    rules = parse_rules(profile, "--profile")
    seed = random.randrange(1 << 32) if seed is None else seed
    write_file(generated_records(random.Random(seed), rules, count, f"Random deals, seed {seed}"),
               sys.stdout)


def generated_records(rng: random.Random, rules: Rules, count: int, event: str = "Random deals") -> Iterator[Record]:
    """``count`` records: the deals of successive generated matches, the last one cut short."""
    round_ = 0
    while count > 0:
        round_ += 1
        match = generate_match(rng, rules, SEATS[(round_ - 1) % 4], event=event, round_=str(round_))
        yield from match.records[:count]
        count -= len(match.records)


def main() -> None:
    belote(prog_name="belote")


if __name__ == "__main__":
    main()
