"""The site in a real browser (Playwright driving Debian's Chromium against the live server):
search the archive and open a record; submit a record with an error and see the finding."""

from __future__ import annotations

import re
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARD_NOT_HELD = (SAMPLES / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
SAMPLE_RECORDS = 59  # the records of samples/*.belote: a record stored next is record 60


def test_search_the_archive_and_open_a_record(page, live_server):
    page.goto(live_server + "/")
    assert page.locator("#result-count").inner_text() == f"{SAMPLE_RECORDS} records, page 1 of 3."
    page.fill("#q-player", "Kim")
    page.select_option("#q-variant", "belote")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/\?.*player=Kim"))
    assert page.locator("#result-count").inner_text() == "1 record."
    rows = page.locator("#records tbody tr")
    assert rows.count() == 1
    assert "Kim Min-jun" in rows.first.inner_text()
    rows.first.locator("a", has_text="Seoul Belote Meetup").click()
    page.wait_for_url(live_server + "/r/34")
    assert "Kim Min-jun" in page.locator("main").inner_text()
    assert page.console_errors == []


def test_sort_and_page_through_the_archive(page, live_server):
    page.goto(live_server + "/?variant=coinche")
    page.click("#records thead a:text-is('#')")
    page.wait_for_url(re.compile(r"sort=id"))
    first_ids = page.locator("#records tbody tr td:first-child").all_inner_texts()
    assert first_ids == ["59", "58", "57", "56", "43", "42", "37", "35", "18", "17", "16", "15", "14"]
    assert page.console_errors == []


def test_submit_a_record_with_an_error_and_see_the_finding(page, live_server):
    page.goto(live_server + "/submit")
    page.fill("#text", CARD_NOT_HELD)
    page.click("#check-button")
    page.wait_for_url(re.compile(re.escape(live_server) + r"/submit/check/[A-Za-z0-9_-]{24}$"))  # POST, redirect, GET
    assert page.locator("#verdict").inner_text() == "1 error."
    finding = page.locator(".finding.error").first
    assert finding.locator(".where").inner_text() == "28:18"
    assert "East played J♠ but does not hold it" in finding.inner_text()
    # the finding links to its line, which is highlighted with the column marked
    finding.locator(".where").click()
    assert page.url.endswith("#L28")
    line = page.locator("#L28")
    assert "has-error" in line.get_attribute("class")
    assert line.locator("mark").inner_text() == "J"
    assert line.is_visible()
    # store it: the token is shown once, and the stored record opens
    page.click("#store-button")
    page.wait_for_url(re.compile(r"/submit/check/[A-Za-z0-9_-]{24}/stored$"))
    token = page.locator("#owner-token").inner_text()
    assert len(token) >= 20
    page.click("a.stored-link")
    page.wait_for_url(live_server + f"/r/{SAMPLE_RECORDS + 1}")
    assert page.console_errors == []


def test_submit_a_syntax_error(page, live_server):
    page.goto(live_server + "/submit")
    page.fill("#text", CARD_NOT_HELD.replace("E:JS", "E:XZ"))
    page.click("#check-button")
    where = page.locator(".finding.error .where").first
    assert where.inner_text() == "28:18"
    message = page.locator(".finding.error .message").first.inner_text()
    assert message == 'unexpected "XZ": expected a card (e.g. JH, 10S) or the end of the trick'
    assert page.locator("#not-stored").is_visible()
    assert page.console_errors == []
