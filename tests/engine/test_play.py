"""The play engine: legal sets of rules.md §3 under every option, trick winners (§4),
rewinding, errors, belote and claims. Expected values are worked out by hand from rules.md."""

from __future__ import annotations

import random

import pytest

from notation.values import ALL_CARDS, SEATS, Card, Denomination, Seat, Suit, Team
from replayer.engine.cardmasks import table
from replayer.engine.contract import Contract
from replayer.engine.play import (ILLEGAL_REASONS, DealOverError, IllegalPlayError, NotInHandError, OutOfTurnError,
                                  PlayError, PlayState, explain_illegal, trick_winner)
from replayer.engine.rules import Rules

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
FFB = Rules.parse("ffb")  # counter-clockwise: N W S E


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse(t) for t in text.split())


def state(hands: dict[Seat, str], denomination: str = "H", rules: Rules = FFB, leader: Seat = N,
          plays: str = "") -> PlayState:
    """A state with the given (partial) hands, after the cards of ``plays`` were played in turn."""
    contract = Contract(N, Denomination.parse(denomination))
    result = PlayState({seat: cards(text) for seat, text in hands.items()}, contract, rules, leader=leader)
    for token in plays.split():
        result.push(Card.parse(token))
    return result


# --- suit contract (hearts trump), leader N, order N W S E -------------------------

def test_first_card_is_free():
    assert state({N: "AS 7H KD"}).legal_cards() == cards("AS 7H KD")


def test_follow_plain_suit_without_duty_to_beat():
    s = state({N: "AS", W: "7S KS 9H JC"}, plays="AS")
    assert s.turn is W
    assert s.legal_cards() == cards("7S KS")


def test_trump_led_must_go_over():
    s = state({N: "9H", W: "JH 8H 7H AS"}, plays="9H")
    assert s.legal_cards() == cards("JH")


def test_trump_led_cannot_go_over_follows_with_any_trump():
    s = state({N: "JH", W: "9H 8H AS"}, plays="JH")
    assert s.legal_cards() == cards("9H 8H")


def test_trump_led_must_go_over_the_highest_trump_whoever_played_it():
    s = state({N: "7H", W: "9H", S: "JH AH 8H QC"}, plays="7H 9H")
    assert s.legal_cards() == cards("JH")


def test_trump_led_must_go_over_even_a_partner():
    s = state({N: "9H", W: "7H", S: "JH 8H QC"}, plays="9H 7H")
    assert s.legal_cards() == cards("JH")


def test_void_must_trump():
    s = state({N: "AS", W: "7H KH AC 8D"}, plays="AS")
    assert s.legal_cards() == cards("7H KH")


def test_void_without_trump_discards_anything():
    s = state({N: "AS", W: "AC 8D"}, plays="AS")
    assert s.legal_cards() == cards("AC 8D")


@pytest.mark.parametrize("exemption, expected", [(True, "7H JH AC"), (False, "7H JH")])
def test_partner_master_by_plain_card(exemption, expected):
    rules = FFB.replace(partner_exemption=exemption)
    s = state({N: "7S", W: "AS", S: "8S", E: "7H JH AC"}, rules=rules, plays="7S AS 8S")
    assert s.turn is E
    assert s.legal_cards() == cards(expected)


@pytest.mark.parametrize("exemption, undertrump, hand, expected", [
    (True, "must", "JH 7H AC", "JH 7H AC"),
    (False, "must", "JH 7H AC", "JH"),
    (False, "must", "7H AC", "7H"),
    (False, "may_discard", "7H AC", "7H AC"),
    (True, "must", "7H AC", "7H AC"),
])
def test_partner_master_by_trump(exemption, undertrump, hand, expected):
    rules = FFB.replace(partner_exemption=exemption, undertrump=undertrump)
    s = state({N: "AS", W: "9H", S: "7S", E: hand}, rules=rules, plays="AS 9H 7S")
    assert s.legal_cards() == cards(expected)


def test_second_player_is_never_partner_master():
    rules = FFB.replace(partner_exemption=True)
    s = state({N: "AS", W: "7H AC"}, rules=rules, plays="AS")
    assert s.legal_cards() == cards("7H")


def test_must_overtrump_an_opponent():
    s = state({N: "AS", W: "TH", S: "JH 7H AC"}, plays="AS TH")
    assert s.legal_cards() == cards("JH")


