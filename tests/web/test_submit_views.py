"""The submit page: check a pasted or uploaded text, see the findings on the text, store, delete."""

from __future__ import annotations

import io
import re
from pathlib import Path

from replayer.archive import Archive

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CARD_NOT_HELD = (SAMPLES / "invalid" / "card-not-held.belote").read_text(encoding="utf-8")
BAD_CARD = (SAMPLES / "invalid" / "syntax-bad-card.belote").read_text(encoding="utf-8")
VALID = (SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8")
NEXT_ID = 39  # the samples hold records 1..38


def post_text(client, csrf, text, url="/submit"):
    return client.post(url, data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data")


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
    assert '<p class="verdict bad" id="verdict">\n  1 error.' in html
    assert '<a class="where" href="#L28">28:18</a>' in html
    assert '<span class="rule">[card-not-held]</span>' in html
    assert "trick 3: East played J♠ but does not hold it (could play A♦ Q♦ 10♦ 8♦ Q♣ J♣)" in html
    # line 28 highlighted, the J of E:JS (column 18) marked, the other lines plain
    assert ('<li id="L28" class="has-error"><a class="ln" href="#L28">28</a><span class="code">'
            '3. S:KH belote E:<mark>J</mark>S N:7H W:8H') in html
    assert '<li id="L27"><a class="ln" href="#L27">27</a><span class="code">2. N:TH W:AH S:JH E:9H</span></li>' in html
    assert len(re.findall(r'<li id="L\d+"', html)) == CARD_NOT_HELD.count("\n")
    # valid or not, a parsed record can be stored: the form carries the text and the CSRF token
    assert '<form class="panel" method="post" action="/submit/store"' in html
    assert f'<input type="hidden" name="csrf_token" value="{csrf}">' in html
    assert '<input type="hidden" name="text" value="% belote-notation 1.0' in html


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
    html = client.post("/submit", data=data, content_type="multipart/form-data").get_data(as_text=True)
    assert '<a class="where" href="#L28">28:18</a>' in html


def test_upload_that_is_not_utf8(client, csrf):
    raw = CARD_NOT_HELD.encode().replace(b"Anne Martin", b"Anne \xe9\xff Martin")
    data = {"csrf_token": csrf, "file": (io.BytesIO(raw), "latin1.belote")}
    response = client.post("/submit", data=data, content_type="multipart/form-data")
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
    html = post_text(client, csrf, VALID + "\n" + BAD_CARD).get_data(as_text=True)
    assert "1 of the 2 records can be stored; the 1 with syntax errors cannot." in html
    assert '<a class="where" href="#L64">64:11</a>' in html  # line 29 of the second record, 35 lines further


def test_empty_and_recordless_texts(client, csrf):
    for text in ("", "   \n\n  "):
        response = post_text(client, csrf, text)
        assert response.status_code == 400
        assert "Nothing to check: paste a record in the box or choose a file." in response.get_data(as_text=True)
    response = post_text(client, csrf, "% belote-notation 1.0\n\n")
    assert response.status_code == 400
    assert "No record was found in this text" in response.get_data(as_text=True)


def test_store_shows_the_token_once_and_the_record_opens(app, client, csrf):
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
    assert '<a class="where" href="#L59">59:1</a>' in wrong
    assert "deal 3: Score 35-12 but the match stands at 35-127 before this deal" in wrong
