"""The replay page in a real browser (Playwright driving Debian's Chromium): keyboard
stepping, permalinks, the slider, autoplay, the one-seat view, the embed and the
page without JavaScript."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from replayer.web.db import get_archive

SAMPLES = Path(__file__).resolve().parents[2] / "samples"



@pytest.fixture
def replay_url(app, live_server) -> str:
    with app.app_context():
        row = next(get_archive().db.query(
            "SELECT id FROM records WHERE source LIKE '%05-belote-rebelote.belote' ORDER BY id"))
    return f"{live_server}/r/{row['id']}"


def open_replay(page, url: str) -> list[str]:
    """Open a replay and wait until replay.js has the stages; returns the pages requested from the server."""
    loads: list[str] = []
    page.on("request", lambda request: loads.append(request.url) if request.resource_type == "document" else None)
    page.goto(url)
    page.wait_for_selector("#replay.instant")
    return loads


def label(page) -> str:
    return page.inner_text("#step-label").strip()


def step_in_url(page) -> int | None:
    match = re.search(r"[?&]step=(\d+)", page.url)
    return int(match.group(1)) if match else None


def test_keyboard_steps_by_card_and_by_trick(page, replay_url):
    loads = open_replay(page, replay_url)
    assert label(page) == "The deal, before the first card"
    page.keyboard.press("ArrowRight")
    assert label(page) == "Trick 1, card 1: South plays 9♦"
    assert step_in_url(page) == 1
    page.keyboard.press("Shift+ArrowRight")
    assert label(page) == "Trick 1, card 4: West plays 8♦" and step_in_url(page) == 4
    assert page.inner_text(".trick-info").strip() == "Trick 1: East wins (10 points)"
    page.keyboard.press("Shift+ArrowRight")
    assert step_in_url(page) == 8
    page.keyboard.press("Shift+ArrowLeft")
    assert step_in_url(page) == 4
    page.keyboard.press("ArrowLeft")
    assert label(page) == "Trick 1, card 3: North plays 7♦"
    page.keyboard.press("End")
    assert label(page) == "End of the deal" and step_in_url(page) == 33
    assert "118-64" in page.inner_text(".score-breakdown")
    assert page.inner_text(".score-breakdown .matches") == "matches"
    page.keyboard.press("Home")
    assert label(page) == "The deal, before the first card" and step_in_url(page) == 0
    assert len(loads) == 1  # every step came from the stages replay.js holds: no page load
    assert page.console_errors == []


def test_a_step_permalink_opens_that_moment(page, replay_url):
    open_replay(page, replay_url + "?step=12")
    assert label(page) == "Trick 3, card 4: South plays 7♠"
    assert page.inner_text(".trick-info").strip() == "Trick 3: West wins (17 points)"
    assert page.inner_text("#tally").replace("\n", " ") == \
        "North–South: 0 card points, 0 tricks East–West: 44 card points, 3 tricks"
    page.click('a[data-role="next"]')
    assert label(page) == "Trick 4, card 1: West plays A♦" and step_in_url(page) == 13
    permalink = page.get_attribute('a[data-role="permalink"]', "href")
    assert permalink.endswith("?step=13")
    assert page.locator('.trick-area .card').all_inner_texts() == ["A♦"]
    assert page.locator('.hand[data-seat="W"] .card').count() == 4  # West has just led its 5th card
    assert page.locator('.hand[data-seat="E"] .card').count() == 5
    page.fill("#step-slider", "20")
    assert step_in_url(page) == 20 and label(page) == "Trick 5, card 4: East plays 7♣"
    assert page.console_errors == []


def test_the_one_seat_view_hides_the_other_hands(page, replay_url):
    open_replay(page, replay_url + "?seat=N")
    assert page.locator('.hand[data-seat="N"] .card.back').count() == 0
    assert page.locator('.hand[data-seat="N"] .card').count() == 8
    for seat in "ESW":
        assert page.locator(f'.hand[data-seat="{seat}"] .card').count() == 8
        assert page.locator(f'.hand[data-seat="{seat}"] .card.back').count() == 8
    assert page.locator('.hand.at-bottom').get_attribute("data-seat") == "N"
    page.keyboard.press("ArrowRight")
    assert "seat=N" in page.url and step_in_url(page) == 1
    assert page.locator('.hand[data-seat="S"] .card.back').count() == 7  # South led, still hidden
    assert "118-64" not in page.inner_text("body")
    assert page.console_errors == []


def test_the_next_finding_key_jumps_to_the_illegal_play(app, live_server, page):
    with app.app_context():
        revoke = get_archive().import_files([SAMPLES / "invalid" / "revoke.belote"]).ids[0]
    open_replay(page, f"{live_server}/r/{revoke}")
    page.keyboard.press("n")
    assert step_in_url(page) == 6
    assert label(page) == "Trick 2, card 2: West plays A♦ illegal"
    assert "West played A♦ but held 7♠ and had to follow spades" in page.inner_text(".step-findings")
    assert page.locator(".trick-area .card.illegal").all_inner_texts() == ["A♦"]
    assert page.console_errors == []


def test_autoplay_moves_on_by_itself(page, replay_url):
    open_replay(page, replay_url + "?step=31")
    page.click("#autoplay")
    page.wait_for_selector('.replay-stage[data-step="33"]', timeout=8000)
    assert page.get_attribute("#autoplay", "aria-pressed") == "false"  # stopped at the end
    assert page.console_errors == []


def test_the_embed_works_inside_a_frame(page, replay_url):
    page.goto(replay_url + "/embed?step=5")
    page.wait_for_selector("#replay.instant")
    assert label(page) == "Trick 2, card 1: East plays A♣"
    page.keyboard.press("ArrowRight")
    assert re.search(r"/embed\?step=6$", page.url)
    assert page.locator(".site-nav").count() == 0
    assert page.console_errors == []


def test_without_javascript_every_link_loads_its_step(browser, replay_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(replay_url)
        assert page.locator(".autoplay-bar").is_hidden()
        page.click('a[data-role="next"]')
        page.wait_for_url(re.compile(r"\?step=1$"))
        assert page.inner_text("#step-label").strip() == "Trick 1, card 1: South plays 9♦"
        page.click('.trick-jumps a:text-is("3")')
        page.wait_for_url(re.compile(r"\?step=12$"))
        page.fill("#step-slider", "20")
        page.click('button[data-role="go"]')
        page.wait_for_url(re.compile(r"\?step=20$"))
        assert page.inner_text("#step-label").strip() == "Trick 5, card 4: East plays 7♣"
    finally:
        context.close()