@pytest.mark.parametrize("undertrump, expected", [("must", "8H 7H"), ("may_discard", "8H 7H AC")])
def test_cannot_overtrump(undertrump, expected):
    rules = FFB.replace(undertrump=undertrump)
    s = state({N: "AS", W: "TH", S: "8H 7H AC"}, rules=rules, plays="AS TH")
    assert s.legal_cards() == cards(expected)


def test_must_overtrump_after_two_trumps():
    s = state({N: "AS", W: "QH", S: "9H", E: "AH KH 8D"}, plays="AS QH 9H")
    # S (an opponent of E) wins with 9H; E holds no trump above 9H: undertrump
    assert s.legal_cards() == cards("AH KH")


# --- SA and TA ------------------------------------------------------------------------

def test_sa_follow_without_duty_to_beat_and_void_free():
    assert state({N: "7S", W: "8S AS AC"}, "SA", plays="7S").legal_cards() == cards("8S AS")
    assert state({N: "7S", W: "AC JH"}, "SA", plays="7S").legal_cards() == cards("AC JH")


@pytest.mark.parametrize("must_beat, expected", [(True, "JS"), (False, "JS 7S")])
def test_ta_must_beat(must_beat, expected):
    rules = FFB.replace(sa_ta=True, ta_must_beat=must_beat)
    assert state({N: "9S", W: "JS 7S AC"}, "TA", rules, plays="9S").legal_cards() == cards(expected)


def test_ta_must_beat_the_current_winner_even_a_partner():
    rules = FFB.replace(sa_ta=True)
    assert state({N: "7S", W: "9S", S: "AS JS"}, "TA", rules, plays="7S 9S").legal_cards() == cards("JS")
    assert state({N: "7S", W: "9S", S: "AS 8S"}, "TA", rules, plays="7S 9S").legal_cards() == cards("AS 8S")


def test_ta_void_discards_anything():
    rules = FFB.replace(sa_ta=True)
    assert state({N: "9S", W: "JH AC"}, "TA", rules, plays="9S").legal_cards() == cards("JH AC")


# --- trick winners --------------------------------------------------------------------

def _plays(text: str) -> list[tuple[Seat, Card]]:
    return [(seat, Card.parse(t)) for seat, t in zip((N, W, S, E), text.split())]


@pytest.mark.parametrize("denomination, plays, winner", [
    ("H", "AS 7H JH TS", S),  # the highest trump
    ("H", "KS TS AS 7C", S),  # no trump: the highest of the suit led, plain order
    ("H", "7S AC AD AH", E),  # a lone 7 of trumps beats aces of other suits
    ("H", "7S 8S JS 9S", S),  # plain order: J above 9
    ("SA", "KS TS 7C AD", W),  # plain order: 10 above K; other suits never win
    ("TA", "AS 9S JS TS", S),  # trump order in every suit
    ("TA", "AS 9S TS JH", W),
])
def test_trick_winner(denomination, plays, winner):
    assert trick_winner(_plays(plays), Denomination.parse(denomination)) is winner


def test_trick_winner_in_state_and_points():
    s = state({N: "AS KD", W: "7H QD", S: "JH 8D", E: "TS 7D"}, plays="AS 7H JH TS")
    trick = s.tricks[0]
    assert trick.winner is S and trick.leader is N
    assert trick.points == 11 + 0 + 20 + 10
    assert [seat for seat, _ in trick.plays] == [N, W, S, E]
    assert s.turn is S and s.leader is S and s.current_trick == ()
    assert s.card_points() == (41, 0)


def test_clockwise_order():
    rules = Rules.parse("korean")
    s = state({N: "AS", E: "7S", S: "8S", W: "9S"}, rules=rules, plays="AS")
    assert s.turn is E


def test_leader_from_dealer():
    contract = Contract(N, Denomination.HEARTS)
    assert PlayState({}, contract, FFB, dealer=N).turn is W
    assert PlayState({}, contract, Rules.parse("korean"), dealer=N).turn is N
    assert PlayState({}, contract, FFB.replace(direction="cw"), dealer=N).turn is E
    with pytest.raises(ValueError):
        PlayState({}, contract, FFB)


