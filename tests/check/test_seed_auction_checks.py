"""Records of the seed pages' auctions, validated (issue 11, items 3, 4, 7, 9, 12): each test names
the page (../shared/seeds/) and the sentence it proves; findings are exact, with their positions."""

from __future__ import annotations

import random

import pytest

from notation import parse, write_record
from notation.values import CallKind, Seat
from replayer.check import validate
from replayer.engine.generator import deal_record, generate_deal
from replayer.engine.rules import Rules

from .test_validator import COINCHE, check, edited, found

AUCTION = "auction W:pass S:80TA E:pass N:pass W:pass"


def test_004_a_record_ending_at_the_coinche_is_complete():
    """004: "누군가가 퀘시를 선언했다면 경매는 즉시 종료되고 딜러부터 게임을 진행한다" (003: "그 시점에서
    바로 끝난다") — with coinche_closes an auction ending `E:coinche` is over: no auction-incomplete."""
    text = edited(COINCHE, [(AUCTION, "auction W:pass S:80TA E:coinche"), ('"0-280"', '"0-540"')])
    assert found(check(edited(text, [('ffb-coinche"', 'ffb-coinche; coinche_closes=true"')]))) == set()
    assert found(check(text)) == {("auction-incomplete", "9:25")}  # today's rule: three passes needed


def test_003_a_surcoinche_may_answer_the_closing_coinche():
    """003: "이때 공약을 건 플레이어의 팀원이 ... Surcoinche를 선언할 수 있다" — the next call only; a
    pass after the closing coinche is a call after the close."""
    rules = [('ffb-coinche"', 'ffb-coinche; coinche_closes=true"')]
    text = edited(COINCHE, rules + [(AUCTION, "auction W:pass S:80TA E:coinche N:surcoinche"),
                                    ('"0-280"', '"0-1060"')])
    assert found(check(text)) == set()
    text = edited(COINCHE, rules + [(AUCTION, "auction W:pass S:80TA E:coinche N:pass"), ('"0-280"', '"0-540"')])
    report = check(text)
    assert found(report) == {("call-after-auction-closed", "9:35")}
    assert report.findings[0].message == "call 4: N cannot call pass: the auction is over"


def test_000_coinche_of_an_older_bid_is_reported_at_the_call():
    """000: "경매에서 바로 이전 플레이어(상대 팀)가 내건 공약에 대해서만 쿠앙슈를 선언할 수 있다"."""
    text = edited(COINCHE, [('ffb-coinche"', 'ffb-coinche; coinche_right_after_bid=true"'),
                            (AUCTION, "auction W:pass S:80TA E:pass N:pass W:coinche S:pass E:pass N:pass"),
                            ('"0-280"', '"0-540"')])
    report = check(text)
    assert found(report) == {("coinche-not-right-after-bid", "9:39")}
    (finding,) = report.findings
    assert finding.message == ("call 5: W cannot call coinche: a coinche is made on the bid just made, right after "
                               "it (coinche_right_after_bid), and 2 call(s) followed 80TA by S")
    assert finding.alternatives == ("pass", "90S", "90H", "90D", "90C", "90SA", "90TA", "100S", "100H", "100D",
                                    "100C", "100SA", "100TA", "110S", "110H", "110D", "110C", "110SA", "110TA",
                                    "120S", "120H", "120D", "120C", "120SA", "120TA", "130S", "130H", "130D",
                                    "130C", "130SA", "130TA", "140S", "140H", "140D", "140C", "140SA", "140TA",
                                    "150S", "150H", "150D", "150C", "150SA", "150TA", "160S", "160H", "160D",
                                    "160C", "160SA", "160TA", "capotS", "capotH", "capotD", "capotC", "capotSA",
                                    "capotTA")


