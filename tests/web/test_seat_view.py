"""The one-seat ("play as") view: ``seat_view`` and ``GET /api/records/<id>?seat=S&step=K``
through the real Flask app. The seat sees its own hand, what the whole table knows (the calls
and cards so far, the turned card, the melds shown, a belote's other card, who has shown out of
a suit) and nothing else: no other hand, nothing of a later step, no result before the end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from notation.parser import parse
from notation.values import SEATS, Card, Seat
from replayer.archive import stored_record
from replayer.check.validator import validate
from replayer.web.api import SEAT_KEYS
from replayer.web.db import get_archive
from replayer.web.seat_view import seat_view
from replayer.web.step_builder import build_timeline
from replayer.web.steps import CALL, CARD, END, Timeline

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# A card as the notation writes it (7S, 10S, TS) or as a message shows it (10♠).
CARD_WORD = re.compile(r"(?<![0-9A-Za-z])(?:10|[7-9TJQKA])[SHDC♠♥♦♣](?![0-9A-Za-z])")
WHOLE_RECORD = ("raw", "canonical", "record", "report", "timeline", "findings", "analysis", "comments", "source",
                "contract", "denomination", "doubling", "taker", "recorded_ns", "recorded_ew", "rescored_ns",
                "rescored_ew", "valid", "errors", "warnings", "hash", "owner_hash")


def record_id(app, source_end: str, index: int = 0) -> int:
    with app.app_context():
        rows = [row["id"] for row in get_archive().db.query("SELECT id, source FROM records ORDER BY id")
                if row["source"].endswith(source_end)]
    return rows[index]


def stored_timeline(app, rid: int) -> Timeline:
    """The timeline the site builds for a stored record (the stored text and report)."""
    with app.app_context():
        row = get_archive().get(rid)
    stored = stored_record(row)
    return build_timeline(stored.record, stored.report)


def timeline_of(name: str) -> Timeline:
    parsed = next(parse((SAMPLES / name).read_text(encoding="utf-8")))
    return build_timeline(parsed.record, validate(parsed))


def cards_in(data) -> set[Card]:
    """Every card named anywhere in ``data`` (its JSON text)."""
    return {Card.parse(word) for word in CARD_WORD.findall(json.dumps(data, ensure_ascii=False))}


def strs(cards) -> list[str]:
    return [str(c) for c in cards]


def seat_api(client, rid: int, seat, step) -> dict:
    response = client.get(f"/api/records/{rid}?seat={seat}&step={step}")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def hidden_from(timeline: Timeline, seat: Seat, index: int) -> set[Card]:
    """The cards ``seat`` may not know at step ``index``: what the others still hold, but for
    their public cards and the turned card (which everyone saw turned)."""
    step = timeline.steps[index]
    hidden = {c for h in step.hands if h.seat is not seat for c in h.cards if c not in h.public}
    hidden.discard(timeline.turned)
    return hidden


def played_by(timeline: Timeline, index: int) -> list[Card]:
    return [s.card.card for s in timeline.card_steps if s.index <= index]


# --- nothing leaks, at any step, for any seat -------------------------------------------------

@pytest.mark.parametrize("sample, index", [("05-belote-rebelote.belote", 0), ("09-coinche-surcoinche.belote", 0),
                                           ("13-comments.belote", 0), ("14-partial.belote", 1)])
def test_every_step_of_a_deal_shows_each_seat_only_what_it_knows(app, client, sample, index):
    rid = record_id(app, sample, index)
    timeline = stored_timeline(app, rid)
    with app.app_context():
        row = get_archive().get(rid)
    result = f"{row['recorded_ns']}-{row['recorded_ew']}"
    for seat in SEATS:
        for step in timeline.steps:
            body = seat_api(client, rid, seat, step.index)
            assert set(body) <= SEAT_KEYS | {"view"} and not set(body) & set(WHOLE_RECORD)
            assert body["id"] == rid and body["view"] == seat_view(timeline, seat, step.index)
            view = body["view"]
            assert (view["seat"], view["step"], view["kind"]) == (str(seat), step.index, step.kind)
            # the seat's own hand, exactly
            own = view["hands"][seat.index]
            assert own == {"seat": str(seat), "cards": strs(step.hand(seat).cards), "hidden": 0,
                           "unknown": step.hand(seat).unknown, "played": strs(step.hand(seat).played)}
            # the calls so far, none after
            calls = min(step.index, timeline.play_start)
            assert view["calls"] == [c.as_dict() for c in timeline.calls[:calls]]
            assert view["contract"] == (str(step.contract) if step.contract else None)
            # the cards played so far, none after
            played = played_by(timeline, step.index)
            shown = [p["card"] for t in view["tricks"] for p in t["plays"]]
            if view["trick"] and not view["trick"]["complete"]:
                shown += [p["card"] for p in view["trick"]["plays"]]
            assert shown == strs(played[:len(shown)])
            assert len(shown) == len(played) or step.kind == END  # the end shows the finished tricks
            assert sorted(c for h in view["hands"] for c in h["played"]) == sorted(strs(played))
            if step.kind == END:
                assert view["score"] == (timeline.score.as_dict() if timeline.score else None)
                assert [h["cards"] for h in view["hands"]] == [strs(h.cards) for h in step.hands]
                continue
            # before the end: no other hand, no future card, no result
            for other in step.hands:
                if other.seat is not seat:
                    assert view["hands"][other.seat.index] == {
                        "seat": str(other.seat), "cards": strs(other.public),
                        "hidden": other.size - len(other.public), "unknown": 0, "played": strs(other.played)}
            leaked = cards_in(body) & hidden_from(timeline, seat, step.index)
            assert not leaked, (seat, step.index, sorted(map(str, leaked)))
            later = {s.card.card for s in timeline.card_steps if s.index > step.index}
            assert not {c for c in cards_in(body) if c in later} - set(step.hand(seat).cards) - \
                {c for h in step.hands for c in h.public} - {timeline.turned}
            assert view["score"] is None and view["recorded"] is None
            assert result not in json.dumps(body) and "rescored" not in json.dumps(body)
            assert view["legal"] == (strs(step.legal) if step.turn is seat else [])
            assert all(n["kind"] != "record" and (n["kind"] != "hand" or n["seat"] == str(seat))
                       for n in view["notes"])


def test_the_final_contract_is_not_told_during_the_auction(app, client):
    rid = record_id(app, "09-coinche-surcoinche.belote")
    standing = ["90C by E", "90C by E", "90C by E", "100TA by S", "110C by E", "110C coinche by E",
                "110C coinche by E", "110C coinche by E"]
    for step, contract in zip(range(3, 11), standing):
        for seat in "NESW":
            text = json.dumps(seat_api(client, rid, seat, step))
            assert "surcoinche" not in text  # East's surcoinche is call 11
            assert seat_api(client, rid, seat, step)["view"]["contract"] == contract
    view = seat_api(client, rid, "W", 3)["view"]
    assert [(c["seat"], c["call"]) for c in view["calls"]] == [("W", "pass"), ("S", "80TA"), ("E", "90C")]
    assert view["turn"] == "N" and view["legal"] == [] and view["trick"] is None and view["tricks"] == []
    assert view["label"] == "Call 3: East says 90♣" and view["kind"] == CALL
    last = seat_api(client, rid, "W", 11)["view"]
    assert last["contract"] == "110C surcoinche by E" and len(last["calls"]) == 11
    assert last["turn"] == "W" and last["legal"] == ["9S", "QH", "KD", "JD", "8D", "7D", "KC", "TC"]
    assert last["notes"] == [{"about": "East: surcoinche", "text": "surcoinche : tout est multiplié par quatre",
                              "kind": "call", "seat": "E"}]


# --- exact views ----------------------------------------------------------------------------

def test_west_after_its_belote(app, client):
    rid = record_id(app, "05-belote-rebelote.belote")
    body = seat_api(client, rid, "W", 18)
    assert body["event"] == "Club du jeudi" and body["west"] == "Denis Moreau" and body["dealer"] == "W"
    view = body["view"]
    assert view["label"] == "Trick 3, card 3: West plays K♥" and view["kind"] == CARD
    assert view["hands"] == [
        {"seat": "N", "cards": ["8S"], "hidden": 4, "unknown": 0, "played": ["7D", "8C", "TS"]},
        {"seat": "E", "cards": [], "hidden": 5, "unknown": 0, "played": ["TD", "AC", "QS"]},
        {"seat": "S", "cards": [], "hidden": 6, "unknown": 0, "played": ["9D", "KC"]},
        {"seat": "W", "cards": ["QH", "AD", "QD", "QC", "TC"], "hidden": 0, "unknown": 0,
         "played": ["8D", "JC", "KH"]},
    ]
    assert view["voids"] == {"N": [], "E": [], "S": [], "W": ["S"]}
    assert view["turn"] == "S" and view["legal"] == []  # South's turn: not West's cards to choose
    assert view["contract"] == "H by N" and view["turned"] == "8S" and len(view["calls"]) == 7
    assert view["trick"]["plays"][-1] == {"seat": "W", "card": "KH", "trick": 3, "position": 3,
                                          "declaration": "belote", "annotation": None,
                                          "comments": ["belote ! (on l'annonce en jouant la première carte du couple)"]}
    assert [t["winner"] for t in view["tricks"]] == ["E", "E"] and view["points"] == [0, 27]
    south = seat_api(client, rid, "S", 18)["view"]
    assert south["hands"][3] == {"seat": "W", "cards": ["QH"], "hidden": 4, "unknown": 0,
                                 "played": ["8D", "JC", "KH"]}  # the belote's Q♥ is known to all
    assert south["turn"] == "S" and south["legal"] == ["KS", "JS", "7S"]
    assert south["hands"][2]["cards"] == ["KS", "JS", "7S", "TH", "8H", "7H"]


def test_the_deal_before_any_call(app, client):
    rid = record_id(app, "05-belote-rebelote.belote")
    view = seat_api(client, rid, "E", 0)["view"]
    assert view["kind"] == "deal" and view["label"] == "The deal, before the first call"
    assert view["hands"] == [
        {"seat": "N", "cards": [], "hidden": 8, "unknown": 0, "played": []},
        {"seat": "E", "cards": ["QS", "9S", "KD", "JD", "TD", "AC", "9C", "7C"], "hidden": 0, "unknown": 0,
         "played": []},
        {"seat": "S", "cards": [], "hidden": 8, "unknown": 0, "played": []},
        {"seat": "W", "cards": [], "hidden": 8, "unknown": 0, "played": []},
    ]
    assert view["calls"] == [] and view["contract"] is None and view["turn"] == "S" and view["legal"] == []
    assert view["notes"] == [] and view["findings"] == []  # the record's comment is the transcriber's
    assert view["turned"] == "8S" and view["announcements"] == []
    # the taker holds the turned card from its take on, in everyone's sight
    assert seat_api(client, rid, "E", 6)["view"]["hands"][0]["cards"] == []
    taken = seat_api(client, rid, "E", 7)["view"]
    assert taken["hands"][0] == {"seat": "N", "cards": ["8S"], "hidden": 7, "unknown": 0, "played": []}
    assert taken["turn"] == "S" and taken["legal"] == []
    south = seat_api(client, rid, "S", 7)["view"]
    assert south["legal"] == ["KS", "JS", "7S", "TH", "8H", "7H", "9D", "KC"]  # South leads: any card


def test_melds_are_shown_at_the_end_of_trick_1(app, client):
    rid = record_id(app, "13-comments.belote")
    # East announces its two tierces with its first card (step 5): the kind, not the cards
    assert seat_api(client, rid, "N", 4)["view"]["announcements"] == []
    made = seat_api(client, rid, "N", 5)["view"]
    assert [(a["seat"], a["kind"], a["cards"], a["step"], a["shown"]) for a in made["announcements"]] == \
        [("E", "tierce", [], 5, 6), ("E", "tierce", [], 5, 6)]
    assert made["hands"][1] == {"seat": "E", "cards": [], "hidden": 7, "unknown": 0, "played": ["TC"]}
    assert made["notes"] == [{"about": "East announces a tierce", "text": "annonce au premier pli",
                              "kind": "announcement", "seat": "E"}]  # not the trick's: it is not over
    shown = seat_api(client, rid, "N", 6)["view"]
    assert [(a["seat"], a["cards"]) for a in shown["announcements"]] == \
        [("E", ["9D", "8D", "7D"]), ("E", ["TC", "9C", "8C"])]
    assert shown["hands"][1] == {"seat": "E", "cards": ["9D", "8D", "7D", "9C", "8C"], "hidden": 2, "unknown": 0,
                                 "played": ["TC"]}
    assert shown["notes"] == [{"about": "Trick 1", "text": "entame", "kind": "trick", "seat": None}]
    # South took the turned J♣: known in its hand until played (step 26)
    assert shown["hands"][2]["cards"] == ["JC"] and shown["hands"][2]["hidden"] == 6
    assert seat_api(client, rid, "N", 26)["view"]["hands"][2]["cards"] == []
    # North's belote: K♣ known from its Q♣ (step 22)
    assert seat_api(client, rid, "E", 22)["view"]["hands"][0] == {
        "seat": "N", "cards": ["KC"], "hidden": 2, "unknown": 0, "played": ["7S", "AD", "QD", "7H", "QC"]}


def test_the_claim_and_the_end_show_everything(app, client):
    rid = record_id(app, "13-comments.belote")
    timeline = stored_timeline(app, rid)
    claim = seat_api(client, rid, "W", 31)["view"]
    assert claim["kind"] == "claim" and claim["score"] is None and claim["recorded"] is None
    assert claim["notes"] == [{"about": "The claim", "text": "le reste est à nous / the rest is ours",
                               "kind": "claim", "seat": "E"}]
    assert claim["hands"][0] == {"seat": "N", "cards": [], "hidden": 1, "unknown": 0,
                                 "played": ["7S", "AD", "QD", "7H", "QC", "KC", "JH"]}
    end = seat_api(client, rid, "W", "32")["view"]
    assert end["kind"] == END and end["recorded"] == [20, 202] and end["score"] == timeline.score.as_dict()
    assert [h["cards"] for h in end["hands"]] == [["9H"], ["7D"], ["QS"], ["8S"]]
    assert [n["kind"] for n in end["notes"]] == []
    assert seat_api(client, rid, "W", 10 ** 40)["view"]["step"] == 32  # clamped, as on the page
    assert seat_api(client, rid, "W", -3)["view"]["step"] == 0


# --- findings: only about what has happened, and not what another hand holds -----------------

def test_a_revoke_is_told_when_played_without_the_hand_behind_it(app, client):
    with app.app_context():
        [rid] = get_archive().import_files([SAMPLES / "invalid" / "revoke.belote"]).ids
    before = seat_api(client, rid, "N", 13)["view"]
    assert before["findings"] == []
    after = seat_api(client, rid, "N", 14)["view"]
    [finding] = after["findings"]
    assert (finding["rule"], finding["seat"], finding["card"], finding["trick"]) == ("must-follow", "W", "AD", 2)
    assert finding["message"] == "trick 2: West played A♦, against the rule must-follow"
    assert not finding.get("alternatives") and "7S" not in json.dumps(after) and "7♠" not in json.dumps(after)
    own = seat_api(client, rid, "W", 14)["view"]["findings"][0]  # West's own card: the whole finding
    assert "had to follow spades" in own["message"]


# --- bad arguments ---------------------------------------------------------------------------

@pytest.mark.parametrize("query", ["seat=X", "seat=north-ish", "seat=%3Cscript%3E", "seat=5", "seat=%00&step=1",
                                   "seat=N&step=abc", "seat=N&step=1.5", "seat=N&step=%00", "seat=N&step=" + "9" * 5000,
                                   "seat=S&step=ending", "seat=E&step=%20"])
def test_a_bad_seat_or_step_is_a_json_400(app, client, query):
    rid = record_id(app, "05-belote-rebelote.belote")
    response = client.get(f"/api/records/{rid}?{query}")
    assert response.status_code == 400 and response.mimetype == "application/json"
    body = response.get_json()
    assert body["error"]["status"] == 400 and "view" not in body and "raw" not in body
    assert "<script>" not in response.get_data(as_text=True)


def test_step_end_is_the_last_step_as_on_the_page(app, client):
    rid = record_id(app, "05-belote-rebelote.belote")
    for word in ("end", "last", "END"):
        view = client.get(f"/api/records/{rid}?seat=S&step={word}").get_json()["view"]
        assert (view["step"], view["kind"]) == (view["last"], "end") and view["last"] == 40  # 7 calls, 32 cards


def test_without_a_seat_the_whole_record(app, client):
    rid = record_id(app, "05-belote-rebelote.belote")
    whole = client.get(f"/api/records/{rid}?seat=%20&step=3").get_json()  # a blank seat: no seat
    assert whole["raw"].startswith("[Event") and len(whole["timeline"]["steps"]) == 41 and "view" not in whole
    assert client.get(f"/api/records/{rid}?seat=N").get_json()["view"]["step"] == 0  # no step: the deal
    assert client.get("/api/records/999999?seat=N&step=1").status_code == 404


def test_seat_view_directly_on_a_timeline():
    timeline = timeline_of("09-coinche-surcoinche.belote")
    for seat in SEATS:
        view = seat_view(timeline, seat, 0)
        assert view["hands"][seat.index]["cards"] == strs(timeline.dealt[seat.index].cards)
        assert all(h["cards"] == [] and h["hidden"] == 8 for h in view["hands"] if h["seat"] != str(seat))
        assert view["last"] == timeline.last and view["turned"] is None and view["bidding"] == "auction"
    json.dumps(seat_view(timeline, Seat.NORTH, 12))
    assert seat_view(timeline, Seat.SOUTH, 12)["legal"] == ["AS", "JS"]
    assert seat_view(timeline, Seat.NORTH, 12)["legal"] == []


# --- known leaks (see the report) ------------------------------------------------------------

@pytest.mark.parametrize("sample, seat, step", [("carre-of-nines.belote", "N", 6),
                                                ("meld-after-trick1.belote", "N", 4)])
def test_an_invalid_announcement_tells_no_held_card(app, client, sample, seat, step):
    with app.app_context():
        [rid] = get_archive().import_files([SAMPLES / "invalid" / sample]).ids
    timeline = stored_timeline(app, rid)
    body = seat_api(client, rid, seat, step)
    assert not cards_in(body["view"]["announcements"]) & hidden_from(timeline, Seat.parse(seat), step)
