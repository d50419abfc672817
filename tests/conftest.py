"""Fixtures shared by every test folder.

The data and generators several tests use (no test module imports another one, nor a
bench script):

* ``notation_texts``: the realistic records of ``tests/data/notation/`` (``classic``,
  ``coinche``, ``partial``), as texts, also one by one (``classic_text``...);
  ``notation_text(name)`` reads one (a module that needs one at collection time reads the
  file itself);
* ``seed_text`` and ``mutate``: the three records as one file's bytes, and the random
  damage the fuzz tests do to such bytes;
* ``club_record_text`` and ``club_file``: a realistic record ``i`` (tags varied with ``i``),
  and a file of ``count`` of them, as bytes;
* ``generated_texts``: records of the rules engine's generator, as texts;
* ``long_line_file``, ``long_event_file``: a 3 MB line between two deals, and a deal
  whose Event line is 3 MB.

The web site's tests have the app on a temporary archive, its test client, the app served
on a free local port, and a Playwright page in Debian's Chromium.

The ``page`` fixture records console errors and page errors in ``page.console_errors``
(a list of strings) so a test can assert there are none.  Chromium must be installed
(``/usr/bin/chromium``); without it the browser tests fail, unless ``BELOTE_NO_BROWSER=1``
says to skip them.  Never run ``playwright install``.
"""

from __future__ import annotations

import importlib
import os
import random
import shutil
import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _import_the_installed_packages() -> str:
    """Import ``notation`` and ``replayer`` from the installation, not from the checkout.

    ``python -m pytest`` puts the checkout first on ``sys.path``, where every module is its
    .py file; ``pip install .`` compiles the hot modules (``setup.py``), and those are what
    users and CI run. So the packages are imported here with the checkout left out of
    ``sys.path``: once imported, every submodule comes from the same place. An editable
    install (pure, its finder pointing at the checkout) or nothing installed: the checkout.
    An installed copy whose .py files differ from the checkout's would test stale code:
    that stops the run (reinstall with ``pip install .``, or install with ``pip install -e .``).
    Returns where the packages come from, for the report header."""
    kept = sys.path[:]
    sys.path[:] = [entry for entry in kept if Path(entry or ".").resolve() != ROOT]
    try:
        packages = [importlib.import_module(name) for name in ("notation", "replayer")]
    except ImportError:  # not installed: the checkout
        sys.path[:] = kept
        packages = [importlib.import_module(name) for name in ("notation", "replayer")]
    finally:
        sys.path[:] = kept
    installed = Path(packages[0].__file__).resolve().parent.parent
    if installed == ROOT:
        return f"the checkout {ROOT} (pure Python)"
    stale = [str(source.relative_to(ROOT)) for package in ("notation", "replayer")
             for source in sorted((ROOT / package).rglob("*.py"))
             if not (installed / source.relative_to(ROOT)).is_file()
             or (installed / source.relative_to(ROOT)).read_bytes() != source.read_bytes()]
    if stale:
        raise pytest.UsageError(f"the package installed in {installed} is not this checkout's ({', '.join(stale[:5])} "
                                "differ): run pip install . again (or pip install -e . for a pure development install)")
    compiled = sorted(str(path.relative_to(installed)) for package in ("notation", "replayer")
                      for path in (installed / package).rglob("*.so"))
    return f"the installation {installed}, {len(compiled)} compiled modules"


TESTED = _import_the_installed_packages()


def pytest_report_header() -> str:
    return f"belote: testing {TESTED}"
DATA = Path(__file__).resolve().parent / "data"
NOTATION_NAMES = ("classic", "coinche", "partial")


# --- notation data and generators -------------------------------------------------------------


def notation_text(name: str) -> str:
    """The record ``tests/data/notation/<name>.belote``: ``classic`` (a classic deal with
    announcements and comments), ``coinche`` (a coinche auction, a claim), ``partial``
    (hidden hands, a play stopped)."""
    return (DATA / "notation" / f"{name}.belote").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def notation_texts() -> dict[str, str]:
    """``classic``, ``coinche`` and ``partial`` (see ``notation_text``)."""
    return {name: notation_text(name) for name in NOTATION_NAMES}


@pytest.fixture(scope="session")
def classic_text(notation_texts) -> str:
    return notation_texts["classic"]


@pytest.fixture(scope="session")
def coinche_text(notation_texts) -> str:
    return notation_texts["coinche"]


@pytest.fixture(scope="session")
def partial_text(notation_texts) -> str:
    return notation_texts["partial"]


@pytest.fixture(scope="session")
def seed_text(notation_texts) -> bytes:
    """The three notation records as one file, the seed of the fuzz tests."""
    return "\n".join(notation_texts[name] for name in NOTATION_NAMES).encode("utf-8")


