"""Friendly error pages: HTML on the site, JSON under ``/api``."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

TITLES = {
    400: "Bad request",
    403: "Refused",
    404: "Not found",
    405: "Method not allowed",
    413: "Too large",
    500: "Server error",
}
ADVICE = {
    404: "There is no page at this address. The record may have been deleted.",
    405: "This address does not take that kind of request.",
    413: "The upload is larger than the limit of 2 MB. Split the file and send the parts one by one.",
    500: "Something went wrong on our side. The problem has been logged.",
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
    headers = dict(error.get_headers()) if code == 405 else {}
    headers.pop("Content-Type", None)
    return response, code, headers


def _custom(error: HTTPException) -> bool:
    """True when the view gave its own description (abort(404, description=...))."""
    return error.description != type(error).description


def init_app(app: Flask) -> None:
    # HTTPException covers the 500 that Flask makes of an unhandled exception (outside tests,
    # where exceptions propagate so that a bug fails loudly).
    app.register_error_handler(HTTPException, handle_http_error)