# --- rewinding ------------------------------------------------------------------------

def test_pop_across_a_trick_boundary():
    s = state({N: "AS KD", W: "7H QD", S: "JH 8D", E: "TS 7D"}, plays="AS 7H JH TS 8D")
    assert s.pop() == Card.parse("8D")
    assert s.turn is S and len(s.tricks) == 1 and s.hand(S) == cards("8D")
    assert s.pop() == Card.parse("TS")
    assert s.tricks == () and s.turn is E and s.card_points() == (0, 0)
    assert s.current_trick == tuple(zip((N, W, S), (Card.parse(c) for c in "AS 7H JH".split())))
    assert s.current_winner == (S, Card.parse("JH"))
    assert s.legal_cards() == cards("TS")
    s.pop(), s.pop(), s.pop()
    assert s.turn is N and s.hand(N) == cards("AS KD")
    with pytest.raises(PlayError):
        s.pop()


def test_pop_restores_the_winner_used_for_legality():
    s = state({N: "9H", W: "JH", S: "AH 7H"}, plays="9H JH")
    assert s.legal_cards() == cards("AH 7H")  # nobody can go over JH
    s.pop()
    s.push(Card.parse("JH"))
    assert s.current_winner == (W, Card.parse("JH"))


# --- errors ---------------------------------------------------------------------------

def test_not_in_hand_error():
    s = state({N: "AS"})
    with pytest.raises(NotInHandError) as info:
        s.push(Card.parse("KS"))
    assert info.value.seat is N and info.value.card == Card.parse("KS")
    assert "North" in str(info.value) and "K♠" in str(info.value)


def test_illegal_play_error_explains_must_trump():
    s = state({N: "AC", W: "7C", S: "8C", E: "9H JS 7S"}, "S", plays="AC 7C 8C")
    with pytest.raises(IllegalPlayError) as info:
        s.push(Card.parse("9H"))
    error = info.value
    assert error.seat is E and error.card == Card.parse("9H")
    assert error.illegality.reason == "must-trump"
    assert error.illegality.legal == (Card.parse("JS"), Card.parse("7S"))
    assert error.illegality.winner is N and not error.illegality.partner_master
    message = str(error)
    assert message.startswith("East played 9♥ but held no club and held J♠ 7♠ while North (an opponent)")
    assert message.endswith("East had to trump")
    assert s.turn is E and s.hand(E) == cards("9H JS 7S")  # nothing changed


@pytest.mark.parametrize("hands, denomination, plays, card, reason", [
    ({N: "AS", W: "7S KD"}, "H", "AS", "KD", "must-follow"),
    ({N: "9H", W: "JH 8H"}, "H", "9H", "8H", "must-overtrump-in-trump-lead"),
    ({N: "AS", W: "TH", S: "JH 7H AC"}, "H", "AS TH", "7H", "must-overtrump"),
    ({N: "AS", W: "TH", S: "JH 7H AC"}, "H", "AS TH", "AC", "must-overtrump"),
    ({N: "AS", W: "TH", S: "8H AC"}, "H", "AS TH", "AC", "must-undertrump"),
    ({N: "9S", W: "JS 7S"}, "TA", "9S", "7S", "ta-must-beat"),
    ({N: "AS", W: "7S"}, "H", "AS", "8S", "not-in-hand"),
])
def test_explain_illegal_reasons(hands, denomination, plays, card, reason):
    rules = FFB.replace(sa_ta=True)
    s = state(hands, denomination, rules, plays=plays)
    illegality = explain_illegal(s, Card.parse(card))
    assert illegality is not None and illegality.reason == reason
    assert illegality.seat is s.turn and illegality.card == Card.parse(card)
    assert frozenset(illegality.legal) == s.legal_cards()


def test_explain_legal_card_is_none_and_partner_master_flag():
    s = state({N: "7S", W: "AS", S: "8S", E: "7H AC"}, rules=FFB.replace(partner_exemption=False),
              plays="7S AS 8S")
    assert explain_illegal(s, Card.parse("7H")) is None
    illegality = explain_illegal(s, Card.parse("AC"))
    assert illegality.reason == "must-trump" and illegality.partner_master and illegality.winner is W
    assert "West (East's partner)" in illegality.message()


