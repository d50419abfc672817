"""Print the generated parts of docs/rules.md: the profile table and one worked example
per profile, made by the random deal generator with fixed seeds, so the examples are exact.

    python3 docs/make_rules_examples.py           # print the Markdown
    python3 docs/make_rules_examples.py --write   # replace the generated blocks of docs/rules.md

Each example is the first seed (from 1 up) whose deal shows what the profile is about
(``WANTED`` says what), dealt by North with void deals dealt again.
"""

from __future__ import annotations

import random
import re
import sys
from itertools import count
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from notation.values import SEATS, CallKind, Card, Denomination, Seat, Suit  # noqa: E402
from replayer.engine.generator import GeneratedDeal, generate_deal  # noqa: E402
from replayer.engine.melds import score_melds  # noqa: E402
from replayer.engine.play import PlayState  # noqa: E402
from replayer.engine.rules import (GAME_DEFAULTS, OPTION_NAMES, PROFILE_DESCRIPTIONS, PROFILES,  # noqa: E402
                                   Rules)
from replayer.engine.scoring import Outcome  # noqa: E402

DOC = ROOT / "docs" / "rules.md"


def _said(deal: GeneratedDeal) -> bool:
    return any(entry.declaration for trick in deal.tricks for entry in trick.plays)


def _both_sides_announce(deal: GeneratedDeal) -> bool:
    return {a.seat.team for a in deal.announcements} == {Seat.NORTH.team, Seat.EAST.team}


WANTED: dict[str, tuple[str, Callable[[GeneratedDeal], bool]]] = {
    "ffb": ("a belote said and a contract made",
            lambda d: _said(d) and d.score.outcome is Outcome.MADE),
    "ffb-annonces": ("a suit named in round 2 and announcements",
                     lambda d: len(d.calls) > 4 and bool(d.announcements)),
    "ffb-coinche": ("a coinched contract and announcements",
                    lambda d: d.contract.doubling == 1 and bool(d.announcements)),
    "ffb-contree": ("a failed contract with a belote (not kept on failure)",
                    lambda d: d.score.outcome is Outcome.FAILED and _said(d)),
    "pagat-coinche": ("an all-trumps contract",
                      lambda d: d.contract.denomination is Denomination.ALL_TRUMPS),
    "namu-classic": ("a contract made, clockwise, the dealer leading",
                     lambda d: d.score.outcome is Outcome.MADE and _said(d)),
    "namu-annonces": ("announcements by both sides (team sums compared)", _both_sides_announce),
    "namu-coinche": ("a coinched contract (twice what the takers make)",
                     lambda d: d.contract.doubling == 1 and d.score.outcome is Outcome.MADE),
    "club-classic": ("a failed contract whose takers keep their announcements",
                     lambda d: d.score.outcome is Outcome.FAILED and bool(d.announcements)
                     and d.announcements[0].seat.team is d.contract.taker.team),
    "sata-classic": ("SA or TA named in round 2",
                     lambda d: d.contract.denomination in (Denomination.NO_TRUMPS, Denomination.ALL_TRUMPS)),
    "sata-coinche": ("a coinche that ends the auction",
                     lambda d: d.contract.doubling == 1),
    "club-coinche": ("a bid off the tens",
                     lambda d: any(call.is_bid and call.value is not None and call.value % 10
                                   for _, call in d.calls)),
}
# The profiles of section 8's first table; the seed pages' profiles have a table of their own.
BOOK_PROFILES = ("ffb", "ffb-annonces", "ffb-coinche", "ffb-contree", "pagat-coinche")


def find_example(profile: str) -> tuple[int, GeneratedDeal]:
    rules = Rules.parse(profile)
    wanted = WANTED[profile][1]
    for seed in count(1):
        deal = generate_deal(random.Random(seed), rules, Seat.NORTH, redeal_void=True)
        if wanted(deal):
            return seed, deal
    raise AssertionError("unreachable")


# --- formatting ------------------------------------------------------------------------------

def _cards(cards) -> str:
    return " ".join(card.pretty() for card in cards)


def _call(call) -> str:
    return f"names {call.pretty()}" if call.kind is CallKind.NAME else call.pretty()


def _hand_row(seat: Seat, cards: tuple[Card, ...]) -> str:
    suits = [" ".join(c.pretty()[:-1] for c in cards if c.suit is suit) or "-" for suit in Suit]
    return f"| {seat.full_name} | " + " | ".join(suits) + " |"


