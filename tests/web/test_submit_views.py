"""The submit page: check a pasted or uploaded text, see the findings on the text, store, delete.

A check is kept in the archive under a random token and shown by GET pages (POST, redirect,
GET); its store form sends that token. tests/web/test_large_submission.py checks a 1.9 MB one."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from pathlib import Path

from replayer.archive import Archive
from replayer.archive.checks import CheckStore

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARD_NOT_HELD = (SAMPLES / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
BAD_CARD = (SAMPLES / "invalid" / "syntax-bad-card.belote").read_text(encoding="utf-8")
VALID = (SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8")
NEXT_ID = 60  # the samples hold records 1..59


CHECK_URL = re.compile(r"/submit/check/([A-Za-z0-9_-]{24})")


def post_text(client, csrf, text, url="/submit", **kwargs):
    """A form post; a check (``/submit``) is followed to its page."""
    return client.post(url, data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data",
                       follow_redirects=url == "/submit", **kwargs)


def check_token(client, csrf, text) -> str:
    """Check ``text``; the token of the kept check that the 303 leads to."""
    response = client.post("/submit", data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data")
    assert response.status_code == 303
    return CHECK_URL.fullmatch(response.headers["Location"]).group(1)


def store_token(client, csrf, token):
    return client.post("/submit/store", data={"csrf_token": csrf, "check": token})


def token_of(html: str) -> str:
    return re.search(r'<p class="token-box" id="owner-token">([^<]+)</p>', html).group(1)


def test_form(client):
    html = client.get("/submit").get_data(as_text=True)
    assert re.search(r'<input type="hidden" name="csrf_token" value="[\w-]{20,}">', html)
    assert '<textarea id="text" name="text"' in html
    assert '<input type="file" id="file" name="file"' in html
    assert 'enctype="multipart/form-data"' in html


def test_check_shows_each_finding_against_its_line_and_column(client, csrf):
    response = post_text(client, csrf, CARD_NOT_HELD)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert [r.status_code for r in response.history] == [303]
    token = CHECK_URL.fullmatch(response.request.path).group(1)
    assert '<p class="verdict bad" id="verdict">\n  1 error.' in html
    assert '<a class="where" href="#L28">28:18</a>' in html
    assert '<span class="rule">[card-not-held]</span>' in html
    assert "trick 3: East played J♠ but does not hold it (could play A♦ Q♦ 10♦ 8♦ Q♣ J♣)" in html
    # line 28 highlighted, the J of E:JS (column 18) marked, the other lines plain
    assert ('<li id="L28" class="has-error"><a class="ln" href="#L28">28</a><span class="code">'
            '3. S:KH belote E:<mark>J</mark>S N:7H W:8H') in html
    assert '<li id="L27"><a class="ln" href="#L27">27</a><span class="code">2. N:TH W:AH S:JH E:9H</span></li>' in html
    assert len(re.findall(r'<li id="L\d+"', html)) == CARD_NOT_HELD.count("\n")
    # valid or not, a parsed record can be stored: the form carries the check's token and the CSRF token
    assert '<form class="panel" method="post" action="/submit/store" id="store-form">' in html
    assert f'<input type="hidden" name="csrf_token" value="{csrf}">' in html
    assert f'<input type="hidden" name="check" value="{token}">' in html
    assert 'name="text" value=' not in html  # the text stays on the server
    # the short text is listed whole, with a box to edit it and check it again
    assert '<textarea id="text" name="text" rows="16" spellcheck="false">% belote-notation 1.0' in html


def test_repairs_are_listed(client, csrf):
    two = (SAMPLES / "invalid" / "must-trump.belote").read_text(encoding="utf-8")
    html = post_text(client, csrf, two).get_data(as_text=True)
    assert '<div class="repair">Repair: ' in html


def test_syntax_error_shows_line_column_and_expected_words_and_cannot_be_stored(client, csrf):
    html = post_text(client, csrf, BAD_CARD).get_data(as_text=True)
    assert '<a class="where" href="#L29">29:11</a>' in html
    assert "unexpected &#34;XZ&#34;: expected a card (e.g. JH, 10S) or the end of the trick" in html
    assert '4. N:QC W:<mark>X</mark>Z S:AC E:9C' in html
    assert "Records with syntax errors cannot be stored" in html
    assert 'id="store-form"' not in html


def test_upload_a_file(client, csrf):
    data = {"csrf_token": csrf, "text": "", "file": (io.BytesIO(CARD_NOT_HELD.encode()), "game.belote")}
    html = client.post("/submit", data=data, content_type="multipart/form-data",
                       follow_redirects=True).get_data(as_text=True)
    assert '<a class="where" href="#L28">28:18</a>' in html


def test_upload_that_is_not_utf8(client, csrf):
    raw = CARD_NOT_HELD.encode().replace(b"Anne Martin", b"Anne \xe9\xff Martin")
    data = {"csrf_token": csrf, "file": (io.BytesIO(raw), "latin1.belote")}
    response = client.post("/submit", data=data, content_type="multipart/form-data", follow_redirects=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<a class="where" href="#L8">8:14</a>' in html
    assert "invalid UTF-8 at byte 117: expected UTF-8 text" in html
    assert "[North &#34;Anne <mark>\ufffd</mark>\ufffd Martin&#34;]" in html
    assert "This file is not UTF-8 text, so it cannot be stored." in html
    assert 'id="store-form"' not in html


def test_crlf_text_keeps_the_line_numbers(client, csrf):
    html = post_text(client, csrf, CARD_NOT_HELD.replace("\n", "\r\n")).get_data(as_text=True)
    assert '<a class="where" href="#L28">28:18</a>' in html


def test_several_records_one_unreadable(client, csrf):
    html = post_text(client, csrf, VALID.replace("Club du jeudi", "Club du samedi") + "\n" + BAD_CARD).get_data(
        as_text=True)
    assert "1 of the 2 records can be stored; the 1 with syntax errors cannot." in html
    assert '<a class="where" href="#L64">64:11</a>' in html  # line 29 of the second record, 35 lines further
    # the same with the first record as stored already (it is sample 01): nothing new to store
    html = post_text(client, csrf, VALID + "\n" + BAD_CARD).get_data(as_text=True)
    assert 'id="store-form"' not in html
    assert ('<p class="notice" id="all-stored">The record that can be read is in the archive already: storing '
            'it again would change nothing. The list below links each one to its stored copy. The 1 with syntax '
            'errors cannot be stored.</p>') in html
    assert '<span class="already">already in the archive as <a href="/r/1">record 1</a></span>' in html


def test_empty_and_recordless_texts(client, csrf):
    for text in ("", "   \n\n  "):
        response = post_text(client, csrf, text)
        assert response.status_code == 400
        assert "Nothing to check: paste a record in the box or choose a file." in response.get_data(as_text=True)
    response = post_text(client, csrf, "% belote-notation 1.0\n\n")
    assert response.status_code == 400
    assert "No record was found in this text" in response.get_data(as_text=True)


def test_a_script_may_store_the_text_itself(app, client, csrf):
    response = post_text(client, csrf, CARD_NOT_HELD, "/submit/store")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert f'<a class="stored-link" href="/r/{NEXT_ID}">record {NEXT_ID}</a>' in html
    token = token_of(html)
    assert len(token) >= 20
    assert f'<a class="delete-link" href="/delete/{NEXT_ID}">delete record {NEXT_ID}</a>' in html
    with Archive(app.config["DB"]) as archive:
        row = archive.get(NEXT_ID)
    assert (row["valid"], row["errors"], row["source"]) == (0, 1, "submitted")
    assert token not in client.get(f"/r/{NEXT_ID}").get_data(as_text=True)
    assert client.get(f"/r/{NEXT_ID}").status_code == 200
    # storing the same text again changes nothing and gives no token
    again = post_text(client, csrf, CARD_NOT_HELD, "/submit/store").get_data(as_text=True)
    assert "Already in the archive" in again
    assert f'<a class="duplicate-link" href="/r/{NEXT_ID}">record {NEXT_ID}</a>' in again
    assert 'id="owner-token"' not in again


def test_store_refuses_unreadable_records(client, csrf):
    response = post_text(client, csrf, BAD_CARD, "/submit/store")
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Nothing stored" in html
    assert '<span class="where">29:11</span> <span class="rule">[syntax-error]</span>' in html


def test_store_empty_text(client, csrf):
    assert post_text(client, csrf, "", "/submit/store").status_code == 400


def test_delete_with_the_owner_token(app, client, csrf):
    token = token_of(post_text(client, csrf, VALID.replace("Club du jeudi", "Club du vendredi"),
                               "/submit/store").get_data(as_text=True))
    form = client.get(f"/delete/{NEXT_ID}").get_data(as_text=True)
    assert f'action="/delete/{NEXT_ID}"' in form and 'name="token"' in form
    wrong = client.post(f"/delete/{NEXT_ID}", data={"csrf_token": csrf, "token": "not-the-token"})
    assert wrong.status_code == 403
    assert "This owner token does not match the record: nothing was deleted." in wrong.get_data(as_text=True)
    empty = client.post(f"/delete/{NEXT_ID}", data={"csrf_token": csrf, "token": ""})
    assert empty.status_code == 403
    assert client.get(f"/api/records/{NEXT_ID}").status_code == 200
    done = client.post(f"/delete/{NEXT_ID}", data={"csrf_token": csrf, "token": token})
    assert done.status_code == 200
    assert f"Record {NEXT_ID} was deleted from the archive." in done.get_data(as_text=True)
    assert client.get(f"/api/records/{NEXT_ID}").status_code == 404
    assert client.get(f"/delete/{NEXT_ID}").status_code == 404
    assert client.post(f"/delete/{NEXT_ID}", data={"csrf_token": csrf, "token": token}).status_code == 404


def test_samples_have_no_owner_and_cannot_be_deleted(client, csrf):
    response = client.post("/delete/1", data={"csrf_token": csrf, "token": "anything"})
    assert response.status_code == 403
    assert client.get("/api/records/1").status_code == 200


def test_missing_record_delete_page(client):
    response = client.get("/delete/999")
    assert response.status_code == 404
    assert "There is no record 999 in the archive." in response.get_data(as_text=True)


def test_a_match_is_checked_as_a_whole(client, csrf):
    match = (SAMPLES / "12-match.belote").read_text(encoding="utf-8")
    ok = post_text(client, csrf, match).get_data(as_text=True)
    assert '<p class="verdict ok" id="verdict">\n  No error found.' in ok
    assert "11 deals to 1000" in ok and "The Score tags and the dealers agree with the deals." in ok
    wrong = post_text(client, csrf, match.replace('[Score "35-127"]', '[Score "35-12"]', 1)).get_data(as_text=True)
    assert '<a class="where" href="#L72">72:1</a>' in wrong  # deal 3's Score tag
    assert "deal 3: Score 35-12 but the match stands at 35-127 before this deal" in wrong


# --- a check kept on the server: POST, redirect, GET ------------------------------------------

MUST_TRUMP = (SAMPLES / "invalid" / "must-trump.belote").read_text(encoding="utf-8")
SATURDAY = VALID.replace("Club du jeudi", "Club du samedi")  # not in the samples archive


def test_a_check_is_kept_and_its_page_reloads_without_sending_anything(app, client, csrf):
    token = check_token(client, csrf, CARD_NOT_HELD.replace("\n", "\r\n"))
    first, again = client.get(f"/submit/check/{token}"), client.get(f"/submit/check/{token}")
    assert first.status_code == again.status_code == 200
    assert first.data == again.data
    assert '<p class="verdict bad" id="verdict">\n  1 error.' in first.get_data(as_text=True)
    checks = Path(app.config["DB"]).with_name("belote-checks.sqlite")  # beside the archive
    with CheckStore(checks) as store:
        kept = store.get(token)
    assert kept.text == CARD_NOT_HELD and kept.outcome is None  # the text as checked, line ends made LF
    assert json.loads(kept.summary)["records"][0]["counts"] == [1, 1, 0]
    # another check gets another token
    assert check_token(client, csrf, CARD_NOT_HELD) != token


def test_the_summary_counts_records_errors_and_those_already_stored(client, csrf):
    text = "\n".join([VALID, SATURDAY, CARD_NOT_HELD, SATURDAY, BAD_CARD])  # no two deals of one match in a row
    html = post_text(client, csrf, text).get_data(as_text=True)
    counts = dict(re.findall(r'<dd id="count-([a-z]+)">([^<]*)</dd>', html))
    assert counts == {"records": "5", "valid": "3", "errors": "2", "warnings": "0", "unreadable": "1",
                      "stored": "1", "repeated": "1"}
    assert '<p class="verdict bad" id="verdict">\n  2 errors.' in html
    assert "4 of the 5 records can be stored; the 1 with syntax errors cannot." in html
    assert "2 of them are new: the archive keeps each deal once." in html
    assert '<span class="already">already in the archive as <a href="/r/1">record 1</a></span>' in html
    token = CHECK_URL.search(html).group(1)
    assert (f'<span class="already">the same deal as <a href="/submit/check/{token}/2">record 2</a> '
            'of this text</span>') in html
    # five records: all of them listed, with a link to the records with findings only
    assert re.findall(r'<section class="panel checked-record" id="record-(\d+)">', html) == ["1", "2", "3", "4", "5"]
    findings_only = client.get(f"/submit/check/{token}?show=findings").get_data(as_text=True)
    assert re.findall(r'<section class="panel checked-record" id="record-(\d+)">', findings_only) == ["3", "5"]
    assert "<h2 id=\"records-title\">Records with findings <span class=\"muted\">(2)</span></h2>" in findings_only


def test_store_a_kept_check_then_reload_its_pages(app, client, csrf):
    token = check_token(client, csrf, "\n".join([VALID, SATURDAY, SATURDAY]))
    stored = store_token(client, csrf, token)
    assert stored.status_code == 303 and stored.headers["Location"] == f"/submit/check/{token}/stored"
    page = client.get(f"/submit/check/{token}/stored")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert ('<p class="counts-line" id="stored-counts">1 new record stored, 2 already in the archive '
            '(not stored again).</p>') in html
    assert f'<p id="stored-ids">Stored: <a class="stored-link" href="/r/{NEXT_ID}">record {NEXT_ID}</a>.</p>' in html
    assert ('<p id="duplicate-ids">Already in the archive: <a class="duplicate-link" href="/r/1">record 1</a>, '
            f'<a class="duplicate-link" href="/r/{NEXT_ID}">record {NEXT_ID}</a>.</p>') in html
    token_shown = token_of(html)
    assert f'<a class="delete-link" href="/delete/{NEXT_ID}">delete record {NEXT_ID}</a>' in html
    # a reload shows what was stored, not the owner token again
    again = client.get(f"/submit/check/{token}/stored").get_data(as_text=True)
    assert 'id="owner-token"' not in again and token_shown not in again
    assert '<p id="token-shown">The owner token was shown once, when this record was stored' in again
    # storing again (the back button, a second click) stores nothing and leads to the same page
    twice = store_token(client, csrf, token)
    assert twice.status_code == 303 and twice.headers["Location"] == f"/submit/check/{token}/stored"
    with Archive(app.config["DB"]) as archive:
        assert archive.count() == NEXT_ID
    check_page = client.get(f"/submit/check/{token}").get_data(as_text=True)
    assert 'id="store-form"' not in check_page
    assert f'This check has been stored: <a href="/submit/check/{token}/stored">see what was stored</a>.' in check_page
    # the token deletes the record
    assert client.post(f"/delete/{NEXT_ID}", data={"csrf_token": csrf, "token": token_shown}).status_code == 200


def test_the_stored_page_before_storing_leads_to_the_check(client, csrf):
    token = check_token(client, csrf, SATURDAY)
    response = client.get(f"/submit/check/{token}/stored")
    assert response.status_code == 303 and response.headers["Location"] == f"/submit/check/{token}"


def test_a_record_page_has_every_finding_its_repairs_and_its_own_lines(client, csrf):
    text = SATURDAY + "\n" + MUST_TRUMP
    token = check_token(client, csrf, text)
    record_2 = client.get(f"/submit/check/{token}/2")
    html = record_2.get_data(as_text=True)
    assert record_2.status_code == 200
    lines = [int(n) for n in re.findall(r'<li id="L(\d+)"', html)]
    checked = post_text(client, csrf, text).get_data(as_text=True)
    first, last = map(int, re.search(r'id="record-2">\s*<h3>.*?lines (\d+)–(\d+)</span>', checked, re.S).groups())
    assert lines == list(range(first, last + 1))  # its lines only, with the text's own numbers
    assert '<div class="repair">Repair: ' in html
    where = re.findall(r'<a class="where" href="(#L\d+)">', html)
    assert where and all(first <= int(w[2:]) <= last for w in where)
    assert f'<a href="/submit/check/{token}/1" rel="prev">‹ Record 1</a>' in html and 'rel="next"' not in html
    assert f'<a href="/submit/check/{token}" id="back-to-check">' in html
    for number in (0, 3):
        missing = client.get(f"/submit/check/{token}/{number}")
        assert missing.status_code == 404
        assert f"There is no record {number} in this check: it has 2." in missing.get_data(as_text=True)
    assert client.get(f"/submit/check/{token}/{2 ** 64}").status_code == 404


def test_expired_unknown_and_malformed_checks_are_404(app, client, csrf):
    app.config["CHECK_LIFETIME"] = 0.001
    token = check_token(client, csrf, SATURDAY)
    gone = ("This check is no longer kept (a check is kept for 1 minute after it is made): "
            "paste or upload the text again.")
    for url in (f"/submit/check/{token}", f"/submit/check/{token}/1", f"/submit/check/{token}/stored",
                "/submit/check/" + "A" * 24, "/submit/check/not-a-token", "/submit/check/" + "A" * 300):
        response = client.get(url)
        assert response.status_code == 404, url
        assert gone in response.get_data(as_text=True), url
    refused = store_token(client, csrf, token)
    assert refused.status_code == 404 and gone in refused.get_data(as_text=True)
    with Archive(app.config["DB"]) as archive:
        assert archive.count() == NEXT_ID - 1


def test_a_check_larger_than_the_room_is_refused(app, client, csrf):
    app.config["CHECK_ROOM"] = 100
    response = post_text(client, csrf, SATURDAY)
    assert response.status_code == 413
    assert "This check is too large to be kept: split the text and send the parts one by one." in (
        response.get_data(as_text=True))


def test_a_text_that_is_not_utf8_cannot_be_stored_even_by_a_forged_post(app, client, csrf):
    raw = SATURDAY.encode().replace(b"Anne Martin", b"Anne \xe9 Martin")
    response = client.post("/submit", data={"csrf_token": csrf, "file": (io.BytesIO(raw), "latin1.belote")},
                           content_type="multipart/form-data")
    token = CHECK_URL.fullmatch(response.headers["Location"]).group(1)
    refused = store_token(client, csrf, token)
    assert refused.status_code == 422
    assert "This file is not UTF-8 text, so it cannot be stored." in refused.get_data(as_text=True)
    with Archive(app.config["DB"]) as archive:
        assert archive.count() == NEXT_ID - 1


def test_busy_kept_checks_give_the_pasted_text_back(app, client, csrf):
    app.config["DB_TIMEOUT"] = 0.1
    holder = sqlite3.connect(Path(app.config["DB"]).with_name("belote-checks.sqlite"), isolation_level=None)
    try:
        check_token(client, csrf, SATURDAY)  # the file and its table exist
        holder.execute("BEGIN IMMEDIATE")
        response = post_text(client, csrf, SATURDAY)
    finally:
        holder.close()
    html = response.get_data(as_text=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "10"
    assert "The site is busy, so this check could not be kept: send the text again in a few seconds." in html
    assert "Club du samedi" in html  # back in the form


def test_store_while_the_archive_is_busy_shows_the_check_again(app, client, csrf):
    token = check_token(client, csrf, SATURDAY)
    app.config["DB_TIMEOUT"] = 0.1
    holder = sqlite3.connect(app.config["DB"], isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        response = store_token(client, csrf, token)
    finally:
        holder.close()
    html = response.get_data(as_text=True)
    assert response.status_code == 503 and response.headers["Retry-After"] == "10"
    assert "The archive is busy: an import or another submission is being written to it. Nothing was stored" in html
    assert f'<input type="hidden" name="check" value="{token}">' in html  # Store again, later
    assert store_token(client, csrf, token).status_code == 303


def test_two_checks_stored_in_turn_each_show_their_owner_token_once(client, csrf):
    first, second = check_token(client, csrf, SATURDAY), check_token(client, csrf, CARD_NOT_HELD)
    store_token(client, csrf, first)
    store_token(client, csrf, second)  # before the first's stored page was opened
    tokens = [token_of(client.get(f"/submit/check/{token}/stored").get_data(as_text=True)) for token in (second, first)]
    assert tokens[0] != tokens[1]
    for token in (first, second):
        assert 'id="owner-token"' not in client.get(f"/submit/check/{token}/stored").get_data(as_text=True)