def test_out_of_turn_and_bad_declaration():
    s = state({N: "AS", W: "7S"})
    with pytest.raises(OutOfTurnError) as info:
        s.push(Card.parse("7S"), seat=W)
    assert info.value.seat is W and "North's turn" in str(info.value)
    s.push(Card.parse("AS"), seat=N)
    with pytest.raises(PlayError):
        s.push(Card.parse("7S"), "tierce")


def test_unchecked_push_of_an_illegal_or_absent_card():
    s = state({N: "AS", W: "7S KD", S: "8S", E: "9S"}, plays="AS")
    s.push_unchecked(Card.parse("KD"))  # illegal: W had to follow
    s.push_unchecked(Card.parse("QC"))  # S does not hold it
    assert s.turn is E and s.hand(S) == cards("8S")
    s.push_unchecked(Card.parse("9S"))
    assert s.tricks[0].winner is N
    assert s.pop() == Card.parse("9S") and s.pop() == Card.parse("QC")
    assert s.hand(S) == cards("8S")  # the card it never held is not put back


def _full_deal(rules: Rules = FFB, denomination: str = "H") -> PlayState:
    hands = {N: "JH 9H AH TH KH QH 8H 7H", W: "AS TS KS QS JS 9S 8S 7S",
             S: "AD TD KD QD JD 9D 8D 7D", E: "AC TC KC QC JC 9C 8C 7C"}
    return state(hands, denomination, rules)


def _play_out(s: PlayState) -> None:
    while not s.is_over:
        s.push(min(s.legal_cards()))


def test_deal_over_after_eight_tricks():
    s = _full_deal()
    _play_out(s)
    assert s.turn is None and s.is_over and len(s.tricks) == 8
    assert s.legal_cards() == frozenset()
    with pytest.raises(DealOverError):
        s.push(Card.parse("JH"))
    assert s.trick_counts() == (8, 0, 0, 0)
    assert s.card_points() == (152, 0)
    assert s.last_trick_team is Team.NS


# --- belote ---------------------------------------------------------------------------

def _belote_state(rules: Rules, words: tuple[str | None, str | None]) -> PlayState:
    s = state({N: "KH QH", W: "7S 8S", S: "9S TS", E: "JS QS"}, rules=rules)
    s.push(Card.parse("QH"), words[0])
    s.push(Card.parse("7S")), s.push(Card.parse("9S")), s.push(Card.parse("JS"))
    s.push(Card.parse("KH"), words[1])
    return s


@pytest.mark.parametrize("words, must_announce, points", [
    (("belote", "rebelote"), True, (20, 0)),
    ((None, None), True, (0, 0)),
    (("belote", None), True, (0, 0)),
    (("rebelote", "belote"), True, (0, 0)),
    ((None, None), False, (20, 0)),
])
def test_belote_entitlement(words, must_announce, points):
    s = _belote_state(FFB.replace(belote_must_announce=must_announce), words)
    assert s.belote_points() == points
    assert [b.seat for b in s.belotes()] == [N]


def test_belote_declarations_recorded():
    s = _belote_state(FFB, ("belote", "rebelote"))
    assert [(d.seat, str(d.card), d.word) for d in s.declarations] == [(N, "QH", "belote"), (N, "KH", "rebelote")]


def test_belote_marks_on_other_cards_count_for_nothing():
    s = state({N: "KH QH AS", W: "7S 8S 9C", S: "9S TS TC", E: "JS QS JC"})
    s.push(Card.parse("AS"), "belote")
    assert s.belotes()[0].entitled is False


def test_no_belote_at_sa_and_each_pair_at_ta():
    rules = FFB.replace(sa_ta=True)
    hands = {N: "KH QH KS QS", W: "KD QD 7C 8C"}
    assert state(hands, "SA", rules).belotes() == ()
    belotes = state(hands, "TA", rules).belotes()
    assert sorted((b.seat.value, b.suit.value) for b in belotes) == [("N", "H"), ("N", "S"), ("W", "D")]


