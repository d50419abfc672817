"""Sharing a deal or a step (issue 14): the table drawn as SVG (``/r/<id>.svg?step=N``), the
Open Graph and Twitter card tags of the replay and match pages, and the record cut at a step
(``/r/<id>.belote?upto=N``), through the Flask test client."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from notation.parser import parse
from notation.values import SEATS, Card, Seat
from replayer.archive import stored_record
from replayer.check.validator import validate
from replayer.web.db import get_archive
from replayer.web.step_builder import build_timeline
from replayer.web.steps import CALL, CARD, CLAIM, DEAL, END, Timeline

SVG = "{http://www.w3.org/2000/svg}"
# The cut of an unfinished deal: the play not over; a void deal's 5-card hands while its taking
# is cut short (the validator takes the deal for one still to be dealt its last three cards).
UNFINISHED = frozenset({"incomplete-play"})
HOSTILE = """[Event "<b>Club</b> & co"]
[North "<script>alert(1)</script> & Anne"]
[East "E & \x0cF"]
[South "S"]
[West "W"]
[Dealer "W"]
[Variant "belote"]
hand N AS TS 8S AH JH 9H 7D 8C
hand E QS 9S KD JD TD AC 9C 7C
hand S KS JS 7S TH 8H 7H 9D KC
hand W KH QH AD QD 8D QC JC TC
turned 8S
taking S:pass E:pass N:pass W:pass S:pass E:pass N:H
play
1. S:9D E:TD N:7D W:8D
*
"""


def record_id(app, source_end: str, index: int = 0) -> int:
    with app.app_context():
        rows = [row["id"] for row in get_archive().db.query("SELECT id, source FROM records ORDER BY id")
                if row["source"].endswith(source_end)]
    return rows[index]


def stored(app, rid: int):
    with app.app_context():
        return stored_record(get_archive().get(rid))


def timeline_of(app, rid: int) -> Timeline:
    record = stored(app, rid)
    return build_timeline(record.record, record.report)


@pytest.fixture
def coinche_id(app) -> int:
    return record_id(app, "09-coinche-surcoinche.belote")


def svg(client, url: str, status: int = 200) -> ET.Element:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    assert response.mimetype == "image/svg+xml"
    return ET.fromstring(response.get_data())


def drawn(root: ET.Element) -> Counter:
    """The cards the image draws: every element carrying data-card."""
    return Counter(Card.parse(e.get("data-card")) for e in root.iter() if e.get("data-card"))


def visible(timeline: Timeline, index: int, seat: Seat | None = None) -> Counter:
    """What the image must draw at step ``index``: each hand shown as held (as dealt at the end)
    or, hidden from ``seat``, its public cards; the trick on the table; the turned card during
    the taking."""
    step = timeline.steps[index]
    cards: Counter = Counter()
    for hand in step.hands:
        if step.kind == END:
            cards.update(hand.dealt)
        elif seat is None or hand.seat is seat:
            cards.update(hand.cards)
        else:
            cards.update(hand.public)
    if step.trick is not None and step.kind not in (END, CLAIM):
        cards.update(p.card for p in step.trick.plays)
    if timeline.turned is not None and step.kind in (DEAL, CALL):
        cards[timeline.turned] += 1
    return cards


def head_meta(html: str) -> dict[str, str]:
    return {m[0]: m[1] for m in re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', html)}


# --- the image ------------------------------------------------------------------


def test_the_image_of_a_step_is_a_cached_svg(client, coinche_id):
    response = client.get(f"/r/{coinche_id}.svg?step=12")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    root = ET.fromstring(response.get_data())
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 600 450"
    text = response.get_data(as_text=True)
    # nothing the site's CSP would block when the image is opened on its own
    assert "<script" not in text and "style=" not in text and "<style" not in text and "href=" not in text
    words = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    assert "Léa Bonnet" in words and "Hugo Mercier" in words and "dealer" in words and "taker" in words
    assert "110 ♣ surcoinched by East" in words and "Trick 1, card 1: West plays 9♠" in words
    assert "step 12/44" in words


def test_the_image_draws_exactly_the_cards_in_view_at_every_step(app, client, coinche_id):
    timeline = timeline_of(app, coinche_id)
    kinds = set()
    for index in range(timeline.last + 1):
        kinds.add(timeline.steps[index].kind)
        assert drawn(svg(client, f"/r/{coinche_id}.svg?step={index}")) == visible(timeline, index), index
    assert kinds == {DEAL, CALL, CARD, END}


def test_the_trick_marks_the_card_winning_it_and_suits_are_coloured(client, coinche_id):
    root = svg(client, f"/r/{coinche_id}.svg?step=15")  # trick 1 over: W 9♠ S J♠ E Q♠ N 10♠, North wins
    trick = {g.get("data-card"): g for g in root.iter(f"{SVG}g") if g.get("data-card")}
    assert set(trick) == {"9S", "JS", "QS", "TS"}
    winners = [card for card, g in trick.items() if g.find(f"{SVG}rect").get("stroke") == "#f0b400"]
    assert winners == ["TS"]
    fills = {e.get("data-card")[-1]: e.get("fill") for e in root.iter(f"{SVG}tspan") if e.get("data-card")}
    assert fills == {"S": "#111111", "H": "#c8102e", "D": "#c05600", "C": "#17703a"}


def test_the_end_draws_the_hands_as_dealt_and_the_score(app, client, coinche_id):
    root = svg(client, f"/r/{coinche_id}.svg?step=end")
    words = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    assert "The deal is over" in words and "NS 0 · EW 1080" in words and "contract made" in words
    assert sum(drawn(root).values()) == 32


def test_bottom_turns_the_table(client, coinche_id):
    def seat_at_bottom(url: str) -> str:
        panels = {g.get("data-seat"): g.get("transform") for g in svg(client, url).iter(f"{SVG}g") if g.get("data-seat")}
        return next(seat for seat, place in panels.items() if place == "translate(212,292)")
    assert seat_at_bottom(f"/r/{coinche_id}.svg") == "S"
    assert seat_at_bottom(f"/r/{coinche_id}.svg?bottom=E") == "E"


@pytest.mark.parametrize("sample", ["09-coinche-surcoinche.belote", "04-announcements.belote",
                                    "05-belote-rebelote.belote"])
def test_a_seat_sees_in_the_image_only_what_it_knows(app, client, sample):
    rid = record_id(app, sample)
    timeline = timeline_of(app, rid)
    for seat in SEATS:
        for index in range(0, timeline.last + 1, 3):
            root = svg(client, f"/r/{rid}.svg?step={index}&seat={seat}")
            assert drawn(root) == visible(timeline, index, seat), (seat, index)
            step = timeline.steps[index]
            hidden = sum(h.size - len(h.public) for h in step.hands if h.seat is not seat) if step.kind != END else 0
            backs = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#2b4c8c"]
            assert len(backs) == hidden, (seat, index)
            words = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
            assert ("The deal is over" in words) == (step.kind == END)


@pytest.mark.parametrize("step, shown", [("9999", "end"), ("-3", "0"), ("abc", "0"), ("", "0"), ("end", "end"),
                                         ("1e9", "0")])
def test_a_bad_step_is_clamped(client, coinche_id, step, shown):
    assert client.get(f"/r/{coinche_id}.svg?step={step}").data == client.get(f"/r/{coinche_id}.svg?step={shown}").data


def test_unknown_unreadable_and_refused(app, client, coinche_id):
    assert client.get("/r/99999.svg").status_code == 404
    assert client.get(f"/r/{coinche_id}.svg?seat=X").status_code == 400  # never every hand for a bad seat
    assert client.get(f"/r/{coinche_id}.svg?bottom=Q&step=5").status_code == 200
    with app.app_context():
        get_archive().db.execute("UPDATE record_texts SET raw = ? WHERE record_id = ?", ["hand N ZZ", coinche_id])
    root = svg(client, f"/r/{coinche_id}.svg", 404)
    assert "cannot be read" in "".join(root.itertext())


def test_svg_templates_are_autoescaped_and_names_escaped(app, client):
    assert app.jinja_env.autoescape("step.svg") is True
    with app.app_context():
        new_id = get_archive().add(HOSTILE).ids[0]
    response = client.get(f"/r/{new_id}.svg?step=3")
    text = response.get_data(as_text=True)
    assert "<script>" not in text and "<b>" not in text
    root = ET.fromstring(response.get_data())  # well-formed: & escaped, the form feed replaced
    words = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    assert "<script>alert(1)</script> & Anne"[:21] in words and "<b>Club</b> & co" in words
    assert "E & \ufffdF" in words


# --- the tags that preview a page ---------------------------------------------------------------


def test_the_replay_page_previews_its_deal(client, coinche_id):
    meta = head_meta(client.get(f"/r/{coinche_id}").get_data(as_text=True))
    title = "Coinche-club de Montpellier, championnat d&#39;hiver, round 1, deal 1"
    description = ("110 ♣ surcoinched by East, made: 0-1080. "
                   "Léa Bonnet &amp; Inès Garnier v Hugo Mercier &amp; Yanis Chevalier")
    assert meta["og:title"] == meta["twitter:title"] == title
    assert meta["og:description"] == meta["description"] == description
    assert meta["og:image"] == meta["twitter:image"] == f"/r/{coinche_id}.svg?step=44"  # no step asked: the end
    assert meta["og:url"] == f"/r/{coinche_id}?step=44"
    assert meta["twitter:card"] == "summary_large_image" and meta["og:type"] == "website"
    at_step = head_meta(client.get(f"/r/{coinche_id}?step=12&bottom=E").get_data(as_text=True))
    assert at_step["og:image"] == f"/r/{coinche_id}.svg?step=12&amp;bottom=E"


def test_absolute_urls_come_from_server_name_only(app, client, coinche_id):
    html = client.get(f"/r/{coinche_id}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in html
    app.config.update(SERVER_NAME="belote.example", PREFERRED_URL_SCHEME="https")
    meta = head_meta(client.get(f"/r/{coinche_id}?step=3", base_url="https://belote.example").get_data(as_text=True))
    assert meta["og:image"] == f"https://belote.example/r/{coinche_id}.svg?step=3"
    assert meta["og:url"] == f"https://belote.example/r/{coinche_id}?step=3"


def test_the_one_seat_view_previews_nothing_the_seat_does_not_know(client, coinche_id):
    html = client.get(f"/r/{coinche_id}?seat=N&step=5").get_data(as_text=True)
    meta = head_meta(html)
    assert meta["og:description"] == "Play the deal as North: 90 ♣ by East."
    assert meta["og:image"] == f"/r/{coinche_id}.svg?step=5&amp;seat=N"
    assert "1080" not in " ".join(meta.values()) and "made" not in meta["og:description"]
    assert 'data-role="copy-record"' not in html and 'data-role="step-image"' not in html  # nor the whole record


def test_the_match_page_previews_the_deciding_deal(app, client):
    with app.app_context():
        match_id = get_archive().db.execute("SELECT min(id) FROM matches").fetchone()[0]
    meta = head_meta(client.get(f"/m/{match_id}").get_data(as_text=True))
    data = client.get(f"/m/{match_id}.json").get_json()
    deciding = next(row for row in data["rows"] if row["number"] == data["winning_deal"])
    assert meta["og:image"] == f"/r/{deciding['record_id']}.svg?step=end"
    assert meta["og:url"] == f"/m/{match_id}" and meta["twitter:card"] == "summary_large_image"
    assert meta["og:description"].startswith(f"{data['winner']} win ") and meta["og:description"].endswith(".")
    assert client.get(meta["og:image"]).status_code == 200


# --- the record cut at a step -----------------------------------------------------------------


@pytest.mark.parametrize("sample", ["09-coinche-surcoinche.belote", "13-comments.belote", "05-belote-rebelote.belote",
                                    "04-announcements.belote", "19-club-classic.belote", "03-void-deal.belote"])
def test_the_record_cut_at_every_step_reads_back_and_validates(app, client, sample):
    rid = record_id(app, sample)
    timeline = timeline_of(app, rid)
    whole = stored(app, rid).record
    void = timeline.contract is None
    for index in range(timeline.last + 1):
        response = client.get(f"/r/{rid}.belote?upto={index}")
        assert response.status_code == 200 and response.mimetype == "text/plain"
        assert response.headers["Content-Disposition"].startswith("inline")
        (result,) = list(parse(response.get_data(as_text=True)))
        assert result.record is not None, (index, result.errors)
        errors = {f.rule for f in validate(result).findings if f.severity.value == "error"}
        allowed = UNFINISHED | ({"hand-size"} if void and index < timeline.play_start else set())
        assert errors <= allowed, (index, errors)
        record = result.record
        step = timeline.steps[index]
        assert (record.tag("Result") is not None) == (step.kind == END)
        assert (record.claim is not None) == (step.kind in (CLAIM, END) and whole.claim is not None)
        calls = record.auction if record.auction is not None else record.taking or ()
        assert len(calls) == len(timeline.calls_until(index))
        played = [entry.card for trick in record.tricks for entry in trick.plays]
        assert played[:index - timeline.play_start] == [s.card.card for s in timeline.card_steps if s.index <= index]
        assert record.hands == whole.hands and record.turned == whole.turned and record.comments == whole.comments


def test_the_cut_keeps_announcements_once_made_and_the_end_is_the_whole_record(app, client):
    rid = record_id(app, "13-comments.belote")
    timeline = timeline_of(app, rid)
    for index in range(timeline.last + 1):
        record = next(parse(client.get(f"/r/{rid}.belote?upto={index}").get_data(as_text=True))).record
        assert len(record.announcements) == len(timeline.announced_by(index))
    end = client.get(f"/r/{rid}.belote?upto=end").get_data(as_text=True)
    assert next(parse(end)).record == stored(app, rid).record
    comment = client.get(f"/r/{rid}.belote?upto={timeline.play_start + 1}").get_data(as_text=True)
    assert "{bonne entame / good lead}" in comment and "S:KS" not in comment


@pytest.mark.parametrize("upto, same", [("abc", "0"), ("-1", "0"), ("99999999999999999999", "end"), ("", "0"),
                                        ("LAST", "end"), ("１", "1")])
def test_a_bad_upto_is_clamped(client, coinche_id, upto, same):
    response = client.get(f"/r/{coinche_id}.belote?upto={upto}")
    assert response.status_code == 200
    assert response.data == client.get(f"/r/{coinche_id}.belote?upto={same}").data


def test_without_upto_the_download_is_the_stored_text(app, client, coinche_id):
    with app.app_context():
        raw = get_archive().get(coinche_id)["raw"]
    assert client.get(f"/r/{coinche_id}.belote").get_data(as_text=True) == raw
    assert client.get("/r/99999.belote?upto=3").status_code == 404


def test_the_replay_offers_the_copy_and_image_links_that_follow_the_step(client, coinche_id):
    html = client.get(f"/r/{coinche_id}?step=7").get_data(as_text=True)
    assert (f'<a href="/r/{coinche_id}.belote?upto=7" data-role="copy-record" data-follow="upto"') in html
    assert f'<a href="/r/{coinche_id}.svg?step=7" data-role="step-image" data-follow>' in html
    assert 'href="/static/print.css" media="print"' in html and "/static/share.js" in html
