"""The stored double-dummy analysis on the site, through the real Flask app: the values on the
cards of the seat to play, the marks of the cards played (move list, tricks, the step), the
totals at the end, the API's ``analysis``, the "Analyse this deal" button; then one test in a
real Chromium that the badges show at a step and nothing scrolls sideways.

The analyses are real (``replayer.check.analysis``), of late positions (``first_step``): the
solver's first positions take seconds in pure Python."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notation import parse
from replayer.check import analysis as analysis_module
from replayer.check.analysis import analyse_record
from replayer.check.validator import validate
from replayer.web import replay_views
from replayer.web.analysis_view import analysis_view
from replayer.web.step_builder import build_timeline
from replayer.web.db import get_archive

ROOT = Path(__file__).resolve().parents[2]
DEAL = (ROOT / "samples" / "05-belote-rebelote.belote").read_text(encoding="utf-8")
OUT_OF_TURN = DEAL.replace("1. S:9D E:TD N:7D W:8D", "1. E:TD N:7D W:8D S:9D").replace(
    '[Event "Club du jeudi"]', '[Event "Cercle du mardi"]')
FIRST = 17  # the match's deal 2 is analysed from card 17: a blunder at 23, a mistake at 25, an inaccuracy at 28
CALLS = 5  # its taking: card n is step CALLS + n
GLYPH = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def record_row(app, source_end: str, deal: str | None = None) -> dict:
    with app.app_context():
        rows = [row for row in get_archive().db.query("SELECT id, source, deal, raw FROM records_full ORDER BY id")
                if row["source"].endswith(source_end) and (deal is None or row["deal"] == deal)]
    return rows[0]


@pytest.fixture
def analysed(app) -> tuple[int, dict]:
    """The id of samples/12-match.belote's deal 2 and the analysis stored for it."""
    row = record_row(app, "12-match.belote", "2")
    data = analyse_record(next(parse(row["raw"])), first_step=FIRST).as_dict()
    with app.app_context():
        assert get_archive().store_analysis(row["id"], data)
    return row["id"], data


@pytest.fixture
def plain_id(app) -> int:
    """samples/05-belote-rebelote.belote: no analysis stored."""
    return record_row(app, "05-belote-rebelote.belote")["id"]


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def hand_block(html: str, seat: str) -> str:
    return re.search(rf'<section class="hand [^"]*" data-seat="{seat}".*?</section>', html, re.S).group(0)


def badges(block: str) -> dict[str, tuple[int, bool]]:
    """card (as shown, e.g. A♣) -> (the number on its badge, whether it is marked best)."""
    found = re.findall(r'<span class="card s-. valued( best)?" title="([^":]+):[^"]*">.*?'
                       r'<span class="dd-value(?: best)?">(-?\d+)</span></span>', block)
    return {card: (int(points), bool(best)) for best, card, points in found}


def pretty(card: str) -> str:
    rank, suit = card[:-1], card[-1]
    return ("10" if rank == "T" else rank) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]


def step_of(data: dict, number: int) -> dict:
    return next(step for step in data["steps"] if step["step"] == number)


def marked(data: dict) -> dict[int, str]:
    return {step["step"]: step["mark"] for step in data["steps"] if step["mark"]}


# --- the values on the cards -------------------------------------------------------------------

def test_the_values_of_the_seat_to_play_are_on_its_cards(client, analysed):
    record_id, data = analysed
    position = step_of(data, 23)  # at step 27 (5 calls, 22 cards) North is to play the 23rd card
    side = 0 if position["seat"] in "NS" else 1
    html = page(client, f"/r/{record_id}?step={CALLS + 22}")
    north = hand_block(html, position["seat"])
    expected = {pretty(card): (values[side], card in position["best"]) for card, values in position["values"].items()}
    assert badges(north) == expected and len(expected) >= 2
    assert any(best for _, best in expected.values()) and not all(best for _, best in expected.values())
    for seat in "NESW":  # only the seat to play has values
        if seat != position["seat"]:
            assert "dd-value" not in hand_block(html, seat)
    best = max(points for points, _ in expected.values())
    line = " ".join(re.search(r'<p class="dd-line".*?</p>', html, re.S).group(0).split())
    assert f"North to play: best" in line and f"North–South {best} card points with best play" in line
    # before the first card analysed: no values, and the page is the same replay
    early = page(client, f"/r/{record_id}?step={CALLS + 10}")
    assert "dd-value" not in re.search(r'<div class="card-table"[^>]*>.*?<div class="trick-area"', early, re.S).group(0)
    assert "cards 17 to 32 analysed" in " ".join(early.split())


