"""The play duties of the four seed pages (shared/seeds/000, 002, 003, 004), read exactly:
each test quotes the sentence it proves and checks the exact set of legal cards, and the
duty (``Illegality.reason``) an illegal card breaks. Hearts are trump unless said; North leads.
The options of each page are those its profile sets (docs/seeds.md)."""

from __future__ import annotations

import random

import pytest

from notation.values import ALL_CARDS, PASS, SEATS, TAKE, Card, Denomination, Seat, Suit
from replayer.engine.bidding import TakingState, explain_illegal_call
from replayer.engine.contract import Contract
from replayer.engine.play import PlayState, explain_illegal
from replayer.engine.rules import Rules

N = Seat.NORTH
NAMU = Rules.parse("namu-classic")  # 000, classic Belote: the FFB duties
NAMU_COINCHE = Rules.parse("namu-coinche")  # 000, Coinche: the same, no duty to go over at TA
CLUB = Rules.parse("club-classic")  # 002
SATA = Rules.parse("sata-classic")  # 003
CLUB_COINCHE = Rules.parse("club-coinche")  # 004


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse(t) for t in text.split())


def after(rules: Rules, plays: str, hand: str, denomination: str = "H") -> PlayState:
    """North leads the first card of ``plays``, the next seats (in the rules' direction) play
    the others; the seat then in turn holds ``hand``."""
    step = 1 if rules.clockwise else 3
    seats = [SEATS[(N.index + step * i) % 4] for i in range(4)]
    played = plays.split()
    hands = {seat: cards(card) for seat, card in zip(seats, played)}
    hands[seats[len(played)]] = cards(hand)
    state = PlayState(hands, Contract(N, Denomination.parse(denomination)), rules, leader=N)
    for card in played:
        state.push(Card.parse(card))
    assert state.turn is seats[len(played)]
    return state


def reasons(state: PlayState) -> dict[str, str]:
    """Each held card that may not be played, and the duty it breaks."""
    hand = state.hand(state.turn)  # type: ignore[arg-type]
    return {str(card): explain_illegal(state, card).reason for card in sorted(hand - state.legal_cards())}


# --- 000, classic (4.1.3), and Coinche (6.1.3) ------------------------------------------

@pytest.mark.parametrize("plays, hand, legal, illegal", [
    # "선도패가 으뜸패일 경우, 바닥의 으뜸패 중 가장 큰 숫자보다 더 강한 으뜸패를 내야 한다. 없다면 으뜸패 중
    # 아무거나 내도 된다." (trumps led: go over the highest trump; none higher: any trump)
    ("9H", "JH 7H AS", "JH", {"7H": "must-overtrump-in-trump-lead", "AS": "must-follow"}),
    ("JH", "9H 7H AS", "9H 7H", {"AS": "must-follow"}),
    # "선도패와 같은 문양의 카드가 없지만 파트너가 낸 카드가 트릭에서 가장 강한 카드인 경우, 아무거나 내도 된다."
    ("AS 7S", "7H AC", "7H AC", {}),
    # "바닥에 이미 으뜸패가 1장 이상 있다면, … 더 강한 으뜸패를 내야 한다." (overtrump an opponent)
    ("AS 9H", "JH 7H AC", "JH", {"7H": "must-overtrump", "AC": "must-overtrump"}),
    # "… 더 강한 으뜸패가 없다면 으뜸패 중 아무거나 내도 된다." (cannot overtrump: any trump)
    ("AS JH", "7H AC", "7H", {"AC": "must-undertrump"}),
    # "선도패와 같은 문양의 카드, 으뜸패가 없으면, 아무 카드를 내도 된다."
    ("AS", "AC 8D", "AC 8D", {}),
])
def test_000_classic_duties(plays, hand, legal, illegal):
    """000 (4.1.3, classic Belote): follow, go over in trumps, trump unless the partner is
    master, overtrump, else any trump; played clockwise."""
    state = after(NAMU, plays, hand)
    assert state.legal_cards() == cards(legal)
    assert reasons(state) == illegal


def test_000_coinche_all_trumps_no_duty_to_go_over():
    """000 (6.1.2, Coinche, TA): "으뜸패라고 이전 카드보다 더 강한 패를 낼 필요는 없다" — at all
    trumps a player follows suit with any card; the suit contracts keep the classic duties."""
    state = after(NAMU_COINCHE, "9S", "JS 7S AH", denomination="TA")
    assert state.legal_cards() == cards("JS 7S") and reasons(state) == {"AH": "must-follow"}
    state = after(NAMU_COINCHE, "9H", "JH 7H AS")
    assert state.legal_cards() == cards("JH")


# --- 002, a club's classic Belote with announcements ("게임의 진행" 2, 3) ----------------