def test_000_a_bid_after_the_surcoinche_is_no_call_after_the_close():
    """000: "쉬르쿠앙슈 선언 후 누군가가 다른 공약을 선언하면 무효화된다" — the auction goes on after the
    surcoinche, and a bid cancels it (today: `call-after-auction-closed` on every later call)."""
    namu = "ffb-coinche; decoincher=true; surcoinche_right_after_coinche=true; surcoinche_closes=false"
    text = edited(COINCHE, [(AUCTION, "auction W:pass S:80TA E:coinche N:surcoinche W:90TA S:pass E:pass N:pass"),
                            ('"0-280"', '"270-20"')])
    assert found(check(text)) == {("call-after-auction-closed", "9:48"), ("call-after-auction-closed", "9:55"),
                                  ("call-after-auction-closed", "9:62"), ("call-after-auction-closed", "9:69"),
                                  ("result-mismatch", "3:1")}
    report = check(edited(text, [('ffb-coinche"', f'{namu}"')]))
    assert found(report) == set()
    assert str(report.score.contract) == "90TA by W"  # undoubled


@pytest.mark.parametrize("rules, dealer, first_call, expected", [
    ("ffb-coinche; direction=cw; first_speaker=dealer_right", "N", "W:pass", set()),
    ("ffb-coinche; direction=cw; first_speaker=dealer_right", "N", "E:pass", {("wrong-first-speaker", "8:11")}),
])
def test_004_first_speaker_on_the_dealers_right(rules, dealer, first_call, expected):
    """004: "딜러의 오른쪽 사람부터 차례를 진행한다" — North deals, West (his right) speaks first."""
    text = ('[Dealer "N"]\n[Rules "' + rules + '"]\n\nhand N -\nhand E -\nhand S -\nhand W -\nauction '
            + first_call + "\n")
    report = check(text)
    assert {f for f in found(report) if f[0] == "wrong-first-speaker"} == expected
    if expected:
        assert [f.message for f in report.findings if f.rule == "wrong-first-speaker"] == [
            "call 1: East speaks first but the first speaker is West (dealer North, first_speaker=dealer_right)"]


def test_the_dealer_is_inferred_from_the_first_speaker():
    """Without a Dealer tag, the first call's seat gives the dealer whatever first_speaker says."""
    text = '[Rules "ffb-coinche; direction=cw; first_speaker=dealer_right"]\n\nauction W:pass\n'
    report = check(text)
    assert [f.message for f in report.findings if f.rule == "missing-dealer"] == [
        "no Dealer tag: dealer North, from the first call"]


@pytest.mark.parametrize("options, kinds", [
    ("capot_value=500; capot_belote=750; generale=1000; generale_belote=1500; capot_contract_score=value",
     {CallKind.CAPOT_BELOTE}),
    ("coinche_closes=true; coinche_out_of_turn=true; surcoinche=false", {CallKind.COINCHE}),
    ("coinche_closes=true", {CallKind.SURCOINCHE}),
    ("coinche_right_after_bid=true; surcoinche_right_after_coinche=true; surcoinche_closes=false; decoincher=true",
     {CallKind.SURCOINCHE}),
    ("direction=cw; first_speaker=dealer_right; bid_min=82; bid_values=any_step", {CallKind.BID}),
])
def test_generated_records_validate_clean(options, kinds):
    """`belote generate N --profile "ffb-coinche; <options>"`: every generated record validates clean,
    and the new calls appear in them."""
    rules = Rules.parse("ffb-coinche; " + options)
    rng = random.Random(11)
    seen: set[CallKind] = set()
    for number in range(10000):
        deal = generate_deal(rng, rules, list(Seat)[number % 4], redeal_void=True)
        called = {call.kind for _, call in deal.calls}
        if number >= 150 and not (called & kinds - seen):
            continue  # past the first 150, validate only the deals that show a new call
        seen |= called
        (result,) = list(parse(write_record(deal_record(deal))))
        report = validate(result.record)
        assert report.ok and not report.findings, [str(f) for f in report.findings]
        if kinds <= seen:
            break
    assert kinds <= seen