def test_every_stage_of_the_steps_endpoint_and_the_embed_show_them(client, analysed):
    record_id, data = analysed
    stages = page(client, f"/r/{record_id}/steps")
    stage = re.search(rf'<div class="replay-stage[^"]*" data-step="{CALLS + 22}".*?(?=<div class="replay-stage)',
                      stages, re.S)
    assert badges(hand_block(stage.group(0), step_of(data, 23)["seat"]))
    assert stages.count('class="dd-value') == sum(len(step["values"]) for step in data["steps"])
    embed = page(client, f"/r/{record_id}/embed?step={CALLS + 22}")
    assert badges(hand_block(embed, step_of(data, 23)["seat"]))


def test_the_one_seat_view_shows_no_analysis(client, analysed):
    record_id, _ = analysed
    html = page(client, f"/r/{record_id}?seat=N&step={CALLS + 22}")
    assert "dd-value" not in html and "class=\"mark " not in html
    assert "not shown in the one-seat view" in html


def test_the_analysis_is_laid_out_after_the_calls(analysed):
    _, data = analysed
    parsed = list(parse((ROOT / "samples" / "12-match.belote").read_text(encoding="utf-8")))[1]
    timeline = build_timeline(parsed.record, validate(parsed))
    view = analysis_view(data, timeline)
    assert view.offset == timeline.play_start == CALLS and view.span == (FIRST, 32)
    assert sorted(view.cards) == [step["step"] for step in data["steps"]]
    for number in range(FIRST, 33):  # card n is step CALLS + n: its position is faced at the step before
        before, played = timeline.steps[CALLS + number - 1], timeline.steps[CALLS + number]
        assert view.to_play(before) is view.cards[number] and view.cards[number].seat is before.turn
        assert view.mark_of(played.card, played.index) is view.cards[number]
        assert view.mark_of(played.card, played.index - 1) is None  # another step: another card
    assert view.to_play(timeline.steps[CALLS + FIRST - 2]) is None  # card 16 was not analysed
    assert all(view.to_play(step) is None for step in timeline.steps[:CALLS])  # the taking
    assert view.to_play(timeline.steps[-1]) is None
    assert {n: p.mark for n, p in view.cards.items() if p.mark} == marked(data)


# --- marks ----------------------------------------------------------------------------------

def test_marks_in_the_move_list_the_tricks_and_the_step(client, analysed):
    record_id, data = analysed
    marks = marked(data)
    assert set(marks.values()) == {"inaccuracy", "mistake", "blunder"}
    html = page(client, f"/r/{record_id}?step=end")
    moves = re.search(r'<section class="move-list".*?</section>', html, re.S).group(0)
    move = r'<a class="move[^"]*" href="([^"]+)" data-step="(\d+)"[^>]*>(.*?)</a>'
    calls = re.findall(move, re.search(r'<p class="move-calls">.*?</p>', moves, re.S).group(0), re.S)
    assert [int(step) for _, step, _ in calls] == list(range(1, CALLS + 1))  # each call a link to its step
    assert all('class="mark' not in inside for _, _, inside in calls)
    links = re.findall(move, re.search(r'<ol class="moves">.*?</ol>', moves, re.S).group(0), re.S)
    assert [int(step) for _, step, _ in links] == list(range(CALLS + 1, CALLS + 33))  # each card a link to its step
    for href, step, inside in links:
        assert href == f"/r/{record_id}?step={step}"
        shown = re.findall(r'<span class="mark m-(\w+)" title="[^"]*">([^<]+)</span>', inside)
        mark = marks.get(int(step) - CALLS)
        assert shown == ([(mark, GLYPH[mark])] if mark else [])
    tricks = re.search(r'<section class="tricks-done">.*?</section>', html, re.S).group(0)
    assert sorted(re.findall(r'class="mark m-(\w+)"', tricks)) == sorted(marks.values())

    blunder = next(number for number, mark in marks.items() if mark == "blunder")
    step = page(client, f"/r/{record_id}?step={CALLS + blunder}")
    label = re.search(r'<h2 class="step-label".*?</h2>', step, re.S).group(0)
    assert 'class="mark m-blunder"' in label and ">??</span>" in label
    cost = step_of(data, blunder)["cost"]
    assert f"cost North–South {cost} points (blunder); best:" in " ".join(step.split()) or \
        f"cost East–West {cost} points (blunder); best:" in " ".join(step.split())
    assert f'title="blunder: {cost} points lost' in step


