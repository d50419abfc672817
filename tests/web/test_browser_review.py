"""A review of the replay page in a real browser (Playwright driving Debian's Chromium), at a
desktop size (1280×800) and a phone size (390×844): no sideways scroll, the table and its
controls on a phone's first screen, the swipe, comments and glyphs at their step, the auction
call by call (its grid inside the middle of the table at every size), the one-seat view that sends nothing its seat does not know (checked on the
network), the autoplay speed, the embed in a 400×400 frame, the downloads and a finding's
line link.

The records are found by their sample file through the API (``/api/records``), and step
numbers come from each record's timeline (``/api/records/<id>``), fetched by the test itself
(urllib), never through the page. Screenshots go to /tmp/shots/review-*.png.
"""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

SHOTS = Path("/tmp/shots")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}

COMMENTS = "13-comments.belote"  # comments and glyphs everywhere (record 30 of the samples)
AUCTION = "09-coinche-surcoinche.belote"  # an 11-call coinche auction (record 14)
BELOTE = "05-belote-rebelote.belote"  # a classic taking, belote and rebelote (record 10)

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
NOTATION_CARD = re.compile(r"(?<![\w])(?:10|[7-9TJQKA])[SHDC](?![\w])")


# --- what the test knows of the archive, asked through the API (not through the page) ------------

