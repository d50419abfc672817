"""``belote import FILES...``: records into the archive, with a progress bar and a summary.

The inputs are opened as the other commands open theirs (``inputs.open_input``): ``-`` is
standard input, an empty, binary or record-less input is refused.

Exit codes: 0 when every record was read (stored or already there, valid or
not), 1 when some record could not be parsed (listed with its place and why),
2 when a file or the archive cannot be used (one line on stderr; nothing stored),
which includes an archive that another writer kept busy for longer than ``--timeout``.
"""

from __future__ import annotations

import os
import sys
from typing import BinaryIO, Iterator

import click

from ..archive import DEFAULT_TIMEOUT, AnalysisSummary, Archive, ArchiveError, ImportSummary
from ..engine.rules import Rules, RulesError
from ..web import default_db_path
from .inputs import STDIN, InputError, describe_os_error, open_input
from .render import printable

SHOWN_UNPARSEABLE = 50  # listed in the summary; the rest is counted


def default_db() -> str:
    """The archive path when ``--db`` is not given: ``$BELOTE_DB``, else the site's own
    archive (the one ``belote serve`` opens)."""
    if os.environ.get("BELOTE_DB"):
        return os.environ["BELOTE_DB"]
    return default_db_path()


def _check_rules(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        Rules.parse(value)
    except RulesError as error:
        raise click.BadParameter(str(error)) from error
    return value


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="The archive file (default: $BELOTE_DB, else belote.sqlite in the site's instance folder, "
                   "the archive `belote serve` opens).")
@click.option("--rules", default=None, callback=_check_rules,
              help='Validate with these rules instead of each record\'s tags, e.g. "ffb-coinche".')
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Worker processes that parse and validate.")
@click.option("--timeout", type=click.FloatRange(min=0), default=DEFAULT_TIMEOUT, show_default=True,
              help="Seconds to wait for another import or a submission writing to the archive.")
@click.option("--analyse", "--analyze", "analyse", is_flag=True,
              help="Then analyse double dummy the records imported (and those found stored already that "
                   "have no analysis), and store the analyses.")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="With --analyse: the time limit of each record's analysis (it stops there with what it has).")
def import_command(files: tuple[str, ...], db_path: str | None, rules: str | None, jobs: int,
                   timeout: float, analyse: bool, max_seconds: float | None) -> None:
    """Import records into the archive, in one transaction: a failure stores nothing.

    FILES are record files or - for standard input. A record already stored (same
    canonical text) is counted as a duplicate, not stored again. Records that do not parse
    are not stored; the summary says where and why. While another import or a submission
    writes to the archive, this one waits its turn. With --analyse, the records are then
    analysed and their analyses stored, a batch at a time (a failure there keeps the import
    and the batches stored before it)."""
    path = db_path if db_path is not None else default_db()
    total = sum(map(_size, files))
    try:
        with Archive(path, timeout=timeout) as archive:
            with click.progressbar(length=max(total, 1), label="importing", file=sys.stderr, show_pos=False,
                                   show_percent=True) as bar:
                summary = archive.import_streams(_sources(files), rules=rules, jobs=jobs, progress=bar.update,
                                                 size=total)
            click.echo(summary_text(summary, path))
            if analyse:
                analysed = analyse_stored(archive, summary.ids + summary.duplicate_ids, jobs, max_seconds)
                click.echo(analysis_text(analysed))
    except ArchiveError as error:
        _fail(str(error))
    sys.exit(1 if summary.unparseable else 0)


def analyse_stored(archive: Archive, ids: tuple[int, ...] | None, jobs: int,
                    max_seconds: float | None) -> AnalysisSummary:
    """Analyse records of ``archive`` (``ids`` that have no analysis yet; ``None``: every record
    without one) with a progress bar on stderr; raise ``ArchiveError`` when it fails."""
    todo = archive.pending_analyses(ids, max_seconds=max_seconds, redo=False)
    if not todo:
        return AnalysisSummary()
    with click.progressbar(length=len(todo), label="analysing", file=sys.stderr, show_pos=True) as bar:
        return archive.analyse(todo, jobs=jobs, max_seconds=max_seconds, progress=bar.update)


