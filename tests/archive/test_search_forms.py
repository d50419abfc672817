"""The archive's search read the same way everywhere (``SearchQuery.from_args``, ``Archive.search``):
contracts in every spelling the notation has, text matched by word prefixes with nothing of FTS5's
syntax let through, dates checked (a malformed one is a ``SearchError``, never ignored), dates partly
or wholly unknown. Exact result sets on a real archive: the samples and four records more."""

from __future__ import annotations

from pathlib import Path

import pytest

from replayer.archive import Archive, SearchError, SearchQuery

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.belote"))
SAMPLE_RECORDS = 59  # samples/*.belote: ids 1..59
EVERY = list(range(1, SAMPLE_RECORDS + 5))  # and the four below, 60..63
GENERALE, UNKNOWN_DATE, NO_DATE, YEAR_ONLY = 60, 61, 62, 63
MATCH_IDS = list(range(19, 30))  # samples/12-match.belote, 2026.03.12, Villeurbanne, Gérard Faure
MONTPELLIER = [14, 15, 16, 37]  # Site "Montpellier", Event "Coinche-club de Montpellier..."
DATED_2025 = [17, 18, 35]  # 2025.12.28
# Stored contracts of the samples (the ``contract`` column): 100H 35; 100TA 18; 110C 14 37; 110D 43;
# 110S 42; 120S 56; 82S 58; 90SA 17; 92TA 59; capot D 16; capot S 15; capotbelote D 57; TA 55;
# the bare suits of classic takings; none for the void deals 3, 19, 48.
HEARTS = [2, 10, 13, 22, 26, 32, 34, 35, 36]  # H (classic takings) and 100H


def _extras(archive: Archive) -> list[str]:
    """The capot of record 15 made a générale (Event "Coupe de la générale", still in
    Montpellier); record 1 with its Date unknown, without a Date, and with its year alone."""
    capot, first = archive.get(15)["raw"], archive.get(1)["raw"]
    assert "W:capotS" in capot and '[Date "2026.03.05"]\n' in first
    return [
        capot.replace("W:capotS", "W:generaleS").replace("Coinche-club de Montpellier, championnat d'hiver",
                                                         "Coupe de la générale"),
        first.replace('[Date "2026.03.05"]', '[Date "????.??.??"]').replace("Club du jeudi", "Soirée sans date"),
        first.replace('[Date "2026.03.05"]\n', "").replace("Club du jeudi", "Soirée sans étiquette"),
        first.replace('[Date "2026.03.05"]', '[Date "2026.??.??"]').replace("Club du jeudi", "Soirée de l'année"),
    ]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    with Archive(tmp_path_factory.mktemp("search") / "belote.sqlite") as opened:
        opened.import_files(SAMPLES)
        for text in _extras(opened):
            opened.import_text(text)
        yield opened


def search(archive: Archive, **fields) -> list[int]:
    return [row["id"] for row in archive.search(SearchQuery(per_page=100, sort="id", descending=False,
                                                            **fields)).rows]


def test_the_extra_records(archive):
    rows = {row["id"]: row for row in archive.db.query("SELECT id, date, contract FROM records WHERE id > 59")}
    assert rows == {GENERALE: {"id": GENERALE, "date": "2026.01.22", "contract": "generale S"},
                    UNKNOWN_DATE: {"id": UNKNOWN_DATE, "date": None, "contract": "D"},
                    NO_DATE: {"id": NO_DATE, "date": None, "contract": "D"},
                    YEAR_ONLY: {"id": YEAR_ONLY, "date": "2026.??.??", "contract": "D"}}
    assert search(archive) == EVERY


