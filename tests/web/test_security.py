"""Security and limits: CSRF on every POST, headers, the 2 MB limit, autoescaping, hostile input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from replayer.archive import Archive
from replayer.web.security import CSP

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
VALID = (SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8")
SCRIPT = "<script>alert(1)</script>"
POSTS = ("/submit", "/submit/store", "/delete/1", "/api/validate")


def hostile_record() -> str:
    """The classic sample with a script in every player name, the event and comments."""
    text = VALID
    for name in ("Anne Martin", "Bruno Lefèvre", "Claire Dubois", "Denis Moreau", "Club du jeudi"):
        text = text.replace(name, f'{name} <script>alert(1)</script> <img src=x onerror=alert(2)>')
    return text.replace("play\n", "{<script>alert(3)</script> & \"quotes\"}\nplay\n", 1)


def scripts_in(html: str) -> int:
    """Script elements other than the site's own files (``<script src="/static/..." defer>``)."""
    return len(re.findall(r"<script(?! src=\"/static/[\w.-]+\" defer></script>)", html, re.I))


@pytest.mark.parametrize("url", ["/", "/submit", "/api/records", "/api/records/1", "/nowhere", "/static/site.css",
                                 "/r/1", "/m/1", "/favicon.ico"])
def test_security_headers(client, url):
    response = client.get(url)
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_csp_is_strict():
    assert CSP == ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                   "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def test_embed_may_be_framed(client):
    response = client.get("/r/1/embed")
    assert response.status_code == 200
    assert response.headers["Content-Security-Policy"].endswith("frame-ancestors *")
    assert "X-Frame-Options" not in response.headers


@pytest.mark.parametrize("url", POSTS)
def test_post_without_token_is_refused(client, url):
    response = client.post(url, data={"text": VALID, "token": "x"})
    assert response.status_code == 403
    body = response.get_data(as_text=True)
    assert "security token is missing or has expired" in body


@pytest.mark.parametrize("url", POSTS)
def test_post_with_a_wrong_token_is_refused(client, csrf, url):
    assert client.post(url, data={"text": VALID, "csrf_token": csrf + "x"}).status_code == 403


@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                                     {"Origin": "https://evil.example"}, {"Origin": "null"}])
def test_cross_site_post_is_refused_even_with_the_token(client, csrf, headers):
    response = client.post("/submit", data={"text": VALID, "csrf_token": csrf}, headers=headers)
    assert response.status_code == 403
    assert "sent from another site" in response.get_data(as_text=True)


def test_same_origin_post_with_token_passes(client, csrf):
    headers = {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}
    assert client.post("/submit", data={"text": VALID, "csrf_token": csrf}, headers=headers).status_code == 303


def test_the_session_cookie_is_lax_and_http_only(client):
    client.get("/submit")
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.same_site == "Lax" and cookie.http_only


@pytest.mark.parametrize("url", POSTS)
def test_upload_over_2mb_gets_a_friendly_413(client, csrf, url):
    data = {"csrf_token": csrf, "file": (io.BytesIO(b"x" * (2 * 1024 * 1024 + 10)), "big.belote")}
    response = client.post(url, data=data, content_type="multipart/form-data")
    assert response.status_code == 413
    text = response.get_data(as_text=True)
    assert "larger than the limit of 2 MB" in text
    assert ("413 · Too large" in text) == (not url.startswith("/api/"))


def test_pasted_text_over_2mb_gets_413(client, csrf):
    data = {"csrf_token": csrf, "text": "x" * (2 * 1024 * 1024 + 10)}
    assert client.post("/submit", data=data, content_type="multipart/form-data").status_code == 413
    assert client.post("/submit", data=data).status_code == 413  # url-encoded