def analyse_archive(path: str | None, *, files: tuple[str, ...] = (), jobs: int = 1, max_seconds: float | None = None,
                    rules: object = None, scheduler: str | None = None, annotate: bool = False,
                    output: str = "text", timeout: float = DEFAULT_TIMEOUT) -> None:
    """``belote analyse --db PATH``: analyse the archive's records that have no analysis yet (or one
    that stopped at a time limit shorter than ``max_seconds``, or any, without a limit) and store
    the analyses, a batch at a time; print one line. Exit 0 when every analysis made is complete,
    1 when some stopped early (an illegal play, unknown hands, the time limit), 2 when the archive
    cannot be used (nothing of the failing batch is stored)."""
    for given, what in ((files, "FILES"), (rules, "--rules (a record is analysed under the rules it was stored "
                                                   "with)"), (scheduler, "--scheduler"), (annotate, "--annotate"),
                        (output != "text", "--format json")):
        if given:
            raise click.UsageError(f"--db analyses the archive's records: {what} cannot be used with it")
    db = path or default_db()
    try:
        with Archive(db, timeout=timeout) as archive:
            summary = analyse_stored(archive, None, jobs, max_seconds)
    except ArchiveError as error:
        click.echo(f"belote analyse: error: {printable(str(error).splitlines()[0])}", err=True)
        sys.exit(2)
    click.echo(f"{db}: {analysis_text(summary)}")
    sys.exit(1 if summary.complete < summary.analysed else 0)


def analysis_text(summary: AnalysisSummary) -> str:
    """One line: how many records were analysed, complete, stopped early (and why)."""
    line = f"{summary.analysed} analysed ({summary.complete} complete"
    for reason, count in sorted(summary.stopped.items()):
        line += f", {count} stopped: {reason}"
    line += f") in {summary.seconds:.1f} s"
    if summary.skipped:
        line += f"; {len(summary.skipped)} left out (unreadable, deleted or changed meanwhile)"
    return line


def _size(name: str) -> int:
    """The size of input ``name`` (0 for standard input); a missing or unreadable file fails
    the import at once, before anything is read."""
    if name == STDIN:
        return 0
    try:
        return os.stat(name).st_size
    except OSError as error:
        _fail(describe_os_error(name, error))
        return 0


def _sources(names: tuple[str, ...]) -> Iterator[tuple[str, BinaryIO, int | None]]:
    """Each input opened in turn, as the archive reads them; the trouble of one is an
    ``ArchiveError``, which ends the import with nothing stored."""
    for name in names:
        try:
            with open_input(name) as source:
                yield name, source, source.size  # type: ignore[misc]  (an Input reads as a binary stream)
        except InputError as error:
            raise ArchiveError(error.message) from None


def summary_text(summary: ImportSummary, path: str | os.PathLike) -> str:
    """The summary printed after an import (control characters of the records escaped)."""
    lines = [f"{path}: {summary.imported} imported, {summary.duplicates} duplicate(s), "
             f"{summary.with_findings} with findings ({summary.invalid} invalid), "
             f"{len(summary.unparseable)} unparseable"]
    for source, line, column, message in summary.unparseable[:SHOWN_UNPARSEABLE]:
        lines.append(f"  {source}:{line}:{column}: {message}")
    more = len(summary.unparseable) - SHOWN_UNPARSEABLE
    if more > 0:
        lines.append(f"  ... and {more} more")
    return printable("\n".join(lines))


def _fail(message: str) -> None:
    click.echo(f"belote import: error: {printable(message.splitlines()[0])}", err=True)
    sys.exit(2)