def test_the_totals_at_the_end_of_the_deal(client, analysed):
    record_id, data = analysed
    html = page(client, f"/r/{record_id}?step=end")
    table = re.search(r'<section class="dd-totals".*?</section>', html, re.S).group(0)
    rows = re.findall(r'<tr class="(?:seat|side)"><th>(.*?)</th>\s*<td class="num">(\d+)</td><td class="num">(\d+)'
                      r'</td><td class="num">(\d+)</td>\s*<td class="num">(\d+)</td><td class="num">(\d+)</td>',
                      table, re.S)
    assert len(rows) == 6
    for key, (name, cards, cost, inaccuracy, mistake, blunder) in zip(("N", "E", "S", "W", "NS", "EW"), rows):
        total = data["totals"][key]
        assert (int(cards), int(cost), int(inaccuracy), int(mistake), int(blunder)) == (
            total["cards"], total["cost"], total["inaccuracy"], total["mistake"], total["blunder"]), key
    assert rows[0][0].startswith("North") and rows[4][0] == "NS"
    assert "(of the cards analysed)" in table  # from card 17 only
    assert "dd-totals" not in page(client, f"/r/{record_id}?step={CALLS + 20}")  # at the end only


def test_a_stopped_analysis_says_why(app, client):
    with app.app_context():
        archive = get_archive()
        [record_id] = archive.import_text(OUT_OF_TURN).ids
        archive.analyse([record_id])
    # step 7: the taking is over (7 calls), South is to lead the first card
    text = " ".join(re.sub(r"<[^>]+>", "", page(client, f"/r/{record_id}?step=7")).split())
    assert "stopped early at card 1: an illegal card was played." in text
    assert "East leads 10♦ but South should lead" in text  # the analyser's own words
    assert "Not analysed from card 1 on: an illegal card was played." in text


# --- the JSON ---------------------------------------------------------------------------------

def test_the_api_and_the_download_include_the_analysis(client, analysed, plain_id):
    record_id, data = analysed
    body = client.get(f"/api/records/{record_id}").get_json()
    assert body["analysis"] == data and body["timeline"]["steps"]
    assert client.get(f"/api/records/{plain_id}").get_json()["analysis"] is None
    assert client.get(f"/r/{record_id}.json").get_json()["analysis"] == data
    assert client.get(f"/r/{plain_id}.json").get_json()["analysis"] is None


# --- asking for an analysis ---------------------------------------------------------------------

def test_no_analysis_shows_a_line_and_the_button_which_stores_then_shows(app, client, csrf, plain_id):
    html = page(client, f"/r/{plain_id}?step=20")
    assert "No analysis is stored for this deal." in html and "dd-value" not in html
    form = re.search(r'<form class="dd-ask" method="post" action="([^"]+)">(.*?)</form>', html, re.S)
    assert form.group(1) == f"/r/{plain_id}/analyse"
    assert 'name="csrf_token"' in form.group(2) and 'name="step" value="20"' in form.group(2)
    assert "Analyse this deal" in form.group(2)

    app.config["ANALYSIS_SECONDS"] = 1  # the first positions of a deal take longer: its last tricks get analysed
    response = client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf, "step": "20"})
    assert response.status_code == 303 and response.headers["Location"] == f"/r/{plain_id}?step=20"
    with app.app_context():
        row = get_archive().analysis_row(plain_id)
    assert row is not None and row["max_seconds"] == 1
    shown = page(client, f"/r/{plain_id}?step=35")  # 7 calls, then card 28
    assert "No analysis is stored" not in shown and badges(shown)
    assert "Analyse this deal" not in shown
    # asked again (a reload, another visitor): nothing is computed, back to the replay
    again = client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf, "step": "3"})
    assert again.status_code == 303 and again.headers["Location"] == f"/r/{plain_id}?step=3"
    with app.app_context():
        assert get_archive().analysis_row(plain_id)["created"] == row["created"]


def test_the_button_needs_the_form_token(app, client, plain_id):
    assert client.post(f"/r/{plain_id}/analyse", data={"step": "2"}).status_code == 403
    assert client.post(f"/r/{plain_id}/analyse", data={"csrf_token": "forged"}).status_code == 403
    with app.app_context():
        assert get_archive().analysis_row(plain_id) is None


@pytest.mark.parametrize("path", ["/r/999999/analyse", "/r/99999999999999999999/analyse", "/r/-1/analyse",
                                  "/r/abc/analyse"])
def test_bad_ids_are_404_not_500(client, csrf, path):
    response = client.post(path, data={"csrf_token": csrf})
    assert response.status_code == 404


