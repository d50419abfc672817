"""Announcements: finding, checking (§5, §9.6) and comparing them (§5, §9.8)."""

from __future__ import annotations

import random

import pytest

from notation.values import ALL_CARDS, Card, Denomination, Rank, Seat, Team
from notation.record import MeldKind
from replayer.engine.melds import (MELD_PROBLEMS, Meld, MeldProblem, best_declaration, check_announcement,
                                   check_declaration, find_melds, score_melds)
from replayer.engine.rules import Rules

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
RULES = Rules.parse("ffb-annonces")
T, Q4, Q5, C = MeldKind.TIERCE, MeldKind.QUARTE, MeldKind.QUINTE, MeldKind.CARRE


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def described(melds) -> list[tuple[str, int, str]]:
    return sorted((m.kind.value, m.value, " ".join(sorted(str(c) for c in m.cards))) for m in melds)


def meld(kind: MeldKind, text: str, rules: Rules = RULES) -> Meld:
    hand = cards(text)
    result = check_announcement(hand, kind, hand, rules)
    assert isinstance(result, Meld), result
    return result


# --- finding ----------------------------------------------------------------------

def test_find_maximal_runs():
    found = find_melds(cards("7H 8H 9H TH JH QS KS AS"), RULES)
    assert described(found) == [("quinte", 100, "7H 8H 9H JH TH"), ("tierce", 20, "AS KS QS")]


def test_six_cards_in_sequence_are_one_quinte():
    found = find_melds(cards("8D 9D TD JD QD KD 7C 7S"), RULES)
    assert described(found) == [("quinte", 100, "8D 9D JD KD QD TD")]
    assert found[0].rank is Rank.KING


def test_carres_and_their_values():
    found = find_melds(cards("JS JH JD JC 9S 9H 9D 9C"), RULES)
    assert sorted(m.value for m in found) == [150, 200]
    assert [m.value for m in find_melds(cards("KS KH KD KC"), RULES)] == [100]
    assert [m.value for m in find_melds(cards("KS KH KD KC"), RULES.replace(carre_minor=50))] == [50]
    assert [m.value for m in find_melds(cards("AS AH AD AC"), RULES.replace(carre_minor=50))] == [100]
    assert find_melds(cards("7S 7H 7D 7C 8S 8H 8D 8C"), RULES) == []


def test_best_declaration_takes_carre_and_what_is_left_of_the_run():
    best = best_declaration(cards("JS JH JD JC 8S 9S TS 7D"), RULES)
    assert described(best) == [("carre", 200, "JC JD JH JS"), ("tierce", 20, "8S 9S TS")]


def test_best_declaration_prefers_the_run_when_it_is_better():
    # quinte 9..K of spades (100) against four kings (100) + quarte 9 10 J Q (50): both 100 best,
    # the carré wins at equal value, and takes the quarte along
    best = best_declaration(cards("9S TS JS QS KS KH KD KC"), RULES)
    assert described(best) == [("carre", 100, "KC KD KH KS"), ("quarte", 50, "9S JS QS TS")]
    # with four kings worth 50, the quinte is the better single meld
    best = best_declaration(cards("9S TS JS QS KS KH KD KC"), RULES.replace(carre_minor=50))
    assert described(best) == [("quinte", 100, "9S JS KS QS TS")]


# --- checking ---------------------------------------------------------------------

HAND = cards("JS JH JD JC 8S 9S TS 7D")


@pytest.mark.parametrize("kind, text, others, reason", [
    (T, "8S 9S TS", [], "not-maximal"),  # without the carré, 8-9-10-J is a quarte
    (Q4, "8S 9S TS JS", [], None),
    (T, "8S 9S TS", [(C, "JS JH JD JC")], None),  # §9.6
    (T, "9S TS JS", [(C, "JS JH JD JC")], "card-reused"),
    (Q4, "8S 9S TS", [], "wrong-kind"),
    (T, "8S 9S 7D", [], "not-a-sequence"),
    (T, "JS JH JD", [], "not-a-sequence"),
    (T, "8S 9S", [], "too-short"),
    (T, "QS KS AS", [], "not-held"),
    (C, "JS JH JD JC", [], None),
    (C, "JS JH JD 7D", [], "not-a-carre"),
])
def test_check_announcement(kind, text, others, reason):
    result = check_announcement(HAND, kind, cards(text), RULES,
                                others=[(k, cards(t)) for k, t in others])
    if reason is None:
        assert isinstance(result, Meld) and result.kind is kind
    else:
        assert isinstance(result, MeldProblem) and result.reason == reason, result


def test_tierce_out_of_a_quarte_is_not_maximal():
    result = check_announcement(cards("7H 8H 9H TH"), T, cards("8H 9H TH"), RULES)
    assert isinstance(result, MeldProblem) and result.reason == "not-maximal"


def test_check_announcement_under_rules_without_melds():
    result = check_announcement(HAND, C, cards("JS JH JD JC"), Rules.parse("ffb"))
    assert isinstance(result, MeldProblem) and result.reason == "melds-off"


