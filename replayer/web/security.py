"""CSRF protection, security headers, and control characters kept out of the pages.

Every POST passes two checks:
- the browser's own word: a ``Sec-Fetch-Site`` header other than ``same-origin``/``none``,
  or an ``Origin`` that is not this host, is refused (cross-site requests);
- a session token: HTML forms carry ``csrf_token`` (compared in constant time).  The
  JSON API (blueprint ``api``) takes JSON or plain-text bodies without the token, since
  an API client has no session; the header checks above still apply to it.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, request, session
from markupsafe import Markup

CSRF_FIELD = "csrf_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
TOKEN_FREE_BLUEPRINTS = frozenset({"api"})
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
EMBED_CSP = CSP.replace("frame-ancestors 'none'", "frame-ancestors *")
EMBEDDABLE_ENDPOINTS = frozenset({"replay.embed"})


def csrf_token() -> str:
    """The session's token, created on first use (templates call it in every form)."""
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str) or not token:
        token = session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return token


def cross_site() -> bool:
    """True when the browser says the request comes from another site."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return True
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    if origin == "null":
        return True
    parts = urlsplit(origin)
    return parts.netloc.lower() != request.host.lower()


def token_ok() -> bool:
    expected = session.get(CSRF_FIELD)
    given = request.form.get(CSRF_FIELD, "")
    return isinstance(expected, str) and bool(expected) and hmac.compare_digest(
        expected.encode("utf-8"), given.encode("utf-8", "replace"))


def check_csrf() -> None:
    if request.method in SAFE_METHODS or request.routing_exception is not None:
        return  # a POST to no route gets its 404 or 405, not a CSRF refusal
    if cross_site():
        abort(403, description="This form was sent from another site; it was refused.")
    if request.blueprint in TOKEN_FREE_BLUEPRINTS and request.mimetype not in FORM_TYPES:
        return
    if not token_ok():
        abort(403, description="The form's security token is missing or has expired. "
                               "Reload the page and send it again.")


# Control characters that are not spaces to the notation's lexer (``str.split``): NUL and the
# like are parse errors in HTML, which browsers drop or replace, and a binary upload is full of
# them. The spaces among the controls (tab, VT, FF, \x1c-\x1f, NEL) are kept: a form sends
# the text back to be stored, and there they separate words.
_SHOWN_AS_PICTURES = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode control pictures: ␀ for NUL...
    return "\u2421" if code == 0x7F else "\ufffd"  # ␡ for DEL; the C1 controls have no picture


def visible(value: Any) -> Any:
    """Jinja's ``finalize``: every value a template prints, its control characters shown as
    pictures (one character for one, so that the columns of the findings still point right)."""
    if isinstance(value, str) and _SHOWN_AS_PICTURES.search(value):
        shown = _SHOWN_AS_PICTURES.sub(_picture, value)
        return Markup(shown) if isinstance(value, Markup) else shown  # removing controls adds no tag
    return value


def set_headers(response: Response) -> Response:
    headers = response.headers
    embeddable = request.endpoint in EMBEDDABLE_ENDPOINTS
    headers.setdefault("Content-Security-Policy", EMBED_CSP if embeddable else CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    if not embeddable:
        headers.setdefault("X-Frame-Options", "DENY")
    return response


def init_app(app: Flask) -> None:
    app.before_request(check_csrf)
    app.after_request(set_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.finalize = visible  # before any template is compiled: the compiler builds it in
