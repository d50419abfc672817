"""The replay page in a real browser (Playwright driving Debian's Chromium): keyboard
stepping through the taking and the tricks, permalinks, the slider, the move list, played
cards greyed in place, the last trick, the end, autoplay, the one-seat view, the next-finding
key, the embed and the page without JavaScript.

Step numbers come from the record's timeline (``/api/records/<id>``: ``play_start``,
``trick_ends``, each step's ``label``), asked for by the test, not hard-coded. The deal is
step 0, the calls steps 1..play_start, then one step per card, a claim step if any, the end."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from replayer.web.db import get_archive

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
BELOTE = "05-belote-rebelote.belote"  # a classic deal: a taking of 7 calls, belote and rebelote


def api(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


def record_id_of(app, source: str) -> int:
    with app.app_context():
        row = next(get_archive().db.query("SELECT id FROM records WHERE source LIKE ? ORDER BY id", [f"%{source}"]))
    return row["id"]


@pytest.fixture
def replay(app, live_server) -> tuple[str, dict]:
    """The URL of the replay of 05-belote-rebelote and its timeline."""
    record_id = record_id_of(app, BELOTE)
    return f"{live_server}/r/{record_id}", api(live_server, f"/api/records/{record_id}")["timeline"]


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


def test_keyboard_steps_by_call_by_card_and_by_trick(page, replay):
    url, timeline = replay
    labels = [step["label"] for step in timeline["steps"]]
    start, ends, last = timeline["play_start"], timeline["trick_ends"], len(labels) - 1
    loads = open_replay(page, url)
    assert label(page) == labels[0] == "The deal, before the first call"
    page.keyboard.press("ArrowRight")
    assert label(page) == labels[1] == "Call 1: South says pass" and step_in_url(page) == 1
    page.keyboard.press("Shift+ArrowRight")  # from the taking: to its end
    assert step_in_url(page) == start and label(page) == "Call 7: North says ♥"
    page.keyboard.press("ArrowRight")
    assert step_in_url(page) == start + 1 and label(page) == labels[start + 1] == "Trick 1, card 1: South plays 9♦"
    page.keyboard.press("Shift+ArrowRight")
    assert step_in_url(page) == ends[0] and label(page) == "Trick 1, card 4: West plays 8♦"
    assert page.inner_text(".trick-info").strip() == "Trick 1: East wins (10 points)"
    page.keyboard.press("Shift+ArrowRight")
    assert step_in_url(page) == ends[1]
    page.keyboard.press("Shift+ArrowLeft")
    assert step_in_url(page) == ends[0]
    page.keyboard.press("ArrowLeft")
    assert label(page) == labels[ends[0] - 1] == "Trick 1, card 3: North plays 7♦"
    page.keyboard.press("End")
    assert label(page) == "End of the deal" and step_in_url(page) == last
    assert "118-64" in page.inner_text(".score-breakdown")
    assert page.inner_text(".score-breakdown .matches") == "matches"
    page.keyboard.press("Home")
    assert label(page) == labels[0] and step_in_url(page) == 0
    assert len(loads) == 1  # every step came from the stages replay.js holds: no page load
    assert page.console_errors == []


def test_a_step_permalink_opens_that_moment(page, replay):
    url, timeline = replay
    labels = [step["label"] for step in timeline["steps"]]
    third = timeline["trick_ends"][2]
    open_replay(page, f"{url}?step={third}")
    assert label(page) == labels[third] == "Trick 3, card 4: South plays 7♠"
    assert page.inner_text(".trick-info").strip() == "Trick 3: West wins (17 points)"
    assert page.inner_text("#tally").replace("\n", " ") == "NS 0 points, 0 tricks EW 44 points, 3 tricks"
    page.click('a[data-role="next"]')
    assert label(page) == labels[third + 1] == "Trick 4, card 1: West plays A♦" and step_in_url(page) == third + 1
    assert page.get_attribute('a[data-role="permalink"]', "href").endswith(f"?step={third + 1}")
    assert page.get_attribute('a[data-role="embed"]', "href").endswith(f"/embed?step={third + 1}")
    assert page.locator(".trick-area .card").all_inner_texts() == ["A♦"]
    # the hands as dealt, the cards played greyed in place: West has led its 4th card
    assert page.locator('.hand[data-seat="W"] .card').count() == 8
    assert page.locator('.hand[data-seat="W"] .card.gone').count() == 4
    assert page.locator('.hand[data-seat="E"] .card.gone').count() == 3
    assert page.locator('.hand[data-seat="W"] .card.gone[title="A♦"]').count() == 1
    # the last trick on demand
    last_trick = page.locator("details.last-trick")
    assert last_trick.locator("summary").inner_text() == "Last trick (3)"
    assert not last_trick.locator("p").is_visible()
    last_trick.locator("summary").click()
    assert "West won 17 points" in last_trick.locator("p").inner_text()
    page.fill("#step-slider", str(timeline["trick_ends"][3] + 4))
    assert step_in_url(page) == timeline["trick_ends"][4] and label(page) == "Trick 5, card 4: East plays 7♣"
    assert page.console_errors == []


def test_the_move_list_follows_and_jumps(page, replay):
    url, timeline = replay
    labels = [step["label"] for step in timeline["steps"]]
    open_replay(page, url)
    moves = page.locator(".move-list a.move")
    assert moves.count() == len(labels) - 2  # every call and card (no claim): not the deal, not the end
    assert page.locator(".move-list a.move.current").count() == 0
    target = timeline["trick_ends"][1] - 1  # trick 2, card 3: West's J♣
    page.click(f'.move-list a.move[data-step="{target}"]')
    assert step_in_url(page) == target and label(page) == labels[target] == "Trick 2, card 3: West plays J♣"
    current = page.locator(".move-list a.move.current")
    assert current.count() == 1 and current.get_attribute("data-step") == str(target)
    assert current.get_attribute("aria-current") == "step"
    page.keyboard.press("ArrowRight")
    assert page.get_attribute(".move-list a.move.current", "data-step") == str(target + 1)
    page.click('.move-list .move-calls a.move[data-step="3"]')
    assert label(page) == labels[3] == "Call 3: North says pass"
    assert page.locator(".auction-grid td.current").inner_text() == "pass"
    assert page.console_errors == []


def test_the_end_shows_the_hands_as_dealt(page, replay):
    url, timeline = replay
    open_replay(page, url + "?step=end")
    assert step_in_url(page) is None and label(page) == "End of the deal"
    for seat in "NESW":
        assert page.locator(f'.hand[data-seat="{seat}"] .card').count() == 8
    assert page.locator(".card-table .card.gone").count() == 0
    assert page.locator(".card-table .card.back").count() == 0
    assert "Score 118-64" in page.inner_text(".trick-area")
    page.keyboard.press("ArrowLeft")  # the last card: the hands are empty but for the cards greyed
    assert page.locator(".card-table .hand .card:not(.gone)").count() == 0
    assert page.console_errors == []


def test_the_one_seat_view_hides_the_other_hands(page, replay):
    url, timeline = replay
    first_card = timeline["play_start"] + 1
    page.goto(f"{url}?seat=N&step={first_card}")
    page.wait_for_selector(".replay-stage")
    assert page.locator('.hand[data-seat="N"] .card.back').count() == 0
    assert page.locator('.hand[data-seat="N"] .card').count() == 8
    for seat in "EW":
        assert page.locator(f'.hand[data-seat="{seat}"] .card.back').count() == 8
    # South led: seven backs and its card in the played row
    assert page.locator('.hand[data-seat="S"] .card.back').count() == 7
    assert page.locator('.hand[data-seat="S"] .played-row .card.gone').all_inner_texts() == ["9♦"]
    assert page.locator(".hand.at-bottom").get_attribute("data-seat") == "N"
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'.replay-stage[data-step="{first_card + 1}"]')
    assert "seat=N" in page.url and step_in_url(page) == first_card + 1
    assert [u for u in requests if "/r/" in u] == [page.url]  # that step only, asked for when stepped to
    assert page.locator('.hand[data-seat="E"] .card.back').count() == 7
    assert "118-64" not in page.inner_text("body")
    assert page.locator("#record-text, .downloads").count() == 0
    assert page.console_errors == []


def test_the_next_finding_key_jumps_to_the_illegal_play(app, live_server, page):
    with app.app_context():
        revoke = get_archive().import_files([SAMPLES / "invalid" / "revoke.belote"]).ids[0]
    timeline = api(live_server, f"/api/records/{revoke}")["timeline"]
    illegal = next(step for step in timeline["steps"] if step["illegal"])
    open_replay(page, f"{live_server}/r/{revoke}")
    page.keyboard.press("n")
    assert step_in_url(page) == illegal["index"]
    assert label(page) == illegal["label"] + " illegal" == "Trick 2, card 2: West plays A♦ illegal"
    assert "West played A♦ but held 7♠ and had to follow spades" in page.inner_text(".step-findings")
    assert page.locator(".trick-area .card.illegal").all_inner_texts() == ["A♦"]
    assert page.console_errors == []


def test_autoplay_moves_on_by_itself(page, replay):
    url, timeline = replay
    last = len(timeline["steps"]) - 1
    open_replay(page, f"{url}?step={last - 2}")
    page.click("#autoplay")
    assert page.get_attribute("#autoplay", "aria-pressed") == "true"
    page.wait_for_selector(f'.replay-stage[data-step="{last}"]', timeout=8000)
    page.wait_for_function("() => document.getElementById('autoplay').getAttribute('aria-pressed') === 'false'")
    page.keyboard.press(" ")  # space at the end: from the deal again
    page.wait_for_selector('.replay-stage[data-step="1"]', timeout=5000)
    page.keyboard.press(" ")
    assert page.get_attribute("#autoplay", "aria-pressed") == "false"
    assert page.console_errors == []


def test_the_embed_works_on_its_own(page, replay):
    url, timeline = replay
    first = timeline["trick_ends"][0] + 1
    page.goto(f"{url}/embed?step={first}")
    page.wait_for_selector("#replay.instant")
    assert label(page) == timeline["steps"][first]["label"] == "Trick 2, card 1: East plays A♣"
    page.keyboard.press("ArrowRight")
    assert re.search(rf"/embed\?step={first + 1}$", page.url)
    assert page.locator(".site-nav, .move-list, #record-text").count() == 0
    assert page.console_errors == []


def test_without_javascript_every_link_loads_its_step(browser, replay):
    url, timeline = replay
    labels = [step["label"] for step in timeline["steps"]]
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(url)
        assert page.locator(".autoplay-bar").is_hidden()
        page.click('a[data-role="next"]')
        page.wait_for_url(re.compile(r"\?step=1$"))
        assert page.inner_text("#step-label").strip() == labels[1]
        page.click('.trick-jumps a:text-is("3")')
        page.wait_for_url(re.compile(rf"\?step={timeline['trick_ends'][2]}$"))
        target = timeline["trick_ends"][4]
        page.fill("#step-slider", str(target))
        page.click('button[data-role="go"]')
        page.wait_for_url(re.compile(rf"\?step={target}$"))
        assert page.inner_text("#step-label").strip() == labels[target] == "Trick 5, card 4: East plays 7♣"
        page.click(f'.move-list a.move[data-step="{target - 1}"]')
        page.wait_for_url(re.compile(rf"\?step={target - 1}$"))
    finally:
        context.close()