def test_bad_ids_on_the_pages_and_the_api_are_404(client):
    for url in ("/r/999999", "/r/999999/steps", "/r/999999.json", "/api/records/999999"):
        assert client.get(url).status_code == 404, url
    assert client.get("/api/records/999999").get_json()["error"]["status"] == 404


def test_the_button_is_not_offered_when_the_site_analyses_nothing(app, client, csrf, plain_id):
    app.config["ANALYSIS_SECONDS"] = 0
    html = page(client, f"/r/{plain_id}")
    assert "No analysis is stored for this deal." in html and "Analyse this deal" not in html
    assert client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf}).status_code == 403


def test_a_failing_analysis_is_a_422_not_a_500(app, client, csrf, plain_id, monkeypatch):
    def failing(*args, **kwargs):
        raise RuntimeError("the solver lost its cards")

    monkeypatch.setattr(analysis_module, "analyse_record", failing)
    response = client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf})
    assert response.status_code == 422
    assert "could not be analysed" in response.get_data(as_text=True)
    with app.app_context():
        assert get_archive().analysis_row(plain_id) is None


def test_a_stored_analysis_that_cannot_be_read_is_not_a_500(app, client, analysed):
    record_id, _ = analysed
    for broken in ('{"steps": [{"step": "x"}]}', "not json", "[1, 2]", '{"steps": [{"step": 23, "values": 5}]}'):
        with app.app_context():
            get_archive().db.execute("UPDATE analyses SET analysis = ? WHERE record_id = ?", [broken, record_id])
        html = page(client, f"/r/{record_id}?step={CALLS + 22}")
        assert "dd-value" not in html
        assert page(client, f"/r/{record_id}/steps")
        assert client.get(f"/api/records/{record_id}").status_code == 200


def test_one_analysis_at_a_time(app, client, csrf, plain_id):
    assert replay_views._ANALYSING.acquire(blocking=False)  # another request is analysing
    try:
        busy = client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf})
    finally:
        replay_views._ANALYSING.release()
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "10"
    assert "Another deal is being analysed" in busy.get_data(as_text=True)
    with app.app_context():
        assert get_archive().analysis_row(plain_id) is None


def test_the_rate_limit_counts_the_button(app, client, csrf, plain_id):
    app.config["RATE_LIMIT"] = "1/minute"
    app.config["ANALYSIS_SECONDS"] = 0.05
    assert client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf}).status_code == 303
    refused = client.post(f"/r/{plain_id}/analyse", data={"csrf_token": csrf})
    assert refused.status_code == 429 and "Retry-After" in refused.headers


# --- in a real browser --------------------------------------------------------------------------

@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_badges_show_at_a_step_and_nothing_scrolls_sideways(browser, live_server, analysed, width, height):
    record_id, data = analysed
    context = browser.new_context(viewport={"width": width, "height": height})
    page_ = context.new_page()
    errors: list[str] = []
    page_.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page_.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page_.goto(f"{live_server}/r/{record_id}?step={CALLS + 22}")
        page_.wait_for_selector("#replay.instant")
        seat = step_of(data, 23)["seat"]
        values = page_.locator(f'.hand[data-seat="{seat}"] .dd-value')
        assert values.count() == len(step_of(data, 23)["values"])
        for index in range(values.count()):
            badge = values.nth(index)
            badge.scroll_into_view_if_needed()
            assert badge.is_visible()
            box = badge.bounding_box()
            assert box["width"] > 8 and box["height"] > 8 and 0 <= box["x"] and box["x"] + box["width"] <= width
        assert page_.locator(f'.hand[data-seat="{seat}"] .card.best').count() == len(step_of(data, 23)["best"])
        assert page_.evaluate("document.documentElement.scrollWidth") <= width
        page_.keyboard.press("ArrowRight")  # the next step, swapped in by replay.js: its own values
        page_.wait_for_selector(f'.replay-stage[data-step="{CALLS + 23}"]')
        after = step_of(data, 24)
        assert page_.locator(f'.hand[data-seat="{after["seat"]}"] .dd-value').count() == len(after["values"])
        assert page_.inner_text(".move-list a.move.current").strip().startswith(step_of(data, 23)["seat"])
        assert "??" in page_.inner_text(".move-list a.move.current")  # the blunder just played
        for step in (0, CALLS, CALLS + 16, CALLS + 28, CALLS + 33):  # every kind of step fits too
            page_.goto(f"{live_server}/r/{record_id}?step={step}")
            assert page_.evaluate("document.documentElement.scrollWidth") <= width, step
        assert errors == []
    finally:
        context.close()