def test_a_large_paste_under_the_limit_is_read(client, csrf):
    # more than Flask's default 500 kB form field limit, less than 2 MB
    text = VALID + "\n" + "{" + "x" * 700_000 + "}\n"
    response = client.post("/submit", data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data",
                           follow_redirects=True)
    assert response.status_code == 200
    assert "<h1>Check of 2 records</h1>" in response.get_data(as_text=True)


def test_hostile_names_and_comments_show_as_text_on_every_page(app, client, csrf):
    text = hostile_record()
    checked = client.post("/submit", data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data",
                          follow_redirects=True)
    stored = client.post("/submit/store", data={"csrf_token": csrf, "text": text}, content_type="multipart/form-data")
    with Archive(app.config["DB"]) as archive:
        record_id = archive.search(archive_query(text="alert")).rows[0]["id"]
    assert stored.status_code == 200 and scripts_in(stored.get_data(as_text=True)) == 0
    pages = {
        "check": checked,
        "checked record": client.get(checked.request.path + "/1"),
        "archive": client.get("/?text=alert"),
        "replay": client.get(f"/r/{record_id}"),
        "replay end": client.get(f"/r/{record_id}?step=33"),
        "embed": client.get(f"/r/{record_id}/embed"),
        "delete": client.get(f"/delete/{record_id}"),
    }
    for name, response in pages.items():
        html = response.get_data(as_text=True)
        assert response.status_code == 200, name
        assert scripts_in(html) == 0, name
        assert "<img src=x" not in html, name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, name
    api = client.get(f"/api/records/{record_id}")
    assert api.mimetype == "application/json" and api.get_json()["north"].startswith("Anne Martin <script>")


def archive_query(**kwargs):
    from replayer.archive import SearchQuery

    return SearchQuery(**kwargs)


HOSTILE_BODIES = {
    "empty": b"",
    "binary": bytes(range(256)) * 64,
    "invalid utf-8": b"[Event \"\xff\xfe\"]\nhand N \xc3\x28",
    "nul": b"\x00" * 1000,
    "deep braces": b"{" * 20000,
    "long line": b"hand N " + b"AS " * 200_000,
    "many records": (VALID.encode() + b"\n") * 30,
    "sql": b"'; DROP TABLE records; --",
}


@pytest.mark.parametrize("name", HOSTILE_BODIES)
@pytest.mark.parametrize("url", POSTS)
def test_hostile_bodies_never_fail(client, csrf, url, name):
    body = HOSTILE_BODIES[name]
    # a check is followed to its page (POST, redirect, GET): that page must hold too
    as_form = client.post(url, data={"csrf_token": csrf, "text": body.decode("utf-8", "replace"), "token": body[:100]},
                          content_type="multipart/form-data", follow_redirects=True)
    as_file = client.post(url, data={"csrf_token": csrf, "file": (io.BytesIO(body), "x.belote")},
                          content_type="multipart/form-data", follow_redirects=True)
    raw = client.post(url, data=body, content_type="text/plain")
    for response in (as_form, as_file, raw):
        assert response.status_code in (200, 400, 403, 422), (url, name, response.status_code)
    if url != "/api/validate":
        assert raw.status_code == 403  # an HTML form endpoint needs its token
    assert client.get("/api/records").get_json()["total"] >= 38


def test_invalid_utf8_in_a_form_field(client, csrf):
    body = b"--B\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n" + csrf.encode() + \
           b"\r\n--B\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n[Event \"\xff\"]\r\n--B--\r\n"
    response = client.post("/submit", data=body, content_type="multipart/form-data; boundary=B", follow_redirects=True)
    assert response.status_code in (200, 400)


def test_malformed_multipart_and_urlencoded(client, csrf):
    broken = client.post("/submit", data=b"--B\r\nnot a part", content_type="multipart/form-data; boundary=B")
    assert broken.status_code in (400, 403)
    percent = client.post("/submit", data=f"csrf_token={csrf}&text=%ff%fe%zz", content_type="application/x-www-form-urlencoded",
                          follow_redirects=True)
    assert percent.status_code in (200, 400)
