"""The site in Chromium with JavaScript turned off: the replay steps through its links and
slider, the one-seat guess works, and the controls a script brings (autoplay and its speed,
"Copy the token") are not shown, since without the script they would do nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture
def nojs(browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        context.close()


def test_the_replay_steps_through_its_links_without_javascript(nojs, live_server):
    nojs.goto(live_server + "/r/30")  # samples/13-comments.belote: two calls, then the cards
    assert not nojs.locator("#autoplay").is_visible() and not nojs.locator("#autoplay-speed").is_visible()
    assert nojs.inner_text("#step-label") == "The deal, before the first call"
    nojs.click('.replay-nav a[data-role="next"]')
    nojs.wait_for_url(re.compile(r"/r/30\?step=1$"))
    assert nojs.inner_text("#step-label").startswith("Call 1: West says pass")
    assert "passe, trop court en atout ?" in nojs.inner_text(".step-notes")
    nojs.fill("#step-slider", "6")  # the slider's Go button submits the form
    nojs.click('.replay-slider button[data-role="go"]')
    nojs.wait_for_url(re.compile(r"/r/30\?step=6$"))
    assert nojs.inner_text("#step-label") == "Trick 1, card 4: North plays 7♠"


def test_the_guess_works_without_javascript(nojs, live_server):
    nojs.goto(live_server + "/r/30?step=6&seat=E")  # East leads trick 2 next
    choices = nojs.locator("a.guess-card")
    assert choices.count() == 7  # East's whole hand: any card may be led
    nojs.locator('a.guess-card[href*="guess=9D"]').click()
    nojs.wait_for_url(re.compile(r"step=7"))
    assert nojs.inner_text("#guess-result").startswith("Right: East played 9♦")


def test_copy_the_token_is_not_shown_without_javascript(nojs, live_server):
    text = (SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8").replace("Club du jeudi", "Club sans script")
    nojs.goto(live_server + "/submit")
    nojs.fill("#text", text)
    nojs.click("#check-button")
    nojs.wait_for_url(re.compile(r"/submit/check/"))
    nojs.click("#store-button")
    nojs.wait_for_url(re.compile(r"/stored$"))
    assert nojs.locator("#owner-token").is_visible()
    assert not nojs.locator("#copy-token").is_visible()
