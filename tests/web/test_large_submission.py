"""A large submission (web item 7 of issue 15): a 1.9 MB upload of 2,882 records gets a summary
first, its records with findings a page at a time, each record in full on its own page, and a
check page under 1 MB; the check is kept on the server, so every page is a GET that reloads
without sending the form again; the stored page sums up rather than listing every record.

The upload is what ``belote generate`` prints (legal deals of successive matches), one deal in a
hundred with a wrong Result, then a sample already in the archive and a record that cannot be read."""

from __future__ import annotations

import io
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.archive import Archive
from replayer.cli import belote

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
STORED_SAMPLE = (SAMPLES / "01-classic-round1.belote").read_text(encoding="utf-8")  # record 1 of the archive
BAD_CARD = (SAMPLES / "invalid" / "syntax-bad-card.belote").read_text(encoding="utf-8")
SAMPLE_RECORDS = 59  # the archive holds the samples: records 1..59
GENERATED = 2880
RECORDS = GENERATED + 2
WRONG_RESULTS = len(range(0, GENERATED, 100))  # records 1, 101, ... 2801: 29
MEGABYTE = 1_000_000
CHECK_URL = re.compile(r"/submit/check/([A-Za-z0-9_-]{24})")


def upload_text() -> str:
    generated = CliRunner().invoke(belote, ["generate", str(GENERATED), "--seed", "7", "--profile", "ffb-coinche"])
    assert generated.exit_code == 0
    count = iter(range(GENERATED))
    text = re.sub(r'\[Result "[^"]*"\]', lambda m: '[Result "1-1"]' if next(count) % 100 == 0 else m.group(),
                  generated.output)
    return text + "\n" + STORED_SAMPLE + "\n" + BAD_CARD


@pytest.fixture(scope="module")
def upload() -> bytes:
    data = upload_text().encode("utf-8")
    assert 1_850_000 < len(data) < 2_000_000
    return data


@pytest.fixture(scope="module")
def checked(upload, samples_archive, tmp_path_factory):
    """The site on its own archive (the samples), with the upload checked once: (client, token)."""
    from replayer.web import create_app

    db = tmp_path_factory.mktemp("large") / "belote.sqlite"
    shutil.copyfile(samples_archive, db)
    app = create_app({"TESTING": True, "DB": str(db), "SECRET_KEY": "test-secret", "LOAD_SAMPLES": False})
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = "test-csrf-token"
    started = time.perf_counter()
    response = post_upload(client, upload)
    print(f"\ncheck of {len(upload)} bytes: {time.perf_counter() - started:.2f} s")
    assert response.status_code == 303
    return client, CHECK_URL.fullmatch(response.headers["Location"]).group(1)


def post_upload(client, data: bytes):
    return client.post("/submit", data={"csrf_token": "test-csrf-token", "file": (io.BytesIO(data), "club.belote")},
                       content_type="multipart/form-data")


