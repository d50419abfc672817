"""One archive handle per request, on ``g``; the archive created (and the samples loaded) at start-up.

A request waits ``DB_TIMEOUT`` seconds for another writer (a ``belote import``, another
submission) before ``ArchiveBusyError``, which ``errors`` turns into a 503: a visitor is
better told to come back than kept waiting as long as the command line is.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, g
from werkzeug.routing import IntegerConverter

from replayer.archive import Archive

SQLITE_MAX_INTEGER = 2**63 - 1


def digits_up_to(bound: int) -> str:
    """A regular expression for the decimal numbers from 0 to ``bound`` (ASCII digits, no sign):
    the shorter numbers, then those of ``bound``'s length that are below it digit by digit."""
    top = str(bound)
    same_length = [f"{top[:i]}[0-{int(d) - 1}][0-9]{{{len(top) - i - 1}}}" for i, d in enumerate(top) if d != "0"]
    shorter = [f"[0-9]{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    return "(?:" + "|".join([*shorter, *same_length, top]) + ")"


class RowIdConverter(IntegerConverter):
    """The site's ``<int:...>`` (every number in its paths is an archive row id): up to SQLite's
    largest integer. A larger number names no row, and SQLite would refuse it with OverflowError
    (a 500). It is left out by the pattern rather than by ``to_python``: Werkzeug checks the
    method before converting, so a refused conversion would make ``POST /delete/<big>`` a 405
    (the GET rule's path matched) where it is a 404 like any unknown address."""

    regex = digits_up_to(SQLITE_MAX_INTEGER)  # not \d: int() reads other scripts' digits ("/r/٣")


def get_archive() -> Archive:
    """The request's archive, opened on first use and closed at teardown."""
    if "archive" not in g:
        g.archive = Archive(current_app.config["DB"], upgrade=False,  # init_app migrated it
                            timeout=float(current_app.config["DB_TIMEOUT"]))
    return g.archive


def close_archive(_error: BaseException | None = None) -> None:
    archive = g.pop("archive", None)
    if archive is not None:
        archive.close()


def sample_files() -> list[Path]:
    """The packaged valid samples (``samples/*.belote``; ``samples/invalid/`` is left out)."""
    from . import resource_dir

    return sorted(resource_dir("samples").glob("*.belote"))


def init_app(app: Flask) -> None:
    """Create the archive (and its folder) now, and load the samples into an empty one if configured.
    Start-up waits as long as ``belote import`` does (nobody is waiting for a page yet).
    Numbers in paths become row ids (``RowIdConverter``)."""
    # before the blueprints add their rules, which take their converters from the map
    app.url_map.converters["int"] = RowIdConverter
    path = Path(app.config["DB"])
    path.parent.mkdir(parents=True, exist_ok=True)
    with Archive(path) as archive:
        if app.config["LOAD_SAMPLES"] and archive.count() == 0:
            archive.import_files(sample_files())
    app.teardown_appcontext(close_archive)
