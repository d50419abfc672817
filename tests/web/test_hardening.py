"""The site under hostile requests (issue 15, web items 1 to 6): big ids, deep JSON, chunked
bodies over the limit, server paths, the Host header, bodies that never come, control
characters, broken forms, the Server header and the rate limit.

The body and connection tests run against a real server (Werkzeug's, with ``belote serve --debug``'s
request handler) in a thread, over real sockets: a chunked body only exists there. waitress,
``belote serve``'s own server, is tested in a real process in test_serve_waitress.py."""

from __future__ import annotations

import http.client
import io
import re
import socket
import threading
import time
from pathlib import Path
from typing import Iterator
from urllib.parse import urlencode

import pytest
from werkzeug.serving import make_server

from replayer.archive import Archive
from replayer.web import MEGABYTE, create_app
from replayer.web.limits import DEFAULT_RATE_LIMIT, RateLimit, limiter, parse_rate_limit
from replayer.web.serve import SERVER_HEADER, request_handler

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
VALID = (SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8")
BIG = 2**63  # one more than SQLite's largest integer
SAMPLE_COUNT = 59  # the records of samples/*.belote, the site's archive in these tests


# --- the real server -----------------------------------------------------------------------


@pytest.fixture
def server(app) -> Iterator[tuple[str, int]]:
    """The app served by Werkzeug with ``belote serve``'s request handler (a 1 s read timeout)."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=request_handler(1.0))
    thread = threading.Thread(target=httpd.serve_forever, name="hardening-server", daemon=True)
    thread.start()
    try:
        yield "127.0.0.1", httpd.server_port
    finally:
        httpd.shutdown()
        thread.join(timeout=5)
        httpd.server_close()


def request(address: tuple[str, int], method: str, path: str, body=None,
            headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
    """(status, headers, body); a ``body`` that is an iterator of bytes goes chunked (no Content-Length)."""
    connection = http.client.HTTPConnection(*address, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {},
                           encode_chunked=body is not None and not isinstance(body, (bytes, str)))
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def chunks(data: bytes, size: int = 256 * 1024) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start:start + size]


def multipart(fields: dict[str, str], boundary: str = "hardening-boundary") -> tuple[bytes, str]:
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
             for name, value in fields.items()]
    return ("".join(parts) + f"--{boundary}--\r\n").encode(), f"multipart/form-data; boundary={boundary}"


def session_and_token(address: tuple[str, int]) -> tuple[str, str]:
    """The session cookie and CSRF token a browser gets with the submit form."""
    status, headers, body = request(address, "GET", "/submit")
    assert status == 200
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', body.decode()).group(1)
    return cookie, token


def stored_count(app) -> int:
    with Archive(app.config["DB"]) as archive:
        return archive.count()


def over_the_limit() -> str:
    """About 3 MB of whole records: cut at 2 MB, the last one would be checked with a short hand."""
    copies = 3 * MEGABYTE // len(VALID.encode()) + 1
    return "\n".join(VALID.replace('[Deal "1"]', f'[Deal "{i}"]') for i in range(copies))


# --- 1. ids beyond SQLite's integers -------------------------------------------------------

ID_URLS = ["/r/{}", "/r/{}.json", "/r/{}.belote", "/r/{}/embed", "/r/{}/steps", "/m/{}", "/m/{}.json",
           "/api/records/{}", "/delete/{}"]


@pytest.mark.parametrize("number", [BIG, 10**40, 2**63 - 1])
@pytest.mark.parametrize("url", ID_URLS)
def test_ids_beyond_sqlite_integers_are_404(client, url, number):
    response = client.get(url.format(number))
    assert response.status_code == 404
    assert response.mimetype == ("application/json" if url.startswith("/api/") else "text/html")


def test_deleting_a_big_id_is_404(client, csrf):
    response = client.post(f"/delete/{BIG}", data={"csrf_token": csrf, "token": "x"})
    assert response.status_code == 404


def test_ids_are_ascii_digits(client):
    assert client.get("/r/1").status_code == 200
    assert client.get("/r/\u0661").status_code == 404  # ARABIC-INDIC DIGIT ONE is no record 1
    assert client.get("/api/records/\uff11").status_code == 404  # FULLWIDTH DIGIT ONE


# --- 2. JSON that cannot be read -----------------------------------------------------------


@pytest.mark.parametrize("body", ["[" * 100_000, '{"text": "x", "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_deeply_nested_json_is_a_400(client, body):
    response = client.post("/api/validate", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == "the JSON body is nested too deeply to be read"


@pytest.mark.parametrize("body, message", [
    (b"{not json", "the body is not valid JSON: Expecting property name enclosed in double quotes: "
                   "line 1 column 2 (char 1)"),
    (b'{"text": "\xff"}', "the body is not valid JSON: 'utf-8' codec can't decode byte 0xff in position 10: "
                          "invalid start byte"),
])
def test_json_that_cannot_be_decoded_is_a_400_with_one_line(client, body, message):
    response = client.post("/api/validate", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == message


# --- 3. chunked bodies and the 2 MB limit ---------------------------------------------------


def test_a_chunked_text_over_the_limit_is_413_not_cut(server):
    status, headers, body = request(server, "POST", "/api/validate", chunks(over_the_limit().encode()),
                                    {"Content-Type": "text/plain"})
    assert status == 413
    assert b"larger than the limit of 2 MB" in body
    assert headers["Content-Type"] == "application/json"


def test_a_chunked_text_under_the_limit_is_read_whole(server):
    text = "\n".join([VALID, VALID.replace('[Deal "1"]', '[Deal "2"]')]).encode()
    status, _, body = request(server, "POST", "/api/validate", chunks(text, 1000), {"Content-Type": "text/plain"})
    assert status == 200
    assert b'"stored":false' in body and body.count(b'"parsed":true') == 2


def urlencoded(fields: dict[str, str]) -> tuple[bytes, str]:
    return urlencode(fields).encode(), "application/x-www-form-urlencoded"


@pytest.mark.parametrize("encode", [multipart, urlencoded])
@pytest.mark.parametrize("path", ["/submit", "/submit/store"])
def test_a_chunked_form_over_the_limit_is_413_and_nothing_is_stored(app, server, path, encode):
    cookie, token = session_and_token(server)
    data, content_type = encode({"csrf_token": token, "text": over_the_limit()})
    status, _, body = request(server, "POST", path, chunks(data), {"Content-Type": content_type, "Cookie": cookie})
    assert status == 413
    assert b"413 \xc2\xb7 Too large" in body
    assert stored_count(app) == SAMPLE_COUNT


def test_a_chunked_form_under_the_limit_is_stored(app, server):
    cookie, token = session_and_token(server)
    data, content_type = multipart({"csrf_token": token, "text": VALID.replace("Club du jeudi", "Club chunked")})
    status, _, body = request(server, "POST", "/submit/store", chunks(data, 500),
                              {"Content-Type": content_type, "Cookie": cookie})
    assert status == 200 and b'id="owner-token"' in body
    assert stored_count(app) == SAMPLE_COUNT + 1


def test_a_broken_chunked_body_is_a_400(server):
    with socket.create_connection(server, timeout=10) as sock:
        sock.sendall(b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n5\r\nhand \r\nzz\r\n")
        answer = read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 400 ")


def test_transfer_encoding_wins_over_content_length(server):
    """A chunked body that also declares a small Content-Length is still measured whole."""
    framed = b"".join(b"%X\r\n%s\r\n" % (len(c), c) for c in chunks(over_the_limit().encode())) + b"0\r\n\r\n"
    status, _, _ = request(server, "POST", "/api/validate", framed,  # http.client frames nothing with a length
                           {"Content-Type": "text/plain", "Transfer-Encoding": "chunked", "Content-Length": "10"})
    assert status == 413


# --- 4. server paths -----------------------------------------------------------------------


def test_the_api_gives_the_source_file_name_only(client):
    records = client.get("/api/records?per_page=100").get_json()["records"]
    assert {r["source"] for r in records} >= {"01-classic-round1.belote", "12-match.belote"}
    assert all("/" not in r["source"] and "\\" not in r["source"] for r in records)
    assert client.get("/api/records/1").get_json()["source"] == "01-classic-round1.belote"


def test_a_windows_path_is_cut_too(app, client):
    with Archive(app.config["DB"]) as archive:
        archive.db.execute("UPDATE records SET source = ? WHERE id = 1", [r"C:\Users\club\games\jeudi.belote"])
    assert client.get("/api/records/1").get_json()["source"] == "jeudi.belote"


# --- 5. the Host header --------------------------------------------------------------------


def test_urls_are_relative_and_ignore_the_host_header(client):
    headers = {"Host": "evil.example"}
    search = client.get("/api/records?per_page=2", headers=headers)
    assert b"evil.example" not in search.data
    body = search.get_json()
    assert (body["records"][0]["url"], body["records"][0]["replay_url"]) == ("/api/records/34", "/r/34")
    assert body["next"] == "/api/records?per_page=2&page=2"
    assert client.get("/api", headers=headers).get_json()["endpoints"]["validate"]["url"] == "/api/validate"
    in_a_match = client.get("/api/records?event=Rh%C3%B4ne&per_page=1", headers=headers).get_json()["records"][0]
    record = client.get(in_a_match["url"], headers=headers).get_json()
    assert (record["url"], record["match_url"]) == (f"/api/records/{record['id']}", "/m/1")


def test_urls_are_absolute_with_server_name_whatever_the_host_header(app, client):
    app.config.update(SERVER_NAME="belote.example", PREFERRED_URL_SCHEME="https")
    body = client.get("/api/records?per_page=2", headers={"Host": "evil.example"}).get_json()
    assert body["records"][0]["url"] == "https://belote.example/api/records/34"
    assert body["next"] == "https://belote.example/api/records?per_page=2&page=2"
    index = client.get("/api", headers={"Host": "evil.example"}).get_json()
    assert index["endpoints"]["record"]["url"] == "https://belote.example/api/records/<id>"


# --- 6. bodies that never come, the Server header ------------------------------------------


def read_until_closed(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_a_body_shorter_than_its_content_length_frees_the_thread(server):
    with socket.create_connection(server, timeout=10) as sock:
        sock.sendall(b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: 1000\r\n\r\nhand N AS\n")  # 10 bytes of the 1000, then silence
        started = time.monotonic()
        answer = read_until_closed(sock)  # before the read timeout: socket.timeout after 10 s
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert time.monotonic() - started < 5


def test_the_server_header_names_no_version(server):
    status, headers, _ = request(server, "GET", "/")
    assert status == 200
    assert headers["Server"] == SERVER_HEADER == "belote"


# --- 6. control characters in the pages ----------------------------------------------------


def test_a_binary_upload_puts_no_control_character_in_the_html(client, csrf):
    data = b'[Event "\x00\xff\x1b]0;title\x07"]\nhand N AS\x00 KS\n' + bytes(range(32)) * 10
    response = client.post("/submit", data={"csrf_token": csrf, "file": (io.BytesIO(data), "x.belote")},
                           content_type="multipart/form-data", follow_redirects=True)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert not re.search("[\x00-\x08\x0e-\x1b\x7f]", html)
    assert '[Event &#34;\u2400\ufffd\u241b]0;title\u2407&#34;]' in html  # NUL, the bad byte, ESC, BEL shown


def test_control_characters_of_a_stored_record_are_shown_as_pictures(app, client):
    with Archive(app.config["DB"]) as archive:
        [record_id] = archive.add(VALID.replace("Club du jeudi", "Club\x00du\x1bjeudi\x7f")).ids
    pages = [client.get(url).get_data(as_text=True)
             for url in (f"/r/{record_id}", f"/r/{record_id}/embed", f"/r/{record_id}/steps", "/?text=jeudi",
                         f"/delete/{record_id}")]
    for html in pages:
        assert not re.search("[\x00-\x08\x0e-\x1b\x7f]", html)
    assert "Club\u2400du\u241bjeudi\u2421" in pages[0] and "Club\u2400du\u241bjeudi\u2421" in pages[3]
    assert client.get(f"/r/{record_id}.belote").data.count(b"\x00") == 1  # the download is the record as stored


# --- 6. forms that cannot be read ----------------------------------------------------------


@pytest.mark.parametrize("body, content_type", [
    (b"--B\r\nnot a part", "multipart/form-data; boundary=B"),  # cut short
    (b"--B\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nx", "multipart/form-data; boundary=B"),
    (b"text=x", "multipart/form-data"),  # no boundary
    (b"csrf_token=x&text=\xff", "application/x-www-form-urlencoded"),  # not UTF-8
])
@pytest.mark.parametrize("url", ["/submit", "/submit/store", "/api/validate"])
def test_a_form_that_cannot_be_read_is_a_400_that_says_so(app, client, url, body, content_type):
    response = client.post(url, data=body, content_type=content_type)
    assert response.status_code == 400
    message = (f"The form could not be read: the body is not well-formed {content_type.split(';')[0]} "
               "(as its Content-Type says it is). Reload the page and send it again.")
    if url.startswith("/api/"):
        assert response.get_json()["error"] == {"status": 400, "title": "Bad request", "message": message}
    else:
        assert f'<p class="error-message">{message}</p>' in response.get_data(as_text=True)
    assert stored_count(app) == SAMPLE_COUNT


# --- 6. the rate limit ---------------------------------------------------------------------


def test_rate_limit_formats():
    assert parse_rate_limit("30/minute") == RateLimit(30, 60)
    assert parse_rate_limit("30 per minute") == RateLimit(30, 60)
    assert parse_rate_limit("100/Hours") == RateLimit(100, 3600)
    assert parse_rate_limit("5/10 seconds") == RateLimit(5, 10)
    assert parse_rate_limit([2, 0.5]) == RateLimit(2, 0.5)
    assert parse_rate_limit(None) is parse_rate_limit("") is parse_rate_limit("off") is None
    for bad in ("30", "thirty/minute", "0/minute", "3/fortnight", (1, 0), (True, 1), 30):
        with pytest.raises(ValueError, match="RATE_LIMIT"):
            parse_rate_limit(bad)


def test_a_bad_rate_limit_stops_the_start(tmp_path):
    with pytest.raises(ValueError, match="RATE_LIMIT 'lots'"):
        create_app({"DB": str(tmp_path / "a.sqlite"), "SECRET_KEY": "t", "LOAD_SAMPLES": False, "RATE_LIMIT": "lots"})


def test_rate_limit_defaults(tmp_path, app):
    served = create_app({"DB": str(tmp_path / "a.sqlite"), "SECRET_KEY": "t", "LOAD_SAMPLES": False})
    assert served.config["RATE_LIMIT"] == DEFAULT_RATE_LIMIT == "30/minute"
    assert app.config["RATE_LIMIT"] is None  # TESTING without a limit set: none


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(app, monkeypatch) -> Clock:
    """The rate limiter's clock, moved by hand."""
    fake = Clock()
    monkeypatch.setattr(limiter(app), "clock", fake)
    return fake


def test_validate_is_limited_per_address(app, client, clock):
    app.config["RATE_LIMIT"] = "2/minute"
    one, other = {"REMOTE_ADDR": "198.51.100.1"}, {"REMOTE_ADDR": "198.51.100.2"}

    def post(address):
        return client.post("/api/validate", data=VALID, content_type="text/plain", environ_base=address)

    assert [post(one).status_code for _ in range(2)] == [200, 200]
    refused = post(one)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "30"
    assert refused.get_json()["error"] == {
        "status": 429, "title": "Too many requests",
        "message": "Too many posts from your address (the limit is 2 every minute). "
                   "Nothing was checked or stored: try again in 30 s."}
    assert post(other).status_code == 200  # another address has its own allowance
    clock.now += 29
    assert post(one).headers["Retry-After"] == "1"
    clock.now += 1
    assert post(one).status_code == 200  # one post back every 30 s
    assert post(one).status_code == 429


def test_store_is_limited_and_a_refused_post_stores_nothing(app, client, csrf, clock):
    app.config["RATE_LIMIT"] = (1, 3600)
    address = {"REMOTE_ADDR": "198.51.100.3"}

    def store(text):
        return client.post("/submit/store", data={"csrf_token": csrf, "text": text},
                           content_type="multipart/form-data", environ_base=address)

    assert store(VALID.replace("Club du jeudi", "Club A")).status_code == 200
    refused = store(VALID.replace("Club du jeudi", "Club B"))
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "3600"
    assert "429 · Too many requests" in refused.get_data(as_text=True)
    assert stored_count(app) == SAMPLE_COUNT + 1
    # each endpoint has its own allowance: storing spent none of checking's
    assert client.post("/submit", data={"csrf_token": csrf, "text": VALID}, environ_base=address).status_code == 303
    assert client.post("/submit", data={"csrf_token": csrf, "text": VALID}, environ_base=address).status_code == 429
    assert client.post("/api/validate", data=VALID, content_type="text/plain",
                       environ_base=address).status_code == 200


def test_behind_a_proxy_the_limit_is_per_forwarded_address(tmp_path, samples_archive):
    db = tmp_path / "proxied.sqlite"
    db.write_bytes(samples_archive.read_bytes())
    proxied = create_app({"TESTING": True, "DB": str(db), "SECRET_KEY": "t", "PROXY_FIX": 1, "RATE_LIMIT": "1/hour"})
    client = proxied.test_client()

    def post(forwarded):
        return client.post("/api/validate", data=VALID, content_type="text/plain",
                           headers={"X-Forwarded-For": forwarded}, environ_base={"REMOTE_ADDR": "10.0.0.1"})

    assert [post("203.0.113.7").status_code, post("203.0.113.8").status_code] == [200, 200]
    assert post("203.0.113.7").status_code == 429


def test_the_limiter_forgets_the_least_recent_addresses():
    from replayer.web.limits import RateLimiter

    bounded = RateLimiter(clock=Clock(), max_tracked=3)
    limit = RateLimit(1, 60)
    assert [bounded.hit(("e", str(i)), limit) for i in range(5)] == [0.0] * 5
    assert len(bounded._buckets) == 3
    assert bounded.hit(("e", "4"), limit) == 60.0