@pytest.mark.parametrize("plays, hand, legal, illegal", [
    # 2. "같은 문양의 카드를 내야하며 으뜸패를 내도 된다." (follow suit, or trump instead)
    ("AS", "7S KS 9H JC", "7S KS 9H", {"JC": "must-follow"}),
    # 3. "으뜸패를 낼 때, 그 트릭에 이미 으뜸패가 나왔다면 무조건 그것보다 높은 으뜸패를 내야한다." — also for a
    # trump played instead of following
    ("AS 9H", "7S 8H JH AC", "7S JH", {"8H": "must-overtrump", "AC": "must-follow"}),
    # "높은 으뜸패가 없다면 아무 카드나 내도 된다." (no higher trump: a lower one may replace the follow)
    ("AS JH", "7S 8H AC", "7S 8H", {"AC": "must-follow"}),
    # 2. "같은 문양의 카드가 없다면 무조건 으뜸패를 내야 한다." — no partner exemption
    ("AS 7S", "7H AC", "7H", {"AC": "must-trump"}),
    # 3. overtrump whoever played the trump, the partner too
    ("AS 9H 7S", "JH 7H 8D", "JH", {"7H": "must-overtrump", "8D": "must-overtrump"}),
    # 3. "높은 으뜸패가 없다면 아무 카드나 내도 된다." (void, cannot overtrump: any card)
    ("AS JH", "7H AC", "7H AC", {}),
    # 3. trumps led: go over the highest trump
    ("9H", "JH 7H AS", "JH", {"7H": "must-overtrump-in-trump-lead", "AS": "must-follow"}),
    # 2. "만약 같은 문양의 카드와 으뜸패가 모두 없다면 아무 카드나 내도 된다."
    ("AS", "AC 8D", "AC 8D", {}),
])
def test_002_duties(plays, hand, legal, illegal):
    """002 ("게임의 진행" 2-3): follow or trump; void, trump even over a master partner;
    a trump goes over a trump in the trick if it can, else any card."""
    state = after(CLUB, plays, hand)
    assert state.legal_cards() == cards(legal)
    assert reasons(state) == illegal


def test_002_trumping_instead_of_following_is_explained():
    """002 2-3: the message of a lower trump played instead of a card of the suit led."""
    state = after(CLUB, "AS 9H", "7S 8H JH AC")
    why = explain_illegal(state, Card.parse("8H"))
    assert why.message() == ("South trumped with 8♥ instead of following spades while East (an opponent) was "
                             "winning with 9♥: South had to follow or overtrump (7♠ J♥)")
    assert explain_illegal(state, Card.parse("AC")).message() == (
        "South played A♣ but held 7♠ J♥ and had to follow spades or trump")


# --- 003, SA/TA, valet forcé and Coinche ("3.5. 게임 진행") -------------------------------

@pytest.mark.parametrize("plays, hand, legal, illegal", [
    # 2. "선과 같은 짝패의 카드가 있으면 해당 짝패의 카드 중 하나를 내야 한다." — any one, trumps led too
    ("9H", "JH 7H AS", "JH 7H", {"AS": "must-follow"}),
    ("AS", "7S KS 9H", "7S KS", {"9H": "must-follow"}),
    # "… 자신이 현재 바닥에 깔린 패보다 강한 패를 가지고 있다면, 무조건 해당 으뜸패를 내야 한다."
    ("AS", "7H KH AC 8D", "7H KH", {"AC": "must-trump", "8D": "must-trump"}),
    ("AS 9H", "JH 7H AC", "JH", {"7H": "must-overtrump", "AC": "must-overtrump"}),
    # "… 위의 경우에 해당하지 않는다면 아무 카드나 내도 된다." (cannot beat; the partner master)
    ("AS JH", "7H AC", "7H AC", {}),
    ("AS 7S", "7H AC", "7H AC", {}),
])
def test_003_duties(plays, hand, legal, illegal):
    """003 (3.5): follow with any card of the suit; void: trump (over the trick) when the side
    is not master and a beating trump is held, else any card."""
    state = after(SATA, plays, hand)
    assert state.legal_cards() == cards(legal)
    assert reasons(state) == illegal


def test_003_all_trumps_no_duty_to_go_over():
    """003 (5.1): TA is like SA with the trump order ("으뜸패 없음과 비슷하나, 카드 서열이 J > 9 > …"):
    follow suit with any card."""
    state = after(SATA, "9S", "JS 7S AH", denomination="TA")
    assert state.legal_cards() == cards("JS 7S")


def test_003_valet_force():
    """003 (5.3): "게임 시작시 J가 공개되어있다면, 딜러 플레이어까지 턴이 왔을 경우 딜러는 패스할 수 없으며,
    무조건 해당 짝패를 으뜸패로 선언해야 한다." — over a turned jack the dealer, last in round 1,
    may only take; the others may pass."""
    state = TakingState(SATA, N, Card.parse("JD"))
    assert state.legal_calls() == [PASS, TAKE]  # the dealer's next speaks first
    for _ in range(3):
        state.push(PASS)
    assert state.turn is N and state.legal_calls() == [TAKE]
    assert explain_illegal_call(state, PASS).rule == "taking.jack-forces-dealer"
    state.push(TAKE)
    assert state.contract == Contract(N, Denomination.parse("D"))
    other = TakingState(SATA, N, Card.parse("TD"))
    for _ in range(3):
        other.push(PASS)
    assert other.legal_calls() == [PASS, TAKE]  # not a jack


