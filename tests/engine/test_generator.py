"""The random deal generator: every generated deal is legal, complete and scored right."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest

from notation.values import PASS, SEATS, Card, Denomination, Rank, Seat, Suit, Team, canonical_hand_order
from notation.record import Record
from replayer.engine.bidding import new_bidding
from replayer.engine.generator import (GeneratedDeal, deal_record, generate_deal, generate_match,
                                       generate_record, variant_of)
from replayer.engine.melds import Meld, check_declaration, meld_cards
from replayer.engine.play import PlayState
from replayer.engine.rules import PROFILES, Rules
from replayer.engine.scoring import Outcome, finished_deal, score_deal
from replayer.engine.cardmasks import mask_of, table

DEALS_PER_PROFILE = 3000
TAG_ORDER = ["Event", "Site", "Date", "Round", "Deal", "North", "East", "South", "West", "Dealer", "Variant",
             "Rules", "Target", "Score", "Result"]


@lru_cache(maxsize=None)
def deals(profile: str, count: int = DEALS_PER_PROFILE, seed: int = 7) -> tuple[GeneratedDeal, ...]:
    rules = Rules.parse(profile)
    rng = random.Random(seed)
    return tuple(generate_deal(rng, rules, SEATS[n % 4]) for n in range(count))


@pytest.fixture(params=list(PROFILES))
def generated(request) -> tuple[GeneratedDeal, ...]:
    return deals(request.param)


def replay(deal: GeneratedDeal):
    """Replay the deal with checked pushes (raises on any illegal call or card); return its score."""
    rules = deal.rules
    bidding = new_bidding(rules, deal.dealer, deal.turned)
    for seat, call in deal.calls:
        bidding.push(call, seat)  # checked, the seat included
    assert bidding.is_over and bidding.contract == deal.contract
    if deal.contract is None:
        return deal.score
    state = PlayState(dict(zip(SEATS, deal.hands)), deal.contract, rules, dealer=deal.dealer)
    for trick in deal.tricks:
        for entry in trick.plays:
            assert entry.seat is state.turn
            state.push(entry.card, entry.declaration)
    assert state.is_over
    melds: dict[Seat, list[Meld]] = {}
    first = state.tricks[0]
    for seat in SEATS:
        announced = [(a.kind, a.cards) for a in deal.announcements if a.seat is seat]
        hand = meld_cards(mask_of(deal.hand(seat)), seat, first.plays, first.winner, rules)  # meld_cards (002)
        for meld in check_declaration(hand, announced, rules):
            assert isinstance(meld, Meld), meld
            melds.setdefault(seat, []).append(meld)
    return score_deal(finished_deal(state, melds), rules)


def test_cards_are_dealt_right(generated):
    for deal in generated:
        cards = [card for hand in deal.hands for card in hand]
        if deal.is_void and not deal.rules.is_coinche:
            assert [len(h) for h in deal.hands] == [5, 5, 5, 5]
            cards.append(deal.turned)
            assert len(set(cards)) == 21
            continue
        assert [len(h) for h in deal.hands] == [8, 8, 8, 8]
        assert len(set(cards)) == 32
        assert all(hand == canonical_hand_order(hand) for hand in deal.hands)
        if not deal.rules.is_coinche:
            assert deal.turned in deal.hand(deal.contract.taker)


def test_every_call_and_card_is_legal_and_the_score_replays(generated):
    for deal in generated:
        assert replay(deal) == deal.score


def test_card_points_total_the_deal_total(generated):
    for deal in generated:
        if deal.is_void:
            assert deal.score.outcome is Outcome.VOID and deal.score.scores == (0, 0)
            assert deal.tricks == () and deal.announcements == ()
            continue
        rules = deal.rules
        points = table(deal.contract.denomination, rules.sa_ace, rules.ta_values)
        played = [entry.card for entry in deal.plays]
        assert [len(trick.plays) for trick in deal.tricks] == [4] * 8
        assert sorted(played) == sorted(card for hand in deal.hands for card in hand)
        assert sum(points.points[card.index] for card in played) == points.total
        ns, ew = deal.score.ns, deal.score.ew
        assert ns.card_points + ew.card_points == points.total
        capot = deal.score.capot is not None and rules.capot_score == "der100"
        assert ns.last_trick + ew.last_trick == (100 if capot else 10)


def test_belote_is_said_on_the_trump_king_and_queen(generated):
    for deal in generated:
        if deal.is_void:
            continue
        said = [(e.seat, e.card.suit, e.card.rank, e.declaration) for e in deal.plays if e.declaration]
        denomination = deal.contract.denomination
        at_ta = denomination is Denomination.ALL_TRUMPS
        pairs = [(seat, suit) for seat in SEATS for suit in Suit
                 if (at_ta and deal.rules.belote_at_ta or denomination.suit is suit)  # belote_at_ta (004)
                 and Card.of(Rank.KING, suit) in deal.hand(seat) and Card.of(Rank.QUEEN, suit) in deal.hand(seat)]
        for seat, suit in pairs:
            words = [(rank, word) for s, su, rank, word in said if s is seat and su is suit]
            assert [word for _, word in words] == ["belote", "rebelote"]
            assert {rank for rank, _ in words} == {Rank.KING, Rank.QUEEN}
        assert len(said) == 2 * len(pairs)  # nothing said on other cards
        assert deal.score.ns.belote + deal.score.ew.belote == 20 * len(pairs)


def test_the_generator_reaches_every_kind_of_deal():
    seen = Counter()
    for profile in ("ffb", "pagat-coinche", "korean-coinche"):
        for deal in deals(profile):
            seen["void" if deal.is_void else deal.score.outcome.value] += 1
            if deal.contract:
                seen[("doubling", deal.contract.doubling)] += 1
                seen["capot"] += deal.contract.capot
                seen["generale"] += deal.contract.generale
            seen["belote"] += any(e.declaration for t in deal.tricks for e in t.plays)
            seen["melds"] += bool(deal.announcements)
    for kind in ("void", "made", "failed", "litige", ("doubling", 1), ("doubling", 2), "capot", "generale",
                 "belote", "melds"):
        assert seen[kind] > 0, kind


def test_redeal_void_never_returns_a_void_deal():
    rng = random.Random(5)
    rules = Rules.parse("ffb")
    assert not any(generate_deal(rng, rules, Seat.EAST, redeal_void=True).is_void for _ in range(300))


def test_interjected_coinches_replay():
    rules = Rules.parse("ffb-coinche; coinche_out_of_turn=true")
    rng = random.Random(11)
    generated = [generate_deal(rng, rules, SEATS[n % 4]) for n in range(500)]
    interjections = 0
    for deal in generated:
        replay(deal)
        state = new_bidding(rules, deal.dealer)
        for seat, call in deal.calls:
            interjections += seat is not state.turn
            state.push(call, seat)
    assert interjections > 0


def test_same_seed_same_deal():
    for profile in PROFILES:
        rules = Rules.parse(profile)
        first = [generate_deal(random.Random(42), rules, Seat.WEST) for _ in range(2)]
        assert first[0] == first[1]
    rules = Rules.parse("ffb")
    assert generate_deal(random.Random(1), rules) != generate_deal(random.Random(2), rules)


def test_record_tags_and_body():
    rules = Rules.parse("ffb-annonces; tie=failed")
    rng = random.Random(8)
    record = generate_record(rng, rules, Seat.SOUTH, deal_number=4, score_before=(310, 250), redeal_void=True)
    deal = generate_deal(random.Random(8), rules, Seat.SOUTH, redeal_void=True)
    assert isinstance(record, Record)
    assert [name for name, _ in record.tags] == TAG_ORDER
    tags = dict(record.tags)
    assert tags["Deal"] == "4" and tags["Dealer"] == "S" and tags["Variant"] == "belote"
    assert tags["Rules"] == "ffb-annonces; tie=failed" and tags["Target"] == "1000"
    assert tags["Score"] == "310-250"
    assert record.result == deal.score.scores
    assert [h.seat for h in record.hands] == list(SEATS)
    assert [h.cards for h in record.hands] == [canonical_hand_order(h) for h in deal.hands]
    assert record.turned == deal.turned and record.auction is None
    assert [(c.seat, c.call) for c in record.taking] == list(deal.calls)
    assert record.tricks == deal.tricks and record.announcements == deal.announcements
    assert deal_record(deal, deal_number=4, score_before=(310, 250)) == record


def test_coinche_record_has_an_auction():
    record = generate_record(random.Random(3), Rules.parse("ffb-contree"), Seat.EAST, redeal_void=True)
    assert record.taking is None and record.turned is None
    assert record.auction and all(c.seat is not None for c in record.auction)
    assert any(c.call.is_bid for c in record.auction)
    assert record.tag("Variant") == "contree" and record.tag("Target") == "2000"


def test_variants():
    assert [variant_of(Rules.parse(p)) for p in PROFILES] == [
        "belote", "belote", "coinche", "contree", "coinche",
        "belote", "belote", "coinche", "belote", "belote", "coinche", "coinche"]  # the seed profiles


@pytest.mark.parametrize("profile, seed", [("ffb", 4), ("ffb", 2), ("korean-coinche", 4)])  # seed 2: a litige
def test_match_runs_to_the_target(profile, seed):
    rules = Rules.parse(profile)
    match = generate_match(random.Random(seed), rules, Seat.NORTH, event="Test match")
    totals, held = [0, 0], 0
    dealer = Seat.NORTH
    for number, (deal, record) in enumerate(zip(match.deals, match.records), 1):
        assert deal.dealer is dealer and record.tag("Dealer") == str(dealer)
        assert record.tag("Deal") == str(number) and record.tag("Event") == "Test match"
        assert record.score == tuple(totals)
        assert max(totals) < rules.target or totals[0] == totals[1]  # nobody has won yet
        assert record.result == deal.score.scores
        # the running score: each deal's result, and a litige hold to the winner of the next scored deal
        totals = [totals[0] + deal.score.scores[0], totals[1] + deal.score.scores[1]]
        if deal.score.outcome is Outcome.LITIGE:
            held += deal.score.litige_hold
        elif held and not deal.is_void:
            winner = deal.score.takers if deal.score.outcome is Outcome.MADE else deal.score.defenders
            totals[0 if winner is Team.NS else 1] += held
            held = 0
        dealer = dealer.next(rules.clockwise)
    assert match.totals == tuple(totals)
    assert max(totals) >= rules.target and totals[0] != totals[1]
    assert match.winner is (Team.NS if totals[0] > totals[1] else Team.EW)


def test_match_includes_void_deals_in_the_rotation():
    rules = Rules.parse("ffb")
    match = generate_match(random.Random(6), rules)
    voids = [number for number, deal in enumerate(match.deals) if deal.is_void]
    assert voids
    for number in voids:
        record = match.records[number]
        assert record.result == (0, 0) and not record.tricks
        assert [c.call for c in record.taking] == [PASS] * 8
        assert all(len(h.cards) == 5 for h in record.hands)
        if number + 1 < len(match.deals):
            assert match.deals[number + 1].dealer is match.deals[number].dealer.next(rules.clockwise)
            assert match.records[number + 1].score == record.score
