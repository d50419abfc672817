"""The double-dummy solver against colver 0.11.1's, on the same positions in the same run.

colver (PyPI, a Rust contrée engine: ``pip install colver==0.11.1``) is a benchmark-only
optional dependency, named nowhere in pyproject.toml: without it this script says so and
exits 0. Its conventions are our rules ``ffb-contree; direction=cw;
multiplier_scope=base_and_contract; failure_base=162; surcoinche_factor=3; rounding=none``.
Its card ``i`` is suit ``i // 8`` (S H D C, as ours) and, inside the suit, rank
7 8 9 J Q K 10 A: ours is ``8 * (i // 8) + RANKS[i % 8]``.

For deal ``k`` (0 .. ``--deals`` - 1): ``colver.Env.deal(dealer=0, seed=k)``, an 80 contract
of North-South in suit ``k % 4``, the play from colver's first leader; our ``PlayState`` of
the same hands, ``Contract(N, suit, 80)``. Then:

* positions at the first lead of tricks 1, 2 and 4 (random legal cards in between, the same
  cards played in both engines: ``Env.step``), each solved by both: colver's
  ``Env.solve_scores()`` and a fresh ``Solver(state).solve(state)``, timed on the process's
  CPU clock (other load on a shared machine distorts it less); the values must agree: for
  every legal card NS's final card points (colver's ``scores``, our ``CardValue.points[0]``),
  and the legal cards themselves;
* a whole deal analysed: every position of all 32 cards along our best line (one ``Solver``
  for the deal; colver's ``solve_scores`` at the same positions, checked the same way),
  the seconds per deal.

It prints the median and worst time of each side per trick and their ratios ours / colver
(median / median, worst / worst), and the whole deals' median; ``--json`` prints the same
figures as one JSON document. Every disagreement is printed, and the exit status is 1 if
there was one.

    python3 bench/bench_solver.py [--deals N] [--whole-deals N] [--json] [--source]

``--whole-deals`` (default: every deal) limits how many deals are analysed whole. Pure
Python (an editable install, ``--source``) is far slower than a compiled install: try
``--deals 3`` there.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import measured  # noqa: E402  (the installed package, else the checkout: bench/measured.py)

from notation.values import ALL_CARDS, SEATS, Denomination, Seat  # noqa: E402
from replayer.engine.contract import Contract  # noqa: E402
from replayer.engine.play import PlayState  # noqa: E402
from replayer.engine.rules import Rules  # noqa: E402
from replayer.engine.solver import Solver  # noqa: E402

COLVER_VERSION = "0.11.1"
RULES_TEXT = ("ffb-contree; direction=cw; multiplier_scope=base_and_contract; failure_base=162; "
              "surcoinche_factor=3; rounding=none")
RANKS = [0, 1, 2, 4, 5, 6, 3, 7]  # colver's rank order 7 8 9 J Q K 10 A, as our rank indexes
TO_OURS = [8 * (i // 8) + RANKS[i % 8] for i in range(32)]
TO_COLVER = [TO_OURS.index(card) for card in range(32)]
SUITS = (Denomination.SPADES, Denomination.HEARTS, Denomination.DIAMONDS, Denomination.CLUBS)
TRICKS = (1, 2, 4)  # positions timed: the first lead of these tricks


class Run:
    """The figures and the disagreements of one run."""

    def __init__(self) -> None:
        self.times: dict[int, tuple[list[float], list[float]]] = {trick: ([], []) for trick in TRICKS}
        self.nodes: dict[int, list[int]] = {trick: [] for trick in TRICKS}
        self.whole: tuple[list[float], list[float]] = ([], [])
        self.disagreements: list[str] = []

    def disagree(self, text: str, quiet: bool) -> None:
        self.disagreements.append(text)
        print(f"DISAGREEMENT {text}", file=sys.stderr if quiet else sys.stdout, flush=True)


def cards_text(cards) -> str:
    return " ".join(str(ALL_CARDS[card]) for card in sorted(cards))


def compare(run: Run, where: str, theirs: dict[int, int], ours: dict[int, int], quiet: bool) -> None:
    """colver's NS card points per legal card (our indexes) against ours."""
    if set(theirs) != set(ours):
        run.disagree(f"{where}: legal cards: colver {cards_text(theirs)}, ours {cards_text(ours)}", quiet)
    for card in sorted(set(theirs) & set(ours)):
        if theirs[card] != ours[card]:
            run.disagree(f"{where}: {ALL_CARDS[card]}: NS card points colver {theirs[card]}, ours {ours[card]}", quiet)


