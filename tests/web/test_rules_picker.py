"""The submit page's Rules picker: a profile chosen for every record of a pasted text.

The picked profile takes the place of each record's Rules and Variant tags, as ``belote validate
--rules`` and ``belote import --rules`` do (``validate(record, rules)``: the argument first); it is
kept with the check, so that the check's pages, the re-check of one record and the Store button use
it too, and ``POST /api/validate`` takes it as ``rules``. The record below has no Rules tag: its
Variant (belote) gives ``ffb``, where announcements do not score; under ``ffb-annonces`` it is valid.
"""

from __future__ import annotations

import re

from replayer.archive import Archive
from replayer.archive.checks import CheckStore, checks_path
from replayer.engine.rules import PROFILE_DESCRIPTIONS, PROFILES
from replayer.web.checking import CheckSummary

NEXT_ID = 60  # the samples hold records 1..59
CHECK_URL = re.compile(r"/submit/check/([A-Za-z0-9_-]{24})")

# samples/04-announcements.belote, deal 1, without its Rules tag and under another Event
ANNOUNCED = """\
[Event "Rules picker"]
[Site "Saint-Étienne"]
[Date "2026.02.14"]
[Round "1"]
[Deal "1"]
[North "Josette Girard"]
[East "Marcel Roux"]
[South "Paulette Blanc"]
[West "René Fabre"]
[Dealer "N"]
[Variant "belote"]
[Target "1000"]
[Score "0-0"]
[Result "177-75"]

hand N QH 8H KD JD TD 9D 8D 9C
hand E AS 8S 7S 9H 7H 7D TC 7C
hand S TS 9S JH AD AC KC QC 8C
hand W KS QS JS AH KH TH QD JC
turned QC
taking W:pass S:take
announce W tierce KS QS JS
announce S tierce AC KC QC
announce N quarte JD TD 9D 8D
play
1. W:KS S:9S E:AS N:9C
2. N:TD W:QD S:AD E:7D
3. S:TS E:7S N:JD W:QS
4. S:AC E:7C N:KD W:JC
5. W:TH S:JH E:9H N:QH
6. W:KH S:QC belote E:7H N:8H
7. S:KC rebelote E:TC N:8D W:AH
8. E:8S N:9D W:JS S:8C
"""
# under ffb (its Variant's default): (rule, line, column) of each finding
UNDER_FFB = [("result-mismatch", 14, 1), ("melds-not-played", 22, 12), ("melds-not-played", 23, 12),
             ("melds-not-played", 24, 12)]
WITH_ITS_TAG = ANNOUNCED.replace('[Variant "belote"]\n', '[Variant "belote"]\n[Rules "ffb-annonces"]\n')
UNKNOWN = "Rules: unknown rules profile {!r}; valid profiles: " + ", ".join(PROFILES) + "."


def check(client, csrf, text: str, rules: str | None = None) -> str:
    """Post ``text`` to the submit form with the picker at ``rules`` (left out: the default);
    the token of the kept check the 303 leads to."""
    data = {"csrf_token": csrf, "text": text} | ({"rules": rules} if rules is not None else {})
    response = client.post("/submit", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)
    return CHECK_URL.fullmatch(response.headers["Location"]).group(1)


def kept(app, token: str) -> CheckSummary:
    with CheckStore(checks_path(app.config["DB"])) as checks:
        return CheckSummary.from_json(checks.get(token).summary)


def findings(summary: CheckSummary) -> list[tuple[str, int | None, int | None]]:
    return [(f.rule, f.location.line, f.location.column) for r in summary.records for f in r.shown]


def stored_row(app, token: str, client, csrf) -> dict:
    """Store the check ``token``; the archive's row of the record it stored."""
    response = client.post("/submit/store", data={"csrf_token": csrf, "check": token})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/submit/check/{token}/stored"
    with Archive(app.config["DB"]) as archive:
        return archive.get(NEXT_ID)