NOISE = [b"{", b"}", b"[", b"]", b'"', b"\\", b";", b"%", b"*", b"\n", b"\n\n", b" ", b"\t", b"\r", b":", b"??",
         b"10", b"\xff", b"\xc3", "♥".encode(), b"belote", b"claim", b"play", b"hand", b"1.", b"\x00"]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    """Byte flips, deletions, insertions and line swaps, one to four of them."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        elif kind == 1:
            data = data[:at] + data[at + rng.randint(1, 12):]
        elif kind == 2:
            data = data[:at] + rng.choice(NOISE) + data[at:]
        elif kind == 3:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 6))) + data[at:]
    return data


@pytest.fixture(scope="session")
def mutate() -> Callable[[random.Random, bytes], bytes]:
    """``mutate(rng, data)``: ``data`` with one to four random flips, deletions, insertions of
    notation noise or line swaps."""
    return _mutate


_COINCHE_BODY = """\
hand N AS KS QS JH TH 9D 8C 7C
hand E JS TS 9H 8H 7H AD KD QD
hand S 9S 8S 7S AH KH QH TD 9C
hand W JD QC 8D AC TC JC KC 7D
auction W:pass N:80H E:pass S:100H W:coinche N:pass E:pass S:pass
announce S tierce AH KH QH
play
1. W:JD N:9D E:AD S:TD
2. E:KD S:AH! W:7D N:8C
3. S:KH belote W:AC N:JH E:7H
4. N:TH E:8H S:QH rebelote W:TC
5. S:9S W:QC N:AS E:TS
6. N:KS E:JS S:8S W:KC ; E keeps the lead
7. E:9H S:9C W:JC N:QS
8. E:QD S:7S W:8D N:7C
"""
_CLASSIC_BODY = """\
hand N AC KC QC JC 9H 8H 7S TS
hand E AS KS QS JS TC 9C 8C 7C
hand S AH KH QH JH TH 9D 8D 7D
hand W AD KD QD JD TD 9S 8S 7H
turned JH
taking E:pass S:take
announce E carre AS KS QS JS {quatre valets? non}
announce S quinte AH KH QH JH TH
play
1. E:AS S:7D W:7H N:7S
2. E:KS S:8D W:8S N:TS
3. E:QS S:9D W:9S N:KC
4. E:JS S:JH! W:AD N:AC
5. S:AH W:KD N:QC E:TC
6. S:KH belote W:QD N:JC E:9C
7. S:QH rebelote W:JD N:9H E:8C
8. S:TH W:TD N:8H E:7C
"""


def club_record(i: int) -> str:
    """Record ``i`` of a club's file: a full coinche deal (even ``i``) or a classic deal with
    announcements (odd ``i``), its tags varied with ``i``."""
    coinche = i % 2 == 0
    tags = [("Event", f"Club du jeudi {i // 1000}"), ("Site", "Lyon"), ("Date", "2026.03.06"),
            ("Round", str(i // 20 + 1)), ("Deal", str(i % 20 + 1)), ("North", "Anne"), ("East", "Bruno"),
            ("South", "Claire"), ("West", "Denis"), ("Dealer", "S" if coinche else "N"),
            ("Variant", "coinche" if coinche else "belote"),
            ("Rules", "ffb-coinche" if coinche else "ffb-annonces"), ("Target", "1000"),
            ("Score", f"{i % 700}-{i % 500}"), ("Result", "?")]
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return head + "\n" + (_COINCHE_BODY if coinche else _CLASSIC_BODY)


@pytest.fixture(scope="session")
def club_record_text() -> Callable[[int], str]:
    """``club_record_text(i)``: record ``i`` of a club's file (see ``club_record``)."""
    return club_record


@pytest.fixture(scope="session")
def club_file() -> Callable[[int], bytes]:
    """``club_file(count)``: the header line, then ``count`` club records, as bytes."""
    def build(count: int) -> bytes:
        return ("% belote-notation 1.0\n" + "".join("\n" + club_record(i) for i in range(count))).encode("utf-8")
    return build


@pytest.fixture(scope="session")
def generated_texts() -> Callable[..., list[str]]:
    """``generated_texts(count, seed=5)``: records of the engine's generator, as texts, every
    profile and dealer in turn (void deals dealt again)."""
    from notation.values import SEATS
    from replayer.engine.generator import generate_record
    from replayer.engine.rules import PROFILES, Rules

    def build(count: int, seed: int = 5) -> list[str]:
        rng = random.Random(seed)
        profiles = [Rules.parse(name) for name in PROFILES]
        return [str(generate_record(rng, profiles[i % len(profiles)], SEATS[i % 4], deal_number=i + 1,
                                    redeal_void=True)) for i in range(count)]
    return build


LONG = 3_000_000  # over the splitter's MAX_RECORD: a line of this size is beyond both limits


def _first_sample() -> str:
    return (ROOT / "samples" / "01-classic-round1.belote").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def long_line_file() -> bytes:
    """A deal (lines 3-34), a 3 MB line (line 36), another deal (from line 40)."""
    sample = _first_sample()
    return (sample + "\n" + "x" * LONG + "\n\n" + sample.replace('[Deal "1"]', '[Deal "2"]')).encode()


@pytest.fixture(scope="session")
def long_event_file() -> bytes:
    """A deal whose [Event line is 3 MB, the rest of the deal after it."""
    return ('[Event "' + "y" * LONG + '"]\n' + _first_sample().split("\n", 3)[3]).encode()


# --- the web site -------------------------------------------------------------------------------

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
    from replayer.web.serve import serving_in_thread

    with serving_in_thread(app) as url:
        yield url


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