def colver_solve(env) -> tuple[dict[int, int], float]:
    start = time.process_time()
    result = env.solve_scores()
    elapsed = time.process_time() - start
    return {TO_OURS[card]: points for card, points in result["scores"]}, elapsed


def ours_of(solution) -> dict[int, int]:
    return {value.card.index: value.points[0] for value in solution.values}


def new_deal(colver, rules: Rules, k: int):
    env = colver.Env.deal(dealer=0, seed=k)
    env.set_contract(k % 4, 80, 0, 0)  # trump k % 4, 80, North-South, no coinche
    env.set_phase_playing()
    hands = tuple(sum(1 << TO_OURS[card] for card in hand) for hand in env.get_hands())
    state = PlayState(hands, Contract(Seat.NORTH, SUITS[k % 4], 80), rules, leader=SEATS[env.current_player()])
    return env, state


def step(env, state: PlayState, card: int) -> None:
    """Play our card ``card`` in both engines."""
    state.push(ALL_CARDS[card])
    env.step(TO_COLVER[card])


def check_same_position(run: Run, where: str, env, state: PlayState, quiet: bool) -> None:
    if SEATS[env.current_player()] is not state.turn:
        run.disagree(f"{where}: to play: colver {SEATS[env.current_player()]}, ours {state.turn}", quiet)
    legal = {TO_OURS[action] for action in env.legal_actions()}
    ours = {card.index for card in state.legal_cards()}
    if legal != ours:
        run.disagree(f"{where}: legal cards: colver {cards_text(legal)}, ours {cards_text(ours)}", quiet)


def positions(colver, rules: Rules, run: Run, k: int, quiet: bool) -> None:
    """The first lead of tricks 1, 2 and 4 of deal ``k``, random legal cards in between."""
    env, state = new_deal(colver, rules, k)
    check_same_position(run, f"deal {k} card 1", env, state, quiet)
    rng = random.Random(k)
    for trick in TRICKS:
        while state.trick_count < trick - 1:
            step(env, state, rng.choice(sorted(card.index for card in state.legal_cards())))
            check_same_position(run, f"deal {k} card {len(state.plays) + 1}", env, state, quiet)
        where = f"deal {k} trick {trick}"
        theirs, colver_seconds = colver_solve(env)
        start = time.process_time()
        solution = Solver(state).solve(state)
        our_seconds = time.process_time() - start
        run.times[trick][0].append(colver_seconds)
        run.times[trick][1].append(our_seconds)
        run.nodes[trick].append(solution.nodes)
        compare(run, where, theirs, ours_of(solution), quiet)


def whole_deal(colver, rules: Rules, run: Run, k: int, quiet: bool) -> None:
    """Every position of deal ``k`` along our best line: one Solver for the deal."""
    env, state = new_deal(colver, rules, k)
    solver: Solver | None = None
    ours_total = colver_total = 0.0
    while not state.is_over:
        where = f"deal {k} whole, card {len(state.plays) + 1}"
        theirs, colver_seconds = colver_solve(env)
        start = time.process_time()
        if solver is None:
            solver = Solver(state)
        solution = solver.solve(state)
        ours_total += time.process_time() - start
        colver_total += colver_seconds
        compare(run, where, theirs, ours_of(solution), quiet)
        step(env, state, solution.best[0].index)
    run.whole[0].append(colver_total)
    run.whole[1].append(ours_total)