def test_check_declaration_counts_a_later_carre_for_maximality():
    results = check_declaration(HAND, [(T, cards("8S 9S TS")), (C, cards("JS JH JD JC"))], RULES)
    assert [type(r) for r in results] == [Meld, Meld]
    results = check_declaration(HAND, [(C, cards("JS JH JD JC")), (C, cards("JS JH JD JC"))], RULES)
    assert isinstance(results[1], MeldProblem) and results[1].reason == "card-reused"


# --- comparing --------------------------------------------------------------------

def outcome(melds: dict[Seat, list[Meld]], denomination: str = "H", first: Seat = N, rules: Rules = RULES):
    return score_melds(melds, Denomination.parse(denomination), first, rules)


def test_higher_value_wins_and_the_side_scores_all_its_melds():
    result = outcome({N: [meld(T, "QH KH AH")], S: [meld(T, "7C 8C 9C")], E: [meld(Q4, "7S 8S 9S TS")]})
    assert result.team is Team.EW and result.points == (0, 50)


def test_best_meld_side_scores_its_partner_melds_too():
    result = outcome({N: [meld(Q4, "7H 8H 9H TH")], S: [meld(T, "7C 8C 9C")], E: [meld(T, "QS KS AS")]})
    assert result.team is Team.NS and result.points == (70, 0) and result.of(Team.NS) == 70


def test_carre_beats_sequence_of_equal_value():
    result = outcome({N: [meld(Q5, "TH JH QH KH AH")], E: [meld(C, "AS AH AD AC")]})
    assert result.team is Team.EW and result.points == (0, 100)


@pytest.mark.parametrize("ns, ew, winner", [
    ("TS TH TD TC", "KS KH KD KC", Team.NS),  # 10 above K
    ("QS QH QD QC", "KS KH KD KC", Team.EW),
    ("AS AH AD AC", "TS TH TD TC", Team.NS),
    ("9S 9H 9D 9C", "JS JH JD JC", Team.EW),  # 150 against 200
])
def test_carre_ranks(ns, ew, winner):
    assert outcome({N: [meld(C, ns)], E: [meld(C, ew)]}).team is winner


def test_sequences_by_top_card_then_trump():
    assert outcome({N: [meld(T, "JS QS KS")], E: [meld(T, "TC JC QC")]}).team is Team.NS
    # same top card: the trump sequence wins (hearts trump)
    assert outcome({N: [meld(T, "JS QS KS")], E: [meld(T, "JH QH KH")]}).team is Team.EW
    # length does not count once the values are equal (§9.8): quinte to K beats a longer quinte to Q
    six = meld(Q5, "7C 8C 9C TC JC QC")
    assert outcome({N: [meld(Q5, "9S TS JS QS KS")], E: [six]}, "SA").team is Team.NS


@pytest.mark.parametrize("denomination", ["TA", "SA"])
def test_equal_sequences_at_ta_and_sa_tie(denomination):
    result = outcome({N: [meld(T, "JS QS KS")], E: [meld(T, "JH QH KH")]}, denomination)
    assert result.team is None and result.points == (0, 0)


@pytest.mark.parametrize("first, winner", [(N, Team.NS), (W, Team.EW), (S, Team.EW), (E, Team.EW)])
def test_meld_tie_first(first, winner):
    # counter-clockwise: from N the order is N W S E, from W it is W S E N, from S it is S E N W
    rules = RULES.replace(meld_tie="first")
    result = outcome({N: [meld(T, "JS QS KS")], E: [meld(T, "JC QC KC")]}, "H", first, rules)
    assert result.team is winner


def test_meld_tie_first_counts_only_tied_holders():
    # counter-clockwise from W: W, S, E, N. S holds only a lower tierce; E is the first tied holder.
    rules = RULES.replace(meld_tie="first")
    result = outcome({N: [meld(T, "JS QS KS")], S: [meld(T, "7D 8D 9D")], E: [meld(T, "JC QC KC")]},
                     "H", W, rules)
    assert result.team is Team.EW and result.points == (0, 20)


def test_team_sum():
    rules = Rules.parse("korean")
    melds = {N: [meld(T, "JS QS KS", rules)], S: [meld(T, "7D 8D 9D", rules)], E: [meld(Q4, "7C 8C 9C TC", rules)]}
    result = outcome(melds, rules=rules)
    assert result.team is Team.EW and result.points == (0, 50)
    melds[S] = [meld(Q4, "7D 8D 9D TD", rules)]
    assert outcome(melds, rules=rules).points == (70, 0)


def test_team_sum_tie_none_and_first():
    rules = Rules.parse("korean")  # clockwise
    melds = {S: [meld(T, "JS QS KS", rules)], W: [meld(T, "7C 8C 9C", rules)]}
    assert outcome(melds, first=N, rules=rules).team is None
    first_rules = rules.replace(meld_tie="first")
    # §9.8: the first player in trick 1 who announced any meld: from N clockwise N E S W -> S
    assert outcome(melds, first=N, rules=first_rules).team is Team.NS
    assert outcome(melds, first=W, rules=first_rules).team is Team.EW


