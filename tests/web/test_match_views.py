"""The match page (/m/<id>): header, running score sheet, SVG score chart, findings, JSON."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from notation.parser import parse, parse_file
from replayer.check.scoresheet import score_sheet
from replayer.check.validator import validate
from replayer.web.chart import frame_for, nice_step, pct, score_chart

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
MATCH_EVENT = "Championnat du Rhône, phase de poules"
LITIGE_EVENT = "Tournoi du Café des Sports"
SVG = "{http://www.w3.org/2000/svg}"
# samples/12-match.belote: the running totals after each deal
TOTALS = [(0, 0), (35, 127), (123, 201), (148, 338), (278, 370), (440, 370), (440, 532), (547, 587),
          (547, 839), (666, 902), (738, 1012)]


class SheetCells(HTMLParser):
    """The text of each cell of the score sheet's body, and each row's first link."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.links: list[str] = []
        self._in_body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tbody":
            self._in_body = True
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag == "td":
            self._cell = []
        elif self._in_body and tag == "a" and len(self.rows[-1]) == 0 and self._cell is not None:
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._in_body = False
        elif tag == "td" and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def sheet_of(html: str) -> SheetCells:
    parser = SheetCells()
    parser.feed(html)
    return parser


def svg_of(html: str) -> ET.Element:
    (svg,) = re.findall(r"<svg .*</svg>", html, re.S)  # the chart, its nested SVG included
    return ET.fromstring(svg)


def archive_of():
    """The request's archive (inside an app context)."""
    from replayer.web.db import get_archive

    return get_archive()


def match_id(app, event: str) -> int:
    with app.app_context():
        ids = [row["id"] for row in archive_of().db["matches"].rows_where("event = ?", [event])]
    assert len(ids) == 1, ids
    return ids[0]


def import_match(app, text: str) -> None:
    with app.app_context():
        summary = archive_of().import_text(text, source_name="test.belote")
    assert summary.imported >= 1 and not summary.unparseable


def sample_text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


# --- the page -------------------------------------------------------------------------