def records_on(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<section class="panel checked-record" id="record-(\d+)">', html)]


def test_the_check_page_is_a_summary_under_1_mb(checked):
    client, token = checked
    started = time.perf_counter()
    response = client.get(f"/submit/check/{token}")
    seconds = time.perf_counter() - started
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert len(response.data) < MEGABYTE, len(response.data)
    print(f"check page: {len(response.data)} bytes in {seconds:.2f} s")
    counts = dict(re.findall(r'<dd id="count-([a-z]+)">([^<]*)</dd>', html))
    assert counts == {"records": "2,882", "valid": "2,852", "errors": "30", "warnings": "0", "unreadable": "1",
                      "stored": "1", "matches": "295"}
    assert f'<p class="verdict bad" id="verdict">\n  {WRONG_RESULTS + 1} errors.' in html
    assert "2,881 of the 2,882 records can be stored; the 1 with syntax errors cannot." in html
    assert "2,880 of them are new: the archive keeps each deal once." in html
    assert f'<input type="hidden" name="check" value="{token}">' in html and 'name="text"' not in html
    # the records with findings, 25 to a page: the 29 wrong Results and the record that cannot be read
    assert '<h2 id="records-title">Records with findings <span class="muted">(30)</span></h2>' in html
    assert records_on(html) == [1, 101, 201, 301, 401, 501, 601, 701, 801, 901, 1001, 1101, 1201, 1301, 1401,
                                1501, 1601, 1701, 1801, 1901, 2001, 2101, 2201, 2301, 2401]
    assert f'<a href="/submit/check/{token}?show=findings&amp;page=2#records" rel="next">Next ›</a>' in html
    assert '<p class="muted" id="matches-agree">The Score tags and the dealers of the 295 matches agree' in html
    assert 'id="long-text"' in html and 'id="source"' not in html  # no listing of 90,000 lines
    assert '<textarea' not in html  # nor the text in a box


def test_the_records_are_paged_and_every_page_reloads(checked):
    client, token = checked
    second = client.get(f"/submit/check/{token}?show=findings&page=2").get_data(as_text=True)
    assert records_on(second) == [2501, 2601, 2701, 2801, 2882]
    assert "Records 26–30 of 30." in second
    assert f'<a href="/submit/check/{token}?show=findings#records" rel="prev">‹ Previous</a>' in second
    everything = client.get(f"/submit/check/{token}?show=all&page=116").get_data(as_text=True)
    assert records_on(everything) == list(range(2876, 2883))
    assert "Records 2,876–2,882 of 2,882." in everything
    assert client.get(f"/submit/check/{token}?show=all&page=999").data == client.get(
        f"/submit/check/{token}?show=all&page=116").data  # past the end: the last page
    for url in (f"/submit/check/{token}?page=x", f"/submit/check/{token}?page=-3&mpage=99999999999999",
                f"/submit/check/{token}?show=<script>", f"/submit/check/{token}?page=²&mpage=٣"):
        response = client.get(url)
        assert response.status_code == 200 and len(response.data) < MEGABYTE


def test_a_record_page_has_the_record_in_full(checked):
    client, token = checked
    response = client.get(f"/submit/check/{token}/101")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and len(response.data) < 100_000
    assert '<span class="rule">[result-mismatch]</span>' in html
    lines = [int(n) for n in re.findall(r'<li id="L(\d+)"', html)]
    assert len(lines) == lines[-1] - lines[0] + 1 < 40  # its own lines, numbered as in the upload
    where = re.search(r'<a class="where" href="#L(\d+)">', html).group(1)
    assert int(where) in lines and f'<li id="L{where}" class="has-error">' in html


def test_storing_sums_up_and_the_stored_page_reloads(app, client, csrf, upload):
    token = CHECK_URL.fullmatch(post_upload(client, upload).headers["Location"]).group(1)
    started = time.perf_counter()
    stored = client.post("/submit/store", data={"csrf_token": csrf, "check": token})
    print(f"store: {time.perf_counter() - started:.2f} s")
    assert stored.status_code == 303
    page = client.get(stored.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and len(page.data) < 10_000
    assert ('<p class="counts-line" id="stored-counts">2,880 new records stored, 1 already in the archive '
            '(not stored again), 1 not stored: cannot be read.</p>') in html
    first, last = SAMPLE_RECORDS + 1, SAMPLE_RECORDS + GENERATED  # 60 and 2939
    assert (f'<p id="stored-ids">Stored: <a class="stored-link" href="/r/{first}">record {first}</a>–'
            f'<a class="stored-link" href="/r/{last}">{last}</a>.</p>') in html
    assert ('<p id="duplicate-ids">Already in the archive: <a class="duplicate-link" href="/r/1">record 1</a>.</p>'
            in html)
    assert html.count('href="/r/') == 3 and 'id="owner-token"' in html
    reload = client.get(stored.headers["Location"]).get_data(as_text=True)
    assert 'id="owner-token"' not in reload and 'id="token-shown"' in reload
    with Archive(app.config["DB"]) as archive:
        assert archive.count() == SAMPLE_RECORDS + GENERATED


def test_in_a_browser_the_upload_gives_a_light_page_that_reloads_without_resubmitting(page, live_server, upload):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.set_default_timeout(60_000)  # the check of 2,882 records takes a few seconds
    page.goto(live_server + "/submit")
    page.set_input_files("#file", {"name": "club.belote", "mimeType": "text/plain", "buffer": upload})
    started = time.perf_counter()
    page.click("#check-button")
    page.wait_for_url(re.compile(r"/submit/check/[A-Za-z0-9_-]{24}$"))
    page.locator("#verdict").wait_for()
    print(f"verdict after {time.perf_counter() - started:.2f} s")
    assert page.locator("#verdict").inner_text() == "30 errors."
    assert page.locator("#count-records").inner_text() == "2,882"
    nodes = page.evaluate("document.getElementsByTagName('*').length")
    print(f"DOM nodes: {nodes}")
    assert nodes < 3000
    check_url = page.url
    page.reload()  # a GET: nothing is sent again
    assert page.url == check_url and page.locator("#count-records").inner_text() == "2,882"
    # a finding leads to its line on the record's page
    page.locator("#record-101 .finding.error .where").first.click()
    page.wait_for_url(re.compile(r"/submit/check/[A-Za-z0-9_-]{24}/101#L\d+$"))
    line = page.locator(page.url[page.url.index("#"):])
    assert "has-error" in line.get_attribute("class") and line.is_visible()
    page.go_back()
    page.click("a[rel=next]")
    assert [n.get_attribute("id") for n in page.locator(".checked-record").all()] == [
        "record-2501", "record-2601", "record-2701", "record-2801", "record-2882"]
    page.goto(check_url)
    page.click("#store-button")
    page.wait_for_url(check_url + "/stored")
    assert page.locator("#stored-counts").inner_text() == (
        "2,880 new records stored, 1 already in the archive (not stored again), 1 not stored: cannot be read.")
    assert len(page.locator("#owner-token").inner_text()) >= 20
    page.reload()
    assert page.locator("#owner-token").count() == 0 and page.locator("#token-shown").is_visible()
    assert dialogs == [] and page.console_errors == []
