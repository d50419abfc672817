"""The archive and replay web site: ``create_app`` builds the Flask application.

``flask --app replayer.web run`` and ``belote serve`` both run it.  Templates and
static files live at the top of the checkout (``templates/``, ``static/``) and are
installed inside this package (``replayer/web/templates``, ``replayer/web/static``)
by the wheel; ``create_app`` finds them in either place.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

_HERE = Path(__file__).resolve().parent
_CHECKOUT = _HERE.parent.parent
MEGABYTE = 1024 * 1024


def resource_dir(name: str) -> Path:
    """``templates``, ``static`` or ``samples``: inside the installed package, else at the top of the checkout."""
    installed = (_HERE / name) if name != "samples" else (_HERE.parent / "samples")
    return installed if installed.is_dir() else _CHECKOUT / name


def default_db_path() -> str:
    """The site's archive when nothing else is configured: ``belote.sqlite`` in the
    instance folder (``<venv>/var/replayer.web-instance`` once installed, ``instance/``
    in a checkout). ``belote import`` defaults to it too, so that what it imports is
    what ``belote serve`` shows."""
    return os.path.join(Flask(__name__, instance_relative_config=True).instance_path, "belote.sqlite")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The site. Config: defaults, then ``BELOTE_*`` environment variables, then ``test_config``."""
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(resource_dir("templates")), static_folder=str(resource_dir("static")))
    app.config.from_mapping(
        DB=default_db_path(),
        DB_TIMEOUT=5,  # seconds a request waits for an import writing to the archive before its 503
        LOAD_SAMPLES=True,
        SECRET_KEY=None,
        MAX_CONTENT_LENGTH=2 * MEGABYTE,
        MAX_FORM_MEMORY_SIZE=2 * MEGABYTE,
        CHECKS_DB=None,  # the file of the checked texts kept for their pages: None, beside the archive
        CHECK_LIFETIME=3600,  # seconds a checked text is kept for its check pages and "Store"
        CHECK_ROOM=64 * MEGABYTE,  # bytes (compressed) all the kept checks may take; the oldest go first
        READ_TIMEOUT=15,  # seconds `belote serve` waits for a client's next bytes before dropping it
        PROXY_FIX=0,  # reverse proxies in front whose X-Forwarded-For and -Proto are trusted
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.config.from_prefixed_env("BELOTE")
    if test_config is not None:
        app.config.update(test_config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(app.instance_path)

    from . import (api, archive_views, compare_views, db, errors, help_views, limits, match_views, replay_views,
                   security, share_views, stats_views, submit_views)

    # Tests post far more than a visitor does: no limit there unless a test sets one.
    app.config.setdefault("RATE_LIMIT", None if app.testing else limits.DEFAULT_RATE_LIMIT)
    app.json.sort_keys = False  # keep the API's keys in their natural order
    limits.init_app(app)  # first: its rate limit runs before the CSRF check reads the body
    if app.config["PROXY_FIX"]:
        # the client's address (for the rate limit) and scheme as the proxies say; never the
        # Host they pass on: the API's absolute URLs come from SERVER_NAME only
        proxies = int(app.config["PROXY_FIX"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    security.init_app(app)
    errors.init_app(app)
    db.init_app(app)
    for blueprint in (archive_views.bp, submit_views.bp, api.bp, replay_views.bp, match_views.bp, compare_views.bp,
                      help_views.bp, share_views.bp, stats_views.bp):
        app.register_blueprint(blueprint)
    return app


def _instance_secret(instance_path: str) -> str:
    """A secret key kept in the instance folder, so sessions survive restarts and several workers agree."""
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text(encoding="ascii").strip()
    except OSError:
        key = secrets.token_hex(32)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key, encoding="ascii")
        path.chmod(0o600)
        return key
