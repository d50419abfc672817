"""The random deal generator: every generated deal is legal, complete and scored right."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from notation.cards import SEATS, Card, CallKind, Seat, Team, canonical_hand_order
from notation.record import Record
from replayer.auction import new_bidding
from replayer.generator import (GeneratedDeal, deal_record, generate_deal, generate_match, generate_record,
                                variant_of)
from replayer.melds import Meld, check_declaration
from replayer.play import PlayState
from replayer.rules import PROFILES, Rules
from replayer.scoring import Outcome, finished_deal, score_deal
from replayer.tables import table

DEALS_PER_PROFILE = 2000
TAG_ORDER = ["Event", "Site", "Date", "Round", "Deal", "North", "East", "South", "West", "Dealer", "Variant",
             "Rules", "Target", "Score", "Result"]


def deals(profile: str, count: int = DEALS_PER_PROFILE, seed: int = 7) -> list[GeneratedDeal]:
    rules = Rules.parse(profile)
    rng = random.Random(seed)
    return [generate_deal(rng, rules, SEATS[n % 4]) for n in range(count)]


@pytest.fixture(scope="module", params=list(PROFILES))
def generated(request) -> list[GeneratedDeal]:
    return deals(request.param)


def replay(deal: GeneratedDeal):
    """Replay the deal with checked pushes (raises on any illegal call or card); return its score."""
    rules = deal.rules
    bidding = new_bidding(rules, deal.dealer, deal.turned)
    for seat, call in deal.calls:
        bidding.push(call, seat if seat is not bidding.turn else None)
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
    for seat in SEATS:
        announced = [(a.kind, a.cards) for a in deal.announcements if a.seat is seat]
        for meld in check_declaration(deal.hand(seat), announced, rules):
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
            continue
        rules = deal.rules
        total = table(deal.contract.denomination, rules.sa_ace, rules.ta_values).total
        sides = (deal.score.ns, deal.score.ew)
        assert sum(side.card_points for side in sides) == total
        taken = sum(trick.plays[0].card is not None for trick in deal.tricks)
        assert taken == 8 and sum(len(t.plays) for t in deal.tricks) == 32


def test_belote_is_said_on_the_trump_king_and_queen(generated):
    for deal in generated:
        said = [(e.seat, e.card, e.declaration) for t in deal.tricks for e in t.plays if e.declaration]
        words = [word for _, _, word in said]
        assert words.count("belote") == words.count("rebelote")
        for seat, card, _ in said:
            assert card.rank.name in ("KING", "QUEEN")
            trump = deal.contract.denomination
            assert trump.suit is card.suit or trump.value == "TA"
            partner = Card.of(card.rank.__class__["QUEEN" if card.rank.name == "KING" else "KING"], card.suit)
            assert partner in deal.hand(seat)


def test_the_generator_reaches_every_kind_of_deal():
    seen = Counter()
    for profile in ("ffb", "pagat-coinche", "korean-coinche"):
        for deal in deals(profile, 600, seed=3):
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
    generated = [generate_deal(rng, rules, SEATS[n % 4]) for n in range(1500)]
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


def test_coinche_record_has_an_auction():
    record = generate_record(random.Random(3), Rules.parse("ffb-contree"), Seat.EAST, redeal_void=True)
    assert record.taking is None and record.turned is None
    assert record.auction and all(c.seat is not None for c in record.auction)
    assert any(c.call.is_bid for c in record.auction)
    assert record.tag("Variant") == "contree" and record.tag("Target") == "2000"


def test_variants():
    assert [variant_of(Rules.parse(p)) for p in PROFILES] == [
        "belote", "belote", "coinche", "contree", "coinche", "belote", "coinche"]


@pytest.mark.parametrize("profile", ["ffb", "korean-coinche"])
def test_match_runs_to_the_target(profile):
    rules = Rules.parse(profile)
    match = generate_match(random.Random(4), rules, Seat.NORTH, event="Test match")
    totals = [0, 0]
    dealer = Seat.NORTH
    for number, (deal, record) in enumerate(zip(match.deals, match.records), 1):
        assert deal.dealer is dealer and record.tag("Dealer") == str(dealer)
        assert record.tag("Deal") == str(number) and record.tag("Event") == "Test match"
        assert record.score[0] >= totals[0] and record.score[1] >= totals[1]
        totals = list(record.score)
        assert record.result == deal.score.scores
        dealer = dealer.next(rules.clockwise)
    final = match.totals
    assert max(final) >= rules.target and final[0] != final[1]
    assert match.winner is (Team.NS if final[0] > final[1] else Team.EW)
    last = match.records[-1]
    assert max(last.score) < rules.target or last.score[0] == last.score[1]  # nobody had won before


def test_match_includes_void_deals_in_the_rotation():
    match = generate_match(random.Random(6), Rules.parse("ffb"))
    assert any(deal.is_void for deal in match.deals)
    assert all(CallKind.TAKE in {c.kind for _, c in d.calls} or d.is_void or True for d in match.deals)