def test_ta_each_pair_needs_its_own_marks():
    rules = FFB.replace(sa_ta=True)
    s = state({N: "KH QH KS QS", W: "7H 8H 7S 8S", S: "7D 8D 9D TD", E: "7C 8C 9C TC"}, "TA", rules)
    for card, word in [("KH", "belote"), ("7H", None), ("7D", None), ("7C", None), ("QH", "rebelote"),
                       ("8H", None), ("8D", None), ("8C", None), ("KS", "belote"), ("7S", None), ("9D", None),
                       ("9C", None), ("QS", None)]:  # the second pair lacks "rebelote"
        s.push(Card.parse(card), word)
    assert s.belote_points() == (20, 0)


# --- claims ---------------------------------------------------------------------------

def test_claim_gives_every_remaining_card_and_trick():
    s = _full_deal()
    for _ in range(6):  # one and a half tricks
        s.push(min(s.legal_cards()))
    assert len(s.tricks) == 1
    s.claim(W)
    assert s.is_over and s.turn is None and s.claimed_by is W
    ns, ew = s.card_points()
    assert ns + ew == 152
    assert ns == s.tricks[0].points
    assert s.trick_counts() == (1, 0, 0, 7)
    assert s.last_trick_team is Team.EW
    with pytest.raises(PlayError):
        s.pop()
    s.undo_claim()
    assert s.turn is not None and s.card_points() == (s.tricks[0].points, 0)


def test_claim_keeps_an_announced_belote():
    s = state({N: "KH QH", W: "7S 8S", S: "9S TS", E: "JS QS"})
    s.push(Card.parse("QH"), "belote")
    s.claim(N)
    assert s.belote_points() == (20, 0)


# --- property: the mask engine against a plain transcription of §3 ------------------

TRUMP_ORDER = "7 8 Q K T A 9 J".split()
PLAIN_ORDER = "7 8 9 J Q K T A".split()


def _strength(card: Card, trump_suits: set[Suit]) -> int:
    order = TRUMP_ORDER if card.suit in trump_suits else PLAIN_ORDER
    return order.index(card.rank.value)


def _reference_legal(hand: set[Card], trick: list[tuple[Seat, Card]], seat: Seat, denomination: Denomination,
                     rules: Rules) -> set[Card]:
    """rules.md §3, written from the text with Card objects."""
    if not trick:
        return set(hand)
    led = trick[0][1].suit
    trumps = {denomination.suit} if denomination.suit else set(Suit) if denomination.value == "TA" else set()
    winner_seat, winner = trick[0]
    for who, card in trick[1:]:
        if card.suit == winner.suit and _strength(card, trumps) > _strength(winner, trumps) or \
                (card.suit in trumps and winner.suit not in trumps):
            winner_seat, winner = who, card
    follow = {c for c in hand if c.suit == led}
    if denomination.value == "SA":
        return follow or set(hand)
    if denomination.value == "TA":
        if follow and rules.ta_must_beat:
            return {c for c in follow if _strength(c, trumps) > _strength(winner, trumps)} or follow
        return follow or set(hand)
    t = denomination.suit
    played_trumps = [c for _, c in trick if c.suit == t]
    top = max(played_trumps, key=lambda c: _strength(c, trumps)) if played_trumps else None
    if follow:
        if led != t:
            return follow
        return {c for c in follow if _strength(c, trumps) > _strength(top, trumps)} or follow
    own_trumps = {c for c in hand if c.suit == t}
    if not own_trumps:
        return set(hand)
    if winner_seat is seat.partner and rules.partner_exemption:
        return set(hand)
    if top is None:
        return own_trumps
    over = {c for c in own_trumps if _strength(c, trumps) > _strength(top, trumps)}
    if over:
        return over
    return own_trumps if rules.undertrump == "must" else set(hand)


@pytest.mark.parametrize("options", [
    {}, {"undertrump": "may_discard"}, {"partner_exemption": False},
    {"partner_exemption": False, "undertrump": "may_discard"}, {"ta_must_beat": False}, {"direction": "cw"},
])
def test_legal_sets_match_the_reference(options):
    rules = FFB.replace(sa_ta=True, **options)
    rng = random.Random(str(options))
    for _ in range(100):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        hands = {seat: deck[8 * i:8 * i + 8] for i, seat in enumerate(SEATS)}
        denomination = rng.choice(list(Denomination))
        s = PlayState(hands, Contract(N, denomination), rules, leader=rng.choice(SEATS))
        while not s.is_over:
            seat = s.turn
            expected = _reference_legal(set(s.hand(seat)), list(s.current_trick), seat, denomination, rules)
            assert s.legal_cards() == expected
            card = rng.choice(sorted(expected))
            assert explain_illegal(s, card) is None
            for other in s.hand(seat) - expected:
                assert explain_illegal(s, other).reason != "not-in-hand"
            s.push(card)


