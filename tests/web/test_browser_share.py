"""Sharing in a real browser (Playwright driving Debian's Chromium): the replay printed is a
hand record on one A4 page, the copy link copies the record up to the step shown (and opens
it without JavaScript), the image of a step renders."""

from __future__ import annotations

import re
import urllib.request

import pytest

from replayer.web.db import get_archive

PRINTED = ("09-coinche-surcoinche.belote", "13-comments.belote", "05-belote-rebelote.belote")


def record_id_of(app, source: str) -> int:
    with app.app_context():
        row = next(get_archive().db.query("SELECT id FROM records WHERE source LIKE ? ORDER BY id", [f"%{source}"]))
    return row["id"]


def fetch_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


@pytest.mark.parametrize("sample", PRINTED)
def test_the_end_of_a_replay_prints_on_one_page(app, live_server, page, sample):
    page.goto(f"{live_server}/r/{record_id_of(app, sample)}?step=end")
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    page.emulate_media(media="print")
    shown = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.site-header, .site-footer, .replay-nav, .replay-slider, .replay-tools, .moves, .trick-jumps, .autoplay-bar'))
        .filter(e => e.getClientRects().length > 0).map(e => e.className)""")
    assert shown == []  # no navigation, tools or move list on paper
    for part in (".card-table", ".deal-facts", ".move-calls", ".tricks-done", ".score-breakdown"):
        assert page.locator(part).is_visible(), part
    assert page.locator(".card-table .card").count() == 32  # the hands as dealt


def test_the_copy_link_copies_the_record_up_to_the_step_shown(app, live_server, browser):
    record_id = record_id_of(app, "09-coinche-surcoinche.belote")
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server}/r/{record_id}?step=12")
        page.wait_for_selector("#replay.instant")
        page.keyboard.press("ArrowRight")  # replay.js steps in place: the link must follow
        page.wait_for_selector('.replay-stage[data-step="13"]')
        link = page.locator('a[data-role="copy-record"]')
        assert link.get_attribute("href") == f"/r/{record_id}.belote?upto=13"
        link.click()
        page.wait_for_selector('[data-role="copy-status"]:has-text("Copied")')
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == fetch_text(f"{live_server}/r/{record_id}.belote?upto=13")
        assert "1. W:9S S:JS" in copied and "E:QS" not in copied and "Result" not in copied
        assert page.url.endswith("step=13") and errors == []
        image = page.locator('a[data-role="step-image"]').get_attribute("href")
        assert image == f"/r/{record_id}.svg?step=13"
    finally:
        context.close()


def test_without_javascript_the_copy_link_opens_the_text(app, live_server, browser):
    record_id = record_id_of(app, "05-belote-rebelote.belote")
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/r/{record_id}?step=3")
        page.click('a[data-role="copy-record"]')
        page.wait_for_url(re.compile(r"\.belote\?upto=3$"))
        text = page.inner_text("body")
        assert text.startswith('[Event "Club du jeudi"]') and "taking" in text and "play" not in text
    finally:
        context.close()


def test_the_image_of_a_step_renders(app, live_server, page):
    record_id = record_id_of(app, "09-coinche-surcoinche.belote")
    page.goto(f"{live_server}/r/{record_id}")
    for query in ("step=15", "step=end", "step=3&seat=E&bottom=E"):
        size = page.evaluate("""async (src) => {
            const img = new Image(); img.src = src; await img.decode();
            return [img.naturalWidth, img.naturalHeight]; }""", f"/r/{record_id}.svg?{query}")
        assert size == [600, 450], query
    response = page.goto(f"{live_server}/r/{record_id}.svg?step=15")  # opened on its own, under the site's CSP
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert page.locator("svg text").first.is_visible() and page.console_errors == []