def test_the_sample_match_sheet_has_the_exact_running_totals(app, client):
    mid = match_id(app, MATCH_EVENT)
    response = client.get(f"/m/{mid}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    cells = sheet_of(response.get_data(as_text=True))
    assert [(int(row[8]), int(row[9])) for row in cells.rows] == TOTALS
    assert [row[0] for row in cells.rows] == [str(n) for n in range(1, 12)]
    assert [row[4] for row in cells.rows] == ["void"] + ["made"] * 4 + ["failed"] * 2 + ["made"] * 4
    assert cells.rows[5][1:4] == ["North (Odile Perrin)", "♠", "West (Louis Gauthier)"]  # contracts in suit symbols
    assert (cells.rows[5][5], cells.rows[5][6]) == ("162", "0")
    assert all(row[10].endswith("✓") for row in cells.rows)  # every Score tag agrees
    with app.test_request_context(), app.app_context():
        from flask import url_for

        ids = [row["id"] for row in archive_of().match_records(mid)]
        assert cells.links == [url_for("replay.show", record_id=i) for i in ids]
    assert len(set(ids)) == 11


def test_the_header_names_the_match_and_the_winner(app, client):
    html = client.get(f"/m/{match_id(app, MATCH_EVENT)}").get_data(as_text=True)
    for text in (MATCH_EVENT, "Villeurbanne", "2026.03.12", "Poule B, table 4", "Odile Perrin", "Gérard Faure",
                 "Nadia Haddad", "Louis Gauthier", "<code>ffb</code>", ">belote<", ">1000<"):
        assert text in html
    assert "EW win</strong>" in html and "738-1012 at deal 11, target 1000" in html
    assert "The Score tags, the dealer rotation and the target all agree." in html
    assert "style=" not in html and "<script>" not in html


def test_the_page_carries_the_security_headers(app, client):
    response = client.get(f"/m/{match_id(app, MATCH_EVENT)}")
    assert "style-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_chart_is_svg_with_one_point_per_deal_at_exact_coordinates(app, client):
    html = client.get(f"/m/{match_id(app, MATCH_EVENT)}").get_data(as_text=True)
    svg = svg_of(html)
    # no viewBox: positions are percentages of the picture's box, so its text is never scaled down
    assert svg.tag == f"{SVG}svg" and svg.get("viewBox") is None and svg.get("width") == "100%"
    for team, index in (("ns", 0), ("ew", 1)):
        points = svg.findall(f".//{SVG}circle[@class='point {team}']")
        assert len(points) == 11
        # x: 2% + 96% * deal / 11; y: 86% - 76% * total / 1250 (axis to 1250 in steps of 250)
        assert [(p.get("cx"), p.get("cy")) for p in points] == [
            (pct(2 + 96 * n / 11), pct(86 - 76 * totals[index] / 1250)) for n, totals in enumerate(TOTALS, 1)]
    last_ew = svg.findall(f".//{SVG}circle[@class='point ew']")[-1]
    assert (last_ew.get("cx"), last_ew.get("cy"), last_ew.findtext(f"{SVG}title")) == ("98%", "24.47%",
                                                                                       "deal 11: EW 1012")
    (target,) = svg.findall(f".//{SVG}line[@class='target-line']")
    assert (target.get("y1"), target.get("y2")) == ("25.2%", "25.2%")
    y_ticks = [t.text for t in svg.findall(f".//{SVG}text[@class='tick y-tick']")]
    assert y_ticks == ["0", "250", "500", "750", "1000", "1250"]
    x_ticks = [t.text for t in svg.findall(f".//{SVG}text") if "x-tick" in t.get("class", "")]
    assert x_ticks == [str(n) for n in range(12)]
    # the series in a nested SVG whose units are percentages of the box
    (plot,) = svg.findall(f".//{SVG}g[@class='series ns']/{SVG}svg")
    assert (plot.get("viewBox"), plot.get("preserveAspectRatio")) == ("0 0 100 100", "none")
    assert all(element.get("style") is None for element in svg.iter())
    # the legend is the page's, in HTML beside the picture
    assert re.findall(r'<li class="(ns|ew)">([^<]*)</li>', html) == [
        ("ns", "NS: Odile Perrin &amp; Nadia Haddad"), ("ew", "EW: Gérard Faure &amp; Louis Gauthier")]


def test_a_long_match_labels_every_other_deal_on_a_phone():
    reports = [validate(r.record) for r in parse_file(SAMPLES / "12-match.belote")] * 3  # 33 deals
    svg = ET.fromstring(str(score_chart(score_sheet(reports))))
    assert "crowded" in svg.get("class").split()  # 17 labels: a phone shows 9 of them
    ticks = [t for t in svg.findall(f".//{SVG}text") if "x-tick" in t.get("class", "")]
    assert [t.text for t in ticks] == [str(n) for n in range(0, 33, 2)]  # every 2nd deal: over 20 deals
    assert ["minor" in t.get("class") for t in ticks] == [n % 2 == 1 for n in range(17)]
    eleven = ET.fromstring(str(score_chart(score_sheet(reports[:11]))))
    assert "crowded" not in eleven.get("class").split()  # 12 labels fit on a phone


def match_deal(number: int, event: str, score: str) -> str:
    """Deal ``number`` (1-based) of the sample match as deal 2 of round 1 of ``event``, with that Score tag."""
    text = [r.record.source.text for r in parse_file(SAMPLES / "12-match.belote")][number - 1]
    text = text.replace(MATCH_EVENT, event).replace('[Round "Poule B, table 4"]', '[Round "1"]')
    return re.sub(r'\[Deal "\d+"\]', '[Deal "2"]', re.sub(r'\[Score "[^"]*"\]', f'[Score "{score}"]', text))


def litige_then(app, event: str, number: int) -> list[list[str]]:
    """The litige sample (N deals, 81-81: 81 held) followed by deal ``number`` of the sample match."""
    tie = sample_text("07-litige.belote").replace(LITIGE_EVENT, event)
    import_match(app, tie + "\n" + match_deal(number, event, "0-81"))
    return sheet_of(app.test_client().get(f"/m/{match_id(app, event)}").get_data(as_text=True)).rows


def test_a_litige_carried_to_the_next_deal_is_awarded_on_the_sheet(app):
    tie, made = litige_then(app, "Carry Cup", 3)  # W deals, N takes and makes 88-74: NS win the 81
    assert (tie[4], tie[5], tie[6], tie[7], tie[8], tie[9]) == ("litige", "0", "81", "81 held", "0", "81")
    assert (made[4], made[5], made[6], made[7], made[8], made[9]) == ("made", "88", "74", "+81 to NS", "169", "155")


def test_a_hold_open_at_the_end_and_a_wrong_dealer_are_match_findings(app, client):
    tie, void = litige_then(app, "Open Hold Cup", 1)  # E deals (W should) and all pass: the hold stays open
    assert (void[1], void[4], void[7], void[8], void[9]) == ("East (Marcel Roux)", "void", "81 open", "0", "81")
    html = client.get(f"/m/{match_id(app, 'Open Hold Cup')}").get_data(as_text=True)
    assert "deal 2: East deals but West should, after North (direction ccw)" in html
    assert "a litige hold of 81 is still open at the end of the match: it is lost" in html
    assert "[dealer-rotation]" in html and "[litige-lost]" in html and "Litige: 81 held." in html


def test_a_score_tag_that_disagrees_is_a_match_finding(app, client):
    text = (sample_text("12-match.belote").replace(MATCH_EVENT, "Wrong Score Cup")
            .replace('[Score "148-338"]', '[Score "148-300"]'))
    import_match(app, text)
    html = client.get(f"/m/{match_id(app, 'Wrong Score Cup')}").get_data(as_text=True)
    rows = sheet_of(html).rows
    assert rows[4][10] == "148-300 ✗ (should be 148-338)"
    assert [row[10].endswith("✓") for row in rows].count(False) == 1
    assert "deal 5: Score 148-300 but the match stands at 148-338 before this deal" in html
    assert "[score-tag-mismatch]" in html


def test_an_event_holding_a_script_comes_out_escaped(app, client):
    hostile = "<script>alert(1)</script> & <b>Cup</b>"
    import_match(app, sample_text("12-match.belote").replace(MATCH_EVENT, hostile))
    mid = match_id(app, hostile)
    html = client.get(f"/m/{mid}").get_data(as_text=True)
    assert "<script>alert(1)" not in html and "<b>Cup" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;Cup&lt;/b&gt;") >= 3  # title, h1, dd
    svg = svg_of(html)  # still well-formed, the event as text in its title
    assert svg.findtext(f"{SVG}title") == f"Running score of {hostile}"
    assert client.get(f"/m/{mid}.json").get_json()["event"] == hostile


def test_the_page_in_a_browser_breaks_no_policy(app, live_server, page):
    """Chromium applies the CSP: a style attribute or an inline script would be a console error."""
    page.goto(f"{live_server}/m/{match_id(app, MATCH_EVENT)}")
    assert page.locator("h1").inner_text() == f"{MATCH_EVENT} · Poule B, table 4"
    assert page.locator("table.score-sheet tbody tr").count() == 11
    assert page.locator("svg.score-chart circle.point").count() == 22
    box = page.locator("svg.score-chart").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 150
    stroke = page.locator("svg.score-chart polyline.ns").evaluate("e => getComputedStyle(e).stroke")
    assert stroke == "rgb(11, 92, 173)"  # match.css reached the SVG
    assert page.console_errors == []


# --- JSON -----------------------------------------------------------------------------

def test_the_score_sheet_in_json(app, client):
    mid = match_id(app, MATCH_EVENT)
    response = client.get(f"/m/{mid}.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    assert (data["id"], data["url"], data["totals"], data["winner"], data["winning_deal"]) == (
        mid, f"/m/{mid}", [738, 1012], "EW", 11)
    assert [tuple(row["after"]) for row in data["rows"]] == TOTALS
    assert all(row["replay_url"] == f"/r/{row['record_id']}" for row in data["rows"])
    assert data["findings"] == []


# --- errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/m/999999", "/m/999999.json", "/m/0", "/m/abc", "/m/-1", "/m/1.xml"])
def test_unknown_matches_are_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "Traceback" not in response.get_data(as_text=True)


def test_a_post_is_not_allowed(app, client):
    assert client.post(f"/m/{match_id(app, MATCH_EVENT)}").status_code in (400, 405)


def test_a_stored_record_that_no_longer_reads_becomes_an_unscored_deal():
    from replayer.web.match_views import _report

    report = _report({"id": 7, "raw": "[Event \"x\"]\nhand N XX", "rules": "ffb"}, 2)
    assert (report.index, [f.rule for f in report.findings], report.score, report.ok) == (
        2, ["syntax-error"], None, False)
    assert report.findings[0].location.record == 2


def test_a_deal_is_the_report_the_archive_kept_numbered_in_its_match():
    from replayer.archive.schema import stored_report
    from replayer.web.match_views import _report

    raw = [r.record.source.text for r in parse_file(SAMPLES / "12-match.belote")][1]
    report = _report({"id": 7, "raw": raw, "rules": "ffb", "report": stored_report(raw, "ffb")}, 1)
    assert (report.index, report.rules_text, report.rescored, report.ok) == (1, "ffb", (35, 127), True)
    assert report == validate(next(parse(raw)), "ffb", 1, repair=False)


# --- the chart alone ------------------------------------------------------------------

@pytest.mark.parametrize("raw, step", [(0.4, 1), (1, 1), (1.5, 2), (3, 5), (7, 10), (202.4, 250), (250, 250),
                                       (251, 500), (2001, 2500)])
def test_nice_steps(raw, step):
    assert nice_step(raw) == step


def test_a_chart_of_an_empty_match_still_has_its_axes_and_target():
    sheet = score_sheet([])
    frame, step = frame_for(sheet)
    assert (frame.deals, frame.top_value, step) == (1, 1000, 200)
    svg = ET.fromstring(str(score_chart(sheet)))
    assert svg.findall(f".//{SVG}circle") == []
    assert svg.find(f".//{SVG}line[@class='target-line']").get("y1") == "10%"  # the target is the top


def test_a_chart_stops_where_the_totals_become_unknown():
    reports = [validate(r.record) for r in parse_file(SAMPLES / "12-match.belote")]
    reports[3] = dataclasses.replace(reports[3], score=None, recorded=None)  # unknown from deal 4 on
    sheet = score_sheet(reports)
    svg = ET.fromstring(str(score_chart(sheet)))
    assert [len(svg.findall(f".//{SVG}circle[@class='point {team}']")) for team in ("ns", "ew")] == [3, 3]
    (line,) = svg.findall(f".//{SVG}polyline[@class='series-line ew']")
    # the axis now goes to the target, 1000: x = 2 + 96 * deal / 11, y = 86 - 76 * total / 1000 (percent)
    assert line.get("points") == "2,86 10.73,86 19.45,76.35 28.18,70.72"
    assert sheet.winner is None
