"""What-if rules in a real browser on a phone (Playwright driving Debian's Chromium against the
live server, 390 x 844): the page never scrolls sideways, the table scrolls in its box, the rows
that differ are highlighted and visible, and the form compares again."""

from __future__ import annotations

import re
from urllib.parse import quote

from replayer.web.db import get_archive

PHONE = {"width": 390, "height": 844}


def capot_id(app) -> int:
    """West's capot in spades (samples/10-capot-bid.belote, round 2): 0-520 under ffb-coinche."""
    with app.app_context():
        return next(row["id"] for row in get_archive().db.query("SELECT id, source, round FROM records ORDER BY id")
                    if row["source"].endswith("10-capot-bid.belote") and row["round"] == "2")


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_compare_on_a_phone(page, live_server, app):
    rid = capot_id(app)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/r/{rid}/compare?rules=ffb-coinche&rules={quote('ffb-coinche; rounding=none; undertrump=must')}")
    assert no_sideways_scroll(page)
    table = page.locator("#compare-table")
    assert table.is_visible()
    differing = page.locator("#compare-table tbody tr.differs")
    assert differing.count() == 4
    for index in range(4):
        row = differing.nth(index)
        row.scroll_into_view_if_needed()
        assert row.is_visible()
    # the highlight is a band of its own colour, not the plain rows'
    colour = "getComputedStyle(document.querySelector('{}')).backgroundColor"
    assert page.evaluate(colour.format("tr.row-score.differs > td")) != page.evaluate(colour.format("tr.row-total > td"))
    score = page.locator("tr.row-score").inner_text().split()
    assert score[-4:] == ["0", "520", "0", "522"]
    # the table may be wider than the phone: it scrolls in its own box
    box = page.locator(".compare-scroll")
    assert page.evaluate("el => el.clientWidth <= window.innerWidth", box.element_handle())
    assert page.locator("#appear-B .finding").count() == 1
    assert no_sideways_scroll(page)
    assert page.console_errors == []


def test_the_form_compares_again_and_the_back_link(page, live_server, app):
    rid = capot_id(app)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/r/{rid}/compare")
    assert page.locator("#profile-1").input_value() == "ffb-coinche"
    assert page.locator("#profile-2").input_value() == "ffb-contree"
    page.select_option("#profile-2", "ffb-coinche")
    page.fill("#options-2", "rounding=none")
    page.click("#compare-form button[type=submit]")
    page.wait_for_url(re.compile(r"/compare\?profile=ffb-coinche&options=&profile=ffb-coinche&options=rounding%3Dnone$"))
    assert page.locator("#compare-table tbody tr.differs").count() == 4
    assert no_sideways_scroll(page)
    page.fill("#options-2", "rounding=sometimes")
    page.click("#compare-form button[type=submit]")
    error = page.locator("#rules-2-error")
    assert error.is_visible() and "invalid value 'sometimes' for rounding" in error.inner_text()
    assert page.locator("#options-2").get_attribute("aria-invalid") == "true"
    assert no_sideways_scroll(page)
    page.click("#back-to-replay")
    page.wait_for_url(f"{live_server}/r/{rid}")
    # the one error: Chromium's note that the page with the bad rules came with its 400
    assert page.console_errors == ["console: Failed to load resource: the server responded with a status of 400 "
                                   "(BAD REQUEST)"]


def test_three_rule_sets_scroll_in_their_box_with_the_labels_in_sight(page, live_server, app):
    rid = capot_id(app)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/r/{rid}/compare?rules=ffb-coinche&rules={quote('ffb-coinche; rounding=none')}"
              "&rules=ffb-contree")
    box = page.locator(".compare-scroll").element_handle()
    assert page.evaluate("el => el.scrollWidth > el.clientWidth", box)  # wider than the phone: it scrolls
    assert no_sideways_scroll(page)
    page.evaluate("el => { el.scrollLeft = el.scrollWidth; }", box)
    label = page.locator("tr.row-score > th")
    assert label.is_visible()
    assert label.bounding_box()["x"] >= box.bounding_box()["x"] - 1  # sticky: still at the box's left edge
    third = page.locator("tr.row-score > td").nth(5)
    assert third.inner_text() == "500" and third.is_visible()
    assert page.console_errors == []
