"""The search on the archive page (/) and in the API (/api/records): one reading of the query
(``SearchQuery.from_args``), the same records for the same arguments, a date or a contract that
cannot be read shown beside its field (400) or said in JSON (400), never a 500; and an unknown date
printed the same on every page ("date unknown") and in the JSON (null).

The site runs on a copy of the samples archive (ids 1..59) with a few records more (``extras``)."""

from __future__ import annotations

import html
import re

import pytest

from replayer.archive import Archive

SAMPLE_RECORDS = 59
GENERALE, UNKNOWN_DATE, NO_DATE, YEAR_ONLY = 60, 61, 62, 63
DATELESS_MATCH = list(range(64, 75))  # samples/12-match.belote again, its Date "????.??.??": match 3
EVERY = list(range(1, 75))
MATCH_IDS = list(range(19, 30))  # samples/12-match.belote, 2026.03.12, Villeurbanne
MONTPELLIER = [14, 15, 16, 37]
ROOT_MATCH = "samples/12-match.belote"


@pytest.fixture
def extras(app):
    """The capot of record 15 made a générale, record 1 with an unknown Date, without one, with its
    year alone, and the match of samples/12-match.belote with its dates unknown."""
    from pathlib import Path

    match_text = (Path(__file__).resolve().parents[2] / ROOT_MATCH).read_text(encoding="utf-8")
    with Archive(app.config["DB"]) as archive:
        capot, first = archive.get(15)["raw"], archive.get(1)["raw"]
        texts = [
            capot.replace("W:capotS", "W:generaleS").replace("Coinche-club de Montpellier, championnat d'hiver",
                                                             "Coupe de la générale"),
            first.replace('[Date "2026.03.05"]', '[Date "????.??.??"]').replace("Club du jeudi", "Soirée sans date"),
            first.replace('[Date "2026.03.05"]\n', "").replace("Club du jeudi", "Soirée sans étiquette"),
            first.replace('[Date "2026.03.05"]', '[Date "2026.??.??"]').replace("Club du jeudi", "Soirée de l'année"),
            match_text.replace('[Date "2026.03.12"]', '[Date "????.??.??"]').replace(
                "Championnat du Rhône", "Championnat sans date"),
        ]
        ids = [i for text in texts for i in archive.import_text(text).ids]
        assert ids == [GENERALE, UNKNOWN_DATE, NO_DATE, YEAR_ONLY, *DATELESS_MATCH]
        assert [m["id"] for m in archive.db.query("SELECT id FROM matches WHERE date IS NULL")] == [3]
    return ids


def page_ids(response) -> list[int]:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return [int(n) for n in re.findall(r'<td class="num"><a href="/r/(\d+)"', response.get_data(as_text=True))]


def api_ids(response) -> list[int]:
    assert response.status_code == 200, response.get_json()
    return [record["id"] for record in response.get_json()["records"]]


def both(client, **args) -> tuple[list[int], list[int]]:
    """The ids the archive page and the API find for ``args``, in order."""
    query = {"sort": "id", "order": "asc", "per_page": "100", **args}
    return page_ids(client.get("/", query_string=query)), api_ids(client.get("/api/records", query_string=query))


