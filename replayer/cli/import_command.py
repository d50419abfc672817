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

from ..archive import DEFAULT_TIMEOUT, Archive, ArchiveError, ImportSummary
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
def import_command(files: tuple[str, ...], db_path: str | None, rules: str | None, jobs: int,
                   timeout: float) -> None:
    """Import records into the archive, in one transaction: a failure stores nothing.

    FILES are record files or - for standard input. A record already stored (same
    canonical text) is counted as a duplicate, not stored again. Records that do not parse
    are not stored; the summary says where and why. While another import or a submission
    writes to the archive, this one waits its turn."""
    path = db_path if db_path is not None else default_db()
    total = sum(map(_size, files))
    try:
        with Archive(path, timeout=timeout) as archive, click.progressbar(
                length=max(total, 1), label="importing", file=sys.stderr, show_pos=False, show_percent=True) as bar:
            summary = archive.import_streams(_sources(files), rules=rules, jobs=jobs, progress=bar.update, size=total)
    except ArchiveError as error:
        _fail(str(error))
    click.echo(summary_text(summary, path))
    sys.exit(1 if summary.unparseable else 0)


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
