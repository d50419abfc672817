"""The double-dummy solver (``replayer/engine/solver.py``) checked against the rules engine.

* Against plain exhaustive minimax written here, through ``PlayState.apply``/``pop`` (the
  validator's move): every position of the last three tricks (each of their twelve cards)
  of random deals, under every profile of ``rules.PROFILES`` at every denomination and under
  the options of rules.md §1 and §3 one by one; every legal card's ``s`` and ``points``.
  Half the deals are chosen so that a capot is still possible (one side took the first five
  tricks): ``capot_score`` and the ±1 of ``s`` then count.
* The best line, played out through ``PlayState``, scores what the solver said; along it
  every card's value is the best value of the position it leads to, that position being
  ``PlayState``'s (its trick winner, its points): a solver that saw another trick winner
  than ``PlayState`` would value the card differently.
* The cards ``Solution.values`` lists are exactly ``PlayState.legal_cards()``.
* ``deadline``, a ``Solver`` reused across the positions of its deal, positions of another
  deal, and one end position worked out by hand.

Every random draw has a fixed seed (a string naming the case): a failure names its case and
the plays that led to it.
"""

from __future__ import annotations

import random
import time

import pytest

from notation.values import SEATS, Card, Denomination, Seat, Team
from replayer.engine.contract import Contract
from replayer.engine.generator import generate_deal
from replayer.engine.play import PlayState
from replayer.engine.rules import CHOICES, PROFILES, Rules
from replayer.engine.scoring import finished_deal, trick_points
from replayer.engine.solver import CardValue, Solution, SolveInterrupted, Solver, solve

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
SUIT_DENOMINATIONS = (Denomination.SPADES, Denomination.HEARTS, Denomination.DIAMONDS, Denomination.CLUBS)
SA, TA = Denomination.NO_TRUMPS, Denomination.ALL_TRUMPS
DENOMINATIONS = (*SUIT_DENOMINATIONS, SA, TA)

# Options of the card play and the card points (rules.md §1, §3), each changed from a profile
# where it has its other value, with the denominations where it plays a part.
VARIANTS: tuple[tuple[str, tuple[Denomination, ...]], ...] = (
    ("ffb-contree; undertrump=must", SUIT_DENOMINATIONS),
    ("ffb; undertrump=may_discard", SUIT_DENOMINATIONS),
    ("ffb; partner_exemption=false", SUIT_DENOMINATIONS),
    ("ffb; partner_exemption=false; undertrump=may_discard", SUIT_DENOMINATIONS),
    ("club-classic; partner_exemption=true", SUIT_DENOMINATIONS),
    ("ffb; trump_lead_must_beat=false", SUIT_DENOMINATIONS),
    ("sata-classic; trump_lead_must_beat=true", SUIT_DENOMINATIONS),
    ("ffb; follow_or_trump=true", SUIT_DENOMINATIONS),
    ("ffb; follow_or_trump=true; must_overtrump=false", SUIT_DENOMINATIONS),
    ("ffb; must_overtrump=false", SUIT_DENOMINATIONS),
    ("club-coinche; must_overtrump=true", SUIT_DENOMINATIONS),
    ("ffb; capot_score=flat250", DENOMINATIONS),
    ("sata-coinche; capot_score=der100", (Denomination.HEARTS, TA)),
    ("ffb; ta_must_beat=false", (TA,)),
    ("namu-coinche; ta_must_beat=true", (TA,)),
    *((f"ffb; ta_values={value}", (TA,)) for value in CHOICES["ta_values"]),
    ("ffb; ta_values=raw_scaled; capot_score=flat250", (TA,)),
    ("ffb; sa_ace=11", (SA,)),
    ("club-coinche; sa_ace=19", (SA,)),
)
PROFILE_CASES = tuple((profile, denomination) for profile in PROFILES for denomination in DENOMINATIONS)
VARIANT_CASES = tuple((text, denomination) for text, denominations in VARIANTS for denomination in denominations)

_RULES: dict[str, Rules] = {}


def rules_of(text: str) -> Rules:
    """One ``Rules`` object per text: a ``Solver`` takes only the very rules it was made with."""
    if text not in _RULES:
        _RULES[text] = Rules.parse(text)
    return _RULES[text]


