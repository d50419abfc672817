"""Announcements (melds): finding, checking and comparing them (rules.md §5, §9.6, §9.8).

A sequence is a maximal run of 3 or more cards of one suit in natural order
(7 8 9 10 J Q K A); a carré is four cards of one rank among J 9 A 10 K Q.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping, Sequence

from notation.values import ALL_CARDS, Card, Denomination, Rank, Seat, Suit, Team
from notation.record import MeldKind

from .contract import Contract
from .rules import Rules
from .tables import SUIT_MASKS, mask_of

_RANKS = tuple(Rank)
SEQUENCE_VALUES = {MeldKind.TIERCE: 20, MeldKind.QUARTE: 50, MeldKind.QUINTE: 100}
# Four-of-a-kind order at equal value: J > 9 > A > 10 > K > Q (7s and 8s make no meld).
CARRE_ORDER = (Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE, Rank.NINE, Rank.JACK)
MELD_PROBLEMS = ("melds-off", "not-held", "card-reused", "too-short", "not-a-sequence", "not-a-carre",
                 "wrong-kind", "not-maximal")


def carre_value(rank: Rank, rules: Rules) -> int:
    return {Rank.JACK: 200, Rank.NINE: 150, Rank.ACE: 100}.get(rank, rules.carre_minor)


def sequence_kind(length: int) -> MeldKind:
    return MeldKind.TIERCE if length == 3 else MeldKind.QUARTE if length == 4 else MeldKind.QUINTE


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld: its kind, cards (canonical order), value and what comparison needs.

    ``rank`` is the carré's rank or the sequence's top card; ``suit`` the sequence's suit.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    value: int
    rank: Rank
    suit: Suit | None = None

    @property
    def is_carre(self) -> bool:
        return self.kind is MeldKind.CARRE

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    def key(self, denomination: Denomination | None) -> tuple[int, int, int, int]:
        """Comparison key of §5 ``best_single``: value, carré over sequence, rank, trump sequence."""
        if self.is_carre:
            return (self.value, 1, CARRE_ORDER.index(self.rank), 0)
        in_trump = denomination is Denomination.ALL_TRUMPS or (
            denomination is not None and denomination.suit is self.suit)
        return (self.value, 0, self.rank.index, int(in_trump))

    def __str__(self) -> str:
        return f"{self.kind.value} {' '.join(str(c) for c in self.cards)}"


@dataclass(frozen=True, slots=True)
class MeldProblem:
    """Why an announcement is not a valid meld (reason: one of ``MELD_PROBLEMS``)."""

    reason: str
    kind: MeldKind
    cards: tuple[Card, ...]
    message: str


def _sequence(cards: Sequence[Card]) -> Meld:
    ordered = sorted(cards, key=lambda c: -c.rank.index)
    kind = sequence_kind(len(ordered))
    return Meld(kind, tuple(ordered), SEQUENCE_VALUES[kind], ordered[0].rank, ordered[0].suit)


def _carre(rank: Rank, rules: Rules) -> Meld:
    cards = tuple(Card.of(rank, suit) for suit in Suit)
    return Meld(MeldKind.CARRE, cards, carre_value(rank, rules), rank)


def _runs(cards: Iterable[Card]) -> list[Meld]:
    """The maximal runs of 3 or more cards of ``cards``."""
    present = {(c.suit, c.rank.index) for c in cards}
    runs = []
    for suit in Suit:
        rank = 0
        while rank < 8:
            length = 0
            while rank + length < 8 and (suit, rank + length) in present:
                length += 1
            if length >= 3:
                runs.append(_sequence([Card.of(_RANKS[r], suit) for r in range(rank, rank + length)]))
            rank += length + 1
    return runs


def carres_in(hand: Iterable[Card], rules: Rules) -> list[Meld]:
    """The four-of-a-kinds in ``hand`` (none of 7s or 8s: §5 lists no value for them)."""
    held = set(hand)
    return [_carre(rank, rules) for rank in CARRE_ORDER if all(Card.of(rank, s) in held for s in Suit)]


def find_melds(hand: Iterable[Card], rules: Rules) -> list[Meld]:
    """Every meld present in ``hand``: its carrés and its maximal runs."""
    cards = list(hand)
    return carres_in(cards, rules) + _runs(cards)


def declarable_sets(hand: Iterable[Card], rules: Rules) -> list[tuple[Meld, ...]]:
    """Every full declaration a player may make: a choice of carrés, then the runs left maximal."""
    cards = set(hand)
    carres = carres_in(cards, rules)
    options = []
    for size in range(len(carres) + 1):
        for chosen in combinations(carres, size):
            used = {card for meld in chosen for card in meld.cards}
            options.append(tuple(chosen) + tuple(_runs(cards - used)))
    return options


def best_declaration(hand: Iterable[Card], rules: Rules,
                     denomination: Denomination | None = None) -> tuple[Meld, ...]:
    """The non-overlapping set a player would declare: best meld first (best_single) or best sum."""
    def merit(melds: tuple[Meld, ...]) -> tuple:
        best = max((m.key(denomination) for m in melds), default=(0, 0, 0, 0))
        total = sum(m.value for m in melds)
        return (best, total) if rules.meld_compare == "best_single" else (total, best)
    return max(declarable_sets(hand, rules), key=merit)


def check_announcement(hand: Iterable[Card], kind: MeldKind, cards: Sequence[Card], rules: Rules, *,
                       others: Sequence[tuple[MeldKind, Sequence[Card]]] = ()) -> Meld | MeldProblem:
    """Check one announcement against the hand before trick 1.

    ``others`` are the player's other announcements (kind, cards) made before this one:
    they give the carrés that §9.6 takes out before the maximality test and the cards
    already used.
    """
    held = set(hand)
    cards = tuple(cards)

    def problem(reason: str, message: str) -> MeldProblem:
        return MeldProblem(reason, kind, cards, message)

    shown = " ".join(c.pretty() for c in cards)
    if not rules.melds:
        return problem("melds-off", "announcements do not score under these rules")
    missing = [c for c in cards if c not in held]
    if missing:
        return problem("not-held", f"{kind.value} {shown}: {' '.join(c.pretty() for c in missing)} not held")
    if len(set(cards)) != len(cards) or any(c in other for _, other in others for c in cards):
        return problem("card-reused", f"{kind.value} {shown}: a card serves in one meld only")
    if kind is MeldKind.CARRE:
        if len(cards) != 4 or len({c.rank for c in cards}) != 1 or cards[0].rank not in CARRE_ORDER:
            return problem("not-a-carre", f"{shown} is not four jacks, nines, aces, tens, kings or queens")
        return _carre(cards[0].rank, rules)
    if len(cards) < 3:
        return problem("too-short", f"{kind.value} {shown}: a sequence has at least 3 cards")
    ranks = sorted(c.rank.index for c in cards)
    if len({c.suit for c in cards}) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return problem("not-a-sequence", f"{shown} is not a sequence of one suit")
    if sequence_kind(len(cards)) is not kind:
        return problem("wrong-kind", f"{shown} is a {sequence_kind(len(cards)).value}, not a {kind.value}")
    carre_cards = {c for other_kind, other in others if other_kind is MeldKind.CARRE for c in other}
    meld = _sequence(cards)
    if meld not in _runs(held - carre_cards):
        return problem("not-maximal", f"{shown} is part of a longer run: a run is announced whole")
    return meld


def check_declaration(hand: Iterable[Card], announced: Sequence[tuple[MeldKind, Sequence[Card]]],
                      rules: Rules) -> tuple[Meld | MeldProblem, ...]:
    """Check a player's announcements in order; all carrés count for §9.6 whatever the order."""
    hand = list(hand)
    carres = [(k, c) for k, c in announced if k is MeldKind.CARRE]
    results: list[Meld | MeldProblem] = []
    for position, (kind, cards) in enumerate(announced):
        before = list(announced[:position])
        others = before + [c for c in carres if c not in before and c != (kind, cards)]
        results.append(check_announcement(hand, kind, cards, rules, others=before if kind is MeldKind.CARRE
                                          else others))
    return tuple(results)