def example(profile: str) -> str:
    seed, deal = find_example(profile)
    rules = deal.rules
    contract = deal.contract
    lines = [f"### `{profile}`: {WANTED[profile][0]}", "",
             f"`generate_deal(random.Random({seed}), Rules.parse(\"{profile}\"), Seat.NORTH, redeal_void=True)`;"
             f" dealer North.", "",
             "| hand | " + " | ".join(s.symbol for s in Suit) + " |", "|---|---|---|---|---|"]
    lines += [_hand_row(seat, deal.hand(seat)) for seat in SEATS]
    lines.append("")
    if deal.turned is not None:
        lines.append(f"Turned card: {deal.turned.pretty()}.")
    word = "Taking" if deal.turned is not None else "Auction"
    lines.append(f"{word}: " + ", ".join(f"{seat} {_call(call)}" for seat, call in deal.calls) + ".")
    lines.append(f"Contract: {contract.pretty()}.")
    if deal.announcements:
        outcome = score_melds(dict(deal.melds), contract.denomination, _first_leader(deal), rules)
        shown = "; ".join(f"{a.seat} {a.kind} {_cards(a.cards)}" for a in deal.announcements)
        scorer = f"{outcome.team} scores {outcome.of(outcome.team)}" if outcome.team else "nobody scores"
        lines.append(f"Announcements: {shown} ({scorer}).")
    lines += ["", "| trick | cards in play order | winner | points |", "|---|---|---|---|"]
    state = PlayState(dict(zip(SEATS, deal.hands)), contract, rules, dealer=deal.dealer)
    for number, trick in enumerate(deal.tricks, 1):
        for entry in trick.plays:
            state.push(entry.card, entry.declaration)
        played = state.tricks[-1]
        cards = ", ".join(f"{e.seat} {e.card.pretty()}" + (f" ({e.declaration})" if e.declaration else "")
                          for e in trick.plays)
        lines.append(f"| {number} | {cards} | {played.winner} | {played.points} |")
    lines += ["", "Score:", ""] + [f"- {line}" for line in deal.score.lines()]
    return "\n".join(lines)


def _first_leader(deal: GeneratedDeal) -> Seat:
    return deal.tricks[0].plays[0].seat


def profile_table(profiles: tuple[str, ...]) -> str:
    """Every option that one of ``profiles`` sets, with each profile's value ("-": the default)."""
    names = [n for n in OPTION_NAMES if any(n in PROFILES[p] for p in profiles) or n in GAME_DEFAULTS]
    lines = ["| option | " + " | ".join(profiles) + " |", "|---" * (len(profiles) + 1) + "|"]
    resolved = {p: Rules.parse(p) for p in profiles}
    for name in names:
        cells = []
        for profile in profiles:
            value = getattr(resolved[profile], name)
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            cells.append(shown if name in PROFILES[profile] or name in GAME_DEFAULTS else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"- `{profile}`: {PROFILE_DESCRIPTIONS[profile]}" for profile in profiles]
    return "\n".join(lines)


def seed_profiles() -> tuple[str, ...]:
    return tuple(p for p in PROFILES if p not in BOOK_PROFILES)


BLOCKS: dict[str, Callable[[], str]] = {
    "profiles": lambda: profile_table(BOOK_PROFILES),
    "seed-profiles": lambda: profile_table(seed_profiles()),
    "examples": lambda: "\n\n".join(example(profile) for profile in PROFILES),
}


def render(name: str) -> str:
    return BLOCKS[name]()


def write(text: str) -> str:
    """``text`` with each generated block replaced by its fresh output."""
    for name in BLOCKS:
        pattern = re.compile(rf"(<!-- generated:{name} -->\n)(?:.*?\n)?(<!-- end:{name} -->)", re.S)
        text = pattern.sub(lambda m: m.group(1) + render(name) + "\n" + m.group(2), text)
    return text


def main() -> None:
    if "--write" in sys.argv[1:]:
        DOC.write_text(write(DOC.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {DOC}")
    else:
        for name in BLOCKS:
            print(f"<!-- generated:{name} -->\n{render(name)}\n<!-- end:{name} -->\n")


if __name__ == "__main__":
    main()