def case_id(case: tuple[str, Denomination]) -> str:
    return f"{case[0]}|{case[1].value}".replace(" ", "")


# --- plain exhaustive minimax, through PlayState -------------------------------------------

def s_of(state: PlayState) -> int:
    """The solver's ``s`` of a finished play, from PlayState alone: NS card points, +10 for the
    last trick, +1 for an NS capot, -1 for an EW capot."""
    ns, _ = state.card_points()
    counts = state.trick_counts()
    capot = (counts[1] + counts[3] == 0) - (counts[0] + counts[2] == 0)
    return ns + (10 if state.last_trick_team is Team.NS else 0) + capot


def bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


class Minimax:
    """Plain exhaustive minimax: every legal card of every seat tried through ``PlayState.apply``
    and ``pop``, NS maximising ``s``, EW minimising it; a finished play scored by ``PlayState``,
    ``finished_deal`` and ``trick_points``. A node's value is kept by its whole play history
    (the same node met again from a later root of the same line is not searched twice: a
    cache, no transposition)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.values: dict[bytes, tuple[int, tuple[int, int]]] = {}

    def value(self, state: PlayState) -> tuple[int, tuple[int, int]]:
        """(s, final points (NS, EW)) under best play from ``state``."""
        key = state.moves
        known = self.values.get(key)
        if known is not None:
            return known
        if state.is_over:
            result = (s_of(state), trick_points(finished_deal(state), self.rules)[1])
        else:
            maximise = state.turn.index & 1 == 0
            best: tuple[int, tuple[int, int]] | None = None
            for card in bits(state.legal_mask()):
                state.apply(card)
                value = self.value(state)
                state.pop()
                if best is None or (value[0] > best[0] if maximise else value[0] < best[0]):
                    best = value
            assert best is not None
            result = best
        self.values[key] = result
        return result


class TrickStartMinimax:
    """Exhaustive minimax again, for deeper positions: the NS points still to come from the
    start of a trick are kept by the exact position (the four hands, the seat to lead, which
    sides have taken a trick), what PlayState says of it alone (no solver idea: no shapes,
    no equivalent cards, no bounds)."""

    def __init__(self) -> None:
        self.futures: dict[tuple, int] = {}

    def s(self, state: PlayState) -> int:
        return state.card_points()[0] + self.future(state)

    def future(self, state: PlayState) -> int:
        if state.is_over:
            return s_of(state) - state.card_points()[0]
        key = None
        if not state.current_trick:
            counts = state.trick_counts()
            won = (counts[0] + counts[2] > 0) | (counts[1] + counts[3] > 0) << 1
            key = (tuple(state.hand_mask(seat) for seat in SEATS), state.turn.index, won)
            known = self.futures.get(key)
            if known is not None:
                return known
        before = state.card_points()[0]
        maximise = state.turn.index & 1 == 0
        best: int | None = None
        for card in bits(state.legal_mask()):
            state.apply(card)
            value = state.card_points()[0] - before + self.future(state)
            state.pop()
            if best is None or (value > best if maximise else value < best):
                best = value
        assert best is not None
        if key is not None:
            self.futures[key] = best
        return best


# --- positions ------------------------------------------------------------------------------

def shuffled_state(rng: random.Random, rules: Rules, denomination: Denomination) -> PlayState:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = (sum(1 << c for c in cards[0:8]), sum(1 << c for c in cards[8:16]),
             sum(1 << c for c in cards[16:24]), sum(1 << c for c in cards[24:32]))
    return PlayState(hands, Contract(rng.choice(SEATS), denomination), rules, leader=rng.choice(SEATS))


def play_randomly(rng: random.Random, state: PlayState, count: int) -> None:
    """``count`` random legal cards."""
    for _ in range(count):
        state.apply(rng.choice(bits(state.legal_mask())))


def random_position(rng: random.Random, rules: Rules, denomination: Denomination, played: int,
                    capot_alive: bool = False) -> PlayState:
    """A random deal after ``played`` random legal cards; with ``capot_alive``, one side has
    taken every finished trick (drawn again until it has)."""
    while True:
        state = shuffled_state(rng, rules, denomination)
        play_randomly(rng, state, played)
        counts = state.trick_counts()
        if not capot_alive or counts[0] + counts[2] == 0 or counts[1] + counts[3] == 0:
            return state


def where(state: PlayState) -> str:
    """What a failure message needs to rebuild the position."""
    hands = " / ".join(" ".join(str(c) for c in sorted(state.dealt(seat), key=lambda c: c.index)) for seat in SEATS)
    plays = " ".join(f"{seat}:{card}" for seat, card in state.plays)
    return (f"rules {state.rules}, contract {state.contract.denomination.value} by {state.contract.taker}, "
            f"first leader {state.first_leader}, dealt N/E/S/W {hands}; plays {plays}")


# --- checks shared by the tests ----------------------------------------------------------------

def check_solution(state: PlayState, solution: Solution) -> None:
    """The shape of a solution: the seat in turn, exactly the legal cards, by card index, the
    best ones those of the seat's best ``s``, points that ``trick_points`` gives its deal."""
    context = where(state)
    assert solution.seat is state.turn, context
    cards = [value.card for value in solution.values]
    assert cards == sorted(state.legal_cards(), key=lambda card: card.index), context
    maximise = state.turn.index & 1 == 0
    target = (max if maximise else min)(value.s for value in solution.values)
    assert solution.best == tuple(value.card for value in solution.values if value.s == target), context
    for value in solution.values:
        assert isinstance(value, CardValue)
        assert trick_points(value.deal, state.rules)[1] == value.points, context
        assert value.deal.contract == state.contract, context