@dataclass(frozen=True, slots=True)
class MeldOutcome:
    """Which side scores its melds and the meld points per side (NS, EW)."""

    team: Team | None
    points: tuple[int, int]
    best: tuple[Meld | None, Meld | None]  # each side's best meld (best_single)

    def of(self, team: Team) -> int:
        return self.points[0 if team is Team.NS else 1]


NO_MELDS = MeldOutcome(None, (0, 0), (None, None))


def score_melds(melds_by_seat: Mapping[Seat, Sequence[Meld]], contract: Contract | Denomination,
                first_player: Seat, rules: Rules) -> MeldOutcome:
    """Decide which side scores its melds (§5 ``meld_compare``, ``meld_tie``, §9.8).

    ``melds_by_seat`` holds each seat's valid announced melds; ``first_player`` leads trick 1.
    """
    denomination = contract if isinstance(contract, Denomination) else contract.denomination
    sums = [0, 0]
    best: list[Meld | None] = [None, None]
    for seat, melds in melds_by_seat.items():
        side = seat.index & 1
        sums[side] += sum(m.value for m in melds)
        for meld in melds:
            if best[side] is None or meld.key(denomination) > best[side].key(denomination):
                best[side] = meld
    if not sums[0] and not sums[1]:
        return NO_MELDS
    order = _play_order(first_player, rules)
    if rules.meld_compare == "team_sum":
        winner = _higher_side(sums[0], sums[1])
        if winner is None and rules.meld_tie == "first":
            winner = next(s.index & 1 for s in order if melds_by_seat.get(s))
    else:
        keys = [b.key(denomination) if b else (0, 0, 0, 0) for b in best]
        winner = _higher_side(keys[0], keys[1])
        if winner is None and rules.meld_tie == "first":
            top = keys[0]
            winner = next(s.index & 1 for s in order
                          if any(m.key(denomination) == top for m in melds_by_seat.get(s, ())))
    if winner is None:
        return MeldOutcome(None, (0, 0), (best[0], best[1]))
    points = (sums[0], 0) if winner == 0 else (0, sums[1])
    return MeldOutcome((Team.NS, Team.EW)[winner], points, (best[0], best[1]))


