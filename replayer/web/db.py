"""One archive handle per request, on ``g``; the archive created (and the samples loaded) at start-up.

A request waits ``DB_TIMEOUT`` seconds for another writer (a ``belote import``, another
submission) before ``ArchiveBusyError``, which ``errors`` turns into a 503: a visitor is
better told to come back than kept waiting as long as the command line is.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, g

from replayer.archive import Archive


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
    Start-up waits as long as ``belote import`` does (nobody is waiting for a page yet)."""
    path = Path(app.config["DB"])
    path.parent.mkdir(parents=True, exist_ok=True)
    with Archive(path) as archive:
        if app.config["LOAD_SAMPLES"] and archive.count() == 0:
            archive.import_files(sample_files())
    app.teardown_appcontext(close_archive)