def check_against_minimax(state: PlayState, solution: Solution, minimax: Minimax) -> None:
    check_solution(state, solution)
    for value in solution.values:
        state.apply(value.card.index)
        expected = minimax.value(state)
        state.pop()
        assert (value.s, value.points) == expected, f"{value.card}: {where(state)}"


# --- the solver against minimax, the last three tricks -----------------------------------------

def last_three_tricks(case: tuple[str, Denomination], deals: int) -> None:
    """Every position of the last three tricks of ``deals`` random deals of a case, the even
    ones with a capot still possible; a fresh Solver at every position of the odd deals, one
    Solver for the whole line of the even ones."""
    text, denomination = case
    rules = rules_of(text)
    for deal in range(deals):
        rng = random.Random(f"minimax {text} {denomination.value} {deal}")
        state = random_position(rng, rules, denomination, 20, capot_alive=deal % 2 == 0)
        minimax = Minimax(rules)
        solver = Solver(state)
        while not state.is_over:
            if deal % 2:
                solver = Solver(state)
            check_against_minimax(state, solver.solve(state), minimax)
            play_randomly(rng, state, 1)


@pytest.mark.parametrize("case", PROFILE_CASES, ids=case_id)
def test_every_profile_and_denomination_agrees_with_minimax(case):
    last_three_tricks(case, 3)


@pytest.mark.parametrize("case", VARIANT_CASES, ids=case_id)
def test_every_play_option_agrees_with_minimax(case):
    last_three_tricks(case, 3)


@pytest.mark.parametrize("profile", list(PROFILES))
def test_generated_deals_agree_with_minimax(profile):
    """Deals of the engine's generator (its taking or auction, its play): every position of
    their last three tricks along the generated play."""
    rules = rules_of(profile)
    rng = random.Random(f"generated {profile}")
    for dealer in SEATS[:2]:
        deal = generate_deal(rng, rules, dealer, redeal_void=True)
        state = PlayState(dict(zip(SEATS, deal.hands)), deal.contract, rules, dealer=dealer)
        entries = deal.plays
        for entry in entries[:20]:
            state.push(entry.card, entry.declaration)
        minimax = Minimax(rules)
        solver = Solver(state)
        for entry in entries[20:]:
            check_against_minimax(state, solver.solve(state), minimax)
            state.push(entry.card, entry.declaration)
        assert state.is_over


FOUR_TRICK_CASES = (*((profile, DENOMINATIONS[i % 6]) for i, profile in enumerate(PROFILES)),
                    ("ffb; capot_score=flat250", Denomination.SPADES), ("ffb; ta_values=raw_scaled", TA),
                    ("ffb; partner_exemption=false", Denomination.HEARTS),
                    ("ffb; follow_or_trump=true; must_overtrump=false", Denomination.CLUBS))


