"""The taking and the auction as the seed pages (../shared/seeds/000, 002, 003, 004) write them:
each test names the page and the sentence it proves (issue 11, items 3, 4, 7, 9, 12, 13)."""

from __future__ import annotations

import random

import pytest

from notation.values import COINCHE, PASS, SURCOINCHE, Call, CallKind, Card, Denomination, Seat
from replayer.engine.bidding import (AuctionClosedError, AuctionState, IllegalCallError, TakingState, bids_above,
                                     dealer_of_first_speaker, first_speaker_of)
from replayer.engine.contract import Contract, contract_of
from replayer.engine.generator import generate_deal
from replayer.engine.rules import Rules
from replayer.engine.scoring import FinishedDeal, Outcome, score_deal

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
# Dealer E and ccw play: N speaks first, then W, S, E (the seats below are written in that order).
NAMU_AUCTION = "ffb-coinche; coinche_right_after_bid=true; surcoinche_right_after_coinche=true; " \
               "surcoinche_closes=false; decoincher=true"
CAPOT_BELOTES = "ffb-coinche; capot_value=500; capot_belote=750; generale=1000; generale_belote=1500"


def replay(rules: str, said: str, dealer: Seat = E) -> AuctionState:
    """The auction of ``said`` (``N:80H W:pass ...``), each call checked."""
    state = AuctionState(Rules.parse(rules), dealer)
    for word in said.split():
        seat, _, call = word.partition(":")
        state.push(Call.parse(call), Seat.parse(seat))
    return state


def refused(rules: str, said: str, word: str, dealer: Seat = E) -> str:
    """The rule id ``word`` breaks after ``said``."""
    state = replay(rules, said, dealer)
    seat, _, call = word.partition(":")
    problem = state.explain(Call.parse(call), Seat.parse(seat))
    assert problem is not None
    return problem.rule


# --- item 3: a coinche only on the bid just made ---------------------------------------------

def test_000_coinche_only_on_the_bid_just_made():
    """000 (쿠앙슈): "경매에서 바로 이전 플레이어(상대 팀)가 내건 공약에 대해서만 쿠앙슈를 선언할 수 있다" —
    a coinche only on the bid just made: `N:80H E:pass S:pass W:coinche` is refused."""
    rules = "ffb-coinche; coinche_right_after_bid=true"
    assert refused(rules, "N:80H W:pass S:pass", "E:coinche") == "auction.coinche-late"
    state = replay(rules, "N:80H W:pass S:pass")
    problem = state.explain(COINCHE, E)
    assert problem.message == ("E cannot call coinche: a coinche is made on the bid just made, right after it "
                               "(coinche_right_after_bid), and 2 call(s) followed 80H by N")
    assert [str(c) for c in state.legal_calls()][:2] == ["pass", "90S"]
    state = replay(rules, "N:80H W:coinche S:pass E:pass N:pass")  # the player right after the bidder
    assert state.is_over and state.contract == contract_of(N, Denomination.HEARTS, 80, doubling=1)


def test_coinche_any_time_by_default():
    """The default keeps today's rule (FFB): an opponent may coinche the standing bid later."""
    state = replay("ffb-coinche", "N:80H W:pass S:pass E:coinche N:pass W:pass S:pass")
    assert state.contract.doubling == 1


def test_000_coinche_just_made_out_of_turn():
    """000 with coinche_out_of_turn: an interjection is still made on the bid just made only."""
    rules = "ffb-coinche; coinche_right_after_bid=true; coinche_out_of_turn=true"
    assert replay(rules, "N:80H").interjectors() == [E]  # W is in turn; E interjects
    assert replay(rules, "N:80H W:pass").interjectors() == []


# --- item 4: surcoinche only right after the coinche; a later bid cancels it -----------------

def test_000_surcoinche_only_right_after_the_coinche():
    """000 (쉬르쿠앙슈): "바로 이전 플레이어가 쿠앙슈를 선언하고 바로 다음에 선언할 수 있다" — a
    surcoinche two passes after the coinche is refused; right after it, it stands."""
    rules = "ffb-coinche; surcoinche_right_after_coinche=true"
    assert refused(rules, "N:80H W:coinche S:pass E:pass", "N:surcoinche") == "auction.surcoinche-late"
    state = replay(rules, "N:80H W:coinche S:surcoinche")
    assert state.is_over and state.contract.doubling == 2


