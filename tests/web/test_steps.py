"""The steps of a replay (``replayer.web.steps``): the state of a deal at every step, with exact values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notation.values import Card, Seat
from notation.parser import parse, parse_record
from notation.record import Claim
from replayer.web.steps import CARD, CLAIM, DEAL, END, Timeline, build_timeline
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


def test_a_full_deal_has_the_deal_32_cards_and_the_end(belote):
    kinds = [step.kind for step in belote.steps]
    assert kinds == [DEAL] + [CARD] * 32 + [END]
    assert belote.last == 33
    assert belote.trick_ends == (4, 8, 12, 16, 20, 24, 28, 32)
    assert belote.dealer is Seat.WEST and belote.taker is Seat.NORTH
    assert str(belote.contract) == "H by N"
    assert belote.players == ("Anne Martin", "Bruno Lefèvre", "Claire Dubois", "Denis Moreau")


def test_step_zero_holds_the_hands_as_dealt_and_the_first_leader(belote):
    zero = belote.steps[0]
    assert hand(belote, 0, Seat.NORTH) == cards("AS TS 8S AH JH 9H 7D 8C")
    assert hand(belote, 0, Seat.WEST) == cards("KH QH AD QD 8D QC JC TC")
    assert zero.trick is None and zero.tricks == () and zero.points == (0, 0)
    assert zero.turn is Seat.SOUTH  # dealer West, play goes counter-clockwise


def test_remaining_hands_at_step_5(belote):
    assert hand(belote, 5, Seat.NORTH) == cards("AS TS 8S AH JH 9H 8C")
    assert hand(belote, 5, Seat.EAST) == cards("QS 9S KD JD 9C 7C")
    assert hand(belote, 5, Seat.SOUTH) == cards("KS JS 7S TH 8H 7H KC")
    assert hand(belote, 5, Seat.WEST) == cards("KH QH AD QD QC JC TC")
    step = belote.steps[5]
    assert (step.card.seat, step.card.card, step.card.trick, step.card.position) == \
        (Seat.EAST, Card.parse("AC"), 2, 1)
    assert step.trick.leader is Seat.EAST and step.trick.winner is Seat.EAST and not step.trick.complete
    assert step.turn is Seat.NORTH


def test_points_tricks_and_winners_as_the_play_goes(belote):
    assert belote.steps[4].points == (0, 10) and belote.steps[4].tricks_won == (0, 1)
    assert belote.steps[8].points == (0, 27)
    third = belote.steps[12].trick
    assert third.complete and third.winner is Seat.WEST and third.points == 17
    assert [t.winner for t in belote.steps[12].tricks] == [Seat.EAST, Seat.EAST, Seat.WEST]
    mid = belote.steps[10].trick  # North's 10♠ over East's Q♠
    assert mid.winner is Seat.NORTH and mid.points == 13 and len(mid.plays) == 2
    assert belote.steps[32].points == (108, 44) and belote.steps[32].tricks_won == (5, 3)


def test_belote_and_rebelote_are_on_their_cards(belote):
    said = [(s.index, s.card.card, s.card.declaration) for s in belote.steps if s.card and s.card.declaration]
    assert said == [(11, Card.parse("KH"), "belote"), (18, Card.parse("QH"), "rebelote")]


def test_the_end_carries_the_breakdown_against_the_recorded_score(belote):
    end = belote.steps[-1]
    assert end.kind == END and end.turn is None and end.findings == ()
    assert belote.score.scores == (118, 64) and belote.recorded == (118, 64)
    assert belote.result_matches is True


def test_an_illegal_play_is_on_its_step():
    revoke = timeline_of("invalid/revoke.belote")
    assert revoke.finding_steps() == (6,)
    step = revoke.steps[6]
    assert step.illegal and step.card.card == Card.parse("AD") and step.card.seat is Seat.WEST
    finding = step.findings[0]
    assert finding.rule == "must-follow" and finding.alternatives == ("7S",)
    assert "had to follow spades" in finding.message
    assert not any(s.illegal for s in revoke.steps if s.index != 6)
    assert revoke.next_finding(0) == 6 and revoke.next_finding(6) is None


def test_two_illegal_plays_and_plays_out_of_turn():
    two = timeline_of("invalid/two-illegal-plays.belote")
    assert two.finding_steps() == (12, 14)
    assert two.next_finding(12) == 14 and two.next_finding(14) == 12  # wraps to the first
    turn = timeline_of("invalid/play-out-of-turn.belote")
    assert [(s.index, [f.rule for f in s.findings]) for s in turn.steps if s.findings] == \
        [(10, ["play-out-of-turn"]), (11, ["play-out-of-turn"])]
    assert turn.steps[10].card.seat is Seat.WEST


def test_a_claim_step_takes_the_rest():
    claimed = timeline_of("14-partial.belote", 1)
    assert [s.kind for s in claimed.steps[-3:]] == [CARD, CLAIM, END]
    claim = claimed.steps[17]
    assert claim.points == (113, 39) and claim.tricks_won == (6, 2)
    assert claimed.claim is Seat.NORTH and claimed.score.scores == (123, 39)


def test_a_stopped_record_ends_after_its_last_card():
    stopped = timeline_of("14-partial.belote", 0)
    assert stopped.last == 13 and stopped.trick_ends == (4, 8, 12)
    end = stopped.steps[13]
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
    assert timeline.steps[1].hand(Seat.EAST).unknown == 7  # East led Q♥, one of its hidden cards
    assert hand(timeline, 1, Seat.NORTH) == cards("JH 9H 7H 9D JC TC 9C 8C")
    assert [s.kind for s in timeline.steps] == [DEAL] + [CARD] * 10 + [END]
    assert timeline.not_replayed == "2 card(s) from trick 3, card 3 on could not be replayed"
    assert timeline.steps[8].trick.winner is Seat.EAST and timeline.steps[8].trick.points == 38
    assert timeline.steps[8].points == (0, 51)  # 13 + 38: East-West took both tricks


def test_a_void_deal_has_the_deal_and_the_end():
    void = timeline_of("03-void-deal.belote")
    assert [s.kind for s in void.steps] == [DEAL, END]
    assert void.contract is None and void.steps[0].turn is None
    assert [h.size for h in void.steps[0].hands] == [5, 5, 5, 5]
    assert str(void.score.outcome) == "void"


def test_calls_and_announcements_carry_their_findings():
    auction = timeline_of("09-coinche-surcoinche.belote")
    assert auction.bidding == "auction"
    assert [(str(c.seat), str(c.call)) for c in auction.calls][-4:] == \
        [("N", "coinche"), ("W", "pass"), ("S", "pass"), ("E", "surcoinche")]
    bad = timeline_of("invalid/bid-not-higher.belote")
    assert [[f.rule for f in c.findings] for c in bad.calls][3] == ["bid-not-higher"]
    assert [f.rule for f in bad.steps[0].findings] == ["bid-not-higher"]
    melds = timeline_of("invalid/announcement-not-held.belote")
    assert [a.valid for a in melds.announcements] == [True, True, True, True, False]


def test_trick_jumps(belote):
    assert belote.next_trick(0) == 4 and belote.next_trick(4) == 8 and belote.next_trick(6) == 8
    assert belote.next_trick(32) == 33
    assert belote.previous_trick(8) == 4 and belote.previous_trick(6) == 4 and belote.previous_trick(3) == 0
    assert belote.clamp(-4) == 0 and belote.clamp(400) == 33


def test_as_dict_is_json_ready(belote):
    data = json.loads(json.dumps(belote.as_dict()))
    assert len(data["steps"]) == 34 and data["taker"] == "N" and data["trump"] == "H"
    five = data["steps"][5]
    assert five["card"] == {"seat": "E", "card": "AC", "trick": 2, "position": 1, "declaration": None,
                            "annotation": None, "comments": []}
    assert five["hands"][0] == {"seat": "N", "cards": ["AS", "TS", "8S", "AH", "JH", "9H", "8C"], "unknown": 0}
    assert data["steps"][12]["trick"]["winner"] == "W" and data["steps"][12]["points"] == [0, 44]
    assert data["score"]["score"] == [118, 64] and data["result_matches"] is True


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
    held = [sum(h.size for h in s.hands) for s in steps if s.kind in (DEAL, CARD)]
    assert all(a - b in (0, 1) for a, b in zip(held, held[1:]))  # a card leaves at most one hand
    for s in steps:
        if s.kind == CARD:
            assert len(s.tricks) == s.card.trick - (0 if s.trick.complete else 1)
            assert s.trick.plays[-1] == s.card
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
