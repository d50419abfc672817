"""The JSON API: /api/records (search), /api/records/<id> (everything about a record), /api/validate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replayer.archive import Archive

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARD_NOT_HELD = (SAMPLES / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
BAD_CARD = (SAMPLES / "invalid" / "syntax-bad-card.belote").read_text(encoding="utf-8")
SAMPLE_RECORDS = 59  # the records of samples/*.belote, the site's archive in these tests


def test_index_lists_the_endpoints(client):
    body = client.get("/api").get_json()
    # relative: the Host header is the client's word (absolute with SERVER_NAME: test_hardening.py)
    assert body["endpoints"]["validate"]["url"] == "/api/validate"
    assert body["endpoints"]["record"]["url"] == "/api/records/<id>"


def test_search_first_page(client):
    response = client.get("/api/records")
    body = response.get_json()
    assert response.mimetype == "application/json"
    assert (body["total"], body["page"], body["per_page"], body["pages"]) == (SAMPLE_RECORDS, 1, 25, 3)
    assert (body["sort"], body["order"]) == ("date", "desc")
    assert body["next"] == "/api/records?page=2"
    assert body["prev"] is None
    assert len(body["records"]) == 25
    first = body["records"][0]
    assert (first["id"], first["event"], first["north"]) == (34, "Seoul Belote Meetup", "Kim Min-jun")
    assert first["url"] == "/api/records/34"
    assert first["replay_url"] == "/r/34"
    for private in ("owner_hash", "raw", "canonical", "comments"):
        assert private not in first


def test_search_filters_and_pagination_links_keep_them(client):
    body = client.get("/api/records?variant=coinche&sort=id&order=asc&per_page=3&page=2").get_json()
    assert [r["id"] for r in body["records"]] == [17, 18, 35]
    assert (body["total"], body["pages"]) == (13, 5)  # 14-18, 35, 37, 42, 43, 56-59
    assert body["next"] == "/api/records?variant=coinche&sort=id&order=asc&page=3&per_page=3"
    assert body["prev"] == "/api/records?variant=coinche&sort=id&order=asc&page=1&per_page=3"
    match = client.get("/api/records?event=Rh%C3%B4ne&per_page=1").get_json()
    assert match["total"] == 11
    assert match["records"][0]["match_url"] == "/m/1"


@pytest.mark.parametrize("query", ["page=x", "per_page=-1", "sort=1;drop", "text=%22", "text=%00", "text=%ff"])
def test_search_bad_values(client, query):  # a bad date or contract is a 400: tests/web/test_search_forms.py
    response = client.get("/api/records?" + query)
    assert response.status_code == 200
    assert response.get_json()["total"] >= 0


def test_record_with_findings_breakdown_and_timeline(client):
    body = client.get("/api/records/1").get_json()
    assert body["id"] == 1 and "owner_hash" not in body
    assert body["raw"].startswith('[Event "Club du jeudi"]\n')
    assert body["findings"] == []
    assert body["record"]["tags"][0] == ["Event", "Club du jeudi"]
    assert len(body["record"]["tricks"]) == 8
    assert body["report"]["ok"] is True
    assert body["report"]["score"]["score"] == [101, 61]
    assert body["report"]["result_matches"] is True
    steps = body["timeline"]["steps"]
    assert len(steps) == 38  # before the first call, 4 calls, 32 cards, the end
    assert body["timeline"]["play_start"] == 4 and body["timeline"]["trick_ends"][0] == 8
    assert [step["kind"] for step in steps[:6]] == ["deal", "call", "call", "call", "call", "card"]
    assert steps[4]["call"]["call"] == "take" and steps[4]["contract"] == "D by N"
    assert steps[5]["card"]["card"] == "QC"


def test_record_findings_of_an_invalid_record(app, client):
    with Archive(app.config["DB"]) as archive:
        new_id = archive.add(CARD_NOT_HELD).ids[0]
    body = client.get(f"/api/records/{new_id}").get_json()
    assert [(f["rule"], f["line"], f["column"]) for f in body["findings"]] == [("card-not-held", 26, 18)]
    assert [(f["rule"], f["line"], f["column"]) for f in body["report"]["findings"]] == [("card-not-held", 26, 18)]
    assert body["valid"] == 0


def test_missing_record_is_a_json_404(client):
    for url in ("/api/records/999", "/api/records/abc", "/api/nothing"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.mimetype == "application/json"
        assert response.get_json()["error"]["status"] == 404


def test_validate_plain_text(client):
    response = client.post("/api/validate", data=CARD_NOT_HELD, content_type="text/plain")
    body = response.get_json()
    assert response.status_code == 200
    assert (body["stored"], body["ok"], body["errors"], body["warnings"]) == (False, False, 1, 0)
    finding = body["records"][0]["findings"][0]
    assert (finding["rule"], finding["line"], finding["column"], finding["seat"], finding["card"]) == \
        ("card-not-held", 28, 18, "E", "JS")
    assert client.get("/api/records").get_json()["total"] == SAMPLE_RECORDS  # nothing stored


def test_validate_json_and_syntax_errors(client):
    body = client.post("/api/validate", json={"text": BAD_CARD}).get_json()
    record = body["records"][0]
    assert record["parsed"] is False
    assert [(f["rule"], f["line"], f["column"]) for f in record["findings"]] == [("syntax-error", 29, 11)]
    assert record["findings"][0]["message"] == \
        'unexpected "XZ": expected a card (e.g. JH, 10S) or the end of the trick'


def test_validate_valid_text(client):
    body = client.post("/api/validate", data=(SAMPLES / "06-capot.belote").read_bytes(),
                       content_type="application/octet-stream").get_json()
    assert body["ok"] is True and body["records"][0]["score"]["score"] == [0, 252]


@pytest.mark.parametrize("kwargs, status", [
    ({"data": "", "content_type": "text/plain"}, 400),
    ({"data": "  \n", "content_type": "text/plain"}, 400),
    ({"data": "{not json", "content_type": "application/json"}, 400),
    ({"json": ["a list"]}, 400),
    ({"json": {"text": 42}}, 400),
    ({"json": {"text": ""}}, 400),
    ({"data": bytes(range(256)) * 40, "content_type": "application/octet-stream"}, 200),
    ({"data": b"\xff\xfe\x00garbage", "content_type": "text/plain"}, 200),
    ({"data": "[Event \"x\"]\n" + "{" * 5000, "content_type": "text/plain"}, 200),
])
def test_validate_bad_bodies(client, kwargs, status):
    response = client.post("/api/validate", **kwargs)
    assert response.status_code == status
    assert response.mimetype == "application/json"


def test_validate_invalid_utf8(client):
    body = client.post("/api/validate", data=CARD_NOT_HELD.encode().replace(b"Anne", b"\xffnne"),
                       content_type="text/plain").get_json()
    assert body["utf8"] is False
    assert body["records"][0]["findings"][0]["message"].startswith("invalid UTF-8 at byte")


def test_validate_refuses_cross_site_posts(client):
    cross = client.post("/api/validate", data=CARD_NOT_HELD, content_type="text/plain",
                        headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403 and cross.get_json()["error"]["status"] == 403
    other_origin = client.post("/api/validate", json={"text": CARD_NOT_HELD}, headers={"Origin": "https://evil.example"})
    assert other_origin.status_code == 403
    same = client.post("/api/validate", json={"text": CARD_NOT_HELD},
                       headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200


def test_validate_form_posts_need_the_token(client, csrf):
    assert client.post("/api/validate", data={"text": CARD_NOT_HELD}).status_code == 403
    body = client.post("/api/validate", data={"text": CARD_NOT_HELD, "csrf_token": csrf}).get_json()
    assert body["errors"] == 1


def test_validate_wrong_method(client):
    response = client.get("/api/validate")
    assert response.status_code == 405
    assert response.get_json()["error"]["title"] == "Method not allowed"


def test_validate_too_large(client):
    response = client.post("/api/validate", data=b"x" * (2 * 1024 * 1024 + 1), content_type="text/plain")
    assert response.status_code == 413
    assert "2 MB" in response.get_json()["error"]["message"]


def test_json_is_utf8_and_round_trips(client):
    raw = client.get("/api/records/14").data
    assert json.loads(raw)["north"] == "Léa Bonnet"


def test_validate_checks_matches(client):
    match = (SAMPLES / "12-match.belote").read_text(encoding="utf-8").replace('[Score "35-127"]', '[Score "35-12"]', 1)
    body = client.post("/api/validate", json={"text": match}).get_json()
    assert body["ok"] is False and body["errors"] == 1
    assert all(record["ok"] for record in body["records"])
    [checked] = body["matches"]
    assert [(f["rule"], f["line"]) for f in checked["findings"]] == [("score-tag-mismatch", 72)]


def test_a_record_whose_stored_text_no_longer_reads(app, client):
    with Archive(app.config["DB"]) as archive:
        archive.db.execute("UPDATE record_texts SET raw = ? WHERE record_id = 2", ["hand N ZZ"])
    body = client.get("/api/records/2").get_json()
    assert (body["record"], body["report"], body["timeline"]) == (None, None, None)
    assert body["problem"].startswith("record 1, line 1:8: ")