# --- contracts ------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, expected", [
    # every capot: capot and capot belote, in any denomination
    ("capot", [15, 16, 57]), ("CAPOT", [15, 16, 57]), (" Capot ", [15, 16, 57]),
    ("capot S", [15]), ("capotS", [15]), ("capot ♠", [15]), ("capot s", [15]),
    ("capot D", [16, 57]), ("capot ♦", [16, 57]), ("capot H", []),
    ("capot belote", [57]), ("capotbelote", [57]), ("capotbeloteD", [57]), ("capot belote ♦", [57]),
    ("generale", [GENERALE]), ("générale", [GENERALE]), ("GENERALE", [GENERALE]),
    ("generale S", [GENERALE]), ("Générale ♠", [GENERALE]), ("generale TA", []), ("generale belote", []),
    # a bid, however it is spaced, cased or its suit written
    ("110C", [14, 37]), ("110 C", [14, 37]), ("110c", [14, 37]), ("110 c", [14, 37]), ("110♣", [14, 37]),
    ("110 ♣", [14, 37]), ("110♧", [14, 37]), (" 110  C ", [14, 37]),
    ("90SA", [17]), ("90 sa", [17]), ("90NT", [17]), ("100TA", [18]), ("100 ta", [18]), ("100AT", [18]),
    ("80H", []),
    # a value alone: in every denomination
    ("110", [14, 37, 42, 43]), ("100", [18, 35]), ("82", [58]), ("0110", [14, 37, 42, 43]),
    # a denomination alone: every contract in it, classic takings included
    ("H", HEARTS), ("h", HEARTS), ("♥", HEARTS), ("♡", HEARTS),
    ("SA", [17]), ("sa", [17]), ("NT", [17]), ("TA", [18, 55, 59]), ("ta", [18, 55, 59]), ("AT", [18, 55, 59]),
    ("C", [4, 6, 7, 9, 14, 29, 30, 37, 38, 50]), ("♣", [4, 6, 7, 9, 14, 29, 30, 37, 38, 50]),
    ("", EVERY), ("   ", EVERY),
])
def test_contract_spellings(archive, typed, expected):
    assert search(archive, contract=typed) == expected


def test_every_stored_contract_finds_its_records(archive):
    """What the importer stores (``80H``, ``capot S``, ``capotbelote D``, ``generale S``, ``H``)
    is a spelling the search reads, and finds those records."""
    stored: dict[str, list[int]] = {}
    for row in archive.db.query("SELECT id, contract FROM records WHERE contract IS NOT NULL ORDER BY id"):
        stored.setdefault(row["contract"], []).append(row["id"])
    assert {"capot S", "capotbelote D", "generale S", "110C", "90SA", "TA", "H"} <= stored.keys()
    for contract, ids in stored.items():
        found = search(archive, contract=contract)
        assert set(ids) <= set(found), contract
        if not contract.startswith(("capot ", "generale ")) and contract not in ("S", "H", "D", "C", "SA", "TA"):
            assert found == ids, contract


@pytest.mark.parametrize("typed", ["hearts", "coeur", "pass", "take", "coinche", "x", "xx", "-", "110X",
                                   "capot Z", "80HH", "110C coinche", "12345", "12345C", "capot belote belote",
                                   "H S", "'; DROP TABLE records; --", "%", "_", "*"])
def test_a_bad_contract_is_refused(archive, typed):
    with pytest.raises(SearchError) as refused:
        archive.search(SearchQuery(contract=typed))
    assert list(refused.value.problems) == ["contract"]
    assert refused.value.problems["contract"].startswith(f"not a contract: {typed!r}")
    assert SearchQuery(contract=typed).problems() == refused.value.problems
    assert archive.count() == len(EVERY)


def test_contract_messages():
    assert SearchQuery(contract="hearts").problems() == {"contract": (
        "not a contract: 'hearts': write a bid such as 110C, 110 ♣ or 110, capot or capot S, generale or "
        "generale TA, or a denomination: S H D C, ♠ ♥ ♦ ♣, SA or TA")}
    assert SearchQuery(contract="pass").problems()["contract"].startswith(
        "not a contract: 'pass' is a call that sets none; write a bid")
    assert SearchQuery(contract="12345").problems() == {"contract": "not a contract: '12345': a bid has at most 4 digits"}


