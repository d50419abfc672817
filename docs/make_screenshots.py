"""Take the screenshots of the site in docs/screenshots/: its main pages on a desktop
(1280 x 800) and on a phone (390 x 844), in Debian's Chromium driven by Playwright.

    python3 docs/make_screenshots.py                  # every page, both sizes
    python3 docs/make_screenshots.py replay archive   # some pages only
    python3 docs/make_screenshots.py --full-page      # the whole page, not the first screen

The site runs here, in a thread, on a temporary archive holding the samples (as ``belote
serve`` does on its first run, on a free local port), so the pictures never depend on what an
archive on this machine holds. Each page is ``<name>-desktop.png`` and ``<name>-phone.png``
(``PAGES`` lists the names). Chromium is ``/usr/bin/chromium`` (``--chromium`` for another):
never ``playwright install``.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code and templates, whatever is installed

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from replayer.web.serve import serving_in_thread  # noqa: E402

from replayer.web import create_app  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
MATCH_EVENT = "Championnat du Rhône, phase de poules"  # samples/12-match.belote
WITH_A_FINDING = ROOT / "samples" / "invalid" / "card-not-held.belote"


def open_match(page: Page, base: str) -> None:
    """The sample match, found as a visitor would: its first deal's link in the archive."""
    page.goto(f"{base}/?event=Championnat+du+Rh%C3%B4ne&sort=id&order=asc")
    page.goto(base + page.locator("#records a.match-link").first.get_attribute("href"))


def open_check(page: Page, base: str) -> None:
    """A text with an illegal card, pasted and checked; the finding brought into view."""
    page.goto(base + "/submit")
    page.fill("#text", WITH_A_FINDING.read_text(encoding="utf-8"))
    page.click("#check-button")
    page.wait_for_url(re.compile(r"/submit/check/[A-Za-z0-9_-]+$"))
    page.locator(".finding.error").first.scroll_into_view_if_needed()


def goto(path: str) -> Callable[[Page, str], None]:
    def open_page(page: Page, base: str) -> None:
        page.goto(base + path, wait_until="networkidle")  # the replay fetches its steps after load
    return open_page


# name -> how to get there; the names of the files
PAGES: dict[str, Callable[[Page, str], None]] = {
    "archive": goto("/"),
    "replay": goto("/r/13?step=12"),
    "replay-end": goto("/r/13?step=end"),
    "match": open_match,
    "submit": goto("/submit"),
    "check": open_check,
    "help": goto("/help"),
}


@contextmanager
def serve_samples() -> Iterator[str]:
    """The site on a new archive with the samples, on 127.0.0.1 and a free port: its base URL."""
    with tempfile.TemporaryDirectory(prefix="belote-screenshots-") as folder:
        app = create_app({"DB": str(Path(folder) / "belote.sqlite"), "SECRET_KEY": "screenshots",
                          "LOAD_SAMPLES": True, "RATE_LIMIT": "off"})
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        with serving_in_thread(app) as url:
            yield url


def take(names: list[str], out: Path, chromium: str, full_page: bool) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with serve_samples() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for size, viewport in VIEWPORTS.items():
                # a phone's screen has three device pixels to a CSS pixel or so: two keep the text sharp
                context = browser.new_context(viewport=viewport, device_scale_factor=1 if size == "desktop" else 2,
                                              is_mobile=size == "phone", has_touch=size == "phone")
                page = context.new_page()
                for name in names:
                    PAGES[name](page, base)
                    path = out / f"{name}-{size}.png"
                    page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")
                    written.append(path)
                context.close()
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", metavar="PAGE", help=f"pages to take (default: all): {', '.join(PAGES)}")
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the PNGs (default: docs/screenshots)")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the Chromium to drive (default: {CHROMIUM})")
    parser.add_argument("--full-page", action="store_true", help="the whole page, not its first screen")
    args = parser.parse_args(argv)
    unknown = [name for name in args.pages if name not in PAGES]
    if unknown:
        parser.error(f"no page {', '.join(unknown)}: the pages are {', '.join(PAGES)}")
    for path in take(args.pages or list(PAGES), args.out, args.chromium, args.full_page):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