def api(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


@pytest.fixture
def records(live_server) -> dict[str, int]:
    """The first record id of each sample file in the live server's archive."""
    listing = api(live_server, "/api/records?per_page=100")
    assert listing["total"] <= len(listing["records"]), "more records than one page of the API: ask for more"
    ids: dict[str, int] = {}
    for row in sorted(listing["records"], key=lambda row: row["id"]):
        ids.setdefault(row["source"], row["id"])
    assert {COMMENTS, AUCTION, BELOTE} <= set(ids)
    return ids


def record_data(base: str, record_id: int) -> dict:
    return api(base, f"/api/records/{record_id}")


def pretty(card: str) -> str:
    """``TS`` -> ``10♠``, as the pages write a card."""
    return ("10" if card[0] == "T" else card[:-1]) + SYMBOLS[card[-1]]


# --- the page --------------------------------------------------------------------------------------

def open_replay(page, url: str) -> None:
    """Open a replay with every hand and wait until replay.js has every stage."""
    page.goto(url)
    page.wait_for_selector("#replay.instant")


def shown_step(page) -> int:
    return int(page.get_attribute("#stage .replay-stage", "data-step"))


def label(page) -> str:
    return page.inner_text("#step-label").strip()


def url_step(url: str) -> int | None:
    values = parse_qs(urlsplit(url).query).get("step")
    return int(values[0]) if values else None


def press(page, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def shot_path(name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return str(SHOTS / f"review-{name}.png")


def shot(page, name: str, full_page: bool = False) -> None:
    page.screenshot(path=shot_path(name), full_page=full_page)


def sideways(page) -> dict:
    """The page's width against the window's, and what sticks out on the right."""
    return page.evaluate("""() => {
        const width = window.innerWidth;
        const out = [];
        for (const element of document.querySelectorAll('body *')) {
            const box = element.getBoundingClientRect();
            if (box.width && box.right > width + 0.5 && getComputedStyle(element).position !== 'fixed') {
                let inside = element.parentElement, clipped = false;
                for (; inside && inside !== document.body; inside = inside.parentElement) {
                    const style = getComputedStyle(inside);
                    if (style.overflowX !== 'visible' || style.display === 'none') { clipped = true; break; }
                }
                if (!clipped) out.push((element.id ? '#' + element.id : element.tagName.toLowerCase() + '.'
                                        + [...element.classList].join('.')) + ' right=' + Math.round(box.right));
            }
        }
        return {scroll: document.documentElement.scrollWidth, window: width, out: out.slice(0, 8)};
    }""")


def assert_no_sideways_scroll(page, where: str) -> None:
    measure = sideways(page)
    assert measure["scroll"] <= measure["window"], f"{where}: the page scrolls sideways: {measure}"


def box(page, selector: str) -> dict:
    """The element's box in page coordinates (the first screen is 0..height)."""
    return page.evaluate("""(selector) => {
        const element = document.querySelector(selector);
        const b = element.getBoundingClientRect();
        return {top: b.top + window.scrollY, bottom: b.bottom + window.scrollY,
                left: b.left + window.scrollX, right: b.right + window.scrollX};
    }""", selector)


# --- 1. no sideways scroll, at both sizes ------------------------------------------------------------

def test_no_sideways_scroll_at_either_size(page, live_server, records):
    comments, auction = records[COMMENTS], records[AUCTION]
    timeline = record_data(live_server, comments)["timeline"]
    mid_trick = timeline["trick_ends"][1] - 1  # trick 2, its third card
    last = len(timeline["steps"]) - 1
    open_replay(page, f"{live_server}/r/{comments}")
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.keyboard.press("Home")
        assert shown_step(page) == 0
        assert_no_sideways_scroll(page, f"{size}, the deal")
        shot(page, f"deal-{size}")
        press(page, "ArrowRight", mid_trick)
        assert shown_step(page) == mid_trick
        assert_no_sideways_scroll(page, f"{size}, step {mid_trick} (mid-trick)")
        page.keyboard.press("End")
        assert shown_step(page) == last
        assert_no_sideways_scroll(page, f"{size}, the end")
        shot(page, f"end-{size}", full_page=True)
        if size == "desktop":  # the record's text opened (its longest lines are comments): it stays open
            page.click("#record-text summary")
        assert page.locator("#record-text .source").is_visible()
        assert_no_sideways_scroll(page, f"{size}, the record's text opened")
    for url, name in ((f"/r/{auction}?step=8", "auction"), (f"/r/{comments}?seat=E&step=4", "seat")):
        page.goto(live_server + url)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            assert_no_sideways_scroll(page, f"{size}, {name}")
            shot(page, f"{name}-{size}")
    assert page.console_errors == []


# --- 2. a phone's first screen: the table and the step controls ----------------------------------------

def test_the_table_and_its_controls_fit_a_phone_screen(page, live_server, records):
    comments, auction = records[COMMENTS], records[AUCTION]
    timeline = record_data(live_server, comments)["timeline"]
    page.set_viewport_size(PHONE)
    problems: list[str] = []

    def check(where: str) -> None:
        assert page.evaluate("window.scrollY") == 0, f"{where}: the page scrolled by itself"
        table, nav = box(page, ".card-table"), box(page, ".replay-nav")
        if table["bottom"] > PHONE["height"]:
            problems.append(f"{where}: .card-table ends at {table['bottom']:.0f} px")
        if nav["bottom"] > PHONE["height"]:
            problems.append(f"{where}: .replay-nav ends at {nav['bottom']:.0f} px")
        hands = page.locator(".card-table .hand")
        assert hands.count() == 4
        for i in range(4):
            hand = hands.nth(i)
            assert hand.is_visible(), where
            bottom = hand.bounding_box()["y"] + hand.bounding_box()["height"]
            if bottom > PHONE["height"]:
                problems.append(f"{where}: the hand of {hand.get_attribute('data-seat')} ends at {bottom:.0f} px")

    open_replay(page, f"{live_server}/r/{comments}")
    check("the deal")
    press(page, "ArrowRight")
    check("a call of the taking")
    press(page, "ArrowRight", timeline["trick_ends"][2] - 1 - shown_step(page))
    check("mid-deal")
    shot(page, "phone-mid-deal")
    press(page, "End")
    check("the end")
    page.goto(f"{live_server}/r/{auction}?step=11")
    check("the last call of an auction: three rows of calls")
    page.goto(f"{live_server}/r/{auction}?step=end")
    check("the end of a coinche deal")
    page.goto(f"{live_server}/r/{comments}?seat=E&step=4")
    check("the one-seat view, East to play")
    assert problems == [], "not on a phone's first screen (844 px): " + "; ".join(problems)
    assert page.console_errors == []


# --- 3. a swipe on the table ----------------------------------------------------------------------------

def swipe(cdp, x0: float, x1: float, y0: float, y1: float | None = None) -> None:
    """A one-finger drag from (x0, y0) to (x1, y1) with real touch events (the DevTools protocol)."""
    y1 = y0 if y1 is None else y1
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for fraction in (0.33, 0.66, 1.0):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x0 + (x1 - x0) * fraction, "y": y0 + (y1 - y0) * fraction}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def wait_for_step(page, step: int) -> None:
    page.wait_for_function(f"() => (document.querySelector('#stage .replay-stage') || {{dataset: {{}}}})"
                           f".dataset.step === '{step}'")


def test_a_left_swipe_on_the_table_is_the_next_step(page, live_server, records):
    comments = records[COMMENTS]
    labels = [step["label"] for step in record_data(live_server, comments)["timeline"]["steps"]]
    page.set_viewport_size(PHONE)
    open_replay(page, f"{live_server}/r/{comments}?step=5")
    cdp = page.context.new_cdp_session(page)
    table = page.locator(".card-table").bounding_box()
    middle = table["y"] + table["height"] / 2
    swipe(cdp, 320, 80, middle)
    wait_for_step(page, 6)
    assert url_step(page.url) == 6 and label(page).startswith(labels[6])
    swipe(cdp, 300, 60, middle + 40)
    wait_for_step(page, 7)
    assert url_step(page.url) == 7 and label(page).startswith(labels[7])
    # a tap and a mostly vertical drag are not swipes; a swipe off the table does nothing
    swipe(cdp, 200, 204, middle)
    swipe(cdp, 200, 230, middle - 100, middle + 100)
    label_box = page.locator("#step-label").bounding_box()
    swipe(cdp, 320, 80, label_box["y"] + label_box["height"] / 2)
    page.wait_for_timeout(300)
    assert shown_step(page) == 7 and url_step(page.url) == 7
    assert page.console_errors == []


def test_a_right_swipe_on_the_table_is_the_previous_step_and_stays_on_the_page(page, live_server, records):
    """Come from the archive, as a reader does: the swipe must step back, not also take the
    browser back to the archive (Chromium's overscroll history navigation)."""
    comments = records[COMMENTS]
    labels = [step["label"] for step in record_data(live_server, comments)["timeline"]["steps"]]
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/")
    open_replay(page, f"{live_server}/r/{comments}?step=5")
    cdp = page.context.new_cdp_session(page)
    table = page.locator(".card-table").bounding_box()
    middle = table["y"] + table["height"] / 2
    swipe(cdp, 80, 320, middle)
    page.wait_for_timeout(800)  # time for a history navigation to happen, if the swipe starts one
    assert urlsplit(page.url).path == f"/r/{comments}", f"the swipe left the replay for {page.url}"
    wait_for_step(page, 4)
    assert url_step(page.url) == 4 and label(page).startswith(labels[4])
    open_replay(page, f"{live_server}/r/{comments}")  # at the deal, a right swipe stays there
    swipe(cdp, 80, 320, middle)
    page.wait_for_timeout(800)
    assert urlsplit(page.url).path == f"/r/{comments}" and shown_step(page) == 0
    assert page.console_errors == []


# --- 4. comments and glyphs at their step ------------------------------------------------------------

def test_comments_and_glyphs_show_at_their_step(page, live_server, records):
    comments = records[COMMENTS]
    steps = record_data(live_server, comments)["timeline"]["steps"]
    blunder = next(s["index"] for s in steps if s["card"] and s["card"]["card"] == "JD" and s["card"]["seat"] == "W")
    assert steps[blunder]["card"]["annotation"] == "??"
    open_replay(page, f"{live_server}/r/{comments}")
    press(page, "ArrowRight", blunder - 1)
    assert "a blunder" not in page.inner_text("#stage")
    press(page, "ArrowRight")
    assert shown_step(page) == blunder and url_step(page.url) == blunder
    assert label(page) == "Trick 2, card 3: West plays J♦??"
    notes = page.locator("#stage .step-notes")
    played = page.locator(".trick-area .played", has=page.locator('.card[title="J♦"]'))
    move = page.locator(f'.move-list a.move[data-step="{blunder}"]')
    assert "current" in move.get_attribute("class") and move.get_attribute("aria-current") == "step"
    assert "West: J♦" in notes.inner_text() and "a blunder" in notes.inner_text()
    assert played.locator(".glyph").inner_text() == "??" and move.locator(".glyph").inner_text() == "??"
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert notes.is_visible() and played.locator(".glyph").is_visible() and move.locator(".glyph").is_visible()
        shot(page, f"comment-{size}")
    press(page, "ArrowRight")  # the comment is the card's: gone at the next step
    assert "a blunder" not in page.inner_text("#stage")
    assert page.console_errors == []


# --- 5. the auction, call by call ---------------------------------------------------------------------

def contract_parts(contract: str) -> list[str]:
    """What the standing contract ``110C coinche by E`` must show: ``110``, ``♣``, ``coinched``, ``East``."""
    match = re.fullmatch(r"(\d+|[a-z]+)?(SA|TA|[SHDC]) ?(coinche|surcoinche)? by ([NESW])", contract)
    assert match, contract
    level, denomination, doubling, taker = match.groups()
    parts = [SYMBOLS.get(denomination, denomination), f"taken by {SEAT_NAMES[taker]}"]
    if level:
        parts.insert(0, level)
    if doubling:
        parts.append(doubling + "d")
    return parts


def test_the_auction_steps_call_by_call(page, live_server, records):
    auction = records[AUCTION]
    timeline = record_data(live_server, auction)["timeline"]
    calls, steps = timeline["calls"], timeline["steps"]
    assert len(calls) == 11 and timeline["play_start"] == len(calls)
    open_replay(page, f"{live_server}/r/{auction}")
    assert page.locator(".auction-grid td.none").inner_text() == "no call yet"
    for number, call in enumerate(calls, start=1):
        page.keyboard.press("ArrowRight")
        assert shown_step(page) == number and url_step(page.url) == number
        assert label(page).startswith(steps[number]["label"])
        current = page.locator(".auction-grid td.current")
        assert current.count() == 1
        assert current.inner_text() == call["pretty"] + (call["annotation"] or "")
        assert page.locator(".auction-grid td a").count() == number
        standing = page.inner_text(".standing").strip()
        contract = steps[number]["contract"]
        if contract is None:
            assert "Standing" not in standing and "Contract" not in standing
        else:
            assert standing.startswith("Contract:" if number >= timeline["play_start"] else "Standing:"), standing
            for part in contract_parts(contract):
                assert part in standing, (number, part, standing)
            if "coinche" not in contract:
                assert "coinched" not in standing
        assert page.get_attribute(".move-list a.move.current", "data-step") == str(number)
        if number == 8:
            assert "coinched" in standing
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                shot(page, f"auction-call8-{size}")
            page.set_viewport_size(DESKTOP)
    assert "surcoinched" in page.inner_text(".standing")
    page.keyboard.press("ArrowRight")  # the first card: the grid gives way to the trick
    assert page.locator(".auction-grid").count() == 0 and page.locator(".trick-area .played").count() == 1
    assert page.console_errors == []


def test_the_auction_grid_stays_inside_the_trick_area(page, live_server, records):
    """The grid of an 11-call auction at the sizes between the phone and the desktop (a tablet,
    a small laptop) and in the 400-pixel embed: inside the middle of the table, over no hand."""
    auction = records[AUCTION]
    problems: list[str] = []
    cases = [(f"/r/{auction}?step=11", {"width": width, "height": 800}) for width in (390, 834, 1024, 1280)]
    cases.append((f"/r/{auction}/embed?step=11", {"width": 400, "height": 400}))
    for url, viewport in cases:
        page.set_viewport_size(viewport)
        page.goto(live_server + url)
        edges = page.evaluate("""() => {
            const box = (selector) => { const b = document.querySelector(selector).getBoundingClientRect();
                                        return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; };
            return {grid: box('.auction-grid'), standing: box('.standing'), area: box('.trick-area'),
                    hands: [...document.querySelectorAll('.card-table .hand')].map(
                        (hand) => [hand.dataset.seat, box('.hand[data-seat="' + hand.dataset.seat + '"]')])};
        }""")
        where = f"{url} at {viewport['width']}×{viewport['height']}"
        area = edges["area"]
        for name in ("grid", "standing"):
            own = edges[name]
            if own["left"] < area["left"] - 0.5 or own["right"] > area["right"] + 0.5:
                problems.append(f"{where}: the {name} spans {own['left']:.0f}..{own['right']:.0f} px, "
                                f"the trick area {area['left']:.0f}..{area['right']:.0f} px")
            for seat, hand in edges["hands"]:
                if own["left"] < hand["right"] and hand["left"] < own["right"] \
                        and own["top"] < hand["bottom"] and hand["top"] < own["bottom"]:
                    problems.append(f"{where}: the {name} covers the hand of {seat}")
        if viewport["width"] in (400, 834):
            page.locator(".card-table").screenshot(path=shot_path(f"auction-grid-{viewport['width']}"))
    assert problems == [], "the auction overflows the middle of the table: " + "; ".join(problems)
    assert page.console_errors == []


# --- 6. playing as East: nothing East does not know reaches the browser ----------------------------------

def test_playing_as_east_sends_nothing_east_does_not_know(page, live_server, records):
    record_id = records[COMMENTS]
    data = record_data(live_server, record_id)
    dealt = {hand["seat"]: hand["cards"] for hand in data["record"]["hands"]}
    steps = data["timeline"]["steps"]

    def secret(step: int) -> set[str]:
        """The cards of West, North and South that East does not know at ``step``."""
        hidden: set[str] = set()
        for hand in steps[step]["hands"]:
            if hand["seat"] != "E":
                hidden |= set(dealt[hand["seat"]]) - set(hand["played"]) - set(hand["public"])
        return hidden

    def later_comments(step: int) -> list[str]:
        return [note["text"] for s in steps[step + 1:] for note in s["notes"] if note["kind"] in ("card", "claim")]

    requests: list[str] = []
    responses: list = []
    pages: list[str] = []  # the steps' pages read from the network
    page.on("request", lambda request: requests.append(request.url))
    page.on("response", lambda response: responses.append(response))
    checked = 0

    def check_network(now: int) -> None:
        nonlocal checked
        for response in responses[checked:]:
            url = urlsplit(response.url)
            kind = (response.headers.get("content-type") or "").split(";")[0]
            if response.status in (204, 304) or not (kind.startswith("text/") or "json" in kind
                                                       or "javascript" in kind):
                continue
            step = url_step(response.url) if url.path == f"/r/{record_id}" else now
            body = response.body().decode("utf-8", "replace")
            if url.path == f"/r/{record_id}":  # a step's page: East's own cards are there, as cards are written
                pages.append(response.url)
                assert all(pretty(card) in body for card in dealt["E"]), response.url
            for card in secret(step if step is not None else 0):
                assert pretty(card) not in body, f"{response.url} shows {pretty(card)}, not known to East"
            words = set(NOTATION_CARD.findall(body)) & secret(step or 0)
            assert not words, f"{response.url} names {words}, not known to East"
            for text in later_comments(step or 0):
                assert text not in body, f"{response.url} has a comment of a later step: {text!r}"
            assert "hand N " not in body and "[Result" not in body, f"{response.url} has the record's text"
        checked = len(responses)
        for url in requests:
            parts = urlsplit(url)
            assert not (parts.path.endswith("/steps") and "seat=" not in parts.query), url
            assert not parts.path.endswith((".belote", ".json")) and "embed" not in parts.path, url

    def check_table(step: int) -> None:
        assert shown_step(page) == step and url_step(page.url) == step
        for hand in steps[step]["hands"]:
            seat = hand["seat"]
            where = page.locator(f'.hand[data-seat="{seat}"]')
            if seat == "E":
                assert where.locator(".card.back").count() == 0
                continue
            assert where.locator(".card.back").count() == len(hand["cards"]) - len(hand["public"])
            assert where.locator(".card.known").count() == len(hand["public"])
            assert where.locator(".card.gone").count() == len(hand["played"])
        html = page.inner_html("#replay")
        assert not [card for card in secret(step) if pretty(card) in html]
        check_network(step)

    page.goto(f"{live_server}/r/{record_id}?seat=E&step=3")
    page.wait_for_selector('#stage .replay-stage[data-step="3"]')
    assert page.locator(".downloads, #record-text, a[data-role=embed]").count() == 0
    check_table(3)
    route = [("ArrowRight", 4), ("ArrowRight", 5), ("ArrowRight", 6), ("ArrowLeft", 5), ("ArrowLeft", 4),
             ("ArrowLeft", 3), ("ArrowLeft", 2), ("ArrowRight", 3), ("ArrowRight", 4)]
    for key, step in route:
        page.keyboard.press(key)
        page.wait_for_selector(f'#stage .replay-stage[data-step="{step}"]')
        check_table(step)

    # East is to play at step 4: its legal cards are links; a guess shows the card played
    assert steps[4]["turn"] == "E" and steps[5]["card"]["seat"] == "E"
    played = steps[5]["card"]["card"]
    legal = steps[4]["legal"]
    guesses = page.locator("a.guess-card")
    assert guesses.count() == len(legal)
    assert all("guess=" in guesses.nth(i).get_attribute("href") for i in range(guesses.count()))
    assert page.locator("#guess-ask").is_visible()
    shot(page, "seat-guess-desktop")
    other = next(card for card in legal if card != played)
    page.click(f'a.guess-card[href*="guess={other}"]')
    page.wait_for_selector("#guess-result")
    result = page.locator("#guess-result")
    assert "wrong" in result.get_attribute("class") and "You chose" in result.inner_text()
    assert pretty(other) in result.inner_text() and pretty(played) in result.inner_text()
    check_table(5)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#stage .replay-stage[data-step="4"] a.guess-card')
    page.click(f'a.guess-card[href*="guess={played}"]')
    page.wait_for_selector("#guess-result.right")
    assert "Right" in page.inner_text("#guess-result")
    check_table(5)
    shot(page, "seat-guessed-desktop")
    # each step's page was read when East went to it (the first page, 4, 5, 6, 3, 2, the two guesses, 4)
    assert {url_step(url) for url in pages} == {2, 3, 4, 5, 6} and len(pages) >= 8, pages
    assert page.console_errors == []


# --- 7. the autoplay speed, kept --------------------------------------------------------------------------

def test_autoplay_at_the_speed_chosen_which_is_kept(page, live_server, records):
    open_replay(page, f"{live_server}/r/{records[COMMENTS]}")
    assert page.locator(".autoplay-bar").is_visible()
    page.select_option("#autoplay-speed", label="fast (0.5 s)")
    page.evaluate("""() => {
        window.stepTimes = [];
        const holder = document.getElementById('stage');
        new MutationObserver(() => window.stepTimes.push(performance.now())).observe(holder, {childList: true});
    }""")
    page.click("#autoplay")
    assert page.get_attribute("#autoplay", "aria-pressed") == "true"
    page.wait_for_function("() => window.stepTimes.length >= 3", timeout=2000)  # 3 steps within 2 s
    page.wait_for_function("() => window.stepTimes.length >= 5", timeout=3000)
    times = page.evaluate("window.stepTimes")
    gaps = sorted(later - earlier for earlier, later in zip(times, times[1:]))
    assert 350 <= gaps[len(gaps) // 2] <= 700, f"steps every {gaps} ms, not about 500"
    page.click("#autoplay")
    assert page.get_attribute("#autoplay", "aria-pressed") == "false"
    stopped = shown_step(page)
    assert stopped >= 5
    page.wait_for_timeout(700)
    assert shown_step(page) == stopped
    page.reload()
    page.wait_for_selector("#replay.instant")
    assert page.input_value("#autoplay-speed") == "500"
    assert page.evaluate("localStorage.getItem('belote.autoplay-ms')") == "500"
    assert page.console_errors == []


# --- 8. the embed in a 400×400 frame ------------------------------------------------------------------------

@pytest.fixture
def another_site():
    """``serve(html)``: the page ``html`` served by another local server (another origin than the
    live server's), as a site embedding a deal would; returns its URL. (A page of ``set_content``
    is about:blank, which ``frame-ancestors *`` does not admit, and a page faked by ``page.route``
    counts as a public address, from which Chromium blocks a frame on 127.0.0.1.)"""
    servers = []

    def serve(html: str) -> str:
        class Page(BaseHTTPRequestHandler):
            def do_GET(self):
                body = html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{server.server_port}/another-site.html"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def test_the_embed_fits_a_400_frame_and_takes_the_keys(page, live_server, records, another_site):
    """The embed on another site's page, in an iframe of 400×400."""
    record_id = records[COMMENTS]
    page.goto(another_site(f'<!doctype html><title>Another site</title><body style="margin:20px"><p>A deal:</p>'
                           f'<iframe id="embed" src="{live_server}/r/{record_id}/embed?step=5" width="400" '
                           'height="400" style="border:0"></iframe>'))
    frame = page.frame_locator("#embed")
    frame.locator("#replay.instant").wait_for()
    inside = page.frame(url=re.compile(r"/embed\?step=5$"))
    size = inside.evaluate("() => [window.innerWidth, window.innerHeight, document.documentElement.scrollWidth]")
    assert size[:2] == [400, 400] and size[2] <= 400, size
    for selector in (".card-table", ".replay-nav"):
        edges = inside.evaluate("""(selector) => { const b = document.querySelector(selector).getBoundingClientRect();
                                    return [b.left, b.top, b.right, b.bottom]; }""", selector)
        assert edges[0] >= 0 and edges[1] >= 0 and edges[2] <= 400 and edges[3] <= 400, (selector, edges)
    assert frame.locator(".site-nav").count() == 0
    page.locator("#embed").screenshot(path=shot_path("embed-400"))
    frame.locator("#step-label").click()  # the focus inside the frame
    page.keyboard.press("ArrowRight")
    frame.locator('#stage .replay-stage[data-step="6"]').wait_for()
    assert inside.url.endswith("/embed?step=6")
    page.keyboard.press("Shift+ArrowRight")
    frame.locator('#stage .replay-stage[data-step="10"]').wait_for()  # the end of trick 2
    nav = frame.locator('.replay-nav a[data-role="prev"]')
    nav.click()
    frame.locator('#stage .replay-stage[data-step="9"]').wait_for()
    assert inside.url.endswith("/embed?step=9")
    assert page.console_errors == []


# --- 9. the downloads download ------------------------------------------------------------------------------

def test_the_downloads_are_files(page, live_server, records):
    record_id = records[COMMENTS]
    open_replay(page, f"{live_server}/r/{record_id}")
    with page.expect_download() as download_info:
        page.click(".downloads a:text-is('Download text')")
    download = download_info.value
    assert download.suggested_filename == f"record-{record_id}.belote"
    assert "W:JD?? {a blunder}" in Path(download.path()).read_text(encoding="utf-8")
    with page.expect_download() as download_info:
        page.click(".downloads a:text-is('Download JSON')")
    download = download_info.value
    assert download.suggested_filename == f"record-{record_id}.json"
    assert json.loads(Path(download.path()).read_text(encoding="utf-8"))["id"] == record_id
    assert shown_step(page) == 0 and url_step(page.url) is None  # the page stayed where it was
    assert page.console_errors == []


# --- 10. a finding's line link opens the record's text at that line ------------------------------------------

def test_a_finding_links_to_its_line_in_the_record_text(page, live_server, records):
    found = None
    listed = [row["id"] for row in api(live_server, "/api/records?per_page=100")["records"]]
    for record_id in listed:
        findings = [f for f in record_data(live_server, record_id)["findings"] if f.get("line")]
        if findings:
            found = record_id, findings[0]
            break
    assert found, "no sample record has a finding with a line"
    record_id, finding = found
    line = finding["line"]
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        open_replay(page, f"{live_server}/r/{record_id}")
        text = page.locator("#record-text")
        assert text.get_attribute("open") is None
        link = page.locator(f'.all-findings a.where[data-role="line"][href="#L{line}"]')
        assert link.count() == 1
        link.click()
        page.wait_for_function("() => document.getElementById('record-text').open")
        assert page.url.endswith(f"#L{line}")
        target = page.locator(f"#L{line}")
        assert target.is_visible() and f"has-{finding['severity']}" in target.get_attribute("class")
        target_box = target.bounding_box()
        assert 0 <= target_box["y"] < viewport["height"], f"{size}: line {line} is not on the screen"
        assert_no_sideways_scroll(page, f"{size}, the record's text at a finding")
        shot(page, f"finding-line-{size}")
    assert page.console_errors == []