# --- text: word prefixes, nothing of FTS5's syntax ---------------------------------------------

@pytest.mark.parametrize("field, typed, expected", [
    ("text", "Montp", MONTPELLIER + [GENERALE]), ("text", "montp", MONTPELLIER + [GENERALE]),
    ("text", "MONTPELLIER", MONTPELLIER + [GENERALE]), ("text", "Montpellier club", [14, 15, 16, 37]),
    ("text", "Villeur", MATCH_IDS), ("text", "gér fau", MATCH_IDS), ("text", "ger", MATCH_IDS),
    ("text", "Disc", [17, 18, 30, 35]),  # Discord, and "discutable" in a comment of 30
    ("text", "blund", [30]), ("text", "soir dat", [UNKNOWN_DATE]),
    ("text", "대", [58, 59]), ("text", "Montpellierx", []),
    ("player", "odi perr", MATCH_IDS), ("player", "Montp", []),
    ("event", "Montp", MONTPELLIER), ("event", "coupe gén", [GENERALE]),
])
def test_text_player_and_event_match_word_prefixes(archive, field, typed, expected):
    assert search(archive, **{field: typed}) == expected


@pytest.mark.parametrize("typed, expected", [
    # FTS5's operators and punctuation are text: a word is matched as the start of a word...
    ("OR", [52, 59]), ("a OR b", [52, 59]), ("NOT", [33, 50, 54, 59]), ("NEAR(", []), ("NEAR(a b)", []),
    ("AND", [34, 39, 40, 43, 52, 53, 54, 56, 57, 59]),  # "and" in English comments
    ("Lyon*", [1, 2, 10, 11, 13, 30, 36, UNKNOWN_DATE, NO_DATE, YEAR_ONLY]),
    ('"Lyon', [1, 2, 10, 11, 13, 30, 36, UNKNOWN_DATE, NO_DATE, YEAR_ONLY]),
    ("{north}:Lyon", []),  # a column filter is text too: the phrase "north lyon", which no record holds
    ("-Lyon", [1, 2, 10, 11, 13, 30, 36, UNKNOWN_DATE, NO_DATE, YEAR_ONLY]),
    ("montp^", MONTPELLIER + [GENERALE]),
    # ...and a word without a letter or a digit holds nothing to look for: it does not filter
    ('"', EVERY), ("*", EVERY), ("-", EVERY), ("(", EVERY), (")", EVERY), ('""""', EVERY), (":", EVERY),
    ("^", EVERY), ("\x00", EVERY), ("- * \"", EVERY),
])
def test_fts_syntax_is_text_in_every_text_field(archive, typed, expected):
    assert search(archive, text=typed) == expected
    for field in ("player", "event"):  # the same reading: never an error
        search(archive, **{field: typed})
    assert search(archive, player=typed, event=typed) == (EVERY if expected == EVERY else [])


# --- dates ---------------------------------------------------------------------------------

MARCH_2026 = [1, 2, 10, 11, 13, *MATCH_IDS, 30, 36, *range(39, 58)]  # 03.05 to 03.27
YEAR_2026 = [n for n in EVERY if n not in DATED_2025 + [UNKNOWN_DATE, NO_DATE]]