def _higher_side(ns, ew) -> int | None:
    return 0 if ns > ew else 1 if ew > ns else None


def _play_order(first: Seat, rules: Rules) -> list[Seat]:
    order = [first]
    while len(order) < 4:
        order.append(order[-1].next(rules.clockwise))
    return order


def sound_melds(hand: int, announced: Iterable[tuple[MeldKind, int, int]], rules: Rules) -> tuple[Meld, ...] | None:
    """The validator's fast path through one seat's announcements, each given as (kind,
    mask of its cards, number of cards), ``hand`` the mask of the hand as dealt: their
    melds when every one is sound (cards held, none in two announcements, a carré or a
    run of the kind declared, maximal once the announced carrés are set aside), else
    ``None`` and ``check_declaration`` says what is wrong."""
    if not rules.melds:
        return None
    table = _meld_table(rules.carre_minor)
    used = carres = 0
    melds = []
    for kind, mask, count in announced:
        meld = table.get(mask)
        if meld is None or meld.kind is not kind or mask & used or mask & ~hand or mask.bit_count() != count:
            return None
        used |= mask
        if meld.kind is MeldKind.CARRE:
            carres |= mask
        melds.append((meld, mask))
    rest = hand & ~carres
    for meld, mask in melds:
        if meld.kind is not MeldKind.CARRE:
            top = mask.bit_length() - 1
            if ((mask & -mask) >> 1 | 1 << (top + 1)) & SUIT_MASKS[top >> 3] & rest:
                return None  # part of a longer run
    return tuple(meld for meld, _ in melds)


@functools.cache
def _meld_table(carre_minor: int) -> dict[int, Meld]:
    """Every valid meld by the mask of its cards (the runs of 3 to 8 cards of a suit and
    the six carrés), as ``check_announcement`` builds it."""
    rules = Rules.make("ffb", melds=True, carre_minor=carre_minor)
    table: dict[int, Meld] = {}
    for suit in range(4):
        for low in range(8):
            for top in range(low + 2, 8):
                cards = tuple(ALL_CARDS[8 * suit + r] for r in range(top, low - 1, -1))
                kind = sequence_kind(len(cards))
                table[mask_of(cards)] = check_announcement(cards, kind, cards, rules)  # type: ignore[assignment]
    for rank in CARRE_ORDER:
        cards = tuple(Card.of(rank, suit) for suit in Suit)
        table[mask_of(cards)] = check_announcement(cards, MeldKind.CARRE, cards, rules)  # type: ignore[assignment]
    return table


__all__ = ["Meld", "MeldProblem", "MeldOutcome", "NO_MELDS", "find_melds", "best_declaration", "declarable_sets",
           "sound_melds", "check_announcement", "check_declaration", "score_melds", "carre_value", "sequence_kind"]