@pytest.mark.parametrize("args, expected", [
    ({"contract": "capot"}, [15, 16, 57]), ({"contract": "CAPOT"}, [15, 16, 57]),
    ({"contract": "capot S"}, [15]), ({"contract": "capot ♦"}, [16, 57]), ({"contract": "capot belote"}, [57]),
    ({"contract": "generale"}, [GENERALE]), ({"contract": "générale ♠"}, [GENERALE]),
    ({"contract": "110 C"}, [14, 37]), ({"contract": "110C"}, [14, 37]), ({"contract": "110♣"}, [14, 37]),
    ({"contract": "110 ♣"}, [14, 37]), ({"contract": "110c"}, [14, 37]), ({"contract": "110"}, [14, 37, 42, 43]),
    ({"contract": "♥"}, [2, 10, 13, 22, 26, 32, 34, 35, 36, 67, 71]), ({"contract": "H"}, [2, 10, 13, 22, 26, 32, 34, 35, 36, 67, 71]),
    ({"contract": "SA"}, [17]), ({"contract": "NT"}, [17]), ({"contract": "ta"}, [18, 55, 59]),
    ({"text": "Montp"}, MONTPELLIER + [GENERALE]), ({"text": "montpellier"}, MONTPELLIER + [GENERALE]),
    ({"event": "Montp"}, MONTPELLIER), ({"player": "odi perr"}, MATCH_IDS + DATELESS_MATCH),
    ({"text": "Villeur", "date_from": "2026"}, MATCH_IDS), ({"text": "Villeur"}, MATCH_IDS + DATELESS_MATCH),
    ({"date_from": "2026.03.12", "date_to": "2026-03-12"}, MATCH_IDS),
    ({"date_from": "2026-03-12", "date_to": "2026.3.12"}, MATCH_IDS),
    ({"date_to": "2025"}, [17, 18, 35]), ({"date_to": "2025.12.28"}, [17, 18, 35]),
    ({"date_from": "2026.??.??", "text": "soir"}, [YEAR_ONLY]), ({"date_from": "2026.03", "text": "soir"}, []),
    ({"text": '"'}, EVERY), ({"text": "*"}, EVERY), ({"text": "-"}, EVERY), ({"text": "OR"}, [52, 59]),
    ({"text": "NEAR("}, []), ({"text": "NEAR(a b)"}, []), ({"text": "a OR b"}, [52, 59]),
    ({"text": "NOT"}, [33, 50, 54, 59]), ({"text": '"Lyon'}, [1, 2, 10, 11, 13, 30, 36, UNKNOWN_DATE, NO_DATE, YEAR_ONLY]),
    ({"player": "*"}, EVERY), ({"event": "-"}, EVERY), ({"player": "OR"}, []), ({"event": "NEAR("}, []),
])
def test_the_page_and_the_api_find_the_same_records(client, extras, args, expected):
    assert both(client, **args) == (expected, expected)


def field_error(page: str, input_id: str) -> str | None:
    """The message shown beside the input ``input_id``, checking that the input points to it."""
    found = re.search(rf'<p class="field-error" id="{input_id}-error">(.*?)</p>', page)
    if found is None:
        return None
    assert re.search(rf'<input [^>]*id="{input_id}"[^>]* aria-invalid="true" aria-describedby="{input_id}-error">',
                     page)
    return html.unescape(found.group(1))