@pytest.mark.parametrize("date_from, date_to, expected", [
    ("2026.03.12", "2026.03.12", MATCH_IDS), ("2026-03-12", "2026-03-12", MATCH_IDS),
    ("2026-3-12", "2026.3.12", MATCH_IDS), (" 2026.03.12 ", "", [*MATCH_IDS, 34, *range(39, 60)]),
    ("2026.03", "2026.03", MARCH_2026), ("2026-03", "2026-03", MARCH_2026), ("2026.03.01", "2026.03.31", MARCH_2026),
    ("2026.03.??", "2026-03-??", MARCH_2026),
    # the record known to its year alone (2026.??.??) is in a range that holds the whole year
    ("2026", "2026", YEAR_2026), ("2026.01.01", "2026.12.31", YEAR_2026), ("2026.??.??", "", YEAR_2026),
    ("2026", "", YEAR_2026), ("", "2026.12", sorted(DATED_2025 + YEAR_2026)),
    ("2026.01.02", "", [n for n in YEAR_2026 if n != YEAR_ONLY]), ("", "2026.03", sorted(
        DATED_2025 + [n for n in YEAR_2026 if n not in (34, 58, 59, YEAR_ONLY)])),
    ("", "2025", DATED_2025), ("", "2025-12-28", DATED_2025), ("2027", "", []),
    ("2024-02-29", "2025.12.28", DATED_2025),  # a leap day
])
def test_dates_in_the_record_form_or_iso_whole_or_partial(archive, date_from, date_to, expected):
    assert search(archive, date_from=date_from, date_to=date_to) == expected
    assert UNKNOWN_DATE not in expected and NO_DATE not in expected  # an unknown date is in no range


@pytest.mark.parametrize("typed, reason", [
    ("2026-13-45", "there is no month 13"), ("2026.00", "there is no month 0"),
    ("2026-02-30", "February 2026 has no day 30"), ("2026-02-29", "February 2026 has no day 29"),
    ("2026.04.31", "April 2026 has no day 31"), ("2026.01.00", "January 2026 has no day 0"),
    ("2026.??.05", "a day without its month"),
    ("yesterday", None), ("2026/01/02", None), ("2026-03.12", None), ("26.03.12", None), ("12.03.2026", None),
    ("2026.03.12.", None), ("????.??.??", None), ("2026.003", None), ("２０２６", None), ("2026 03 12", None),
    ("'; DROP TABLE records; --", None), ("2026.03.12T10:00", None),
])
@pytest.mark.parametrize("field", ["date_from", "date_to"])
def test_a_malformed_date_is_refused_not_ignored(archive, field, typed, reason):
    with pytest.raises(SearchError) as refused:
        archive.search(SearchQuery(**{field: typed}))
    message = refused.value.problems[field]
    assert list(refused.value.problems) == [field]
    assert message == f"not a date: {typed!r}: " + (
        reason or "write it 2026.03.12 or 2026-03-12, or a year or a month alone: 2026, 2026.03")


def test_every_bad_field_is_named_at_once_and_a_range_must_not_end_before_it_starts(archive):
    query = SearchQuery(date_from="yesterday", date_to="2026-13-45", contract="hearts", text="Lyon")
    assert list(query.problems()) == ["date_from", "date_to", "contract"]
    with pytest.raises(SearchError) as refused:
        archive.search(query)
    assert str(refused.value).startswith("date_from: not a date: 'yesterday': write it")
    assert SearchQuery(date_from="2026.04", date_to="2026.03.31").problems() == {
        "date_to": "2026.03.31 is before the start of the range, 2026.04"}
    assert SearchQuery(date_from="2026.03.12", date_to="2026.03.11").problems() == {
        "date_to": "2026.03.11 is before the start of the range, 2026.03.12"}
    assert SearchQuery(date_from="2026.03", date_to="2026.03.01").problems() == {}
    assert search(archive, date_from="2026.03", date_to="2026.03.05") == [1, 2, 10, 11, 13, 30, 36]


def test_from_args_never_raises_and_keeps_what_was_typed():
    args = {"date_from": " yesterday ", "date_to": "2026-13-45", "contract": "110 ♣", "text": "Montp\x00",
            "page": "x", "sort": "nonsense"}
    query = SearchQuery.from_args(args)
    assert (query.date_from, query.date_to, query.contract, query.text) == ("yesterday", "2026-13-45", "110 ♣", "Montp")
    assert (query.page, query.sort) == (1, "date")
    assert list(query.problems()) == ["date_from", "date_to"]
    assert SearchQuery.from_args({"contract": "capot", "date_from": "2026.03"}).problems() == {}
