"""The archive page (/): list, search, sort, paginate; favicon; friendly 404/405 pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replayer.archive import Archive

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SAMPLE_RECORDS = 59  # the records of samples/*.belote


def row_ids(html: str) -> list[int]:
    """The record ids of the result table, in order."""
    return [int(n) for n in re.findall(r'<td class="num"><a href="/r/(\d+)"', html)]


def count_line(html: str) -> str:
    return re.search(r'<p class="result-count" id="result-count">\s*(.*?)\s*</p>', html, re.S).group(1)


def test_index_lists_the_samples_newest_first(client):
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert count_line(html) == f"{SAMPLE_RECORDS} records, page 1 of 3."
    ids = row_ids(html)
    assert len(ids) == 25
    assert ids[0] == 34  # 2026.04.11, the most recent date
    assert 'href="/m/1"' in html  # the match deals link their match


def test_each_row_shows_contract_scores_and_validity(client):
    html = client.get("/?sort=id&order=asc&per_page=1&page=14").get_data(as_text=True)
    assert row_ids(html) == [14]
    assert "110C" in html and "by E" in html
    assert '<span title="recorded">0–1080</span>' in html
    assert '<span title="rescored" class="">0–1080</span>' in html
    assert '<span class="badge valid">valid</span>' in html


@pytest.mark.parametrize("args, expected", [
    ({"player": "Kim"}, [34]),
    ({"text": "Discord", "sort": "id", "order": "asc"}, [17, 18, 35]),
    ({"event": "Montpellier", "sort": "id", "order": "asc"}, [14, 15, 16, 37]),
    # the match (2026.03.12), then 17-namu .. 20-sata (2026.03.19 to 2026.03.27): 30 records, one page of 100
    ({"date_from": "2026-03-06", "date_to": "2026.03.31", "sort": "id", "order": "asc", "per_page": "100"},
     list(range(19, 30)) + list(range(39, 58))),
    ({"variant": "coinche", "sort": "id", "order": "asc"}, [14, 15, 16, 17, 18, 35, 37, 42, 43, 56, 57, 58, 59]),
    ({"contract": "capot S"}, [15]),
    ({"contract": "SA"}, [17]),
    ({"contract": "110C", "sort": "id", "order": "asc"}, [14, 37]),
    ({"player": "Kim", "variant": "coinche"}, []),
])
def test_filters(client, args, expected):
    html = client.get("/", query_string=args).get_data(as_text=True)
    assert row_ids(html) == expected
    if not expected:
        assert count_line(html) == "No record matches."


def test_validity_filter_and_finding_counts(app, client):
    wrong = (SAMPLES / "invalid" / "wrong-result.belote").read_text(encoding="utf-8")
    with Archive(app.config["DB"]) as archive:
        new_id = archive.add(wrong).ids[0]
    html = client.get("/?validity=invalid").get_data(as_text=True)
    assert row_ids(html) == [new_id]
    assert '<span class="badge invalid">invalid</span>' in html
    assert '<span class="count-errors">1 error</span>' in html
    assert '<span title="recorded">62–100</span>' in html
    assert 'class="score-differs"' in html
    valid = client.get("/?validity=valid&per_page=100").get_data(as_text=True)
    assert new_id not in row_ids(valid) and len(row_ids(valid)) == SAMPLE_RECORDS


def test_page_links_keep_the_filters(client):
    html = client.get("/?variant=belote&sort=id&order=asc").get_data(as_text=True)
    assert count_line(html) == "46 records, page 1 of 2."
    assert 'href="/?variant=belote&amp;sort=id&amp;order=asc&amp;page=2" rel="next"' in html
    second = client.get("/?variant=belote&sort=id&order=asc&page=2").get_data(as_text=True)
    assert len(row_ids(second)) == 21
    assert 'href="/?variant=belote&amp;sort=id&amp;order=asc&amp;page=1" rel="prev"' in second
    assert '<span aria-current="page">2</span>' in second


def test_sort_headers_toggle_and_keep_filters(client):
    html = client.get("/?variant=coinche&sort=id&order=asc").get_data(as_text=True)
    assert row_ids(html) == [14, 15, 16, 17, 18, 35, 37, 42, 43, 56, 57, 58, 59]
    assert 'aria-sort="ascending"' in html
    assert 'href="/?variant=coinche&amp;sort=id&amp;order=desc"' in html  # the active column flips
    assert 'href="/?variant=coinche&amp;sort=event&amp;order=asc"' in html  # text columns start ascending
    assert row_ids(client.get("/?variant=coinche&sort=id&order=desc").get_data(as_text=True)) == \
        [59, 58, 57, 56, 43, 42, 37, 35, 18, 17, 16, 15, 14]


def test_the_search_form_is_a_get_form_that_keeps_its_values(client):
    html = client.get("/?player=Anne&validity=valid&variant=belote").get_data(as_text=True)
    assert '<form class="search-form panel" method="get" action="/"' in html
    assert 'name="player" value="Anne"' in html
    assert '<option value="valid" selected>' in html
    assert '<option value="belote" selected>' in html


@pytest.mark.parametrize("query", [
    "page=abc", "page=-4", "page=99999", "per_page=0", "per_page=100000", "sort=evil;drop", "order=sideways",
    "date_from=garbage&date_to=2026-99-99", "text=%22", "text=*", "text=NEAR(a%20b)", "text=a%20OR%20-b",
    "player=%22%22%22", "text=%ff%fe", "text=%00", "validity=maybe", "contract='%20OR%201=1--",
    "text=" + "x" * 5000, "page=1&page=2", "variant=%3Cscript%3E",
])
def test_bad_query_values_never_fail(client, query):
    response = client.get("/?" + query)
    # a date or a contract that cannot be read is the form again with its message (tests/web/test_search_forms.py)
    unreadable = query.startswith(("date_from=", "contract="))
    assert response.status_code == (400 if unreadable else 200)
    assert ('class="field-error"' in response.get_data(as_text=True)) == unreadable
    assert "<script>" not in response.get_data(as_text=True).replace('<script src="/static/site.js" defer></script>', "")


def test_out_of_range_page_shows_the_last_page(client):
    html = client.get("/?page=99999").get_data(as_text=True)
    assert count_line(html) == f"{SAMPLE_RECORDS} records, page 3 of 3."
    assert len(row_ids(html)) == 9  # 59 = 25 + 25 + 9


def test_favicon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.data.startswith(b"<svg")


def test_404_and_405_pages_are_friendly_html(client):
    missing = client.get("/no/such/page")
    assert missing.status_code == 404
    assert missing.mimetype == "text/html"
    assert "404 · Not found" in missing.get_data(as_text=True)
    wrong_method = client.post("/")
    assert wrong_method.status_code == 405
    assert "This address does not take that kind of request." in wrong_method.get_data(as_text=True)
    assert set(wrong_method.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}


def test_static_files_are_served(client):
    assert client.get("/static/site.css").status_code == 200
    assert client.get("/static/site.js").status_code == 200


def test_an_unexpected_error_is_a_friendly_500(app, client, monkeypatch):
    from replayer.web import api, archive_views

    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(archive_views, "run_search", broken)
    monkeypatch.setattr(api, "run_search", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: no traceback to the user
    page = client.get("/")
    assert page.status_code == 500
    assert "Something went wrong on our side." in page.get_data(as_text=True)
    assert "boom" not in page.get_data(as_text=True)
    api_answer = client.get("/api/records")
    assert api_answer.status_code == 500
    assert api_answer.get_json()["error"]["title"] == "Server error"