def ratio(ours: float, theirs: float) -> float | None:
    return round(ours / theirs, 2) if theirs > 0 else None


def figures(run: Run, describe: str, version: str, deals: int, whole_deals: int) -> dict:
    result: dict = {"measured": describe, "colver": version, "rules": RULES_TEXT, "deals": deals,
                    "clock": "process CPU time", "positions": {}, "whole_deal": None,
                    "disagreements": run.disagreements}
    for trick in TRICKS:
        theirs, ours = run.times[trick]
        if not theirs:
            continue
        result["positions"][f"trick {trick}"] = {
            "colver_median_ms": round(statistics.median(theirs) * 1000, 2),
            "colver_worst_ms": round(max(theirs) * 1000, 2),
            "ours_median_ms": round(statistics.median(ours) * 1000, 2),
            "ours_worst_ms": round(max(ours) * 1000, 2),
            "ratio_median": ratio(statistics.median(ours), statistics.median(theirs)),
            "ratio_worst": ratio(max(ours), max(theirs)),
            "ours_nodes_median": statistics.median(run.nodes[trick]),
        }
    if run.whole[0]:
        theirs, ours = run.whole
        result["whole_deal"] = {
            "deals": whole_deals,
            "colver_median_s": round(statistics.median(theirs), 3),
            "colver_worst_s": round(max(theirs), 3),
            "ours_median_s": round(statistics.median(ours), 3),
            "ours_worst_s": round(max(ours), 3),
            "ratio_median": ratio(statistics.median(ours), statistics.median(theirs)),
        }
    return result


def print_figures(result: dict) -> None:
    print(f"colver {result['colver']}; rules {result['rules']}; {result['deals']} deals; times in "
          f"{result['clock']}")
    print(f"{'position':<10}{'colver median':>15}{'worst':>11}{'ours median':>15}{'worst':>11}"
          f"{'ours/colver median':>20}{'worst':>8}")
    for name, row in result["positions"].items():
        print(f"{name:<10}{row['colver_median_ms']:>12.1f} ms{row['colver_worst_ms']:>8.1f} ms"
              f"{row['ours_median_ms']:>12.1f} ms{row['ours_worst_ms']:>8.1f} ms"
              f"{row['ratio_median']!s:>19}x{row['ratio_worst']!s:>7}x")
    whole = result["whole_deal"]
    if whole:
        print(f"whole deal analysed (32 positions along our best line, {whole['deals']} deals): "
              f"colver median {whole['colver_median_s']:.3f} s (worst {whole['colver_worst_s']:.3f} s), "
              f"ours median {whole['ours_median_s']:.3f} s (worst {whole['ours_worst_s']:.3f} s), "
              f"ours/colver {whole['ratio_median']}x")
    count = len(result["disagreements"])
    print(f"{count} disagreement{'s' if count != 1 else ''} with colver" if count else
          "the values agree with colver's at every position")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30, help="deals (default 30)")
    parser.add_argument("--whole-deals", type=int, default=None,
                        help="deals analysed whole, every position of the 32 cards (default: all)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    try:
        import colver
    except ImportError:
        print(f"colver is not installed: this benchmark compares the solver with colver {COLVER_VERSION} "
              f"(pip install colver=={COLVER_VERSION}); nothing measured.")
        return 0
    version = getattr(colver, "__version__", "?")
    describe = measured.describe()
    if not args.json:
        print(describe)
        if version != COLVER_VERSION:
            print(f"note: colver {version} installed, the figures of issue 13 are of {COLVER_VERSION}")
    rules = Rules.parse(RULES_TEXT)
    whole_deals = min(args.deals, args.whole_deals if args.whole_deals is not None else args.deals)
    run = Run()
    for k in range(args.deals):
        positions(colver, rules, run, k, args.json)
    for k in range(whole_deals):
        whole_deal(colver, rules, run, k, args.json)
    result = figures(run, describe, version, args.deals, whole_deals)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_figures(result)
    return 1 if run.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