def test_000_a_bid_after_the_surcoinche_cancels_it():
    """000: "쉬르쿠앙슈 선언 후 누군가가 다른 공약을 선언하면 무효화된다" (and "공약 선언 후, 나머지 3명이
    전원 패스하면 마지막으로 선언된 공약이 낙찰") — the auction goes on after a surcoinche; a higher bid
    cancels coinche and surcoinche and stands undoubled; three passes close it."""
    state = replay(NAMU_AUCTION, "N:80H W:coinche S:surcoinche")
    assert not state.is_over and state.turn is E
    assert [str(c) for c in state.legal_calls()][:3] == ["pass", "90S", "90H"]
    state.push(Call.parse("90S"), E)
    assert state.contract == contract_of(E, Denomination.SPADES, 90)
    for seat in (N, W, S):
        state.push(PASS, seat)
    assert state.is_over and state.contract == contract_of(E, Denomination.SPADES, 90)


def test_000_a_surcoinche_stands_after_three_passes():
    """000: with no later bid, three passes close the auction on the surcoinched bid."""
    state = replay(NAMU_AUCTION, "N:80H W:coinche S:surcoinche E:pass N:pass")
    assert not state.is_over
    state.push(PASS, W)
    assert state.is_over and state.contract == contract_of(N, Denomination.HEARTS, 80, doubling=2)


def test_surcoinche_closes_by_default():
    """Default: a surcoinche ends the auction (a bid after it is `auction.closed`)."""
    assert refused("ffb-coinche; decoincher=true", "N:80H W:coinche S:surcoinche", "E:90S") == "auction.closed"


# --- item 7: the auction ends at a coinche -------------------------------------------------

def test_004_the_auction_ends_at_a_coinche_made_by_anyone():
    """004: "누구든지 차례와 무관하게 퀘시(Coinche)를 선언할 수 있다 ... 경매는 즉시 종료되고" — a coinche,
    out of turn by an opponent, ends the auction at once."""
    state = replay("ffb-coinche; coinche_closes=true; coinche_out_of_turn=true; surcoinche=false", "N:80H E:coinche")
    assert state.is_over and state.contract == contract_of(N, Denomination.HEARTS, 80, doubling=1)
    assert state.answerers() == [] and state.legal_calls() == []
    with pytest.raises(AuctionClosedError):
        state.push(SURCOINCHE, S)


def test_003_the_coinche_ends_the_bidding_but_may_be_surcoinched():
    """003 (5.4): "Coinche를 선언할 수 있는데 공약을 더이상 걸 수 없고 그 시점에서 바로 끝난다. 이때 공약을
    건 플레이어의 팀원이 ... Surcoinche를 선언할 수 있다" — the auction is over at the coinche; the
    bidding side may still answer it with a surcoinche, as the next call, and nothing else."""
    rules = "ffb-coinche; coinche_closes=true"
    state = replay(rules, "N:80H W:pass S:pass E:coinche")
    assert state.is_over and state.contract.doubling == 1 and state.answerers() == [N, S]
    assert state.legal_calls() == [SURCOINCHE]
    assert state.explain(SURCOINCHE, W).rule == "auction.surcoinche-by-defence"
    assert state.explain(PASS, N).rule == "auction.closed"
    state.push(SURCOINCHE, N)
    assert state.contract.doubling == 2 and state.answerers() == [] and state.legal_calls() == []
    assert state.explain(SURCOINCHE, S).rule == "auction.closed"
    late = replay(rules, "N:80H W:pass S:pass E:coinche")
    late.push_unchecked(PASS, N)  # any other call after the close ends the answer
    assert late.explain(SURCOINCHE, S).rule == "auction.closed"
    assert len(late) == 5 and late.contract.doubling == 1


def test_coinche_closes_is_undone_by_pop():
    """A take-back replays the calls: the answer is open again after the coinche."""
    state = replay("ffb-coinche; coinche_closes=true", "N:80H W:coinche S:surcoinche")
    state.pop()
    assert state.contract.doubling == 1 and state.answerers() == [N, S]


# --- item 9: capot belote and générale belote ------------------------------------------------