# --- card tables (§1) ---------------------------------------------------------------

@pytest.mark.parametrize("denomination, sa_ace, ta_values, total, jack, queen, ace", [
    ("H", 19, "pagat", 152, 20, 3, 11),  # JH: trump values
    ("S", 19, "pagat", 152, 2, 3, 11),  # JH: plain values
    ("SA", 19, "pagat", 152, 2, 3, 19),
    ("SA", 11, "pagat", 120, 2, 3, 11),
    ("TA", 19, "pagat", 152, 14, 1, 6),
    ("TA", 19, "ffb2015", 152, 13, 2, 6),
    ("TA", 19, "raw", 248, 20, 3, 11),
    ("TA", 19, "raw_scaled", 248, 20, 3, 11),
])
def test_card_points_tables(denomination, sa_ace, ta_values, total, jack, queen, ace):
    tab = table(Denomination.parse(denomination), sa_ace, ta_values)
    assert tab.total == total
    points = {rank: tab.points[Card.parse(rank + "H").index] for rank in "JQA"}
    assert points == {"J": jack, "Q": queen, "A": ace}


def test_give_turn_for_a_card_played_out_of_turn():
    s = state({N: "AS KD", W: "7S QD", S: "8S 8D", E: "9S 7D"})
    assert s.give_turn(S) and s.turn is S and s.leader is S
    s.push(Card.parse("8S"))
    assert s.turn is E  # play goes on from the seat that played
    s.push(Card.parse("9S")), s.push(Card.parse("AS"))
    assert not s.give_turn(S)  # S has played in this trick
    s.push(Card.parse("7S"))
    assert s.tricks[0].leader is S and s.tricks[0].winner is N and s.turn is N


# --- property: the per-card path is push, and every move can be taken back -----------

def snapshot(s: PlayState) -> tuple:
    """Everything the public interface says about a state."""
    return (s.turn, s.leader, tuple(s.hand_mask(seat) for seat in Seat), s.tricks, s.current_trick, s.current_winner,
            s.plays, s.declarations, s.card_points(), s.trick_counts(), s.legal_mask(), s.is_over,
            s.last_trick_team, s.belotes(), s.belote_points())


@pytest.mark.parametrize("options", [{}, {"undertrump": "may_discard", "partner_exemption": False},
                                     {"ta_must_beat": False, "direction": "cw"}])
def test_fault_and_apply_say_and_do_what_push_does(options):
    rules = FFB.replace(sa_ta=True, **options)
    rng = random.Random("fault " + str(options))
    for _ in range(40):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        s = PlayState({seat: deck[8 * i:8 * i + 8] for i, seat in enumerate(SEATS)},
                      Contract(N, rng.choice(list(Denomination))), rules, leader=rng.choice(SEATS))
        while not s.is_over:
            legal, held = s.legal_mask(), s.hand_mask(s.turn)
            for index, card in enumerate(ALL_CARDS):
                reason = s.fault(index)
                assert (reason is None) == bool(legal >> index & 1)
                assert (reason == "not-in-hand") == (not held >> index & 1)
                why = explain_illegal(s, card)
                assert (why is None) if reason is None else (reason in ILLEGAL_REASONS and why.reason == reason)
            # mostly a legal card, now and then any card at all: apply is push_unchecked, pop undoes it
            index = rng.choice([i for i in range(32) if legal >> i & 1]) if rng.random() < 0.85 else \
                rng.randrange(32)
            word = rng.choice([None, None, "belote", "rebelote"])
            before = snapshot(s)
            s.apply(index, word)
            after = snapshot(s)
            assert s.pop() == ALL_CARDS[index]
            assert snapshot(s) == before
            if s.fault(index) is None and rng.random() < 0.5:
                s.push(ALL_CARDS[index], word)
            else:
                s.push_unchecked(ALL_CARDS[index], word)
            assert snapshot(s) == after
        with pytest.raises(DealOverError):
            s.fault(0)
        with pytest.raises(DealOverError):
            s.apply(0)
