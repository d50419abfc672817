"""What-if rules on the site: /r/<id>/compare and /r/<id>/compare.json through Flask's test
client, on the samples archive: both columns, the rows that differ, the findings that appear or
vanish, the form, bad rules (400), unknown and unreadable records (404, 422)."""

from __future__ import annotations

import html as htmllib
import re
from urllib.parse import quote

import pytest

from replayer.engine.rules import Rules
from replayer.web.compare_views import other_rules
from replayer.web.db import get_archive

ROUNDING = "ffb-coinche; rounding=none"


def record_id(app, source_end: str, round_: str) -> int:
    with app.app_context():
        rows = [row for row in get_archive().db.query("SELECT id, source, round FROM records ORDER BY id")
                if row["source"].endswith(source_end) and row["round"] == round_]
    assert rows, source_end
    return rows[0]["id"]


@pytest.fixture
def capot_id(app) -> int:
    """West's capot in spades (samples/10-capot-bid.belote, round 2): 0-520 under ffb-coinche."""
    return record_id(app, "10-capot-bid.belote", "2")


def query(*texts: str) -> str:
    return "&".join(f"rules={quote(text)}" for text in texts)


def get(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def differing_rows(html: str) -> list[str]:
    return re.findall(r'<tr class="row-([a-z_]+) differs">', html)


def cells(html: str, key: str) -> list[str]:
    """The cells of row ``key`` as text."""
    row = re.search(rf'<tr class="row-{key}[^"]*">(.*?)</tr>', html, re.S).group(1)
    return [htmllib.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def selected(html: str, index: int) -> tuple[str, str]:
    """(the profile selected, the options) of picker ``index``."""
    select = re.search(rf'<select id="profile-{index}".*?</select>', html, re.S).group(0)
    profile = re.search(r'<option value="([^"]*)"[^>]* selected>', select).group(1)
    options = re.search(rf'<input type="text" id="options-{index}" name="options" value="([^"]*)"', html).group(1)
    return htmllib.unescape(profile), htmllib.unescape(options)


def test_both_rule_sets_side_by_side_with_the_rows_that_differ(client, capot_id):
    html = get(client, f"/r/{capot_id}/compare?{query('ffb-coinche', ROUNDING)}")
    heads = re.findall(r'<th scope="colgroup" colspan="2" class="rules-head"><span class="set-label">(\w)</span> '
                       r'<code>([^<]*)</code></th>', html)
    assert heads == [("A", "ffb-coinche"), ("B", ROUNDING)]
    assert differing_rows(html) == ["rounding", "score", "scores", "result"]
    assert cells(html, "rounding") == ["0", "-2", "0", "0"]
    assert cells(html, "score") == ["0", "520", "0", "522"]
    assert cells(html, "scores") == ["0-520", "0-522"]
    assert cells(html, "result") == ["matches", "differs"]
    assert cells(html, "contract") == ["capot ♠, taken by West"] * 2  # in symbols
    assert cells(html, "melds") == ["0", "20", "0", "20"]
    assert "<th scope=\"row\">Result tag 0-520</th>" in html.replace('<span class="differs-mark" aria-hidden="true">≠</span>'
                                                                     '<span class="visually-hidden">differs: </span>', "")
    appear = re.search(r'<ul class="findings appear" id="appear-B">(.*?)</ul>', html, re.S).group(1)
    assert re.findall(r'<span class="rule">\[([a-z-]+)\]</span>', appear) == ["result-mismatch"]
    assert "Result 0-520 but the deal rescores to 0-522" in appear
    assert 'id="vanish-B"' not in html
    assert "4 of 15 rows of the breakdown differ;" in " ".join(html.split())
    assert "1 finding appears, 0 vanish." in " ".join(html.split())
    assert f'<a href="/r/{capot_id}" id="back-to-replay">' in html
    assert f'href="/r/{capot_id}/compare?rules=ffb-coinche&amp;rules=ffb-coinche;+rounding%3Dnone" id="permalink"' in html
    assert f'href="/r/{capot_id}/compare.json?rules=ffb-coinche&amp;rules=ffb-coinche;+rounding%3Dnone"' in html
    assert 'href="/static/compare.css"' in html
    assert selected(html, 1) == ("ffb-coinche", "") and selected(html, 2) == ("ffb-coinche", "rounding=none")


def test_without_rules_the_records_own_and_a_related_profile(client, capot_id):
    html = get(client, f"/r/{capot_id}/compare")
    assert selected(html, 1) == ("ffb-coinche", "") and selected(html, 2) == ("ffb-contree", "")
    assert "<legend>Rule set A <span class=\"muted\">(the record's rules)</span></legend>" in html
    assert cells(html, "score") == ["0", "520", "0", "500"]  # Contrée: no melds
    assert "score" in differing_rows(html) and "melds" in differing_rows(html)
    assert re.findall(r'<span class="rule">\[([a-z-]+)\]</span>',
                      re.search(r'id="appear-B">(.*?)</ul>', html, re.S).group(1)) == [
        "result-mismatch", "melds-not-played", "melds-not-played"]


def test_the_form_sends_profile_and_options_pairs(client, capot_id):
    pairs = get(client, f"/r/{capot_id}/compare?profile=ffb-coinche&options=&profile=ffb-coinche"
                        f"&options={quote('rounding=none;')}")
    assert differing_rows(pairs) == ["rounding", "score", "scores", "result"]
    assert f'href="/r/{capot_id}/compare?rules=ffb-coinche&amp;rules=ffb-coinche;+rounding%3Dnone" id="permalink"' in pairs
    # one rules text: the record's own rules against it
    single = get(client, f"/r/{capot_id}/compare?{query(ROUNDING)}")
    assert selected(single, 1) == ("ffb-coinche", "") and selected(single, 2) == ("ffb-coinche", "rounding=none")
    assert differing_rows(single) == ["rounding", "score", "scores", "result"]


def test_the_same_rules_agree(client, capot_id):
    html = get(client, f"/r/{capot_id}/compare?{query('ffb-coinche', 'ffb-coinche')}")
    assert differing_rows(html) == []
    assert "The rule sets agree on this deal: the same breakdown, the same findings." in html


def test_a_finding_that_vanishes(app, client):
    rid = record_id(app, "04-announcements.belote", "1")
    rid += 1  # the second deal of the file: North need not trump over his partner's ace
    html = get(client, f"/r/{rid}/compare?{query('ffb-annonces; partner_exemption=false', 'ffb-annonces')}")
    vanish = re.search(r'<ul class="findings vanish" id="vanish-B">(.*?)</ul>', html, re.S).group(1)
    assert re.findall(r'<span class="rule">\[([a-z-]+)\]</span>', vanish) == ["must-trump"]
    assert "North played 9♥ but held no club and held Q♦" in htmllib.unescape(vanish)
    assert '<span class="muted">(trick 5, card 3)</span>' in vanish
    assert differing_rows(html) == []


@pytest.mark.parametrize("texts, index, message", [
    (("ffb-coinche", "nonsense"), 2, "unknown rules profile &#39;nonsense&#39;; valid profiles: ffb, "),
    (("ffb-coinche; undertrump=never", "ffb"), 1, "invalid value &#39;never&#39; for undertrump; valid values: must, "),
    (("ffb", "ffb-coinche; bid_max=999999; bid_step=1"), 2,
     "at most 1000 bid values: bid_min=80 to bid_max=999999 make 999920"),
    (("ffb", "ffb; target=" + "1" * 500), 2, "a rules text of at most 400 characters, please"),
])
def test_bad_rules_are_a_400_with_the_message_beside_the_field(client, capot_id, texts, index, message):
    html = get(client, f"/r/{capot_id}/compare?{query(*texts)}", 400)
    assert re.search(rf'<p class="field-error" id="rules-{index}-error">{re.escape(message)}', html)
    assert f'<select id="profile-{index}" name="profile" aria-invalid="true" aria-describedby="rules-{index}-error">' in html
    assert f'id="options-{index}" name="options"' in html and 'aria-describedby="rules-3-error"' not in html
    assert 'id="compare-problems"' in html and 'id="compare-table"' not in html
    assert 'id="permalink"' not in html


def test_a_bad_rules_text_is_shown_again_as_typed(client, capot_id):
    html = get(client, f"/r/{capot_id}/compare?{query('ffb', 'nonsense; undertrump=never')}", 400)
    assert selected(html, 2) == ("nonsense", "undertrump=never")
    assert '<option value="nonsense" selected>nonsense (unknown)</option>' in html
    hostile = get(client, f"/r/{capot_id}/compare?{query('ffb', '<script>alert(1)</script>')}", 400)
    assert "<script>alert" not in hostile and "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile


def test_more_than_four_rule_sets_is_a_400(client, capot_id):
    html = get(client, f"/r/{capot_id}/compare?{query(*['ffb'] * 5)}", 400)
    assert '<p class="search-problems" role="alert" id="compare-problem">at most 4 rule sets can be compared, ' \
           '5 were given.</p>' in html
    assert len(re.findall(r'<fieldset class="rules-set">', html)) == 4


def test_unknown_and_unreadable_records(app, client, capot_id):
    assert "There is no record 99999 in the archive." in get(client, "/r/99999/compare", 404)
    assert client.get("/r/99999/compare.json").get_json() == {
        "error": {"status": 404, "title": "Not found", "message": "There is no record 99999 in the archive."}}
    with app.app_context():
        get_archive().db.execute("UPDATE record_texts SET raw = ? WHERE record_id = ?", ["hand N ZZ", capot_id])
    html = get(client, f"/r/{capot_id}/compare", 422)
    assert "This record can no longer be read" in html
    response = client.get(f"/r/{capot_id}/compare.json")
    assert response.status_code == 422 and response.get_json()["error"]["message"].startswith(
        "This record can no longer be read")


def test_the_json_form(client, capot_id):
    response = client.get(f"/r/{capot_id}/compare.json?{query('ffb-coinche', ROUNDING)}")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    assert (data["id"], data["record_rules"], data["rules"], data["differs"]) == (
        capot_id, "ffb-coinche", ["ffb-coinche", ROUNDING], True)
    assert [row["key"] for row in data["rows"] if row["differs"]] == ["rounding", "score", "scores", "result"]
    score = next(row for row in data["rows"] if row["key"] == "score")
    assert score == {"key": "score", "label": "deal score", "per_side": True, "values": [[0, 520], [0, 522]],
                     "differs": True}
    assert [s["score"]["score"] for s in data["rule_sets"]] == [[0, 520], [0, 522]]
    (change,) = data["findings"]
    assert [(f["rule"], f["line"]) for f in change["appear"]] == [("result-mismatch", 15)]  # the stored text's lines
    assert (change["from"], change["to"], change["vanish"]) == ("A", "B", [])
    default = client.get(f"/r/{capot_id}/compare.json").get_json()
    assert default["rules"] == ["ffb-coinche", "ffb-contree"]


def test_the_json_form_refuses_bad_rules(client, capot_id):
    response = client.get(f"/r/{capot_id}/compare.json?{query('ffb-coinche', 'nonsense')}")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert (error["status"], error["title"]) == (400, "Bad request")
    assert error["message"].startswith("rules 2 ('nonsense'): unknown rules profile 'nonsense'")
    assert error["fields"]["rules"][0] is None and error["fields"]["rules"][1].startswith("unknown rules profile")


@pytest.mark.parametrize("own, other", [
    ("ffb-coinche", "ffb-contree"), ("ffb-contree", "ffb-coinche"), ("sata-coinche", "ffb-coinche"),
    ("ffb", "ffb-annonces"), ("ffb-annonces", "ffb"), ("namu-classic", "ffb"),
    ("ffb-coinche; undertrump=must", "ffb-coinche"),
])
def test_the_rules_compared_by_default(own, other):
    assert other_rules(Rules.parse(own)) == other