# --- 004, a club's Coinche ("게임의 진행") --------------------------------------------------

@pytest.mark.parametrize("plays, hand, legal, illegal", [
    # "같은 문양의 카드를 내야하며 으뜸패를 내도 된다." (follow suit, or trump instead)
    ("AS", "7S KS 9H JC", "7S KS 9H", {"JC": "must-follow"}),
    # no overtrump duty: any trump instead of following, whatever trump is in the trick
    ("AS 9H", "7S 8H JH AC", "7S 8H JH", {"AC": "must-follow"}),
    # "같은 문양의 카드가 없다면 무조건 으뜸패를 내야 한다." — any trump, the partner master or not
    ("AS 9H", "8H JH AC", "8H JH", {"AC": "must-trump"}),
    ("AS 7S", "7H AC", "7H", {"AC": "must-trump"}),
    # trumps led: any trump
    ("9H", "JH 7H AS", "JH 7H", {"AS": "must-follow"}),
    # "만약 같은 문양의 카드와 으뜸패가 모두 없다면 아무 카드나 내도 된다."
    ("AS", "AC 8D", "AC 8D", {}),
])
def test_004_duties(plays, hand, legal, illegal):
    """004 ("게임의 진행"): follow or trump; void: any trump; no duty to go over anything."""
    state = after(CLUB_COINCHE, plays, hand)
    assert state.legal_cards() == cards(legal)
    assert reasons(state) == illegal


def test_004_all_trumps_no_duty_to_go_over():
    """004 (추가 규칙, TA): "플레이어들은 이전 카드보다 높은 카드를 내야 트릭을 획득할 수 있다" says how a trick
    is won, not a duty: at TA a player follows suit with any card."""
    state = after(CLUB_COINCHE, "9S", "JS 7S AH", denomination="TA")
    assert state.legal_cards() == cards("JS 7S")


# --- the duties against a reference written from the pages, over random deals ----------

def _beats(card: Card, other: Card, trump: Suit) -> bool:
    trump_order, plain_order = "J 9 A T K Q 8 7".split(), "A T K Q J 9 8 7".split()
    if card.suit is other.suit:
        order = trump_order if card.suit is trump else plain_order
        return order.index(str(card)[0]) < order.index(str(other)[0])
    return card.suit is trump


def _reference(hand: set[Card], trick: list[tuple[Seat, Card]], seat: Seat, trump: Suit,
               rules: Rules) -> set[Card]:
    """The duties at a suit contract, written from the options' descriptions (docs/rules.md §3)."""
    if not trick:
        return set(hand)
    led = trick[0][1].suit
    winner_seat, winner = trick[0]
    for who, card in trick[1:]:
        if _beats(card, winner, trump):
            winner_seat, winner = who, card
    trump_in_trick = winner.suit is trump
    follow = {c for c in hand if c.suit is led}
    trumps = {c for c in hand if c.suit is trump}
    over = {c for c in trumps if not trump_in_trick or _beats(c, winner, trump)}
    if follow:
        if led is trump:
            return (over if rules.trump_lead_must_beat and over else follow)
        if rules.follow_or_trump and trumps:
            return follow | (over if rules.must_overtrump and over else trumps)
        return follow
    if not trumps or (rules.partner_exemption and winner_seat is seat.partner):
        return set(hand)
    if not rules.must_overtrump:
        return trumps
    if over:
        return over
    return trumps if rules.undertrump == "must" else set(hand)


@pytest.mark.parametrize("rules", [NAMU, CLUB, SATA, CLUB_COINCHE,
                                   Rules.parse("club-classic; follow_or_trump=false; partner_exemption=true")])
def test_seed_duties_match_the_reference(rules):
    """000, 002, 003, 004 (play): every legal set of 200 random deals at hearts, per the reference."""
    rng = random.Random(str(rules))
    trump = Suit.HEARTS
    for _ in range(200):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        hands = {seat: deck[8 * i:8 * i + 8] for i, seat in enumerate(SEATS)}
        state = PlayState(hands, Contract(N, Denomination.parse("H")), rules, leader=rng.choice(SEATS))
        while not state.is_over:
            seat = state.turn
            expected = _reference(set(state.hand(seat)), list(state.current_trick), seat, trump, rules)
            assert state.legal_cards() == expected
            for other in state.hand(seat) - expected:
                assert explain_illegal(state, other).reason not in (None, "not-in-hand")
            state.push(rng.choice(sorted(expected)))
