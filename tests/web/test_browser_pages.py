"""The site's pages on a phone (390 x 844) and on a desktop (1280 x 800), in Chromium: no page
scrolls sideways, the header keeps to one line on a phone, the match sheet shows its running
totals within the screen, the archive shows every record's verdict, and the match chart's
text stays readable (at least 11 px as rendered, whatever the width)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARD_NOT_HELD = (SAMPLES / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
MATCH_EVENT = "Championnat du Rhône, phase de poules"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}  # the sheet's twelve columns do not fit: cards, as on a phone
HEADER_MAX = 56  # px: on a phone the replay needs the first screen for its table
SMALLEST_TEXT = 11  # px, as rendered

# What the page asks of its layout, measured in the browser.
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"
HEADER_HEIGHT = "() => document.querySelector('.site-header').getBoundingClientRect().height"
# The font size of each visible text of the chart as drawn: its computed size (in the SVG's
# user units) times the scale from those units to the screen; and the height of its box.
CHART_TEXT = """() => [...document.querySelectorAll('svg.score-chart text')]
  .filter(t => t.getClientRects().length > 0)
  .map(t => ({text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
              height: t.getBoundingClientRect().height}))"""
# Each element shown within the width of the screen: true, false, or null when it is not shown.
INSIDE = """(elements) => elements.map(e => { const box = e.getBoundingClientRect();
  return e.getClientRects().length === 0 ? null : box.left >= 0 && box.right <= window.innerWidth; })"""


def match_id(app) -> int:
    from replayer.web.db import get_archive

    with app.app_context():
        (mid,) = [row["id"] for row in get_archive().db["matches"].rows_where("event = ?", [MATCH_EVENT])]
    return mid


def form_client(app):
    """A test client with a CSRF token in its session: the live server serves the same app
    and archive, so what it posts, the browser sees."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = "token"
    return client


def posted_check(app, client=None) -> str:
    """The address of the check of a text with an error."""
    response = (client or form_client(app)).post("/submit", data={"text": CARD_NOT_HELD, "csrf_token": "token"})
    assert response.status_code == 303
    return response.headers["Location"]


def stored_check(app, client=None) -> str:
    """The address of the page of that check once stored (its owner token in ``client``'s session)."""
    client = client or form_client(app)
    check = posted_check(app, client)
    response = client.post("/submit/store", data={"check": check.rsplit("/", 1)[1], "csrf_token": "token"})
    assert response.status_code == 303
    return response.headers["Location"]


# name -> the page's address, given the app
PAGES: dict[str, Callable[..., str]] = {
    "archive": lambda app: "/",
    "archive-search-problems": lambda app: "/?date_from=yesterday&contract=hearts",
    "match": lambda app: f"/m/{match_id(app)}",
    "submit": lambda app: "/submit",
    "check": posted_check,
    "check-all": lambda app: posted_check(app) + "?show=all",
    "check-record": lambda app: posted_check(app) + "/1",
    "stored": stored_check,
    "delete": lambda app: "/delete/3",
    "error": lambda app: "/m/999999",
    "help": lambda app: "/help",
    "replay": lambda app: "/r/13?step=12",
    "replay-end": lambda app: "/r/13?step=end",
}
ERROR_STATUS = {"error", "archive-search-problems"}  # a 404 and a 400: the console reports the status


@pytest.mark.parametrize("name", list(PAGES))
def test_no_page_scrolls_sideways(app, live_server, page, name):
    url = live_server + PAGES[name](app)
    for viewport in (PHONE, DESKTOP):  # one page, loaded at each size (a check is posted once)
        page.set_viewport_size(viewport)
        page.goto(url)
        assert page.evaluate(SIDEWAYS) <= 0, f"{name} scrolls sideways at {viewport['width']} px"
        if viewport == PHONE:
            assert page.evaluate(HEADER_HEIGHT) <= HEADER_MAX
    if name not in ERROR_STATUS:
        assert page.console_errors == []


