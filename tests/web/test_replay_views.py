"""The replay pages through Flask's test client: every route, every error path, exact content."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from replayer.web.db import get_archive

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
HOSTILE = """[Event "<b>Club</b>"]
[North "<script>alert(1)</script>"]
[East "E"]
[South "S"]
[West "W"]
[Dealer "W"]
[Variant "belote"]
hand N AS TS 8S AH JH 9H 7D 8C
hand E QS 9S KD JD TD AC 9C 7C
hand S KS JS 7S TH 8H 7H 9D KC
hand W KH QH AD QD 8D QC JC TC
turned 8S
taking S:pass E:pass N:pass W:pass S:pass E:pass N:H
play
1. S:9D E:TD N:7D W:8D
*
"""


def record_id(app, source_end: str, deal: str | None = None) -> int:
    with app.app_context():
        rows = [row for row in get_archive().db.query("SELECT id, source, deal FROM records ORDER BY id")
                if row["source"].endswith(source_end) and (deal is None or row["deal"] == deal)]
    assert rows, source_end
    return rows[0]["id"]


def imported(app, *paths: Path) -> list[int]:
    with app.app_context():
        return list(get_archive().import_files(paths).ids)


@pytest.fixture
def belote_id(app) -> int:
    return record_id(app, "05-belote-rebelote.belote")


@pytest.fixture
def revoke_id(app) -> int:
    return imported(app, SAMPLES / "invalid" / "revoke.belote")[0]


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def stage_step(html: str) -> int:
    return int(re.search(r'class="replay-stage[^"]*" data-step="(\d+)"', html).group(1))


def hand_cards(html: str, seat: str, gone: bool = False) -> list[str]:
    """The card titles shown in ``seat``'s hand box (``hidden card`` for a back): the cards held,
    or with ``gone`` the cards it has played (greyed in place, or in a row beside a hidden hand)."""
    block = re.search(rf'<section class="hand [^"]*" data-seat="{seat}".*?</section>', html, re.S).group(0)
    found = re.findall(r'<span class="card (back|s-.)([^"]*)" title="([^"]+)"', block)
    return [title for _, classes, title in found if ("gone" in classes.split()) == gone]


def trick_cards(html: str) -> list[str]:
    block = re.search(r'<div class="trick-area".*?<p class="trick-info">(.*?)</p>', html, re.S)
    return re.findall(r'title="([^"]+)"', block.group(0)), " ".join(block.group(1).split())


def test_replay_at_step_0_shows_the_deal(client, belote_id):
    html = page(client, f"/r/{belote_id}")
    assert stage_step(html) == 0
    assert "The deal, before the first call" in html
    assert "Anne Martin" in html and "Denis Moreau" in html
    assert hand_cards(html, "N") == ["A♠", "10♠", "8♠", "A♥", "J♥", "9♥", "7♦", "8♣"]
    assert hand_cards(html, "N", gone=True) == []
    north = re.search(r'data-seat="N".*?</h3>', html, re.S).group(0)
    west = re.search(r'data-seat="W".*?</h3>', html, re.S).group(0)
    south = re.search(r'data-seat="S".*?</h3>', html, re.S).group(0)
    assert "taker" not in north and "dealer" not in north and "dealer" in west  # nobody has taken yet
    assert '<span class="badge turn">to speak</span>' in south
    assert '<dt>Contract</dt><dd class="contract">♥, taken by North</dd>' in html
    assert f'href="/r/{belote_id}?step=1"' in html  # the next call is a real link
    taken = page(client, f"/r/{belote_id}?step=7")  # North takes at the 7th call
    assert "taker" in re.search(r'data-seat="N".*?</h3>', taken, re.S).group(0)
    assert '<span class="badge turn">to play</span>' in re.search(r'data-seat="S".*?</h3>', taken, re.S).group(0)


def test_replay_at_card_5_shows_the_trick_the_hands_and_the_points(client, belote_id):
    html = page(client, f"/r/{belote_id}?step=12")  # 7 calls, then card 5
    assert stage_step(html) == 12
    assert "Trick 2, card 1: East plays A♣" in html
    cards, info = trick_cards(html)
    assert cards == ["A♣"] and info == "Trick 2: East is winning"
    assert hand_cards(html, "N") == ["A♠", "10♠", "8♠", "A♥", "J♥", "9♥", "8♣"]
    assert hand_cards(html, "N", gone=True) == ["7♦"]
    assert hand_cards(html, "E") == ["Q♠", "9♠", "K♦", "J♦", "9♣", "7♣"]
    assert hand_cards(html, "E", gone=True) == ["10♦", "A♣"]
    assert '<span class="side ns">NS <strong>0</strong> points, 0 tricks</span>' in html
    assert '<span class="side ew">EW <strong>10</strong> points, 1 trick</span>' in html
    assert re.search(rf'href="/r/{belote_id}\?step=11" data-step="11" data-role="prev"', html)
    assert re.search(rf'href="/r/{belote_id}\?step=15" data-step="15" data-role="next-trick"', html)


def test_a_finished_trick_shows_its_winner_and_points(client, belote_id):
    cards, info = trick_cards(page(client, f"/r/{belote_id}?step=19"))
    assert cards == ["Q♠", "10♠", "K♥", "7♠"] and info == "Trick 3: West wins (17 points)"


@pytest.mark.parametrize("value, expected", [("abc", 0), ("-3", 0), ("", 0), (" 7 ", 7), ("40", 40),
                                             ("41", 40), ("1" + "0" * 40, 40), ("end", 40), ("LAST", 40),
                                             ("1.5", 0), ("%00", 0), ("9" * 5000, 0)])
def test_bad_step_values_clamp(client, belote_id, value, expected):
    assert stage_step(page(client, f"/r/{belote_id}?step={value}")) == expected


def test_the_end_shows_the_breakdown_against_the_recorded_score(client, belote_id):
    html = " ".join(page(client, f"/r/{belote_id}?step=end").split())
    assert "End of the deal" in html
    assert 'Rescored <strong class="rescored">118-64</strong>' in html
    assert 'recorded Result <strong class="recorded">118-64</strong>: <span class="matches">matches</span>' in html
    assert re.search(r"<th>NS \(takers\)</th><td class=\"num\">108</td>", html)


def test_rotation_puts_the_asked_seat_at_the_bottom(client, belote_id):
    html = page(client, f"/r/{belote_id}?bottom=E&step=3")
    places = re.findall(r'<section class="hand at-(\w+)[^"]*" data-seat="(\w)"', html)
    assert places == [("bottom", "E"), ("left", "S"), ("top", "W"), ("right", "N")]
    assert f'href="/r/{belote_id}?step=4&amp;bottom=E"' in html  # links keep the rotation
    assert re.search(r'class="hand at-bottom[^"]*" data-seat="S"', page(client, f"/r/{belote_id}?bottom=nonsense"))


def test_one_seat_view_hides_the_other_hands_and_the_future(client, revoke_id):
    html = page(client, f"/r/{revoke_id}?seat=N&step=11")  # 8 calls, then trick 1's third card
    assert hand_cards(html, "N") == ["A♠", "10♠", "8♠", "A♥", "J♥", "8♦", "Q♣", "8♣"]  # N plays 4th
    for seat in "ESW":
        assert set(hand_cards(html, seat)) == {"hidden card"}
    assert len(hand_cards(html, "E")) == 7 and hand_cards(html, "E", gone=True) == ["Q♠"]
    assert len(hand_cards(html, "W")) == 7 and hand_cards(html, "W", gone=True) == ["K♠"]
    assert "must-follow" not in html and "Next finding" not in html  # the revoke is at step 14
    assert "141-41" not in html  # neither the Result tag nor the final score
    assert re.search(r'class="hand at-bottom[^"]*" data-seat="N"', html)
    later = page(client, f"/r/{revoke_id}?seat=N&step=14")
    assert "must-follow" in later and "trick 2: West played A♦, against the rule must-follow" in later
    assert "had to follow spades" not in later and "legal: 7" not in later  # West's hand stays hidden
    assert "had to follow spades" in page(client, f"/r/{revoke_id}?seat=W&step=14")  # West's own card
    assert "141-41" in page(client, f"/r/{revoke_id}?seat=N&step=end")


@pytest.mark.parametrize("seat", ["X", "north-ish", "<script>", "5"])
def test_a_bad_seat_is_refused(client, belote_id, seat):
    assert client.get(f"/r/{belote_id}/steps?seat={seat}").status_code == 400
    assert client.get(f"/r/{belote_id}/embed?seat={seat}").status_code == 400
    html = page(client, f"/r/{belote_id}?seat={seat}", 400)
    assert "seat must be one of N, E, S, W" in html and "<script>" not in html.split("<body", 1)[1].replace(
        "<script src", "")


def test_an_illegal_play_is_marked_with_its_explanation(client, revoke_id):
    start = page(client, f"/r/{revoke_id}")
    assert re.search(rf'<a class="nav-finding" href="/r/{revoke_id}\?step=14" data-step="14"', start)
    html = page(client, f"/r/{revoke_id}?step=14")
    assert '<span class="illegal-mark">illegal</span>' in html
    assert re.search(r'<span class="card s-d winning illegal latest" title="A♦">|'
                     r'<span class="card s-d illegal latest" title="A♦">', html)
    assert "West played A♦ but held 7♠ and had to follow spades" in html
    assert '<span class="alternatives">legal: 7♠</span>' in html  # cards in the site's symbols


def test_embed_is_frameable_and_has_no_site_navigation(client, belote_id):
    response = client.get(f"/r/{belote_id}/embed?step=12")
    assert response.status_code == 200
    assert "frame-ancestors *" in response.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in response.headers
    html = response.get_data(as_text=True)
    assert 'class="site-nav"' not in html and stage_step(html) == 12
    assert f'href="/r/{belote_id}/embed?step=13"' in html  # stepping stays in the embed
    shown = client.get(f"/r/{belote_id}")
    assert "frame-ancestors 'none'" in shown.headers["Content-Security-Policy"]
    assert shown.headers["X-Content-Type-Options"] == "nosniff"


def test_steps_holds_every_stage(client, belote_id):
    html = page(client, f"/r/{belote_id}/steps?bottom=N")
    assert [int(n) for n in re.findall(r'class="replay-stage[^"]*" data-step="(\d+)"', html)] == list(range(41))
    assert f'data-url="/r/{belote_id}?step=7&amp;bottom=N"' in html
    embed = page(client, f"/r/{belote_id}/steps?embed=1")
    assert f'data-url="/r/{belote_id}/embed?step=7"' in embed


@pytest.mark.parametrize("url", ["/r/99999", "/r/99999/embed", "/r/99999/steps", "/r/99999.belote",
                                 "/r/99999.json", "/r/0"])
def test_unknown_records_are_404(client, url):
    assert client.get(url).status_code == 404


def test_download_text_and_json(app, client, belote_id):
    with app.app_context():
        raw = get_archive().get(belote_id)["raw"]
    text = client.get(f"/r/{belote_id}.belote")
    assert text.status_code == 200 and text.mimetype == "text/plain" and text.get_data(as_text=True) == raw
    data = client.get(f"/r/{belote_id}.json")
    assert data.mimetype == "application/json"
    body = json.loads(data.get_data(as_text=True))
    assert body["id"] == belote_id and body["ok"] is True and body["findings"] == []
    assert ["North", "Anne Martin"] in body["record"]["tags"]
    assert body["record"]["tricks"][0]["plays"][0] == {"seat": "S", "card": "9D"}
    assert body["score"]["score"] == [118, 64] and body["recorded"] == [118, 64] and body["result_matches"]


def test_json_of_an_invalid_record_lists_its_findings(client, revoke_id):
    body = client.get(f"/r/{revoke_id}.json").get_json()
    assert body["ok"] is False
    assert [(f["rule"], f["trick"], f["card_index"]) for f in body["findings"]] == [("must-follow", 2, 2)]


def test_user_text_is_escaped_and_pages_carry_no_inline_script_or_style(app, client):
    with app.app_context():
        new_id = get_archive().add(HOSTILE).ids[0]
    for url in (f"/r/{new_id}", f"/r/{new_id}/embed", f"/r/{new_id}/steps"):
        html = page(client, url)
        assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<b>Club</b>" not in html
        assert " style=" not in html and "onclick" not in html
        assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))


def test_a_stored_text_that_no_longer_parses_is_shown_not_crashed(app, client, belote_id):
    with app.app_context():
        get_archive().db.execute("UPDATE record_texts SET raw = ? WHERE record_id = ?", ["hand N ZZ", belote_id])
    html = page(client, f"/r/{belote_id}", 422)
    assert "can no longer be read" in html and "hand N ZZ" in html
    assert client.get(f"/r/{belote_id}/embed").status_code == 422
    assert client.get(f"/r/{belote_id}/steps").status_code == 404
    assert client.get(f"/r/{belote_id}.json").status_code == 422


def test_claim_and_partial_records(app, client):
    claim_id = record_id(app, "14-partial.belote", None) + 1  # the second record of the file claims
    html = " ".join(page(client, f"/r/{claim_id}?step=22").split())  # 5 calls, 16 cards, the claim
    assert "Claim" in html and "North claims the remaining tricks." in html
    assert '<span class="side ns">NS <strong>113</strong> points, 6 tricks</span>' in html
    stopped = " ".join(page(client, f"/r/{claim_id - 1}?step=end").split())
    assert "The deal was not rescored" in stopped and "play-stopped" in stopped