def test_003_capot_belote_and_generale_belote_are_bids_above_capot():
    """003 (5.4): "Capot Belote도 추가하는 경우도 있다. 공약을 걸때에는 Capot보다 높으며" and "간혹
    Générale, Générale Belote도 추가" — capot < capot belote < générale < générale belote."""
    rules = Rules.parse(CAPOT_BELOTES)
    top = [str(c) for c in bids_above(rules, 0) if c.value is None]
    assert top == ["capotS", "capotH", "capotD", "capotC", "capotSA", "capotTA",
                   "capotbeloteS", "capotbeloteH", "capotbeloteD", "capotbeloteC", "capotbeloteTA",
                   "generaleS", "generaleH", "generaleD", "generaleC", "generaleSA", "generaleTA",
                   "generalebeloteS", "generalebeloteH", "generalebeloteD", "generalebeloteC", "generalebeloteTA"]
    state = replay(CAPOT_BELOTES, "N:capotH W:capotbeloteS S:generaleH E:generalebeloteTA N:pass W:pass S:pass")
    assert state.contract == Contract(E, Denomination.ALL_TRUMPS, None, False, True, 0, True)
    assert str(state.contract) == "generalebeloteTA by E" and state.contract.contract_value(rules) == 1500
    assert refused(CAPOT_BELOTES, "N:capotbeloteH", "W:capotbeloteS") == "auction.bid-not-higher"
    assert refused(CAPOT_BELOTES, "N:generaleH", "W:capotbeloteS") == "auction.bid-not-higher"


@pytest.mark.parametrize("rules, call, rule, message", [
    ("ffb-coinche", "capotbeloteH", "auction.capot-belote-off",
     "N cannot call capotbeloteH: capot belote is not played (capot_belote=0)"),
    ("ffb-coinche", "generalebeloteH", "auction.generale-belote-off",
     "N cannot call generalebeloteH: générale belote is not played (generale_belote=0)"),
    (CAPOT_BELOTES, "capotbeloteSA", "auction.belote-bid-no-trump",
     "N cannot call capotbeloteSA: there is no belote to say at SA (a belote is the K and Q of trump)"),
    (CAPOT_BELOTES + "; belote_at_ta=false", "generalebeloteTA", "auction.belote-bid-no-trump",
     "N cannot call generalebeloteTA: there is no belote to say at TA (a belote is the K and Q of trump)"),
    ("ffb-contree; capot_belote=750", "capotbeloteTA", "auction.denomination",
     "N cannot call capotbeloteTA: SA and TA are not played (sa_ta=false)"),
])
def test_belote_bids_that_are_not_played(rules, call, rule, message):
    """003 offers capot belote and générale belote as additions ("추가하는 경우도"): off by default,
    and never where no belote can be held (SA; 004 "블로트를 선언할 수 없다" at TA)."""
    problem = replay(rules, "").explain(Call.parse(call), N)
    assert (problem.rule, problem.message) == (rule, message)
    with pytest.raises(IllegalCallError):
        replay(rules, "").push(Call.parse(call), N)


def _deal(contract: Contract, tricks: tuple[int, int, int, int], belote: tuple[int, int],
          cards: tuple[int, int] = (152, 0)) -> FinishedDeal:
    last = None if tricks == (0, 0, 0, 0) else (contract.taker.team if sum(tricks[i] for i in (
        contract.taker.index & 1, (contract.taker.index & 1) + 2)) == 8 else contract.taker.team.other)
    return FinishedDeal(contract, cards, last, tricks, belote)


@pytest.mark.parametrize("tricks, belote, made", [
    ((4, 0, 4, 0), (20, 0), True),  # capot of N-S with their belote
    ((4, 0, 4, 0), (0, 20), False),  # capot, but the belote is the defence's
    ((4, 0, 4, 0), (0, 0), False),  # capot without belote
    ((4, 0, 3, 1), (20, 0), False),  # one trick lost
])
def test_003_capot_belote_needs_every_trick_and_the_belote(tricks, belote, made):
    """003: "Capot Belote ... 이쪽은 Capot에 Belote도 선언" — all 8 tricks to the takers and a belote said
    by them."""
    contract = contract_of(N, Denomination.HEARTS, None, True, False, 0, True)
    score = score_deal(_deal(contract, tricks, belote, (152, 0) if tricks[1] + tricks[3] == 0 else (140, 12)),
                       Rules.parse(CAPOT_BELOTES))
    assert (score.outcome is Outcome.MADE) is made


@pytest.mark.parametrize("tricks, made", [((8, 0, 0, 0), True), ((7, 0, 1, 0), False)])
def test_003_generale_belote_needs_the_bidder_alone_and_the_belote(tricks, made):
    """003: "Générale Belote ... 공격측이 아닌 공약을 건 사람이 독식을 해야 성공한다. 다른 플레이어가 1장이라도
    먹으면 실패" — the bidder alone takes the 8 tricks (the partner's one trick fails it)."""
    contract = contract_of(N, Denomination.HEARTS, None, False, True, 0, True)
    score = score_deal(_deal(contract, tricks, (20, 0)), Rules.parse(CAPOT_BELOTES))
    assert (score.outcome is Outcome.MADE) is made