@pytest.mark.parametrize("case", FOUR_TRICK_CASES, ids=case_id)
def test_the_last_four_tricks_agree_with_minimax(case):
    """Deeper: every position of the last four tricks of a deal where a capot is still
    possible (one Solver along the line: its table holds the earlier positions' work), every
    legal card's ``s`` against ``TrickStartMinimax``."""
    text, denomination = case
    rules = rules_of(text)
    rng = random.Random(f"four tricks {text} {denomination.value}")
    state = random_position(rng, rules, denomination, 16, capot_alive=True)
    minimax = TrickStartMinimax()
    solver = Solver(state)
    while not state.is_over:
        solution = solver.solve(state)
        check_solution(state, solution)
        for value in solution.values:
            state.apply(value.card.index)
            expected = minimax.s(state)
            state.pop()
            assert value.s == expected, f"{value.card}: {where(state)}"
        play_randomly(rng, state, 1)


def test_options_cover_the_rules():
    """The cases above cover every profile, every denomination and every value of the play
    options of rules.md §1 and §3."""
    assert {profile for profile, _ in PROFILE_CASES} == set(PROFILES)
    assert {denomination for _, denomination in PROFILE_CASES} == set(Denomination)
    seen: dict[str, set] = {}
    for text, _ in (*PROFILE_CASES, *VARIANT_CASES):
        for name, value in rules_of(text).options().items():
            seen.setdefault(name, set()).add(value)
    for name in ("undertrump", "ta_values", "capot_score"):
        assert seen[name] == set(CHOICES[name]), name
    for name in ("partner_exemption", "trump_lead_must_beat", "must_overtrump", "follow_or_trump", "ta_must_beat"):
        assert seen[name] == {True, False}, name
    assert seen["sa_ace"] == {19, 11}
    assert seen["direction"] == {"cw", "ccw"}


@pytest.mark.parametrize("denomination", DENOMINATIONS, ids=lambda d: d.value)
def test_last_trick_winners(denomination):
    """In the last trick a card's value shows its trick's winner alone: many random last
    tricks, every card of them, under rules with the trick-winner-relevant options varied."""
    for k in range(40):
        text = ("ffb", "club-coinche", "sata-coinche", "namu-classic")[k % 4]
        rules = rules_of(text)
        rng = random.Random(f"last trick {denomination.value} {k}")
        state = random_position(rng, rules, denomination, 28, capot_alive=k % 3 == 0)
        minimax = Minimax(rules)
        solver = Solver(state)
        while not state.is_over:
            check_against_minimax(state, solver.solve(state), minimax)
            play_randomly(rng, state, 1)


# --- the best line, played out through PlayState ------------------------------------------------

BEST_LINE_CASES = (*((profile, DENOMINATIONS[i % 6]) for i, profile in enumerate(PROFILES)),
                   *((text, denominations[i % len(denominations)]) for i, (text, denominations) in enumerate(VARIANTS)))


@pytest.mark.parametrize("case", BEST_LINE_CASES, ids=case_id)
def test_the_best_line_scores_what_the_solver_said(case):
    """From a position of trick 4 or 5 (any card of the trick), a best card at each step from
    successive solves, applied through PlayState to the end. The finished play, scored by
    ``finished_deal`` and ``trick_points``, is what the first solve said of its best card
    (``points``, ``s``); every solve along the line keeps that value; and at every step every
    legal card's value is the best value of the position PlayState reaches with it (its trick
    winner and points are PlayState's), the final position scored by PlayState."""
    text, denomination = case
    rules = rules_of(text)
    rng = random.Random(f"best line {text} {denomination.value}")
    state = random_position(rng, rules, denomination, rng.randrange(12, 20), capot_alive=rng.random() < 0.5)
    solver = Solver(state)
    first = solver.solve(state)
    check_solution(state, first)
    promised = first.value_of(first.best[0])
    while not state.is_over:
        solution = solver.solve(state)
        check_solution(state, solution)
        assert solution.value_of(solution.best[0]).s == promised.s, where(state)
        for value in solution.values:
            state.apply(value.card.index)
            if state.is_over:
                after = (s_of(state), trick_points(finished_deal(state), rules)[1])
            else:
                child = solver.solve(state)
                best = child.value_of(child.best[0])
                after = (best.s, best.points)
            state.pop()
            assert (value.s, value.points) == after, f"{value.card}: {where(state)}"
        state.apply(rng.choice(solution.best).index)
    deal = finished_deal(state)
    assert trick_points(deal, rules)[1] == promised.points, where(state)
    assert s_of(state) == promised.s, where(state)
    assert deal.capot == promised.deal.capot, where(state)