def test_the_form_offers_every_profile_with_its_description(client):
    html = client.get("/submit").get_data(as_text=True)
    select = re.search(r'<select id="rules" name="rules"[^>]*>(.*?)</select>', html, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"(?: title="([^"]*)")?>([^<]*)</option>', select)
    assert options[0] == ("", "", "from each record's Rules or Variant tag (default)")
    assert [(value, text) for value, _title, text in options[1:]] == [(name, name) for name in PROFILES]
    for value, title, _text in options[1:]:  # the description, HTML-escaped, as the option's title
        assert title == PROFILE_DESCRIPTIONS[value].replace("&", "&amp;").replace("'", "&#39;")
    assert "selected" not in select
    assert '<label for="rules">Rules for every record</label>' in html
    assert html.index('id="rules"') < html.index('<details class="field" id="rules-profiles">')


def test_the_default_checks_under_the_variant_tag(app, client, csrf):
    token = check(client, csrf, ANNOUNCED)
    summary = kept(app, token)
    assert summary.rules is None
    assert findings(summary) == UNDER_FFB
    html = client.get(f"/submit/check/{token}").get_data(as_text=True)
    assert ('<p id="checked-rules">Each record checked under the rules its Rules tag names, '
            'else the default of its Variant tag.</p>') in html
    assert '<p class="verdict bad" id="verdict">\n  4 errors.' in html
    assert '<input type="hidden" name="rules" value="">' in html  # "check again" keeps the default
    row = stored_row(app, token, client, csrf)
    assert (row["rules"], row["valid"], row["errors"]) == ("ffb", 0, 4)


def test_a_picked_profile_checks_shows_rechecks_and_stores_under_it(app, client, csrf):
    token = check(client, csrf, ANNOUNCED, "ffb-annonces")
    summary = kept(app, token)
    assert summary.rules == "ffb-annonces"
    assert findings(summary) == []
    html = client.get(f"/submit/check/{token}").get_data(as_text=True)
    assert ('<p id="checked-rules">Checked under the rules <code>ffb-annonces</code> for every record, '
            'in place of the rules their tags name; storing this check keeps them.</p>') in html
    assert '<p class="verdict ok" id="verdict">\n  No error found.' in html
    assert '<input type="hidden" name="rules" value="ffb-annonces">' in html
    # the record's own page validates it again, under the same rules: no finding either
    record = client.get(f"/submit/check/{token}/1").get_data(as_text=True)
    assert ', checked under the rules <code id="checked-rules">ffb-annonces</code> in place of its tags.' in record
    assert 'id="findings"' not in record
    row = stored_row(app, token, client, csrf)
    assert (row["rules"], row["valid"], row["errors"], row["warnings"]) == ("ffb-annonces", 1, 0, 0)


def test_the_picked_profile_takes_the_place_of_a_rules_tag(app, client, csrf):
    """As ``belote validate --rules``: the record's own tag gives way (docs/web.md)."""
    assert findings(kept(app, check(client, csrf, WITH_ITS_TAG))) == []
    under_ffb = kept(app, check(client, csrf, WITH_ITS_TAG, "ffb"))
    assert under_ffb.rules == "ffb"
    assert findings(under_ffb) == [(rule, line + 1, column) for rule, line, column in UNDER_FFB]


def test_the_record_page_rechecks_under_the_picked_profile(app, client, csrf):
    token = check(client, csrf, ANNOUNCED, "ffb")
    html = client.get(f"/submit/check/{token}/1").get_data(as_text=True)
    assert re.findall(r'<span class="rule">\[([\w-]+)\]</span>', html) == [rule for rule, _l, _c in UNDER_FFB]


def test_an_unknown_profile_is_a_400_naming_the_valid_ones(app, client, csrf):
    for value in ("nope", "korean", "ffb; melds=true", "FFB"):
        response = client.post("/submit", data={"csrf_token": csrf, "text": ANNOUNCED, "rules": value},
                               content_type="multipart/form-data")
        assert response.status_code == 400
        html = response.get_data(as_text=True)
        problem = re.search(r'<p class="notice warning" id="problem" role="alert">([^<]*)</p>', html).group(1)
        assert problem == UNKNOWN.format(value).replace("'", "&#39;")
        assert '<textarea id="text" name="text"' in html and "[Event &#34;Rules picker&#34;]" in html
    # and nothing was kept
    with CheckStore(checks_path(app.config["DB"])) as checks:
        assert checks.db.execute("SELECT count(*) FROM kept_checks").fetchone()[0] == 0


def test_the_csrf_token_is_still_required(client):
    response = client.post("/submit", data={"text": ANNOUNCED, "rules": "ffb-annonces"},
                           content_type="multipart/form-data")
    assert response.status_code == 403


def test_a_script_storing_a_text_may_pick_the_rules(app, client, csrf):
    response = client.post("/submit/store", data={"csrf_token": csrf, "text": ANNOUNCED, "rules": "ffb-annonces"},
                           content_type="multipart/form-data")
    assert response.status_code == 200
    with Archive(app.config["DB"]) as archive:
        assert archive.get(NEXT_ID)["rules"] == "ffb-annonces"
    refused = client.post("/submit/store", data={"csrf_token": csrf, "text": ANNOUNCED, "rules": "nope"},
                          content_type="multipart/form-data")
    assert refused.status_code == 400


def api_findings(body: dict) -> list[tuple[str, int, int]]:
    return [(f["rule"], f["line"], f["column"]) for r in body["records"] for f in r["findings"]]


def test_the_api_validates_with_and_without_rules(client):
    plain = client.post("/api/validate", json={"text": ANNOUNCED}).get_json()
    assert (plain["rules"], plain["ok"], plain["errors"]) == (None, False, 4)
    assert api_findings(plain) == UNDER_FFB
    assert plain["records"][0]["rules"] == "ffb"
    picked = client.post("/api/validate", json={"text": ANNOUNCED, "rules": "ffb-annonces"}).get_json()
    assert (picked["rules"], picked["ok"], picked["errors"], api_findings(picked)) == ("ffb-annonces", True, 0, [])
    assert picked["records"][0]["rules"] == "ffb-annonces"
    # a text/plain body takes the rules as a query argument
    body = client.post("/api/validate?rules=ffb-annonces", data=ANNOUNCED.encode(),
                       content_type="text/plain").get_json()
    assert (body["rules"], body["ok"]) == ("ffb-annonces", True)


def test_the_api_refuses_an_unknown_profile(client):
    response = client.post("/api/validate", json={"text": ANNOUNCED, "rules": "nope"})
    assert response.status_code == 400
    assert response.get_json() == {"error": {"status": 400, "title": "Bad request",
                                             "message": "rules: " + UNKNOWN.format("nope")[len("Rules: "):-1]}}
    wrong_type = client.post("/api/validate", json={"text": ANNOUNCED, "rules": ["ffb"]})
    assert wrong_type.status_code == 400
    assert wrong_type.get_json()["error"]["message"] == '"rules" must be a string: the name of a rules profile'
    query = client.post("/api/validate?rules=nope", data=ANNOUNCED.encode(), content_type="text/plain")
    assert query.status_code == 400


def test_pick_a_profile_in_the_browser(page, live_server):
    page.goto(live_server + "/submit")
    page.fill("#text", ANNOUNCED)
    page.select_option("#rules", "ffb-annonces")
    page.click("#check-button")
    page.wait_for_url(re.compile(re.escape(live_server) + r"/submit/check/[A-Za-z0-9_-]{24}$"))
    assert page.locator("#checked-rules").inner_text() == (
        "Checked under the rules ffb-annonces for every record, in place of the rules their tags name; "
        "storing this check keeps them.")
    assert page.locator("#verdict").inner_text() == "No error found."
    page.click("#store-button")
    page.wait_for_url(re.compile(r"/submit/check/[A-Za-z0-9_-]{24}/stored$"))
    assert page.console_errors == []
