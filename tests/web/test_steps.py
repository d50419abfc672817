"""The steps of a replay (``replayer.web.steps``): the state of a deal at every step, with exact values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notation.values import Card, Seat
from notation.parser import parse, parse_record
from notation.record import Claim
from replayer.web.step_builder import build_timeline
from replayer.web.steps import CALL, CARD, CLAIM, DEAL, END, Timeline
from replayer.check.validator import validate

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def timeline_of(name: str, index: int = 0) -> Timeline:
    parsed = list(parse((SAMPLES / name).read_text(encoding="utf-8")))[index]
    return build_timeline(parsed.record, validate(parsed))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def hand(timeline: Timeline, step: int, seat: Seat) -> tuple[Card, ...]:
    return timeline.steps[step].hand(seat).cards


@pytest.fixture(scope="module")
def belote() -> Timeline:
    return timeline_of("05-belote-rebelote.belote")


def test_a_full_deal_has_the_deal_the_7_calls_32_cards_and_the_end(belote):
    kinds = [step.kind for step in belote.steps]
    assert kinds == [DEAL] + [CALL] * 7 + [CARD] * 32 + [END]
    assert belote.play_start == 7 and belote.last == 40
    assert belote.trick_ends == (11, 15, 19, 23, 27, 31, 35, 39)
    assert belote.card_step(1, 1) == 8 and belote.card_step(2, 1) == 12 and belote.card_step(8, 4) == 39
    assert belote.dealer is Seat.WEST and belote.taker is Seat.NORTH
    assert str(belote.contract) == "H by N"
    assert belote.players == ("Anne Martin", "Bruno Lefèvre", "Claire Dubois", "Denis Moreau")


def test_step_zero_holds_the_hands_as_dealt_and_the_first_leader(belote):
    zero = belote.steps[0]
    assert hand(belote, 0, Seat.NORTH) == cards("AS TS 8S AH JH 9H 7D 8C")
    assert hand(belote, 0, Seat.WEST) == cards("KH QH AD QD 8D QC JC TC")
    assert zero.trick is None and zero.tricks == () and zero.points == (0, 0)
    assert zero.turn is Seat.SOUTH  # dealer West, speech goes counter-clockwise: South speaks first
    assert belote.steps[belote.play_start].turn is Seat.SOUTH  # and South leads


def test_remaining_hands_at_card_5(belote):
    assert belote.card_step(2, 1) == 12  # card 5: 7 calls, then 4 cards
    assert hand(belote, 12, Seat.NORTH) == cards("AS TS 8S AH JH 9H 8C")
    assert hand(belote, 12, Seat.EAST) == cards("QS 9S KD JD 9C 7C")
    assert hand(belote, 12, Seat.SOUTH) == cards("KS JS 7S TH 8H 7H KC")
    assert hand(belote, 12, Seat.WEST) == cards("KH QH AD QD QC JC TC")
    step = belote.steps[12]
    assert (step.card.seat, step.card.card, step.card.trick, step.card.position) == \
        (Seat.EAST, Card.parse("AC"), 2, 1)
    assert step.trick.leader is Seat.EAST and step.trick.winner is Seat.EAST and not step.trick.complete
    assert step.turn is Seat.NORTH


def test_points_tricks_and_winners_as_the_play_goes(belote):
    assert all(s.points == (0, 0) and s.tricks_won == (0, 0) and s.trick is None for s in belote.steps[:8])
    assert belote.steps[11].points == (0, 10) and belote.steps[11].tricks_won == (0, 1)
    assert belote.steps[15].points == (0, 27)
    third = belote.steps[19].trick
    assert third.complete and third.winner is Seat.WEST and third.points == 17
    assert [t.winner for t in belote.steps[19].tricks] == [Seat.EAST, Seat.EAST, Seat.WEST]
    mid = belote.steps[17].trick  # North's 10♠ over East's Q♠
    assert mid.winner is Seat.NORTH and mid.points == 13 and len(mid.plays) == 2
    assert belote.steps[39].points == (108, 44) and belote.steps[39].tricks_won == (5, 3)


def test_belote_and_rebelote_are_on_their_cards(belote):
    said = [(s.index, s.card.card, s.card.declaration) for s in belote.steps if s.card and s.card.declaration]
    assert said == [(18, Card.parse("KH"), "belote"), (25, Card.parse("QH"), "rebelote")]


def test_the_end_carries_the_breakdown_against_the_recorded_score(belote):
    end = belote.steps[-1]
    assert end.kind == END and end.turn is None and end.findings == ()
    assert belote.score.scores == (118, 64) and belote.recorded == (118, 64)
    assert belote.result_matches is True


def test_an_illegal_play_is_on_its_step():
    revoke = timeline_of("invalid/revoke.belote")
    assert revoke.play_start == 8 and revoke.card_step(2, 2) == 14
    assert revoke.finding_steps() == (14,)
    step = revoke.steps[14]
    assert step.illegal and step.card.card == Card.parse("AD") and step.card.seat is Seat.WEST
    finding = step.findings[0]
    assert finding.rule == "must-follow" and finding.alternatives == ("7S",)
    assert "had to follow spades" in finding.message
    assert not any(s.illegal for s in revoke.steps if s.index != 14)
    assert revoke.next_finding(0) == 14 and revoke.next_finding(14) is None


def test_two_illegal_plays_and_plays_out_of_turn():
    two = timeline_of("invalid/two-illegal-plays.belote")
    assert two.play_start == 4
    assert two.finding_steps() == (16, 18)
    assert two.next_finding(16) == 18 and two.next_finding(18) == 16  # wraps to the first
    turn = timeline_of("invalid/play-out-of-turn.belote")
    assert turn.play_start == 8
    assert [(s.index, [f.rule for f in s.findings]) for s in turn.steps if s.findings] == \
        [(18, ["play-out-of-turn"]), (19, ["play-out-of-turn"])]
    assert turn.steps[18].card.seat is Seat.WEST


def test_a_claim_step_takes_the_rest():
    claimed = timeline_of("14-partial.belote", 1)
    assert [s.kind for s in claimed.steps[-3:]] == [CARD, CLAIM, END]
    assert claimed.play_start == 5 and claimed.last == 23
    claim = claimed.steps[22]
    assert claim.kind == CLAIM
    assert claim.points == (113, 39) and claim.tricks_won == (6, 2)
    assert claimed.claim is Seat.NORTH and claimed.score.scores == (123, 39)


def test_a_stopped_record_ends_after_its_last_card():
    stopped = timeline_of("14-partial.belote", 0)
    assert stopped.play_start == 7 and stopped.last == 20 and stopped.trick_ends == (11, 15, 19)
    end = stopped.steps[20]
    assert end.kind == END and [f.rule for f in end.findings] == ["play-stopped"]
    assert stopped.score is None and end.points == (0, 47)


def test_hidden_hands_rebuilt_from_the_play():
    rebuilt = timeline_of("14-partial.belote", 2)
    assert [f.rule for f in rebuilt.steps[0].findings] == ["hands-rebuilt"]
    assert hand(rebuilt, 0, Seat.EAST) == cards("9S AH QH AD QD TD 8D 7D")
    assert rebuilt.steps[0].hand(Seat.EAST).unknown == 0
    assert rebuilt.score.scores == (25, 157)


HIDDEN = """[Dealer "S"]
[Variant "belote"]
hand N JH 9H 7H 9D JC TC 9C 8C
hand E -
hand S TS 7S 8H KD JD AC KC 7C
hand W -
turned AS
taking E:pass N:pass W:take
play
1. E:QH N:9H W:TH S:8H
2. W:KS S:TS E:9S N:TC
3. E:8D N:9D W:?? S:JD
"""


def test_unknown_cards_stay_unknown_and_the_replay_stops_at_the_first_one():
    record = parse_record(HIDDEN)
    timeline = build_timeline(record, validate(record))
    assert timeline.steps[0].hand(Seat.EAST).cards == () and timeline.steps[0].hand(Seat.EAST).unknown == 8
    assert timeline.play_start == 3 and timeline.steps[3].hand(Seat.EAST).unknown == 8
    assert timeline.steps[4].hand(Seat.EAST).unknown == 7  # East led Q♥, one of its hidden cards
    assert hand(timeline, 4, Seat.NORTH) == cards("JH 9H 7H 9D JC TC 9C 8C")
    assert [s.kind for s in timeline.steps] == [DEAL] + [CALL] * 3 + [CARD] * 10 + [END]
    assert timeline.not_replayed == "2 card(s) from trick 3, card 3 on could not be replayed"
    assert timeline.steps[11].trick.winner is Seat.EAST and timeline.steps[11].trick.points == 38
    assert timeline.steps[11].points == (0, 51)  # 13 + 38: East-West took both tricks


def test_a_void_deal_has_the_deal_and_the_end():
    void = timeline_of("03-void-deal.belote")
    assert [s.kind for s in void.steps] == [DEAL] + [CALL] * 8 + [END]
    assert void.play_start == 8 and void.trick_ends == ()
    assert void.steps[0].turn is Seat.EAST  # dealer South: East speaks first
    assert [s.turn for s in void.steps[1:]] == [Seat.NORTH, Seat.WEST, Seat.SOUTH, Seat.EAST, Seat.NORTH,
                                                Seat.WEST, Seat.SOUTH, None, None]  # nobody leads
    assert void.contract is None and all(s.contract is None and s.legal == () for s in void.steps)
    assert [h.size for h in void.steps[0].hands] == [5, 5, 5, 5]
    assert str(void.score.outcome) == "void"


def test_calls_and_announcements_carry_their_findings():
    auction = timeline_of("09-coinche-surcoinche.belote")
    assert auction.bidding == "auction"
    assert [(str(c.seat), str(c.call)) for c in auction.calls][-4:] == \
        [("N", "coinche"), ("W", "pass"), ("S", "pass"), ("E", "surcoinche")]
    bad = timeline_of("invalid/bid-not-higher.belote")
    assert [[f.rule for f in c.findings] for c in bad.calls][3] == ["bid-not-higher"]
    assert bad.steps[0].findings == ()
    assert [(s.index, [f.rule for f in s.findings]) for s in bad.steps if s.findings] == [(4, ["bid-not-higher"])]
    melds = timeline_of("invalid/announcement-not-held.belote")
    assert [a.valid for a in melds.announcements] == [True, True, True, True, False]


def test_trick_jumps(belote):
    assert belote.next_trick(0) == 7 and belote.next_trick(3) == 7  # the end of the taking first
    assert belote.next_trick(7) == 11 and belote.next_trick(11) == 15 and belote.next_trick(13) == 15
    assert belote.next_trick(39) == 40
    assert belote.previous_trick(15) == 11 and belote.previous_trick(13) == 11
    assert belote.previous_trick(11) == 7 and belote.previous_trick(9) == 7  # back to the end of the taking
    assert belote.previous_trick(7) == 0 and belote.previous_trick(3) == 0
    assert belote.clamp(-4) == 0 and belote.clamp(400) == 40


def test_as_dict_is_json_ready(belote):
    data = json.loads(json.dumps(belote.as_dict()))
    assert len(data["steps"]) == 41 and data["taker"] == "N" and data["trump"] == "H"
    assert data["play_start"] == 7 and data["trick_ends"] == [11, 15, 19, 23, 27, 31, 35, 39]
    five = data["steps"][12]
    assert five["card"] == {"seat": "E", "card": "AC", "trick": 2, "position": 1, "declaration": None,
                            "annotation": None, "comments": []}
    assert five["hands"][0] == {"seat": "N", "cards": ["AS", "TS", "8S", "AH", "JH", "9H", "8C"], "unknown": 0,
                                "played": ["7D"], "public": ["8S"]}
    assert five["voids"] == {"N": [], "E": [], "S": [], "W": []} and five["legal"] == ["8C"]
    assert data["steps"][19]["trick"]["winner"] == "W" and data["steps"][19]["points"] == [0, 44]
    taken = data["steps"][7]
    assert (taken["kind"], taken["contract"], taken["card"], taken["turn"]) == ("call", "H by N", None, "S")
    assert taken["call"] == {"number": 7, "seat": "N", "call": "H", "pretty": "♥", "annotation": None,
                             "comments": [], "findings": []}
    assert data["score"]["score"] == [118, 64] and data["result_matches"] is True


# --- the taking or auction, step by step ------------------------------------------

@pytest.fixture(scope="module")
def coinche() -> Timeline:
    return timeline_of("09-coinche-surcoinche.belote")


@pytest.fixture(scope="module")
def comments() -> Timeline:
    return timeline_of("13-comments.belote")


def test_each_call_is_a_step_with_the_contract_standing_after_it(coinche):
    assert coinche.play_start == 11 and coinche.last == 44
    assert [s.kind for s in coinche.steps[:13]] == [DEAL] + [CALL] * 11 + [CARD]
    assert coinche.call_steps == coinche.steps[1:12]
    assert [(s.index, s.call.number, str(s.call.seat), str(s.call.call)) for s in coinche.call_steps] == [
        (1, 1, "W", "pass"), (2, 2, "S", "80TA"), (3, 3, "E", "90C"), (4, 4, "N", "pass"), (5, 5, "W", "pass"),
        (6, 6, "S", "100TA"), (7, 7, "E", "110C"), (8, 8, "N", "coinche"), (9, 9, "W", "pass"),
        (10, 10, "S", "pass"), (11, 11, "E", "surcoinche")]
    assert [str(s.contract) if s.contract else None for s in coinche.steps[:12]] == [
        None, None, "80TA by S", "90C by E", "90C by E", "90C by E", "100TA by S", "110C by E",
        "110C coinche by E", "110C coinche by E", "110C coinche by E", "110C surcoinche by E"]
    assert all(str(s.contract) == "110C surcoinche by E" for s in coinche.steps[12:])
    assert str(coinche.contract) == "110C surcoinche by E"
    assert coinche.steps[11].call.annotation == "!?"
    assert coinche.steps[11].label() == "Call 11: East says surcoinche"
    assert coinche.steps[0].label() == "The deal, before the first call"
    assert coinche.steps[12].label() == "Trick 1, card 1: West plays 9♠"
    assert coinche.steps[12].card.card == Card.parse("9S") and coinche.card_step(1, 1) == 12


def test_turns_at_the_call_steps(coinche):
    # dealer North, counter-clockwise: West speaks first, and West leads after the last call
    assert [s.turn for s in coinche.steps[:13]] == [
        Seat.WEST, Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST, Seat.SOUTH, Seat.EAST, Seat.NORTH,
        Seat.WEST, Seat.SOUTH, Seat.EAST, Seat.WEST, Seat.SOUTH]
    assert coinche.speaking_order == (Seat.WEST, Seat.SOUTH, Seat.EAST, Seat.NORTH)
    assert coinche.calls_until(0) == () and coinche.calls_until(3) == coinche.calls[:3]
    assert coinche.calls_until(11) == coinche.calls and coinche.calls_until(30) == coinche.calls
    assert all(s.legal == () for s in coinche.steps[:11])  # nobody plays while the auction goes on
    assert all(s.hands == coinche.dealt for s in coinche.steps[:12])
    assert [h.cards for h in coinche.dealt] == [cards("KS TS KH TH 9H 7H QD 8C"), cards("QS 8S 7S AH AD JC 9C 7C"),
                                                cards("AS JS JH 8H TD 9D AC QC"), cards("9S QH KD JD 8D 7D KC TC")]
    assert timeline_of("05-belote-rebelote.belote").speaking_order == (Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST)
    assert timeline_of("01-classic-round1.belote").speaking_order != ()
    assert build_timeline(*_record_and_report(NO_CALLS)).speaking_order == ()


NO_CALLS = """[Dealer "W"]
[Variant "belote"]
hand N AS TS 8S AH JH 9H 7D 8C
hand E QS 9S KD JD TD AC 9C 7C
hand S KS JS 7S TH 8H 7H 9D KC
hand W KH QH AD QD 8D QC JC TC
play
1. S:9D E:TD N:7D W:8D
"""


def _record_and_report(text: str):
    record = parse_record(text)
    return record, validate(record)


def test_a_record_without_calls_has_no_call_step():
    timeline = build_timeline(*_record_and_report(NO_CALLS))  # no taking: no contract, nothing replayed
    assert timeline.play_start == 0 and timeline.calls == () and timeline.call_steps == ()
    assert [s.kind for s in timeline.steps] == [DEAL, END] and timeline.bidding is None
    assert timeline.card_step(1, 1) == 1 and timeline.trick_ends == ()
    assert timeline.steps[0].label() == "The deal, before the first card" and timeline.steps[0].turn is None
    assert timeline.next_trick(0) == 1 and timeline.previous_trick(1) == 0


def test_the_findings_of_an_illegal_call_are_on_its_step():
    bad = timeline_of("invalid/bid-not-higher.belote")
    assert bad.play_start == 7
    fourth = bad.steps[4]
    assert fourth.kind == CALL and fourth.call.number == 4 and str(fourth.call.call) == "90D"
    assert fourth.call.seat is Seat.WEST
    assert [(f.rule, f.location.line, f.location.column) for f in fourth.findings] == [("bid-not-higher", 23, 31)]
    assert fourth.illegal and fourth.call.findings == fourth.findings
    assert [s.index for s in bad.steps if s.illegal] == [4]
    assert bad.finding_steps() == (4,) and bad.next_finding(0) == 4 and bad.next_finding(4) is None
    closed = timeline_of("invalid/call-after-auction-closed.belote")
    assert [(s.index, s.kind, [f.rule for f in s.findings]) for s in closed.steps if s.findings] == \
        [(5, CALL, ["call-after-auction-closed"])]
    assert [(n.kind, n.about, n.text, n.seat) for n in closed.steps[5].notes] == \
        [("call", "North: pass", "un passe de trop", Seat.NORTH)]
    side = timeline_of("invalid/coinche-by-bidding-side.belote")
    assert [(s.index, [f.rule for f in s.findings]) for s in side.steps if s.findings] == \
        [(6, ["coinche-by-bidding-side"])]
    turned = timeline_of("invalid/taking-turned-suit.belote")
    assert [(s.index, [f.rule for f in s.findings]) for s in turned.steps if s.findings] == \
        [(5, ["taking-turned-suit"])]


# --- the record's comments, each at its step --------------------------------------

def test_each_comment_of_the_record_is_at_its_step(comments):
    assert comments.play_start == 2 and comments.last == 32 and comments.steps[31].kind == CLAIM
    notes = {s.index: [(n.kind, n.about, n.text, n.seat) for n in s.notes] for s in comments.steps if s.notes}
    entame = ("trick", "Trick 1", "entame", None)
    seventh = [("trick", "Trick 7", "comment before the cards", None), ("trick", "Trick 7", "end of the trick", None)]
    assert notes == {
        0: [("record", "The record", "Comments may go anywhere: after the tags, after a hand, the turned card, a call, "
                                     "an announcement, before a trick, after a card, at the end of a trick, after a "
                                     "claim.", None),
            ("record", "The record", "Deuxième commentaire d'en-tête.", None),
            ("hand", "North's hand", "main de Nord", Seat.NORTH),
            ("hand", "South's hand", "Sud", Seat.SOUTH),
            ("hand", "South's hand", "second comment on the same hand", Seat.SOUTH),
            ("turned", "The turned card", "la retourne", None)],
        1: [("call", "West: pass", "passe, trop court en atout ?", Seat.WEST)],
        2: [("call", "South: take", "prend", Seat.SOUTH)],
        3: [entame, ("card", "West: 10♠", "bonne entame / good lead", Seat.WEST)],
        4: [entame],
        5: [entame, ("announcement", "East announces a tierce", "annonce au premier pli", Seat.EAST)],
        6: [entame],
        9: [("card", "West: J♦", "a blunder", Seat.WEST)],
        18: [("card", "West: A♥", "discutable", Seat.WEST)],
        27: seventh, 28: seventh, 29: seventh, 30: seventh,
        31: [("claim", "The claim", "le reste est à nous / the rest is ours", Seat.EAST)],
    }
    assert comments.comments == ("Comments may go anywhere: after the tags, after a hand, the turned card, a call, an "
                                 "announcement, before a trick, after a card, at the end of a trick, after a claim.",
                                 "Deuxième commentaire d'en-tête.")
    assert [(c.number, c.annotation, c.comments) for c in comments.calls] == \
        [(1, "?!", ("passe, trop court en atout ?",)), (2, "!", ("prend",))]
    annotated = [(s.index, str(s.card.card), s.card.annotation) for s in comments.card_steps if s.card.annotation]
    assert annotated == [(3, "TS", "!"), (9, "JD", "??"), (12, "7C", "!!"), (18, "AH", "?")]
    json.dumps(comments.as_dict())
    assert comments.as_dict()["steps"][5]["notes"][1] == {"about": "East announces a tierce",
                                                           "text": "annonce au premier pli",
                                                           "kind": "announcement", "seat": "E"}


def test_announcements_are_made_with_the_first_card_and_shown_after_trick_1(comments):
    assert [(str(a.announcement.seat), [str(c) for c in a.announcement.cards], a.step, a.shown, a.valid)
            for a in comments.announcements] == [("E", ["9D", "8D", "7D"], 5, 6, True),
                                                 ("E", ["TC", "9C", "8C"], 5, 6, True)]
    assert comments.announced_by(4) == () and comments.announced_by(5) == comments.announcements
    assert comments.announced_by(32) == comments.announcements
    assert comments.announcements[0].announcement.annotation == "!"


# --- what the whole table knows ---------------------------------------------------

def changes(timeline: Timeline, what) -> list[tuple[int, list[str]]]:
    """(step, what(step)) at step 0 and at every step where it changes."""
    out: list[tuple[int, list[str]]] = []
    for s in timeline.steps:
        value = what(s)
        if not out or out[-1][1] != value:
            out.append((s.index, value))
    return out


def test_voids_are_the_suits_a_seat_did_not_follow(belote, comments):
    def voids(s):
        return [" ".join(str(suit) for suit in v) for v in s.voids]

    assert changes(belote, voids) == [
        (0, ["", "", "", ""]),
        (18, ["", "", "", "S"]),  # West trumps North's 10♠ with K♥
        (21, ["", "", "D", "S"]),  # South trumps West's A♦
        (23, ["D", "", "D", "S"]),
        (27, ["D", "H", "D", "S"]),  # East discards 7♣ on hearts
        (35, ["D", "S H", "D", "S"]),
        (39, ["D", "S H", "D", "S H"]),
    ]
    assert changes(comments, voids) == [
        (0, ["", "", "", ""]), (5, ["", "S", "", ""]), (12, ["", "S", "", "D"]), (13, ["", "S", "D", "D"]),
        (22, ["S", "S", "D", "D"]), (24, ["S D", "S", "D", "D"]), (28, ["S D", "S H", "D", "D"]),
        (30, ["S D", "S H", "D", "H D"]),
    ]
    assert belote.as_dict()["steps"][35]["voids"] == {"N": ["D"], "E": ["S", "H"], "S": ["D"], "W": ["S"]}


def test_public_cards_the_turned_card_the_melds_and_belote(belote, comments):
    def public(s):
        return [" ".join(str(c) for c in h.public) for h in s.hands]

    # the turned 8♠ is North's from its take (the last call) until it plays it; West's Q♥ is
    # known from its belote (K♥) to its rebelote
    assert changes(belote, public) == [
        (0, ["", "", "", ""]), (7, ["8S", "", "", ""]), (18, ["8S", "", "", "QH"]), (25, ["8S", "", "", ""]),
        (32, ["", "", "", ""])]
    # South takes J♣ at call 2; East's two tierces are shown at the end of trick 1 (10♣ already
    # played); North says belote with Q♣: K♣ known until played
    assert changes(comments, public) == [
        (0, ["", "", "", ""]), (2, ["", "", "JC", ""]), (6, ["", "9D 8D 7D 9C 8C", "JC", ""]),
        (7, ["", "8D 7D 9C 8C", "JC", ""]), (21, ["", "8D 7D 8C", "JC", ""]),
        (22, ["KC", "8D 7D 8C", "JC", ""]), (23, ["KC", "7D 8C", "JC", ""]), (24, ["", "7D 8C", "JC", ""]),
        (26, ["", "7D 8C", "", ""]), (28, ["", "7D", "", ""])]
    north = belote.steps[12].hand(Seat.NORTH)
    assert north.dealt == cards("AS TS 8S AH JH 9H 7D 8C") and north.played == cards("7D")
    assert north.cards == cards("AS TS 8S AH JH 9H 8C") and north.public == cards("8S")
    assert belote.steps[39].hand(Seat.WEST).played == cards("8D JC KH AD QH TC QD QC")
    # no public card in a coinche auction: no turned card
    assert all(not h.public for s in timeline_of("09-coinche-surcoinche.belote").steps for h in s.hands)


def test_legal_cards_of_the_seat_to_play(belote, comments):
    def legal(timeline, index):
        return timeline.steps[index].legal

    assert all(legal(belote, i) == () for i in range(7))  # the taking: nothing to play yet
    assert legal(belote, 7) == cards("KS JS 7S TH 8H 7H 9D KC")  # South leads: its whole hand
    assert legal(belote, 8) == cards("KD JD TD")  # East follows diamonds
    assert legal(belote, 9) == cards("7D")
    assert legal(belote, 17) == cards("KH QH")  # West, out of spades, must trump
    assert legal(belote, 22) == cards("AS 8S AH JH 9H")  # North, out of diamonds, its partner trumped
    assert legal(belote, 38) == cards("QC") and legal(belote, 39) == () and legal(belote, 40) == ()
    assert legal(comments, 2) == cards("AS JS TS 8S AH 8H JD 7C")  # West leads after the take
    assert legal(comments, 4) == cards("TH KD 9D 8D 7D TC 9C 8C")  # East: its partner's 10♠ wins
    assert legal(comments, 12) == cards("AC JC")  # South must overtrump West's 7♣
    assert legal(comments, 30) == cards("7D") and legal(comments, 31) == () and legal(comments, 32) == ()
    hidden = build_timeline(*_record_and_report(HIDDEN))
    assert hidden.steps[3].turn is Seat.EAST and hidden.steps[3].legal == ()  # East's hand is not known
    assert hidden.steps[4].turn is Seat.NORTH and hidden.steps[4].legal == cards("JH 9H 7H")


def test_a_seat_shown_out_of_a_suit_holds_none_of_it():
    """Without revokes, and where a trump may not replace the suit led, a void is a void."""
    checked = 0
    for path in sorted(SAMPLES.glob("*.belote")):
        for parsed in parse(path.read_text(encoding="utf-8")):
            report = validate(parsed, repair=False)
            if parsed.record is None or not report.ok or report.rules is None or report.rules.follow_or_trump:
                continue
            timeline = build_timeline(parsed.record, report)
            for s in timeline.steps:
                for h in s.hands:
                    held = {c.suit for c in h.cards}
                    assert not held & set(s.voids[h.seat.index]), (path.name, s.index, str(h.seat))
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize("name, index, step, seat", [("19-club-classic.belote", 0, 4, Seat.EAST),
                                                     ("19-club-classic.belote", 1, 25, Seat.EAST),
                                                     ("21-club-coinche.belote", 0, 21, Seat.NORTH)])
def test_a_trump_played_instead_of_the_suit_led_shows_no_void(name, index, step, seat):
    timeline = timeline_of(name, index)
    played = timeline.steps[step]
    assert played.card.seat is seat and played.card.card.suit is timeline.contract.trump  # a trump...
    assert played.trick.plays[0].card.suit in {c.suit for c in played.hand(seat).cards}  # ...holding the suit led
    assert played.voids[seat.index] == ()


# --- every record, however broken, gets a timeline ------------------------------

def test_every_sample_and_invalid_sample_builds():
    for path in sorted(SAMPLES.glob("*.belote")) + sorted((SAMPLES / "invalid").glob("*.belote")):
        for parsed in parse(path.read_text(encoding="utf-8")):
            if parsed.record is None or parsed.errors:
                continue
            report = validate(parsed, repair=False)
            timeline = build_timeline(parsed.record, report)
            check_invariants(timeline, report)


def check_invariants(timeline: Timeline, report) -> None:
    steps = timeline.steps
    assert steps[0].kind == DEAL and steps[-1].kind == END
    assert [s.index for s in steps] == list(range(len(steps)))
    assert sum(len(s.findings) for s in steps) == len(report.findings)  # each finding on exactly one step
    calls = [s.index for s in steps if s.kind == CALL]
    assert calls == list(range(1, timeline.play_start + 1)) and len(calls) == len(timeline.calls)
    assert [s.call for s in steps if s.kind == CALL] == list(timeline.calls)
    assert all([h.cards for h in s.hands] == [h.cards for h in steps[0].hands]
               for s in steps[:timeline.play_start + 1])  # nothing is played during the calls
    held = [sum(h.size for h in s.hands) for s in steps if s.kind in (DEAL, CALL, CARD)]
    assert all(a - b in (0, 1) for a, b in zip(held, held[1:]))  # a card leaves at most one hand
    for s in steps:
        if s.kind == CARD:
            assert len(s.tricks) == s.card.trick - (0 if s.trick.complete else 1)
            assert s.trick.plays[-1] == s.card
            assert timeline.card_step(s.card.trick, s.card.position) == s.index
        if s.turn is not None and s.legal:
            hand_of = s.hand(s.turn)
            assert set(s.legal) <= set(hand_of.cards)  # legal cards are held cards of the seat to play
        for h in s.hands:
            assert set(h.public) <= set(h.cards) and set(h.played).isdisjoint(h.cards)
        assert all(len(v) == len(set(v)) for v in s.voids)
        assert sum(s.tricks_won) == len(s.tricks) or s.kind in (CLAIM, END)
    assert timeline.trick_ends == tuple(s.index for s in steps if s.kind == CARD and s.trick.complete)
    json.dumps(timeline.as_dict())


def mutated(rng, record):
    """A generated record broken at random: cards swapped or unknown, seats wrong, hands
    hidden, tricks cut, a claim added."""
    import dataclasses

    tricks = [list(t.plays) for t in record.tricks]
    hands = list(record.hands)
    for _ in range(rng.randint(1, 4)):
        what = rng.randrange(6)
        if what == 0 and tricks:
            t = rng.randrange(len(tricks))
            p = rng.randrange(len(tricks[t]))
            tricks[t][p] = dataclasses.replace(tricks[t][p], card=rng.choice([None, Card.from_index(rng.randrange(32))]))
        elif what == 1 and tricks:
            t = rng.randrange(len(tricks))
            p = rng.randrange(len(tricks[t]))
            tricks[t][p] = dataclasses.replace(tricks[t][p], seat=rng.choice(list(Seat)))
        elif what == 2 and hands:
            i = rng.randrange(len(hands))
            hands[i] = dataclasses.replace(hands[i], cards=None)
        elif what == 3 and tricks:
            cut = rng.randrange(len(tricks) * 4)
            tricks = [t for t in tricks[:cut // 4]] + ([tricks[cut // 4][:cut % 4]] if cut % 4 else [])
        elif what == 4 and tricks:
            tricks = tricks[:rng.randint(5, 8)]  # late claims: the claim check stays small
            record = dataclasses.replace(record, claim=Claim(rng.choice(list(Seat))))
        elif what == 5 and tricks:
            t = rng.randrange(len(tricks))
            tricks[t] = tricks[t] + [tricks[t][0]]  # a fifth card
    built = tuple(dataclasses.replace(trick, plays=tuple(plays)) for trick, plays in zip(record.tricks, tricks))
    return dataclasses.replace(record, hands=tuple(hands), tricks=built)


def test_broken_records_of_every_profile_still_build():
    import random

    from replayer.engine.generator import generate_record
    from replayer.engine.rules import PROFILES, Rules

    rng = random.Random(2026)
    profiles = [Rules.parse(name) for name in PROFILES]
    for i in range(150):
        rules = profiles[i % len(profiles)]
        record = generate_record(rng, rules, Seat.NORTH if i % 2 else Seat.EAST)
        broken = mutated(rng, record) if i % 6 else record
        report = validate(broken, repair=False)  # repair suggestions are slow and not the point here
        check_invariants(build_timeline(broken, report), report)
