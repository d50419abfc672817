"""Fixtures of the web site's tests: the app on a temporary archive, its test client,
the app served on a free local port, and a Playwright page in Debian's Chromium.

The ``page`` fixture records console errors and page errors in ``page.console_errors``
(a list of strings) so a test can assert there are none.  Chromium must be installed
(``/usr/bin/chromium``); without it the browser tests fail, unless ``BELOTE_NO_BROWSER=1``
says to skip them.  Never run ``playwright install``.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _config(db: Path) -> dict:
    return {"TESTING": True, "DB": str(db), "SECRET_KEY": "test-secret", "LOAD_SAMPLES": True}


@pytest.fixture(scope="session")
def samples_archive(tmp_path_factory) -> Path:
    """An archive with the samples loaded, built once by create_app (as on a first run)."""
    from replayer.web import create_app

    path = tmp_path_factory.mktemp("samples") / "belote.sqlite"
    create_app(_config(path))
    return path


@pytest.fixture(scope="session")
def _shared_app(samples_archive: Path):
    """One app for the session: building it costs little, but every new app compiles the templates again."""
    from replayer.web import create_app

    return create_app(_config(samples_archive))


@pytest.fixture
def app(tmp_path: Path, samples_archive: Path, _shared_app):
    """The site (create_app, TESTING) on a fresh copy of the samples archive in ``tmp_path``.
    Changes a test makes to ``app.config`` are undone after it."""
    db = tmp_path / "belote.sqlite"
    shutil.copyfile(samples_archive, db)
    saved = dict(_shared_app.config)
    _shared_app.config["DB"] = str(db)
    try:
        yield _shared_app
    finally:
        _shared_app.config.clear()
        _shared_app.config.update(saved)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def live_server(app) -> Iterator[str]:
    """The app served by werkzeug on 127.0.0.1 and a free port, in a thread; yields the base URL."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    if os.environ.get("BELOTE_NO_BROWSER") == "1":
        pytest.skip("BELOTE_NO_BROWSER=1: browser tests skipped")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), "
                    "or set BELOTE_NO_BROWSER=1 to skip the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser):
    """A fresh page; ``page.console_errors`` lists console errors and uncaught page errors."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(f"console: {message.text}")
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.console_errors = errors
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def csrf(client) -> str:
    """A CSRF token put in the test client's session; send it as the form field ``csrf_token``."""
    token = "test-csrf-token"
    with client.session_transaction() as session:
        session["csrf_token"] = token
    return token