# --- legal cards ---------------------------------------------------------------------------------

@pytest.mark.parametrize("case", PROFILE_CASES + VARIANT_CASES[::3], ids=case_id)
def test_the_solution_lists_exactly_the_legal_cards(case):
    """At random positions from trick 4 on (any card of the trick), the cards valued are
    PlayState's legal cards, no more, no less."""
    text, denomination = case
    rules = rules_of(text)
    rng = random.Random(f"legal {text} {denomination.value}")
    state = random_position(rng, rules, denomination, rng.randrange(13, 32))
    check_solution(state, Solver(state).solve(state))


# --- the API: solve, deadline, reuse, other deals ----------------------------------------------

def comparable(solution: Solution) -> tuple:
    """A solution without its node count (which depends on what the table already held)."""
    return solution.seat, solution.values, solution.best


def test_solve_is_a_fresh_solver():
    rules = rules_of("ffb-coinche")
    state = random_position(random.Random("solve"), rules, Denomination.SPADES, 18)
    assert comparable(solve(state)) == comparable(Solver(state).solve(state))


def test_a_deadline_in_the_past_interrupts_and_the_solver_goes_on_afterwards():
    rules = rules_of("ffb")
    rng = random.Random("deadline")
    state = shuffled_state(rng, rules, Denomination.HEARTS)  # trick 1: a long search
    solver = Solver(state)
    with pytest.raises(SolveInterrupted):
        solver.solve(state, deadline=time.monotonic() - 1.0)
    with pytest.raises(SolveInterrupted):
        solve(state, deadline=time.monotonic() - 1.0)
    play_randomly(rng, state, 18)
    assert comparable(solver.solve(state)) == comparable(Solver(state).solve(state))
    assert comparable(solver.solve(state, deadline=time.monotonic() + 600)) == comparable(Solver(state).solve(state))


@pytest.mark.parametrize("case", [("ffb", Denomination.CLUBS), ("ffb-coinche", TA), ("club-coinche", SA),
                                  ("sata-coinche", Denomination.DIAMONDS)], ids=case_id)
def test_a_solver_reused_on_later_positions_agrees_with_fresh_ones(case):
    """One Solver, made at the first lead, on every position from trick 4 on in play order,
    then on the same positions backwards: the same values as a fresh Solver at each."""
    text, denomination = case
    rules = rules_of(text)
    rng = random.Random(f"reuse {text} {denomination.value}")
    state = shuffled_state(rng, rules, denomination)
    reused = Solver(state)
    play_randomly(rng, state, 12)
    positions: list[tuple[int, ...]] = []
    fresh: list[tuple] = []
    while not state.is_over:
        solution = reused.solve(state)
        fresh.append(comparable(Solver(state).solve(state)))
        assert comparable(solution) == fresh[-1], where(state)
        positions.append(tuple(card.index for _, card in state.plays))
        state.apply(rng.choice(solution.best).index)
    for played, expected in zip(reversed(positions), reversed(fresh)):
        while len(state.plays) > len(played):
            state.pop()
        assert tuple(card.index for _, card in state.plays) == played
        assert comparable(reused.solve(state)) == expected, where(state)


def test_positions_of_another_deal_are_refused():
    rules = rules_of("ffb")
    rng = random.Random("another deal")
    state = random_position(rng, rules, Denomination.HEARTS, 24)
    solver = Solver(state)
    other = random_position(rng, rules, Denomination.HEARTS, 24)
    with pytest.raises(ValueError):
        solver.solve(other)
    # the same cards under another contract or other rules: another deal too
    again = PlayState(tuple(state.hand_mask(seat) | mask_of_played(state, seat) for seat in SEATS),
                      Contract(state.contract.taker, Denomination.SPADES), rules, leader=state.first_leader)
    with pytest.raises(ValueError):
        solver.solve(again)
    looser = PlayState(tuple(state.hand_mask(seat) | mask_of_played(state, seat) for seat in SEATS),
                       state.contract, rules_of("ffb; undertrump=may_discard"), leader=state.first_leader)
    with pytest.raises(ValueError):
        solver.solve(looser)
    play_randomly(rng, state, 8)  # the end of the deal: nothing left to solve
    assert state.is_over
    with pytest.raises(ValueError):
        solver.solve(state)