def test_the_header_keeps_to_one_line_on_a_phone_and_links_to_help(live_server, page):
    page.set_viewport_size(PHONE)
    page.goto(live_server + "/")
    links = page.locator(".site-nav a:visible")  # Statistics: wide screens only
    assert links.all_inner_texts() == ["Archive", "Submit", "API", "Help"]
    boxes = [links.nth(i).bounding_box() for i in range(links.count())] + [page.locator(".brand").bounding_box()]
    middles = [box["y"] + box["height"] / 2 for box in boxes]
    assert max(middles) - min(middles) < 4  # brand and links on one line
    assert page.evaluate(HEADER_HEIGHT) <= HEADER_MAX
    page.set_viewport_size(DESKTOP)
    assert page.locator(".site-nav a").all_inner_texts() == ["Archive", "Submit a record", "Statistics", "JSON API", "Help"]
    page.click(".site-nav a:text-is('Help')")
    page.wait_for_url(live_server + "/help")
    assert page.locator(".site-nav a[aria-current=page]").inner_text() == "Help"


@pytest.mark.parametrize("viewport", [PHONE, TABLET, DESKTOP], ids=["phone", "tablet", "desktop"])
def test_the_match_sheet_shows_its_totals_within_the_screen(app, live_server, page, viewport):
    page.set_viewport_size(viewport)
    page.goto(f"{live_server}/m/{match_id(app)}")
    totals = page.locator("table.score-sheet td.total")
    assert totals.count() == 2 * 11 + 2  # each deal's, and the final
    assert totals.evaluate_all(INSIDE) == [True] * 24
    assert [totals.nth(i).inner_text() for i in (20, 21, 22, 23)] == ["738", "1012"] * 2
    # the cells of every deal are within the screen too (as cards, a void deal shows no contract
    # nor taker, and no empty litige cell is shown)
    shown = page.locator("table.score-sheet tbody td").evaluate_all(INSIDE)
    assert False not in shown and shown.count(None) in (0, 2 + 11)
    assert page.locator("#deal-6 td.outcome").inner_text() == "failed"


def test_the_archive_shows_every_verdict_and_sort_link_on_a_phone(live_server, page):
    page.set_viewport_size(PHONE)
    page.goto(live_server + "/")
    rows = page.locator("#records tbody tr")
    assert rows.count() == 25
    for cells in ("td.col-findings", "td.col-scores", "td.col-event", "td:first-child"):
        assert page.locator(f"#records tbody {cells}").evaluate_all(INSIDE) == [True] * 25, cells
    sort_links = page.locator("#records thead a")
    assert sort_links.all_inner_texts()[:3] == ["#", "Date ▼", "Event"]
    assert set(sort_links.evaluate_all(INSIDE)) == {True}
    sort_links.first.click()
    page.wait_for_url(re.compile(r"sort=id"))
    assert rows.first.locator("td").first.inner_text() == "59"


@pytest.mark.parametrize("viewport", [PHONE, {"width": 320, "height": 640}, DESKTOP], ids=["phone", "small", "desktop"])
def test_the_chart_text_is_readable(app, live_server, page, viewport):
    page.set_viewport_size(viewport)
    page.goto(f"{live_server}/m/{match_id(app)}")
    texts = page.evaluate(CHART_TEXT)
    assert {t["text"] for t in texts} >= {"0", "1250", "11", "target 1000"}
    small = [t for t in texts if t["size"] < SMALLEST_TEXT or t["height"] < SMALLEST_TEXT]
    assert small == []
    assert max(t["size"] for t in texts) <= 14  # and not blown up on a wide screen either
    box = page.locator("svg.score-chart").bounding_box()
    assert box["width"] <= viewport["width"] and box["height"] >= 200


def test_deleting_a_record_on_a_phone(app, live_server, page):
    client = form_client(app)
    html = client.get(stored_check(app, client)).get_data(as_text=True)
    (token,) = re.findall(r'id="owner-token">([^<]+)<', html)
    (record_id,) = re.findall(r'href="/delete/(\d+)"', html)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/delete/{record_id}")
    page.fill("#token", token)
    page.click("#delete-form button")
    assert page.locator("#deleted").inner_text() == f"Record {record_id} was deleted from the archive."
    assert page.evaluate(SIDEWAYS) <= 0 and page.evaluate(HEADER_HEIGHT) <= HEADER_MAX
    assert page.console_errors == []
