"""Explaining a difference between a recorded Result and the rescored deal.

Only runs when the two differ. The message gives the difference per side and the
rescored breakdown item by item (card points, last trick, belote, melds, capot,
multiplier, rounding), then tries the usual slips one at a time (belote left out
or counted without its marks, melds left out, no last-trick bonus, no rounding,
the coinche multiplier forgotten, the other capot rule, the pair written EW-NS,
another profile of the same game) and names those that give the recorded numbers.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Callable, Iterator

from ..engine.play import PlayState
from ..engine.rules import PROFILES, Rules, RulesError, rules_from_text
from ..engine.scoring import DealScore, FinishedDeal, score_deal


def every_belote(state: PlayState | None) -> tuple[int, int]:
    """Belote points (NS, EW) of every trump K+Q held in one hand, said or not (for
    ``compare_result``: a belote counted without its marks)."""
    sides = [belote.seat.index & 1 for belote in state.belotes()] if state is not None else []
    return 20 * sides.count(0), 20 * sides.count(1)


def compare_result(recorded: tuple[int, int], deal: FinishedDeal, score: DealScore, rules: Rules,
                   all_belotes: tuple[int, int]) -> str:
    """The message of a ``result-mismatch``: what differs and what would explain it."""
    ns, ew = score.scores
    head = (f"Result {recorded[0]}-{recorded[1]} but the deal rescores to {ns}-{ew} "
            f"(NS {recorded[0] - ns:+d}, EW {recorded[1] - ew:+d})")
    matches = [why for why, scores in _variants(deal, rules, all_belotes) if scores == recorded]
    if (ew, ns) == recorded:
        matches.insert(0, "with the pair written EW-NS")
    text = f"{head}: {breakdown(score)}"
    if matches:
        text += "; the recorded result matches the deal scored " + " or ".join(dict.fromkeys(matches))
    return text


def breakdown(score: DealScore) -> str:
    """One line per side: cards + last trick, belote, melds, total, rounding, then the formula."""
    parts = []
    for side in (score.ns, score.ew):
        if side is None:
            continue
        rounding = f", rounding {side.rounding:+d}" if side.rounding else ""
        parts.append(f"{side.team} {side.role} cards {side.card_points} + last trick {side.last_trick} = "
                     f"{side.points}, belote {side.belote}, melds {side.melds}, total {side.total}{rounding}, "
                     f"score {side.score}")
    extra = []
    if score.capot:
        extra.append(f"capot by {score.capot}")
    if score.multiplier != 1:
        extra.append(f"multiplier x{score.multiplier}")
    if score.contract_value:
        extra.append(f"contract {score.contract_value}")
    extra.append(f"{score.outcome}: {score.formula}")
    return "; ".join(parts + extra)


def _under_profile(deal: FinishedDeal, profile: str) -> tuple[FinishedDeal, Rules]:
    return deal, rules_from_text(profile)


def _variants(deal: FinishedDeal, rules: Rules,
              all_belotes: tuple[int, int]) -> Iterator[tuple[str, tuple[int, int]]]:
    """(description, (NS, EW)) of the deal scored with one usual slip."""
    def replace(value, **changes):  # FinishedDeal is a NamedTuple, Contract a dataclass
        return value._replace(**changes) if hasattr(value, "_replace") else dataclasses.replace(value, **changes)

    tries: list[tuple[str, Callable[[], tuple[FinishedDeal, Rules]]]] = [
        ("without belote", lambda: (replace(deal, belote=(0, 0)), rules)),
        ("with every belote counted (marks ignored)", lambda: (replace(deal, belote=all_belotes), rules)),
        ("without melds", lambda: (replace(deal, melds={}), rules)),
        ("without the last-trick bonus", lambda: (replace(deal, last_trick=None), rules)),
        ("without rounding", lambda: (deal, rules.replace(rounding="none"))),
        ("rounded to the nearest 10", lambda: (deal, rules.replace(rounding="nearest10_5up"))),
        ("with capot_score=flat250", lambda: (deal, rules.replace(capot_score="flat250"))),
        ("with capot_score=der100", lambda: (deal, rules.replace(capot_score="der100"))),
    ]
    if deal.melds and rules.melds:  # the seed pages differ on whether melds help make a contract
        flipped = not rules.melds_in_contract
        tries.append((f"with melds_in_contract={str(flipped).lower()}",
                      lambda: (deal, rules.replace(melds_in_contract=flipped))))
    if deal.contract is not None and deal.contract.doubling:
        tries.append(("without the coinche multiplier",
                      lambda: (replace(deal, contract=replace(deal.contract, doubling=0)), rules)))
    for profile, options in PROFILES.items():
        if options.get("game", "classic") == rules.game and profile != rules.profile:
            tries.append((f"under the {profile} profile", partial(_under_profile, deal, profile)))
    for description, make in tries:
        try:
            variant_deal, variant_rules = make()
        except RulesError:
            continue
        yield description, score_deal(variant_deal, variant_rules).scores
