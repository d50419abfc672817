"""What one request may cost the site: its body, its form, and how often an address may post.

- A body sent without ``Content-Length`` (``Transfer-Encoding: chunked``) is read here, up to
  ``MAX_CONTENT_LENGTH``, before the application sees it: Werkzeug stops such a stream at the
  limit without an error, so a 3 MB body would be checked cut at 2 MB. Over the limit it is a
  413, as a declared length is.
- A form that cannot be read (broken multipart, a missing boundary) is a 400 that says so;
  Werkzeug would read it as an empty form, which the CSRF check then refuses as "token missing".
- ``RATE_LIMIT``: how many posts an address may make to each endpoint that validates or
  stores (``LIMITED_ENDPOINTS``: checking a text also keeps it in the archive), e.g.
  ``"30/minute"``; beyond it a 429 with ``Retry-After``.
"""

from __future__ import annotations

import io
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Callable

from flask import Flask, Request, current_app, request
from werkzeug.exceptions import BadRequest, TooManyRequests
from werkzeug.formparser import FormDataParser
from werkzeug.wsgi import get_content_length

LIMITED_ENDPOINTS = frozenset({"submit.check_view", "submit.store", "api.validate_text"})
DEFAULT_RATE_LIMIT = "30/minute"
UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_READ_SIZE = 64 * 1024


# --- bodies without a length ---------------------------------------------------------------


class BoundedBody:
    """WSGI middleware: a body whose end the server marks itself (``wsgi.input_terminated``,
    set for chunked bodies) is read here, at most ``MAX_CONTENT_LENGTH`` + 1 bytes, and handed
    on with the length it had. Flask then applies its own rule to that length: over the limit,
    413 on the first read of the body, nothing of it validated or stored."""

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        declared = get_content_length(environ)
        if limit is not None and environ.get("wsgi.input_terminated") and (declared is None or declared <= limit):
            _buffer_body(environ, limit)
        return self.wsgi_app(environ, start_response)


def _buffer_body(environ: dict[str, Any], limit: int) -> None:
    data = bytearray()
    broken = False
    try:
        while len(data) <= limit:
            chunk = environ["wsgi.input"].read(min(_READ_SIZE, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    except (OSError, ValueError):  # a broken chunk header, a client gone or too slow
        broken = True
    # Over the limit, the length says so (limit + 1) and Flask refuses it. A broken body is
    # declared one byte longer than what came: reading it then fails as a client that went away
    # does (400), rather than checking a part of it.
    environ["wsgi.input"] = io.BytesIO(bytes(data))
    environ["CONTENT_LENGTH"] = str(len(data) + 1 if broken else len(data))
    # The body is plain bytes of a known length now: without these two, Werkzeug would still
    # treat it as a stream (and ignore CONTENT_LENGTH).
    del environ["wsgi.input_terminated"]
    environ.pop("HTTP_TRANSFER_ENCODING", None)


# --- forms ---------------------------------------------------------------------------------

UNREADABLE_FORM = ("The form could not be read: the body is not well-formed {mimetype} (as its Content-Type "
                   "says it is). Reload the page and send it again.")


class StrictFormParser(FormDataParser):
    """Werkzeug's form parser, but a body that is not the form its Content-Type says is a 400."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "silent": False})

    def parse(self, stream: Any, mimetype: str, content_length: int | None,
              options: dict[str, str] | None = None) -> Any:
        try:
            return super().parse(stream, mimetype, content_length, options)
        except ValueError as error:  # Werkzeug's parse errors (their words name its parser's states)
            raise BadRequest(description=UNREADABLE_FORM.format(mimetype=mimetype)) from error


class StrictRequest(Request):
    form_data_parser_class = StrictFormParser


# --- rate limit ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RateLimit:
    """``count`` requests per ``seconds``, in a burst or spread out (a token bucket)."""

    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds


_SPEC = re.compile(r"\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*", re.I)


def parse_rate_limit(value: Any) -> RateLimit | None:
    """``RATE_LIMIT``: ``"30/minute"`` (also ``"30 per minute"``, ``"100/hour"``, ``"5/10 seconds"``),
    a pair ``(count, seconds)``, or ``None``/``""``/``"off"`` for no limit."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() in ("", "off", "none")):
        return None
    if isinstance(value, str) and (match := _SPEC.fullmatch(value)):
        count, every, unit = match.groups()
        limit = RateLimit(int(count), int(every or 1) * UNITS[unit.lower()])
    elif isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        limit = RateLimit(int(value[0]), float(value[1]))
    else:
        raise ValueError(f"RATE_LIMIT {value!r}: expected \"<count>/<second|minute|hour|day>\", "
                         "a pair (count, seconds), or none")
    if limit.count < 1 or limit.seconds <= 0:
        raise ValueError(f"RATE_LIMIT {value!r}: the count and the period must be positive")
    return limit


class RateLimiter:
    """A token bucket per (endpoint, address), kept in memory: in one process, shared by its
    threads (several worker processes each keep their own). Beyond ``max_tracked`` buckets the
    least recently used go, so that a flood of addresses cannot fill the memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_tracked: int = 10_000) -> None:
        self.clock = clock
        self.max_tracked = max_tracked
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()  # key: (tokens, at)
        self._lock = threading.Lock()

    def hit(self, key: tuple[str, str], limit: RateLimit) -> float:
        """Take one token from ``key``'s bucket: 0 when there was one, else the seconds to wait for one."""
        with self._lock:
            now = self.clock()
            tokens, at = self._buckets.pop(key, (float(limit.count), now))
            tokens = min(float(limit.count), tokens + (now - at) * limit.per_second)
            if tokens >= 1:
                tokens, wait = tokens - 1, 0.0
            else:  # refused: a refused post takes nothing, so waiting the time said is enough
                wait = (1 - tokens) / limit.per_second
            self._buckets[key] = (tokens, now)
            while len(self._buckets) > self.max_tracked:
                self._buckets.popitem(last=False)
            return wait


def limiter(app: Flask) -> RateLimiter:
    return app.extensions["belote_rate_limiter"]


def check_rate_limit() -> None:
    """Before the body is read: refuse a post over its address's limit with a 429."""
    if request.endpoint not in LIMITED_ENDPOINTS or request.method != "POST":
        return
    limit = parse_rate_limit(current_app.config.get("RATE_LIMIT"))
    if limit is None:
        return
    wait = limiter(current_app).hit((request.endpoint, request.remote_addr or "-"), limit)
    if wait:
        seconds = max(1, math.ceil(round(wait, 6)))  # 1.0000000001 s is 1 s, not 2
        raise TooManyRequests(
            description=f"Too many posts from your address (the limit is {limit.count} every "
                        f"{_period(limit.seconds)}). Nothing was checked or stored: try again in {seconds} s.",
            retry_after=seconds)


def _period(seconds: float) -> str:
    for unit, length in reversed(UNITS.items()):
        if seconds == length:
            return unit
    return f"{seconds:g} seconds"


def init_app(app: Flask) -> None:
    """Install the request class, the body bound and the rate limit (before the CSRF check reads
    the body, so that a refused post costs nothing). A bad ``RATE_LIMIT`` stops the start-up."""
    parse_rate_limit(app.config.get("RATE_LIMIT"))
    app.request_class = StrictRequest
    app.wsgi_app = BoundedBody(app.wsgi_app, app)  # type: ignore[method-assign]
    app.extensions["belote_rate_limiter"] = RateLimiter()
    app.before_request(check_rate_limit)
