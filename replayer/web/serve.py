"""``belote serve``: run the site on the default archive (the samples are loaded on first run)."""

from __future__ import annotations

import sqlite3
import sys

import click
from werkzeug.serving import WSGIRequestHandler

SERVER_HEADER = "belote"  # what `Server:` says: neither Werkzeug's nor Python's version


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's handler with a ``Server`` header that names no software version."""

    def version_string(self) -> str:
        return SERVER_HEADER


def _reason(error: Exception) -> str:
    """Why the site cannot start, in one line."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"cannot use {error.filename}: {error.strerror or error}"
    if isinstance(error, UnicodeError):
        return f"the secret key or a configuration file is not text: {error}"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def request_handler(timeout: float) -> type[RequestHandler]:
    """The handler with a ``timeout`` (the app's ``READ_TIMEOUT``, seconds) on every read and write
    of a connection: a client that declares more body than it sends, or stops sending, gets its
    400 then, instead of holding a thread for as long as it keeps the connection open."""
    return type("TimedRequestHandler", (RequestHandler,), {"timeout": float(timeout)})


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="Archive file (default: belote.sqlite in the instance folder, or $BELOTE_DB).")
@click.option("--no-samples", is_flag=True, help="Do not load the samples into an empty archive.")
@click.option("--debug", is_flag=True, help="Flask debug mode (reloader and debugger): never on a public host.")
def serve_command(host: str, port: int, db_path: str | None, no_samples: bool, debug: bool) -> None:
    """Serve the archive and replay site (Werkzeug's server: for a single user or a small club).

    Exit status 2, with one line on stderr, when the site cannot start: an archive that
    cannot be opened or made (not SQLite, damaged, another program's database, read-only,
    an impossible path) or an instance folder or secret key that cannot be read or written."""
    from ..archive import Archive, ArchiveError
    from . import create_app

    config: dict[str, object] = {}
    if db_path:
        config["DB"] = db_path
    if no_samples:
        config["LOAD_SAMPLES"] = False
    try:
        app = create_app(config)
        with Archive(app.config["DB"], upgrade=False, timeout=1) as archive:  # (create_app made it)
            archive.check_writable()  # submissions are stored: refuse a read-only archive now
    except (ArchiveError, OSError, UnicodeError, sqlite3.Error) as error:
        click.echo(f"belote serve: error: {_reason(error)}", err=True)
        sys.exit(2)
    click.echo(f"Archive: {app.config['DB']}")
    click.echo(f"Serving on http://{host}:{port}/ (Ctrl+C to stop)")
    app.run(host=host, port=port, debug=debug, use_reloader=debug,
            request_handler=request_handler(app.config["READ_TIMEOUT"]))