@pytest.mark.parametrize("field, input_id, typed, message", [
    ("date_from", "q-from", "2026-13-45", "not a date: '2026-13-45': there is no month 13"),
    ("date_to", "q-to", "yesterday",
     "not a date: 'yesterday': write it 2026.03.12 or 2026-03-12, or a year or a month alone: 2026, 2026.03"),
    ("date_from", "q-from", "2026/01/02",
     "not a date: '2026/01/02': write it 2026.03.12 or 2026-03-12, or a year or a month alone: 2026, 2026.03"),
    ("date_to", "q-to", "2026-02-30", "not a date: '2026-02-30': February 2026 has no day 30"),
    ("contract", "q-contract", "hearts",
     "not a contract: 'hearts': write a bid such as 110C, 110 ♣ or 110, capot or capot S, generale or "
     "generale TA, or a denomination: S H D C, ♠ ♥ ♦ ♣, SA or TA"),
    ("contract", "q-contract", "coinche", "not a contract: 'coinche' is a call that sets none; write a bid such as "
     "110C, 110 ♣ or 110, capot or capot S, generale or generale TA, or a denomination: S H D C, ♠ ♥ ♦ ♣, SA or TA"),
])
def test_a_field_that_cannot_be_read_is_an_error_beside_it(client, field, input_id, typed, message):
    response = client.get("/", query_string={field: typed, "player": "Anne", "sort": "id"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert field_error(page, input_id) == message
    assert f'name="{field}" value="{html.escape(typed)}"' in page  # the form keeps what was typed
    assert 'name="player" value="Anne"' in page and '<input type="hidden" name="sort" value="id">' in page
    assert 'id="search-problems" role="alert">Nothing was searched' in page
    assert 'id="records"' not in page and 'id="result-count"' not in page  # no results: nothing was searched
    assert [i for i in ("q-text", "q-player", "q-event", "q-from", "q-to", "q-contract")
            if field_error(page, i) is not None] == [input_id]

    api = client.get("/api/records", query_string={field: typed, "player": "Anne"})
    assert (api.status_code, api.mimetype) == (400, "application/json")
    assert api.get_json() == {"error": {"status": 400, "title": "Bad request", "message": f"{field}: {message}",
                                        "fields": {field: message}}}


def test_every_bad_field_is_shown_at_once(client):
    args = {"date_from": "2026.04", "date_to": "2026.03.31", "contract": "take"}
    page = client.get("/", query_string=args).get_data(as_text=True)
    assert field_error(page, "q-from") is None
    assert field_error(page, "q-to") == "2026.03.31 is before the start of the range, 2026.04"
    assert field_error(page, "q-contract").startswith("not a contract: 'take' is a call that sets none")
    assert "some fields of the search could not be read" in page
    fields = client.get("/api/records", query_string=args).get_json()["error"]["fields"]
    assert list(fields) == ["date_to", "contract"]


def test_a_good_search_shows_no_error(client):
    page = client.get("/?date_from=2026.03&contract=capot&text=Montp").get_data(as_text=True)
    assert 'class="field-error"' not in page and 'aria-invalid' not in page and "search-problems" not in page
    assert 'class="search-form panel"' in page


HOSTILE = ['"', "*", "OR", "NEAR(", "-", "NOT", "a OR b", "NEAR(a b)", "'; DROP TABLE records; --", "%", "_",
           "\x00", "\x1b[31m", "é" * 300, "{north}:x", "^", "<script>alert(1)</script>", "9" * 40, "-1",
           "2026-13-45", "????.??.??", "capot capot", "\u202e", "𝟚𝟘𝟚𝟞", "%ff"]
FIELDS = ("text", "q", "player", "event", "date_from", "date_to", "variant", "profile", "contract", "validity",
          "sort", "order", "descending", "page", "per_page")


@pytest.mark.parametrize("field", FIELDS)
def test_no_user_input_is_a_500(client, field):
    for value in HOSTILE:
        for url in ("/", "/api/records"):
            response = client.get(url, query_string={field: value})
            refusable = field in ("date_from", "date_to", "contract")
            assert response.status_code in ((200, 400) if refusable else (200,)), (url, field, value)
            if url == "/api/records":
                assert response.mimetype == "application/json"
                if response.status_code == 400:
                    assert list(response.get_json()["error"]["fields"]) == [field]
            else:  # the page escapes what it shows of the input (the JSON says it as it is)
                assert ('class="field-error"' in response.get_data(as_text=True)) == (response.status_code == 400)
                assert "<script>alert" not in response.get_data(as_text=True)


# --- unknown dates: one rendering on every page, null in the JSON -----------------------------

def date_cell(page: str, record_id: int) -> str:
    return re.search(rf'<td class="num"><a href="/r/{record_id}"[^>]*>{record_id}</a></td>\s*<td>(.*?)</td>',
                     page).group(1)


def test_unknown_dates_print_the_same_everywhere(client, extras):
    listing = client.get("/?sort=id&order=asc&per_page=100").get_data(as_text=True)
    assert [date_cell(listing, i) for i in (1, UNKNOWN_DATE, NO_DATE, YEAR_ONLY, DATELESS_MATCH[0])] == [
        "2026.03.05", "date unknown", "date unknown", "2026.??.??", "date unknown"]
    api = {r["id"]: r["date"] for r in client.get("/api/records?sort=id&order=asc&per_page=100").get_json()["records"]}
    assert [api[i] for i in (1, UNKNOWN_DATE, NO_DATE, YEAR_ONLY, DATELESS_MATCH[0])] == [
        "2026.03.05", None, None, "2026.??.??", None]

    for record_id, shown, given in [(1, "2026.03.05", "2026.03.05"), (UNKNOWN_DATE, "date unknown", None),
                                    (NO_DATE, "date unknown", None), (YEAR_ONLY, "2026.??.??", "2026.??.??")]:
        replay = client.get(f"/r/{record_id}").get_data(as_text=True)
        assert f"<div><dt>Date</dt><dd>{shown}</dd></div>" in replay, record_id
        assert client.get(f"/api/records/{record_id}").get_json()["date"] == given
        delete = client.get(f"/delete/{record_id}").get_data(as_text=True)
        assert re.search(rf"<p>[^<]*, {re.escape(shown)}:", delete), record_id

    match = client.get("/m/3").get_data(as_text=True)
    assert "<div><dt>Date</dt><dd>date unknown</dd></div>" in match
    assert client.get("/m/3.json").get_json()["date"] is None
    known = client.get("/m/1").get_data(as_text=True)
    assert "<div><dt>Date</dt><dd>2026.03.12</dd></div>" in known
    assert client.get("/m/1.json").get_json()["date"] == "2026.03.12"


def test_the_known_date_helper():
    from replayer.web.archive_views import date_text, known_date

    assert [known_date(v) for v in (None, "", "  ", "?", "????.??.??", "????-??-??", "??", 7)] == [None] * 8
    assert [known_date(v) for v in ("2026.03.12", " 2026.??.?? ", "????.03.12")] == [
        "2026.03.12", "2026.??.??", "????.03.12"]
    assert (date_text(None), date_text("????.??.??"), date_text("2026.03.12")) == (
        "date unknown", "date unknown", "2026.03.12")
