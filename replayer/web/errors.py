"""Friendly error pages: HTML on the site, JSON under ``/api``.

An archive kept busy by another writer (``ArchiveBusyError``, or SQLite's "database is
locked" from a read) is a 503 with ``Retry-After``, never a 500.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from replayer.archive import ArchiveBusyError, is_busy

# Seconds a client is told to wait before trying again: about what a club's import takes.
RETRY_AFTER = 10

TITLES = {
    400: "Bad request",
    403: "Refused",
    404: "Not found",
    405: "Method not allowed",
    413: "Too large",
    429: "Too many requests",
    500: "Server error",
    503: "Busy",
}
ADVICE = {
    404: "There is no page at this address. The record may have been deleted.",
    405: "This address does not take that kind of request.",
    413: "The upload is larger than the limit of 2 MB. Split the file and send the parts one by one.",
    500: "Something went wrong on our side. The problem has been logged.",
    503: "The archive is busy: an import or a submission is being written to it. Try again in a few seconds.",
}


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def handle_http_error(error: HTTPException):
    code = error.code or 500
    title = TITLES.get(code, error.name)
    message = ADVICE.get(code) if code in ADVICE and not _custom(error) else error.description
    if wants_json():
        response = jsonify(error={"status": code, "title": title, "message": message})
    else:
        response = render_template("error.html", code=code, title=title, message=message)
    headers = dict(error.get_headers())  # Allow of a 405, Retry-After of a 429 or a 503
    headers.pop("Content-Type", None)
    return response, code, headers


def handle_busy(_error: ArchiveBusyError):
    return handle_http_error(ServiceUnavailable(retry_after=RETRY_AFTER))


def handle_database_error(error: sqlite3.OperationalError):
    """A read locked out for longer than the timeout (another program holding the whole
    file) is a 503 too; any other database error is a fault: Flask's 500."""
    if not is_busy(error):
        raise error
    return handle_busy(error)


def _custom(error: HTTPException) -> bool:
    """True when the view gave its own description (abort(404, description=...))."""
    return error.description != type(error).description


def init_app(app: Flask) -> None:
    # HTTPException covers the 500 that Flask makes of an unhandled exception (outside tests,
    # where exceptions propagate so that a bug fails loudly).
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(ArchiveBusyError, handle_busy)
    app.register_error_handler(sqlite3.OperationalError, handle_database_error)