def mask_of_played(state: PlayState, seat: Seat) -> int:
    return sum(1 << card.index for who, card in state.plays if who is seat)


# --- an end position worked out by hand -------------------------------------------------------------

def test_an_end_position_worked_out_by_hand():
    """ffb (counter-clockwise: N W S E), hearts trump, N takes and leads; card points of
    rules.md §1 (trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10, K 4, Q 3, J 2).

    Six tricks first (the winner in brackets):
      1. N:7D W:8D S:9D E:TD  [E, TD]  EW 10
      2. E:AD N:JD W:QD S:KD  [E, AD]  EW 11+2+3+4 = 20
      3. E:9C N:TC W:JC S:QC  [N, TC]  NS 0+10+2+3 = 15
      4. N:QH W:KH S:AH E:7H  [S, AH]  NS 3+4+11+0 = 18 (trumps led: each goes over if he can)
      5. S:7S E:QS N:KS W:8S  [N, KS]  NS 0+3+4+0 = 7
      6. N:8H W:TH S:9S E:JS  [W, TH]  EW 0+10+0+2 = 12
    NS 40, EW 42. Left: N JH 7C, W 9H AC, S AS 8C, E TS KC (70 points); W leads, then S E N.

    W leads AC: S 8C, E KC, N 7C must follow; W wins 15. Trick 8: W 9H, S AS, E TS, N JH:
      N wins 14+11+10+20 = 55 + 10 for the last trick. NS 40+65 = 105, EW 42+15 = 57.
    W leads 9H: N's JH takes it (forced: his only heart), so S gives his AS and E his KC
      (keeping TS gives E the 10 in trick 8): 14+11+4+20 = 49 to NS. Trick 8: N 7C, W AC,
      S 8C, E TS: W wins 21 + 10. NS 40+49 = 89, EW 42+31 = 73.
      (E giving TS instead: NS 55, then 7C AC 8C KC: NS 95; E keeps it to 89.)
    W plays 9H (89 < 105). After it, S: AS 89 (above); 8C: E gives KC (38 to NS), and trick 8
      N 7C, W AC, S AS, E TS goes to W: NS 40+38 = 78, EW 42+32+10 = 84 (E giving TS: 84).
    No capot is possible: both sides have taken tricks.
    """
    hands = {N: "7D JD TC 7C QH 8H JH KS", W: "8D QD JC AC KH TH 9H 8S",
             S: "9D KD QC 8C AH 7S 9S AS", E: "TD AD 9C KC 7H QS JS TS"}
    rules = rules_of("ffb")
    state = PlayState({seat: [Card.parse(c) for c in text.split()] for seat, text in hands.items()},
                      Contract(N, Denomination.HEARTS), rules, leader=N)
    plays = "7D 8D 9D TD  AD JD QD KD  9C TC JC QC  QH KH AH 7H  7S QS KS 8S  8H TH 9S JS"
    for word in plays.split():
        state.push(Card.parse(word))  # checked: every card legal
    assert [trick.winner for trick in state.tricks] == [E, E, N, S, N, W]
    assert state.card_points() == (40, 42)

    solver = Solver(state)
    solution = solver.solve(state)
    assert solution.seat is W
    got = {str(value.card): (value.s, value.points) for value in solution.values}
    assert got == {"AC": (105, (105, 57)), "9H": (89, (89, 73))}
    assert solution.best == (Card.parse("9H"),)

    state.push(Card.parse("9H"))
    solution = solver.solve(state)
    assert solution.seat is S
    got = {str(value.card): (value.s, value.points) for value in solution.values}
    assert got == {"AS": (89, (89, 73)), "8C": (78, (78, 84))}
    assert solution.best == (Card.parse("AS"),)

    # the best line to the end
    for word in ("AS", "KC", "JH", "7C", "AC", "8C", "TS"):
        best = solver.solve(state).best
        assert Card.parse(word) in best, word
        state.push(Card.parse(word))
    assert state.is_over and state.card_points() == (89, 63) and state.last_trick_team is Team.EW
    assert trick_points(finished_deal(state), rules)[1] == (89, 73)