@pytest.mark.parametrize("capot, generale, tricks, belote, doubling, scores, formula", [
    # made capot belote: 750 + the takers' belote, the defence nothing
    (True, False, (4, 0, 4, 0), (20, 0), 0, (770, 0),
     "takers 750 x 1 + melds 0 + belote 20, defenders melds 0 + belote 0"),
    # coinched and made: "공약만 2배"
    (True, False, (4, 0, 4, 0), (20, 0), 1, (1520, 0),
     "takers 750 x 2 + melds 0 + belote 20, defenders melds 0 + belote 0"),
    # failed générale belote: "방어측은 500+선언" with 003's 1500, the takers keep their belote
    (False, True, (7, 0, 1, 0), (20, 0), 0, (20, 1500),
     "defenders 1500 x 1 + melds 0 + belote 0, takers 20"),
])
def test_003_capot_contract_scores_its_value(capot, generale, tricks, belote, doubling, scores, formula):
    """003: "성공시: 공격측에 500+선언, 방어측은 선언만 / 실패시: 공격측은 보통 공약 실패했을때처럼, 방어측은
    500+선언 / Capot Belote는 500이 아니라 750. Générale은 보통 1000, Générale Belote은 1500" —
    capot_contract_score=value: the value in place of the card points."""
    contract = contract_of(N, Denomination.HEARTS, None, capot, generale, doubling, True)
    rules = Rules.parse(CAPOT_BELOTES + "; capot_contract_score=value; multiplier_scope=contract_only")
    score = score_deal(_deal(contract, tricks, belote, (152, 0) if tricks[1] + tricks[3] == 0 else (140, 12)),
                       rules)
    assert score.scores == scores and score.formula == formula


def test_capot_belote_scores_like_a_capot_by_default():
    """capot_contract_score=cards_and_value (default): C = capot_belote, the rest as any contract."""
    contract = contract_of(N, Denomination.HEARTS, None, True, False, 0, True)
    score = score_deal(_deal(contract, (4, 0, 4, 0), (20, 0)), Rules.parse(CAPOT_BELOTES))
    assert score.scores == (270 + 750, 0) and score.contract_value == 750  # 252 + 20 rounded (ffb-coinche)


def test_the_generator_bids_capot_belote_and_its_deals_score():
    """`generate` with the 003 calls: capot belote bids appear, in a suit where the bidder holds the belote."""
    rules = Rules.parse(CAPOT_BELOTES + "; capot_contract_score=value")
    rng = random.Random(3)
    seen = []
    for _ in range(3000):
        deal = generate_deal(rng, rules, N, redeal_void=True)
        kinds = {call.kind for _, call in deal.calls}
        if kinds & {CallKind.CAPOT_BELOTE, CallKind.GENERALE_BELOTE}:
            seen.append(deal)
    assert seen
    for deal in seen:
        assert deal.contract.belote and deal.score.contract_value in (750, 1500)


# --- item 12: who speaks first ---------------------------------------------------------------

@pytest.mark.parametrize("rules, dealer, first", [
    ("ffb; direction=cw; first_speaker=dealer_left", N, E),  # 002 "딜러 왼쪽의 플레이어"
    ("ffb; direction=ccw; first_speaker=dealer_left", N, E),  # the left whatever the direction
    ("ffb-coinche; direction=cw; first_speaker=dealer_right", N, W),  # 004 "딜러의 오른쪽 사람부터"
    ("ffb-coinche; direction=ccw; first_speaker=dealer_right", S, E),
    ("ffb-coinche; direction=cw; first_speaker=dealer", W, W),  # 004 "딜러부터 경매를 시작한다"; 000
    ("ffb; direction=cw; first_speaker=dealer_next", S, W),  # 003 "딜러 다음 순서의 플레이어부터"
])
def test_first_speaker_readings(rules, dealer, first):
    """002 "딜러 왼쪽의 플레이어는 그 카드를 으뜸패로 쓸지 결정", 003 "딜러 다음 순서의 플레이어부터", 004
    "딜러부터 경매를 시작한다" beside "딜러의 오른쪽 사람부터 차례를 진행한다": each reading is a value."""
    parsed = Rules.parse(rules)
    assert first_speaker_of(parsed, dealer) is first
    assert dealer_of_first_speaker(parsed, first) is dealer
    state = (AuctionState(parsed, dealer) if parsed.is_coinche else TakingState(parsed, dealer, Card.parse("7H")))
    assert state.turn is first
    order = [state.turn]
    for _ in range(3):
        state.push(PASS)
        order.append(state.turn)
    step = [first]
    for _ in range(3):
        step.append(step[-1].next(parsed.clockwise))
    assert order == step  # then round the table in the direction of play


