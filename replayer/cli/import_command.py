"""``belote import FILES...``: records into the archive, with a progress bar and a summary.

Exit codes: 0 when every record was read (stored or already there, valid or
not), 1 when some record could not be parsed (listed with its place and why),
2 when a file or the archive cannot be used (one line on stderr; nothing stored),
which includes an archive that another writer kept busy for longer than ``--timeout``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..archive import DEFAULT_TIMEOUT, Archive, ArchiveError, ImportSummary
from ..engine.rules import Rules, RulesError
from ..web import default_db_path

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
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The archive file (default: $BELOTE_DB, else belote.sqlite here).")
@click.option("--rules", default=None, callback=_check_rules,
              help='Validate with these rules instead of each record\'s tags, e.g. "ffb-coinche".')
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
              help="Worker processes that parse and validate.")
@click.option("--timeout", type=click.FloatRange(min=0), default=DEFAULT_TIMEOUT, show_default=True,
              help="Seconds to wait for another import or a submission writing to the archive.")
def import_command(files: tuple[Path, ...], db_path: Path | None, rules: str | None, jobs: int,
                   timeout: float) -> None:
    """Import records into the archive, in one transaction: a failure stores nothing.

    A record already stored (same canonical text) is counted as a duplicate, not stored
    again. Records that do not parse are not stored; the summary says where and why.
    While another import or a submission writes to the archive, this one waits its turn."""
    path = db_path if db_path is not None else Path(default_db())
    total = 0
    for file in files:
        try:
            total += file.stat().st_size
        except OSError as error:
            _fail(f"cannot read {file}: {error.strerror or error}")
    try:
        with Archive(path, timeout=timeout) as archive, click.progressbar(
                length=total, label="importing", file=sys.stderr, show_pos=False, show_percent=True) as bar:
            summary = archive.import_files(files, rules=rules, jobs=jobs, progress=bar.update)
    except ArchiveError as error:
        _fail(str(error))
    click.echo(summary_text(summary, path))
    sys.exit(1 if summary.unparseable else 0)


def summary_text(summary: ImportSummary, path: Path) -> str:
    """The summary printed after an import."""
    lines = [f"{path}: {summary.imported} imported, {summary.duplicates} duplicate(s), "
             f"{summary.with_findings} with findings ({summary.invalid} invalid), "
             f"{len(summary.unparseable)} unparseable"]
    for source, line, column, message in summary.unparseable[:SHOWN_UNPARSEABLE]:
        lines.append(f"  {source}:{line}:{column}: {message}")
    more = len(summary.unparseable) - SHOWN_UNPARSEABLE
    if more > 0:
        lines.append(f"  ... and {more} more")
    return "\n".join(lines)


def _fail(message: str) -> None:
    click.echo(f"belote import: error: {message.splitlines()[0]}", err=True)
    sys.exit(2)