# --- property: the one check on masks against a plain transcription of §5 and §9.6 -----------

def _reference_announcement(hand: set[Card], kind: MeldKind, cards: tuple[Card, ...], rules: Rules,
                            others: list[tuple[MeldKind, tuple[Card, ...]]]) -> Meld | MeldProblem:
    """One announcement, checked on Card objects in the order of the rules' text."""
    shown = " ".join(c.pretty() for c in cards)
    if not rules.melds:
        return MeldProblem("melds-off", kind, cards, "announcements do not score under these rules")
    missing = [c for c in cards if c not in hand]
    if missing:
        return MeldProblem("not-held", kind, cards,
                           f"{kind.value} {shown}: {' '.join(c.pretty() for c in missing)} not held")
    if len(set(cards)) != len(cards) or any(c in other for _, other in others for c in cards):
        return MeldProblem("card-reused", kind, cards, f"{kind.value} {shown}: a card serves in one meld only")
    ranks = sorted(c.rank.index for c in cards)
    if kind is C:
        if len(cards) != 4 or len(set(ranks)) != 1 or cards[0].rank.value in "78":
            return MeldProblem("not-a-carre", kind, cards,
                               f"{shown} is not four jacks, nines, aces, tens, kings or queens")
        return next(m for m in find_melds(cards, rules) if m.kind is C)
    if len(cards) < 3:
        return MeldProblem("too-short", kind, cards, f"{kind.value} {shown}: a sequence has at least 3 cards")
    if len({c.suit for c in cards}) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return MeldProblem("not-a-sequence", kind, cards, f"{shown} is not a sequence of one suit")
    length_kind = T if len(cards) == 3 else Q4 if len(cards) == 4 else Q5
    if length_kind is not kind:
        return MeldProblem("wrong-kind", kind, cards, f"{shown} is a {length_kind.value}, not a {kind.value}")
    set_aside = {c for other_kind, other in others if other_kind is C for c in other}
    runs = [m for m in find_melds(hand - set_aside, rules) if m.kind is not C]
    meld = next((m for m in runs if set(m.cards) == set(cards)), None)
    if meld is None:
        return MeldProblem("not-maximal", kind, cards, f"{shown} is part of a longer run: a run is announced whole")
    return meld


def _reference_declaration(hand, announced, rules):
    """Each announcement against the ones before it and, unless a carré, every carré announced."""
    carres = [(k, c) for k, c in announced if k is C]
    return tuple(_reference_announcement(set(hand), kind, cards, rules,
                                         announced[:i] + ([] if kind is C else carres))
                 for i, (kind, cards) in enumerate(announced))


@pytest.mark.parametrize("profile", ["ffb-annonces", "ffb-annonces; carre_minor=50", "ffb"])
def test_the_mask_check_agrees_with_the_rules_text(profile):
    rules = Rules.parse(profile)
    rng = random.Random(profile)
    kinds = [T, Q4, Q5, C]
    problems = set()
    for _ in range(3000):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        # hands rich in melds: a run or a carré dealt in now and then
        hand = deck[:8]
        if rng.random() < 0.5:
            suit, low = rng.randrange(4), rng.randrange(5)
            hand = list(dict.fromkeys([ALL_CARDS[8 * suit + r] for r in range(low, low + rng.randrange(3, 9 - low))]
                                      + hand))[:8]
        if rng.random() < 0.3:
            rank = rng.randrange(2, 8)
            hand = list(dict.fromkeys([ALL_CARDS[8 * s + rank] for s in range(4)] + hand))[:8]
        announced = []
        for meld in find_melds(hand, rules):
            if rng.random() < 0.7:
                cards = list(meld.cards)
                if rng.random() < 0.3 and len(cards) > 3:  # a part of a run only
                    cards = cards[:-1] if rng.random() < 0.5 else cards[1:]
                kind = meld.kind if rng.random() < 0.85 else rng.choice(kinds)
                announced.append((kind, tuple(cards)))
        if rng.random() < 0.4:  # anything at all: cards held or not, repeated, a random kind
            announced.append((rng.choice(kinds), tuple(rng.choice(deck) for _ in range(rng.randrange(2, 6)))))
        rng.shuffle(announced)
        expected = _reference_declaration(hand, announced, rules)
        assert check_declaration(hand, announced, rules) == expected, (hand, announced)
        for i, (kind, cards) in enumerate(announced):
            others = announced[:i] + [a for a in announced[i + 1:] if a[0] is C and kind is not C]
            assert check_announcement(hand, kind, cards, rules, others=others) == expected[i]
        problems.update(r.reason for r in expected if isinstance(r, MeldProblem))
    assert problems == ({"melds-off"} if profile == "ffb" else set(MELD_PROBLEMS) - {"melds-off"})
