"""Reviewing a deal on the replay page, through Flask's test client: the record's comments at
their steps, the annotation glyphs, the calls in the move list and the auction grid, the
one-seat ("play as") page that shows only what its seat knows, its guesses, the stages sent
to a seat, the downloads, the findings linked to the record's lines. The pages are parsed
(``html.parser``) rather than searched, so that a card is found where it is shown."""

from __future__ import annotations

import gzip
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from notation.values import SEATS, Card, Seat
from replayer.archive import stored_record
from replayer.web.db import get_archive
from replayer.web.replay_views import symbols
from replayer.web.step_builder import build_timeline
from replayer.web.steps import CARD, END, Timeline

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# A card as the notation writes it (7S, 10S, TS) or as the site shows it (10♠).
CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(?:10|[7-9TJQKA])[SHDC♠♥♦♣](?![0-9A-Za-z])")


# --- a small DOM ------------------------------------------------------------------------------

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def get(self, name: str) -> str | None:
        return self.attrs.get(name)

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def select(self, tag: str | None = None, cls: str | tuple[str, ...] = (), **attrs: str) -> list[Node]:
        """The descendants with ``tag``, every class of ``cls`` and the attributes ``attrs``
        (``data_step`` for ``data-step``)."""
        wanted = {cls} if isinstance(cls, str) else set(cls)
        return [n for n in self.iter() if (tag is None or n.tag == tag) and wanted <= n.classes
                and all(n.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def one(self, tag: str | None = None, cls: str | tuple[str, ...] = (), **attrs: str) -> Node:
        found = self.select(tag, cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, len(found))
        return found[0]

    def text(self) -> str:
        return " ".join("".join(c if isinstance(c, str) else c.text() for c in self.children).split())


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def dom(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


# --- helpers ----------------------------------------------------------------------------------

def record_id(app, source_end: str, index: int = 0) -> int:
    with app.app_context():
        rows = [row["id"] for row in get_archive().db.query("SELECT id, source FROM records ORDER BY id")
                if row["source"].endswith(source_end)]
    return rows[index]


def imported(app, name: str) -> int:
    with app.app_context():
        return get_archive().import_files([SAMPLES / "invalid" / name]).ids[0]


def stored_timeline(app, rid: int) -> Timeline:
    with app.app_context():
        row = get_archive().get(rid)
    stored = stored_record(row)
    return build_timeline(stored.record, stored.report)


def get(client, url: str, status: int = 200, **kwargs) -> str:
    response = client.get(url, **kwargs)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def pretty(cards) -> list[str]:
    return [c.pretty() for c in cards]


def card_titles(node: Node) -> list[str]:
    return [n.get("title") for n in node.select("span", "card") if "back" not in n.classes]


def hand_section(page: Node, seat: Seat) -> Node:
    return page.one("section", "hand", data_seat=str(seat))


def notes_of(page: Node) -> list[tuple[str, str]]:
    lists = page.select("ul", "step-notes")
    assert len(lists) <= 1
    return [(li.one("span", "about").text(), li.one("span", "text").text()) for li in lists[0].select("li")] \
        if lists else []


def hidden_from(timeline: Timeline, seat: Seat, index: int) -> set[Card]:
    """What ``seat`` may not know at step ``index``: the other hands but their public cards
    and the turned card."""
    step = timeline.steps[index]
    hidden = {c for h in step.hands if h.seat is not seat for c in h.cards if c not in h.public}
    hidden.discard(timeline.turned)
    return hidden


def cards_named(html: str) -> set[Card]:
    body = html.split("<body", 1)[-1]  # a page's body, or the stages of /steps
    return {Card.parse(word) for word in CARD_WORD.findall(body)}


@pytest.fixture
def comments_id(app) -> int:
    return record_id(app, "13-comments.belote")


@pytest.fixture
def coinche_id(app) -> int:
    return record_id(app, "09-coinche-surcoinche.belote")


@pytest.fixture
def belote_id(app) -> int:
    return record_id(app, "05-belote-rebelote.belote")


# --- the record's comments, each at its step --------------------------------------------------

ENTAME = ("Trick 1", "entame")
SEVENTH = [("Trick 7", "comment before the cards"), ("Trick 7", "end of the trick")]
COMMENTS_AT = {
    0: [("The record", "Comments may go anywhere: after the tags, after a hand, the turned card, a call, an "
                       "announcement, before a trick, after a card, at the end of a trick, after a claim."),
        ("The record", "Deuxième commentaire d'en-tête."),
        ("North's hand", "main de Nord"), ("South's hand", "Sud"), ("South's hand", "second comment on the same hand"),
        ("The turned card", "la retourne")],
    1: [("West: pass", "passe, trop court en atout ?")],
    2: [("South: take", "prend")],
    3: [ENTAME, ("West: 10♠", "bonne entame / good lead")],
    4: [ENTAME],
    5: [ENTAME, ("East announces a tierce", "annonce au premier pli")],
    6: [ENTAME],
    9: [("West: J♦", "a blunder")],
    18: [("West: A♥", "discutable")],
    27: SEVENTH, 28: SEVENTH, 29: SEVENTH, 30: SEVENTH,
    31: [("The claim", "le reste est à nous / the rest is ours")],
}


def test_each_comment_is_shown_at_its_step(app, client, comments_id):
    timeline = stored_timeline(app, comments_id)
    assert timeline.last == 32
    for step in timeline.steps:
        page = dom(get(client, f"/r/{comments_id}?step={step.index}"))
        assert notes_of(page) == COMMENTS_AT.get(step.index, []), step.index
    # the same through the stages replay.js swaps in
    stages = dom(get(client, f"/r/{comments_id}/steps")).select("div", "replay-stage")
    assert [int(s.get("data-step")) for s in stages] == list(range(33))
    assert {int(s.get("data-step")): notes_of(s) for s in stages if notes_of(s)} == COMMENTS_AT


def test_a_seat_reads_only_the_comments_it_may(client, comments_id):
    def notes(seat: str, step: int) -> list[tuple[str, str]]:
        return notes_of(dom(get(client, f"/r/{comments_id}?seat={seat}&step={step}")))

    # at the deal: its own hand's, not the record's nor the other hands' (they may tell what is held)
    assert notes("N", 0) == [("North's hand", "main de Nord")]
    assert notes("S", 0) == [("South's hand", "Sud"), ("South's hand", "second comment on the same hand")]
    assert notes("E", 0) == [] and notes("W", 0) == []
    assert notes("E", 1) == [("West: pass", "passe, trop court en atout ?")]
    # a trick's comments once it is over
    assert notes("N", 3) == [("West: 10♠", "bonne entame / good lead")]
    assert notes("N", 5) == [("East announces a tierce", "annonce au premier pli")]
    assert notes("N", 6) == [ENTAME]
    assert notes("N", 27) == [] and notes("N", 30) == SEVENTH
    assert notes("W", 31) == [("The claim", "le reste est à nous / the rest is ours")]


# --- annotation glyphs, the move list, the auction grid ------------------------------------------

def test_annotation_glyphs_on_the_cards_of_the_trick_and_of_the_move_list(client, comments_id):
    glyphs = {"10♠": "!", "J♦": "??", "7♣": "!!", "A♥": "?"}  # W:TS! W:JD?? W:7C!! W:AH?
    for step, card in ((3, "10♠"), (9, "J♦"), (12, "7♣"), (18, "A♥")):
        page = dom(get(client, f"/r/{comments_id}?step={step}"))
        played = page.one("div", "trick-area").select("div", "played")
        shown = {card_titles(p)[0]: [g.text() for g in p.select("span", "glyph")] for p in played}
        assert shown[card] == [glyphs[card]]
        assert all(g == [] for c, g in shown.items() if c != card), step
        assert [g.text() for g in page.one("h2", "step-label").select("span", "glyph")] == [glyphs[card]]
    page = dom(get(client, f"/r/{comments_id}?step=end"))
    moves = page.one("section", "move-list").one("ol", "moves").select("a", "move")
    assert len(moves) == 28  # seven tricks, then the claim
    marked = {card_titles(m)[0]: [g.text() for g in m.select("span", "glyph")] for m in moves}
    assert {card: g for card, g in marked.items() if g} == {card: [glyph] for card, glyph in glyphs.items()}
    calls = page.one("p", "move-calls").select("a", "move")
    assert [[g.text() for g in a.select("span", "glyph")] for a in calls] == [["?!"], ["!"]]
    # a call's glyph on its step's label and in the auction grid
    first = dom(get(client, f"/r/{comments_id}?step=1"))
    assert [g.text() for g in first.one("h2", "step-label").select("span", "glyph")] == ["?!"]
    assert first.one("table", "auction-grid").one("td", "current").text() == "pass?!"


def test_the_move_list_has_the_calls(client, coinche_id, comments_id):
    page = dom(get(client, f"/r/{coinche_id}?step=3"))
    calls = page.one("p", "move-calls")
    assert calls.one("span", "move-trick").text() == "Auction"
    links = calls.select("a", "move")
    assert [(a.one("span", "seat-tag").text(), a.text(), a.get("href"), a.get("data-step")) for a in links] == [
        ("W", "Wpass", f"/r/{coinche_id}?step=1", "1"), ("S", "S80TA", f"/r/{coinche_id}?step=2", "2"),
        ("E", "E90♣", f"/r/{coinche_id}?step=3", "3"), ("N", "Npass", f"/r/{coinche_id}?step=4", "4"),
        ("W", "Wpass", f"/r/{coinche_id}?step=5", "5"), ("S", "S100TA", f"/r/{coinche_id}?step=6", "6"),
        ("E", "E110♣", f"/r/{coinche_id}?step=7", "7"), ("N", "Ncoinche", f"/r/{coinche_id}?step=8", "8"),
        ("W", "Wpass", f"/r/{coinche_id}?step=9", "9"), ("S", "Spass", f"/r/{coinche_id}?step=10", "10"),
        ("E", "Esurcoinche!?", f"/r/{coinche_id}?step=11", "11")]
    assert [a.get("data-step") for a in links if "current" in a.classes] == ["3"]
    assert links[2].get("aria-current") == "step" and links[2].get("title") == "Call 3: East says 90♣"
    cards = page.one("ol", "moves").select("a", "move")
    assert [a.get("data-step") for a in cards] == [str(n) for n in range(12, 44)]
    taking = dom(get(client, f"/r/{comments_id}")).one("p", "move-calls")
    assert taking.one("span", "move-trick").text() == "Taking"
    assert [a.text() for a in taking.select("a", "move")] == ["Wpass?!", "Stake!"]
    # one seat: the calls so far only
    seat = dom(get(client, f"/r/{coinche_id}?seat=N&step=3"))
    assert [a.get("data-step") for a in seat.one("p", "move-calls").select("a", "move")] == ["1", "2", "3"]
    assert seat.one("section", "move-list").select("ol", "moves")[0].select("a") == []


def test_the_auction_grid_at_each_call_step(client, coinche_id):
    texts = ["pass", "80TA", "90♣", "pass", "pass", "100TA", "110♣", "coinche", "pass", "pass", "surcoinche!?"]
    standing = [None, None, "80 TA, taken by South", "90 ♣, taken by East", "90 ♣, taken by East",
                "90 ♣, taken by East", "100 TA, taken by South", "110 ♣, taken by East",
                "110 ♣, coinched, taken by East", "110 ♣, coinched, taken by East", "110 ♣, coinched, taken by East",
                "110 ♣, surcoinched, taken by East"]
    for index in range(12):
        page = dom(get(client, f"/r/{coinche_id}?step={index}"))
        grid = page.one("div", "trick-area").one("table", "auction-grid")
        assert [th.text() for th in grid.select("th")] == ["W", "S", "E", "N"]  # in speaking order
        rows = grid.one("tbody").select("tr")
        cells = [td for row in rows for td in row.select("td")]
        if index == 0:
            assert [td.text() for td in cells] == ["no call yet"] and grid.select("td", "current") == []
        else:
            assert [td.text() for td in cells] == texts[:index]
            assert [len(row.select("td")) for row in rows] == [4] * (index // 4) + ([index % 4] if index % 4 else [])
            current = grid.one("td", "current")
            assert current is cells[index - 1] and current.one("a").get("data-step") == str(index)
        words = page.one("p", "standing").text()
        if standing[index] is None:
            assert words == ""
        else:
            assert words == ("Contract: " if index == 11 else "Standing: ") + standing[index]
    assert dom(get(client, f"/r/{coinche_id}?step=12")).one("div", "trick-area").select("table") == []
    assert "illegal" not in get(client, f"/r/{coinche_id}?step=11")


def test_an_illegal_call_is_marked_in_the_grid_and_on_its_step(app, client):
    rid = imported(app, "bid-not-higher.belote")
    page = dom(get(client, f"/r/{rid}?step=4"))
    cells = page.one("table", "auction-grid").select("td")
    assert [td.text() for td in cells] == ["90♣", "pass", "pass", "90♦"]
    assert [td.one("a").classes for td in cells] == [set(), set(), set(), {"illegal"}]
    label = page.one("h2", "step-label")
    assert label.text() == "Call 4: West says 90♦ illegal" and label.select("span", "illegal-mark")
    [finding] = page.one("section", "step-findings").select("li", "finding")
    # line 23 of the file: the stored text starts at its first tag (line 3)
    assert finding.one("code", "rule").text() == "bid-not-higher" and finding.one(cls="where").text() == "line 21:31"
    assert "90♦" in finding.one("span", "message").text() and "90D" not in finding.one("span", "message").text()
    assert dom(get(client, f"/r/{rid}?step=3")).select("section", "step-findings") == []


# --- the one-seat page ----------------------------------------------------------------------------

def check_one_seat_page(html: str, timeline: Timeline, seat: Seat, index: int, embed: bool = False) -> None:
    page = dom(html)
    step = timeline.steps[index]
    for hand in step.hands:
        section = hand_section(page, hand.seat)
        cards = section.select("span", "card")
        if hand.seat is seat:
            assert not [c for c in cards if "back" in c.classes]
            held = [c.get("title") for c in cards if "gone" not in c.classes]
            assert held == pretty(hand.cards), (seat, index)
            continue
        assert all(c.classes & {"back", "known", "gone"} for c in cards), (seat, index, hand.seat)
        assert [c.get("title") for c in cards if "known" in c.classes] == pretty(hand.public)
        assert [c.get("title") for c in cards if "gone" in c.classes] == pretty(hand.played)
        assert sum("back" in c.classes for c in cards) == hand.size - len(hand.public)
    leaked = cards_named(html) & hidden_from(timeline, seat, index)
    assert not leaked, (seat, index, sorted(map(str, leaked)))
    hrefs = [a.get("href") or "" for a in page.select("a")]
    assert not [h for h in hrefs if ".belote" in h or ".json" in h], (seat, index)
    # no way out to the view of every hand: the embed's own steps only
    assert all(f"seat={seat}" in h for h in hrefs if "/embed" in h) if embed else \
        not [h for h in hrefs if "embed" in h], (seat, index)
    assert page.select(id="record-text") == [] and 'id="record-text"' not in html
    assert page.select(cls="dd-value") == [] and page.select("a", "nav-finding") == []


@pytest.mark.parametrize("sample, result", [("13-comments.belote", "20-202"), ("05-belote-rebelote.belote", "118-64")])
def test_the_one_seat_page_shows_no_card_of_the_other_hands(app, client, sample, result):
    rid = record_id(app, sample)
    timeline = stored_timeline(app, rid)
    for seat in SEATS:
        for step in timeline.steps[:-1]:  # the end tells the score
            html = get(client, f"/r/{rid}?seat={seat}&step={step.index}")
            check_one_seat_page(html, timeline, seat, step.index)
            assert result not in html
    assert timeline.steps[-1].kind == END and result in get(client, f"/r/{rid}?seat=N&step=end")


def test_the_one_seat_page_of_the_deal_in_detail(app, client, comments_id):
    html = get(client, f"/r/{comments_id}?seat=E&step=6")  # trick 1 over: East's tierces are shown
    page = dom(html)
    east = hand_section(page, Seat.EAST)
    assert [c.get("title") for c in east.select("span", "card") if "gone" not in c.classes] == \
        ["10♥", "K♦", "9♦", "8♦", "7♦", "9♣", "8♣"] and east.select("span", ("card", "back")) == []
    north = hand_section(page, Seat.NORTH)
    assert [c.get("title") for c in north.select("span", ("card", "gone"))] == ["7♠"]
    south = hand_section(page, Seat.SOUTH)
    assert [c.get("title") for c in south.select("span", ("card", "known"))] == ["J♣"]  # the turned card it took
    assert len(south.select("span", ("card", "back"))) == 6
    west = hand_section(page, Seat.WEST)
    assert [b.text() for b in west.select("span", ("badge", "void"))] == []
    assert [b.text() for b in east.select("span", ("badge", "void"))] == ["no ♠"]  # East trumped trick 1
    assert "You see what East sees" in page.one("section", "replay-tools").text()
    assert page.one("article", id="replay").get("data-mode") == "seat"
    for seat in "NSW":
        other = dom(get(client, f"/r/{comments_id}?seat={seat}&step=6"))
        assert [c.get("title") for c in hand_section(other, Seat.EAST).select("span", ("card", "known"))] == \
            ["9♦", "8♦", "7♦", "9♣", "8♣"]
    # the announcement is listed at East's first card, its cards at the end of trick 1
    at5 = dom(get(client, f"/r/{comments_id}?seat=N&step=5")).one("ul", "announcements").select("li")
    assert [(li.text(), card_titles(li)) for li in at5] == [("E tierce !", []), ("E tierce", [])]
    at6 = dom(get(client, f"/r/{comments_id}?seat=N&step=6")).one("ul", "announcements").select("li")
    assert [card_titles(li) for li in at6] == [["9♦", "8♦", "7♦"], ["10♣", "9♣", "8♣"]]
    assert dom(get(client, f"/r/{comments_id}?seat=N&step=4")).select("ul", "announcements") == []


def test_the_embed_in_the_one_seat_view_shows_no_other_hand(app, client, comments_id):
    timeline = stored_timeline(app, comments_id)
    for index in (0, 2, 6, 20):
        html = get(client, f"/r/{comments_id}/embed?seat=W&step={index}")
        check_one_seat_page(html, timeline, Seat.WEST, index, embed=True)


# --- the stages sent to a seat ------------------------------------------------------------------

def test_a_seat_is_sent_the_stages_so_far_and_none_after(app, client, comments_id):
    timeline = stored_timeline(app, comments_id)
    for seat in SEATS:
        for upto in (0, 1, 2, 3, 6, 17, 30, 31):
            response = client.get(f"/r/{comments_id}/steps?seat={seat}&step={upto}")
            assert response.status_code == 200 and "Content-Encoding" not in response.headers
            html = response.get_data(as_text=True)
            stages = dom(html).select("div", "replay-stage")
            assert [int(s.get("data-step")) for s in stages] == list(range(upto + 1))
            later = {s.card.card for s in timeline.card_steps if s.index > upto and s.card.seat is not seat}
            later -= {c for h in timeline.steps[upto].hands for c in h.public} | {timeline.turned}
            assert not cards_named(html) & later, (seat, upto)
            assert not cards_named(html) & hidden_from(timeline, seat, upto)
            for stage in stages:
                index = int(stage.get("data-step"))
                for hand in timeline.steps[index].hands:
                    if hand.seat is not seat:
                        cards = hand_section(stage, hand.seat).select("span", "card")
                        assert all(c.classes & {"back", "known", "gone"} for c in cards)
    assert len(dom(get(client, f"/r/{comments_id}/steps?seat=N")).select("div", "replay-stage")) == 1  # no step: 0
    assert len(dom(get(client, f"/r/{comments_id}/steps?seat=N&step=end")).select("div", "replay-stage")) == 33


def test_every_stage_without_a_seat_and_gzipped_when_accepted(client, comments_id):
    plain = client.get(f"/r/{comments_id}/steps")
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert len(dom(plain.get_data(as_text=True)).select("div", "replay-stage")) == 33
    zipped = client.get(f"/r/{comments_id}/steps", headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data and len(zipped.data) < len(plain.data) // 4
    seat = client.get(f"/r/{comments_id}/steps?seat=S&step=4", headers={"Accept-Encoding": "gzip"})
    assert seat.headers["Content-Encoding"] == "gzip"
    assert len(dom(gzip.decompress(seat.data).decode()).select("div", "replay-stage")) == 5


# --- guessing the seat's cards ------------------------------------------------------------------

def guess_links(page: Node) -> list[tuple[str, str]]:
    """(the card's title, the href) of each guess link."""
    return [(a.one("span", "card").get("title"), a.get("href")) for a in page.select("a", "guess-card")]


@pytest.mark.parametrize("sample", ["13-comments.belote", "09-coinche-surcoinche.belote"])
def test_guess_links_are_exactly_the_legal_cards_when_the_seat_is_to_play(app, client, sample):
    rid = record_id(app, sample)
    timeline = stored_timeline(app, rid)
    asked = 0
    for seat in SEATS:
        for step in timeline.steps[:-1]:
            page = dom(get(client, f"/r/{rid}?seat={seat}&step={step.index}"))
            after = timeline.steps[step.index + 1]
            mine = step.turn is seat and after.kind == CARD and after.card.seat is seat
            links = guess_links(page)
            if not mine:
                assert links == [] and page.select(id="guess-ask") == [], (seat, step.index)
                continue
            asked += 1
            assert [title for title, _ in links] == pretty(step.legal) and step.legal
            for title, href in links:
                url = urlsplit(href)
                assert url.path == f"/r/{rid}"
                card = Card.parse(parse_qs(url.query)["guess"][0])
                assert parse_qs(url.query) == {"step": [str(step.index + 1)], "seat": [str(seat)],
                                               "guess": [str(card)]} and card.pretty() == title
            held = [c.get("title") for c in hand_section(page, seat).select("span", "card") if "gone" not in c.classes]
            not_legal = [c.get("title") for c in hand_section(page, seat).select("span", ("card", "not-legal"))]
            assert not_legal == [c for c in held if c not in pretty(step.legal)]
            assert page.one("p", id="guess-ask").text().startswith("Your turn")
    assert asked == len(timeline.card_steps)  # every card of the deal, each seat its own


def test_a_guess_is_said_right_or_wrong(app, client, comments_id):
    timeline = stored_timeline(app, comments_id)
    checked = 0
    for step in timeline.card_steps:
        seat, played = step.card.seat, step.card.card
        before = timeline.steps[step.index - 1]
        for card in before.legal:
            page = dom(get(client, f"/r/{comments_id}?seat={seat}&step={step.index}&guess={card}"))
            result = page.one("p", id="guess-result")
            assert result.classes == {"guess", "right" if card is played else "wrong"}, (step.index, card)
            if card is played:
                assert result.text() == f"Right: {seat.full_name} played {played.pretty()}, your card."
            else:
                assert result.text() == f"You chose {card.pretty()}; {seat.full_name} played {played.pretty()}."
            checked += 1
        # a card it may not play there
        held = [c for c in before.hand(seat).cards if c not in before.legal]
        if held:
            result = dom(get(client, f"/r/{comments_id}?seat={seat}&step={step.index}&guess={held[0]}"))
            assert result.one("p", id="guess-result").text() == \
                f"{held[0].pretty()} could not be played there. {seat.full_name} played {played.pretty()}."
    assert checked == sum(len(timeline.steps[s.index - 1].legal) for s in timeline.card_steps)
    # a guess on another seat's card, or in the view of every hand, says nothing
    assert dom(get(client, f"/r/{comments_id}?seat=N&step=4&guess=KS")).select(id="guess-result") == []
    assert dom(get(client, f"/r/{comments_id}?step=4&guess=KS")).select(id="guess-result") == []
    assert dom(get(client, f"/r/{comments_id}?seat=S&step=4&guess=k%E2%99%A0")).one(
        "p", id="guess-result").classes == {"guess", "right"}  # K♠ in any spelling


@pytest.mark.parametrize("guess", ["ZZ", "K", "10", "KSS", "%3Cscript%3E", "%00", "XS", "7", "A" * 5000,
                                   "%E2%99%A0", "KS%20QS"])
def test_a_bad_guess_is_a_400_never_a_500(client, comments_id, guess):
    for path in (f"/r/{comments_id}", f"/r/{comments_id}/embed", f"/r/{comments_id}/steps"):
        response = client.get(f"{path}?seat=S&step=4&guess={guess}")
        assert response.status_code == 400, path
        assert "guess must be a card" in response.get_data(as_text=True) or path.endswith("/steps")
        assert "<script>" not in response.get_data(as_text=True).split("<body", 1)[-1].replace("<script src", "")
    assert client.get(f"/r/{comments_id}?step=4&guess={guess}").status_code == 200  # no seat: no guess


# --- downloads, the record's text, findings linked to its lines -----------------------------------

def test_downloads_are_attachments(client, belote_id):
    text = client.get(f"/r/{belote_id}.belote")
    assert text.headers["Content-Disposition"] == f'attachment; filename="record-{belote_id}.belote"'
    data = client.get(f"/r/{belote_id}.json")
    assert data.headers["Content-Disposition"] == f'attachment; filename="record-{belote_id}.json"'
    page = dom(get(client, f"/r/{belote_id}?step=3"))
    links = {a.get("href"): a for a in page.one("section", "replay-tools").select("a")}
    assert "download" in links[f"/r/{belote_id}.belote"].attrs and "download" in links[f"/r/{belote_id}.json"].attrs
    assert links[f"/r/{belote_id}/embed?step=3"].get("data-role") == "embed"


def test_the_record_text_has_numbered_lines(app, client, belote_id):
    with app.app_context():
        raw = get_archive().get(belote_id)["raw"]
    page = dom(get(client, f"/r/{belote_id}"))
    text = page.one("details", "record-text", id="record-text")
    lines = text.select("li")
    assert [li.get("id") for li in lines] == [f"L{n}" for n in range(1, len(raw.splitlines()) + 1)]
    assert [li.one("span", "code").text() for li in lines] == [" ".join(line.split()) for line in raw.splitlines()]
    assert [li.one("a", "ln").get("href") for li in lines[:2]] == ["#L1", "#L2"]
    assert text.one("summary").text() == f"The record's text ({len(lines)} lines)"


@pytest.mark.parametrize("name", ["revoke.belote", "two-illegal-plays.belote", "bid-not-higher.belote",
                                  "card-not-held.belote", "announcement-not-held.belote", "wrong-result.belote",
                                  "coinche-by-bidding-side.belote"])
def test_findings_link_to_lines_of_the_record_text(app, client, name):
    rid = imported(app, name)
    with app.app_context():
        row = get_archive().get(rid)
    raw, shift = row["raw"], row["source_line"] - 1  # the stored text starts at the record's first line
    expected = []
    for line in (SAMPLES / "invalid" / name).with_suffix(".expected").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            where, rule = line.split()[:2]
            number, column = where.split(":")
            expected.append([f"{int(number) - shift}:{column}", rule])
    page = dom(get(client, f"/r/{rid}?step=end"))
    ids = {li.get("id") for li in page.one("details", id="record-text").select("li")}
    findings = page.one("section", "all-findings").select("li", "finding")
    assert len(findings) == len(expected)
    where = []
    for finding in findings:
        link = finding.one("a", "where")
        line, column = link.text().removeprefix("line ").split(":")
        assert link.get("href") == f"#L{line}" and f"L{line}" in ids and link.get("data-role") == "line"
        assert 1 <= int(line) <= len(raw.splitlines())
        where.append([f"{line}:{column}", finding.one("code", "rule").text()])
        assert not re.search(r"(?<![0-9A-Za-z])(?:10|[7-9TJQKA])[SHDC](?![0-9A-Za-z])",
                             finding.one("span", "message").text())  # cards as symbols
    assert sorted(where) == sorted(expected)
    # the one-seat view links to no line: it has no record text
    seat = dom(get(client, f"/r/{rid}?seat=N&step=end"))
    assert seat.select("a", "where") == [] and seat.select(id="record-text") == []


def test_messages_show_cards_and_bids_as_symbols():
    assert symbols("7S") == "7♠" and symbols("90D") == "90♦" and symbols("TS") == "10♠"
    assert symbols("West played AD but held 7S and had to follow spades") == \
        "West played A♦ but held 7♠ and had to follow spades"
    assert symbols("90D is not higher than 90C") == "90♦ is not higher than 90♣"
    assert symbols("capotH") == "capot ♥" and symbols("250S") == "250♠" and symbols("80TA") == "80TA"
    assert symbols("AS KS, QS.") == "A♠ K♠, Q♠."
    # not a card nor a bid: left as written
    assert symbols("ffb-coinche, KSS, S7, 100, 1000S, x7Sx, 7S7S") == "ffb-coinche, KSS, S7, 100, 1000S, x7Sx, 7S7S"
    assert symbols("<b>7S</b>") == "<b>7♠</b>"  # plain text: the page escapes it like any other


# --- known leaks (see the report) ------------------------------------------------------------------

@pytest.mark.parametrize("source, index, seat, step", [("invalid/carre-of-nines.belote", 0, Seat.NORTH, 6),
                                                       ("invalid/meld-after-trick1.belote", 0, Seat.NORTH, 5),
                                                       ("19-club-classic.belote", 0, Seat.SOUTH, 5),
                                                       ("19-club-classic.belote", 1, Seat.SOUTH, 7)])
def test_the_announcements_of_the_one_seat_page_tell_no_held_card(app, client, source, index, seat, step):
    if source.startswith("invalid/"):
        rid = imported(app, source.removeprefix("invalid/"))
    else:
        rid = record_id(app, source, index)
    timeline = stored_timeline(app, rid)
    html = get(client, f"/r/{rid}?seat={seat}&step={step}")
    box = dom(html).one("ul", "announcements")
    assert not {Card.parse(t.replace("10", "T")) for t in card_titles(box)} & hidden_from(timeline, seat, step)
