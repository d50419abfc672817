"""``belote serve``: run the site on the default archive (the samples are loaded on first run).

The site is served by waitress, a production WSGI server (pure Python, a pool of threads);
``--debug`` serves it with Werkzeug's development server instead, for its reloader and debugger."""

from __future__ import annotations

import logging
import math
import sqlite3
import sys
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

import click
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.serving import WSGIRequestHandler

if TYPE_CHECKING:
    from flask import Flask

SERVER_HEADER = "belote"  # what `Server:` says: neither the server's nor Python's version
CLEANUP_INTERVAL = 1  # seconds between waitress's sweeps for idle connections (its default, 30, outlasts READ_TIMEOUT)


class RequestHandler(WSGIRequestHandler):
    """Werkzeug's handler (``--debug``) with a ``Server`` header that names no software version."""

    def version_string(self) -> str:
        return SERVER_HEADER


@contextmanager
def serving_in_thread(app: Flask) -> Iterator[str]:
    """``app`` served by Werkzeug on 127.0.0.1 and a free port, in a thread, while the block
    runs: its base URL. For the browser tests and the screenshots, never for visitors."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


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


def waitress_options(config: dict[str, Any]) -> dict[str, Any]:
    """waitress's settings from the app's configuration."""
    options: dict[str, Any] = {
        "ident": SERVER_HEADER,
        # a connection with no complete request that sends nothing for READ_TIMEOUT seconds is
        # closed (waitress counts whole seconds), so a body that never comes holds no buffer
        "channel_timeout": max(1, math.ceil(float(config["READ_TIMEOUT"]))),
        "cleanup_interval": CLEANUP_INTERVAL,
        # waitress would drop every X-Forwarded-* header; the app decides which to trust instead
        # (--proxy, PROXY_FIX) and ignores them otherwise, as it did under Werkzeug's server
        "clear_untrusted_proxy_headers": False,
    }
    limit = config.get("MAX_CONTENT_LENGTH")
    if limit:
        # waitress buffers a whole body (on disk past a point) before the app sees it: it refuses
        # one far over the app's own limit itself, and leaves the app its 413 page for the rest
        options["max_request_body_size"] = 2 * int(limit)
    return options


def behind_proxy(app: Flask) -> None:
    """Trust one reverse proxy's ``X-Forwarded-For``/``-Proto``/``-Host``/``-Prefix``: the client's
    address (rate limit), the scheme and host the visitor used (the CSRF check compares the
    ``Origin`` with the host) and the path the site is mounted under (the links)."""
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)  # type: ignore[method-assign]


def listen(app: Flask, host: str, port: int) -> Any:
    """waitress's server, listening (not serving yet); a port that cannot be listened on (in use,
    not allowed) is one line on stderr and exit status 2, not a traceback."""
    from waitress.server import create_server

    try:
        return create_server(app, host=host, port=port, **waitress_options(app.config))
    except OSError as error:
        click.echo(f"belote serve: error: cannot listen on {host}:{port}: {error.strerror or error}", err=True)
        sys.exit(2)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="Archive file (default: belote.sqlite in the instance folder, or $BELOTE_DB).")
@click.option("--no-samples", is_flag=True, help="Do not load the samples into an empty archive.")
@click.option("--proxy", is_flag=True,
              help="Behind a reverse proxy: trust its X-Forwarded-For, -Proto, -Host and -Prefix headers "
                   "(one proxy). Only when every request comes through it.")
@click.option("--debug", is_flag=True,
              help="Werkzeug's development server in Flask debug mode (reloader and debugger): "
                   "never on a public host.")
def serve_command(host: str, port: int, db_path: str | None, no_samples: bool, proxy: bool, debug: bool) -> None:
    """Serve the archive and replay site (waitress, a production WSGI server).

    Exit status 2, with one line on stderr, when the site cannot start: an archive that
    cannot be opened or made (not SQLite, damaged, another program's database, read-only,
    an impossible path), an instance folder or secret key that cannot be read or written,
    or a port already in use."""
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
    if proxy:
        behind_proxy(app)
    if debug:
        _announce(app, host, port)
        app.run(host=host, port=port, debug=True, use_reloader=True,
                request_handler=request_handler(app.config["READ_TIMEOUT"]))
        return
    server = listen(app, host, port)
    # waitress warns of every request that waits for a free thread: under load that is one
    # line per request (bench/bench_load.py saw 1,452 in 30 s), and waiting is not a fault
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    _announce(app, host, server.effective_port)  # the port really used, for --port 0
    server.run()  # until Ctrl+C: waitress then closes its sockets and stops its threads


def _announce(app: Flask, host: str, port: int) -> None:
    click.echo(f"Archive: {app.config['DB']}")
    click.echo(f"Serving on http://{host}:{port}/ (Ctrl+C to stop)")