def test_004_the_dealer_speaks_first():
    """004, first reading: "딜러부터 경매를 시작한다" — first_speaker=dealer; the auction then goes
    round in the direction of play (cw: the dealer's left next)."""
    rules = Rules.parse("ffb-coinche; direction=cw; first_speaker=dealer; first_leader=dealer")
    state = AuctionState(rules, S)
    assert state.turn is S
    state.push(PASS)
    assert state.turn is W


# --- item 13: 004's bids from 82 in any step of 10 or more ------------------------------------

def test_004_bids_start_at_82_in_any_step_of_at_least_10():
    """004: "최소 숫자는 82부터 가능하다" and "“115 ♡”와 같이 선언할 수 있다(선언 숫자는 최소 10 이상은
    커져야 하며 문양을 바꾸어도 상관없다)" — bid_min=82, bid_step=10, bid_values=any_step."""
    rules = "ffb-coinche; bid_min=82; bid_step=10; bid_values=any_step"
    assert refused(rules, "", "N:80H") == "auction.bid-value"
    state = replay(rules, "N:82C W:100C S:115H")
    assert state.contract == contract_of(S, Denomination.HEARTS, 115)
    assert refused(rules, "N:82C W:100C S:115H", "E:124S") == "auction.bid-not-higher"
    assert replay(rules, "N:82C W:100C S:115H").is_legal(Call.parse("125S"), E)
    assert [c.value for c in bids_above(Rules.parse(rules), 0)[:6:4]] == [82, 82]


# --- the one rule, asked three ways, under the new options --------------------------------------

SEED_VARIANTS = [Rules.parse(text) for text in (
    NAMU_AUCTION, CAPOT_BELOTES + "; coinche_closes=true",
    "ffb-coinche; coinche_closes=true; coinche_out_of_turn=true; surcoinche=false; bid_min=82; bid_values=any_step",
    "ffb-coinche; coinche_right_after_bid=true; coinche_out_of_turn=true; first_speaker=dealer_right",
    CAPOT_BELOTES + "; belote_at_ta=false; surcoinche_closes=false; decoincher=true")]
SEED_PROBES = [Call.parse(word) for word in (
    "pass", "coinche", "surcoinche", "90H", "92S", "100TA", "capotH", "capotbeloteH", "capotbeloteSA",
    "capotbeloteTA", "generaleS", "generalebeloteC", "generalebeloteTA", "take", "H")]


@pytest.mark.parametrize("rules", SEED_VARIANTS, ids=str)
def test_explain_legal_calls_and_take_backs_agree(rules):
    """With the seed pages' options: ``explain`` allows a call exactly when ``legal_calls`` lists it,
    ``push`` refuses what it refuses, and ``push_unchecked`` then ``pop`` gives the state back."""
    from .test_bidding import snapshot

    rng = random.Random(str(rules))
    for _ in range(80):
        state = AuctionState(rules, rng.choice(list(Seat)))
        for _ in range(rng.randrange(1, 12)):
            legal = state.legal_calls()
            for call in SEED_PROBES + legal:
                assert (state.explain(call) is None) == (call in legal), (str(call), state.history)
            interject = state.interjectors() + state.answerers()
            call = rng.choice(legal) if legal and rng.random() < 0.8 else rng.choice(SEED_PROBES)
            seat = rng.choice(interject) if interject and rng.random() < 0.3 else state.turn
            before = snapshot(state)
            problem = state.explain(call, seat)
            if problem is None:
                state.push(call, seat)
            else:
                with pytest.raises(IllegalCallError if problem.rule not in (
                        "auction.closed", "auction.out-of-turn") else Exception):
                    state.push(call, seat)
                assert snapshot(state) == before
                state.push_unchecked(call, seat)
            after = snapshot(state)
            made = state.pop()
            assert snapshot(state) == before
            state.push_unchecked(made.call, made.seat)
            assert snapshot(state) == after
