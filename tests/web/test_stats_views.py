"""The statistics pages and their JSON: figures of the samples (tests/archive/test_stats.py
says how they were counted), sorting, bad input as a 400 or a 404, never a 500."""

from __future__ import annotations

import re


def test_players_page_sorts_by_a_whitelisted_column(client):
    page = client.get("/stats?sort=taken&order=desc")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'aria-current="page">Statistics' in html  # the nav's link
    assert 'aria-sort="descending"' in html and "Anne Martin" in html
    assert client.get("/stats?sort=nope&page=x&order=sideways").status_code == 200


def test_player_page(client):
    page = client.get("/stats/player/Anne Martin")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert re.search(r"<dt>Deals played</dt><dd>7</dd>", html)
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="stats-chart"' in html
    assert "3/3 made" in html and "viewBox" not in html.split('class="stats-chart"')[1].split("</svg>")[0]
    assert "/stats/pair?a=Anne+Martin&amp;b=Claire+Dubois" in html
    by_event = html.split('id="by-event"')[1].split("</table>")[0]
    assert re.findall(r'<th scope="row">([^<]*)</th><td class="num">(\d+)</td><td class="num">(\d+)</td>'
                      r'<td class="num">(\d+)</td>', by_event) == [("Club du jeudi", "7", "4", "4")]


def test_pair_page_and_json(client):
    assert client.get("/stats/pair?a=Anne Martin&b=Claire Dubois").status_code == 200
    data = client.get("/api/stats/pair?a=Anne Martin&b=Claire Dubois").get_json()
    assert (data["figures"]["played"], data["figures"]["taken"], data["figures"]["failed"]) == (7, 5, 1)


def test_json_twins(client):
    data = client.get("/api/stats/player/Anne Martin?profile=ffb").get_json()
    assert data["filters"] == {"profile": "ffb"} and data["figures"]["played"] == 6
    table = client.get("/api/stats?sort=player&order=asc").get_json()
    assert [row["player"] for row in table["rows"]] == sorted(row["player"] for row in table["rows"])


def test_bad_input_is_said_never_a_500(client):
    page = client.get("/stats/player/Anne Martin?date_from=2026-13-45")
    assert page.status_code == 400 and "there is no month 13" in page.get_data(as_text=True)
    answer = client.get("/api/stats?date_to=yesterday")
    assert answer.status_code == 400 and "date_to" in answer.get_json()["error"]["fields"]
    assert client.get("/stats/player/Nobody at all").status_code == 404
    assert client.get("/api/stats/player/Nobody").get_json()["error"]["status"] == 404
    assert client.get("/stats/pair?a=Anne Martin").status_code == 400
    assert client.get("/api/stats/pair?a=x&b=x").status_code == 400
    assert client.get("/stats?contract=hearts").status_code == 400
    assert client.get("/stats/player/%00%ff?text=%00").status_code in (404, 400)
