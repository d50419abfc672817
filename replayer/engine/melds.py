"""Announcements (melds): finding, checking and comparing them (rules.md §5, §9.6, §9.8).

A sequence is a maximal run of 3 or more cards of one suit in natural order
(7 8 9 10 J Q K A); a carré is four cards of one rank among J 9 A 10 K Q.

Announcements are checked once, on masks, by ``check_melds`` (a validator has the
hand and each announcement as masks); ``check_declaration`` and
``check_announcement`` give its answers as ``Meld`` or ``MeldProblem`` values with
messages naming the cards as written.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping, Sequence

from notation.values import ALL_CARDS, Card, Denomination, MeldKind, Rank, Seat, Suit, Team, card_index

from .cardmasks import SUIT_MASKS, mask_of
from .contract import Contract
from .rules import Rules

_RANKS = tuple(Rank)
SEQUENCE_VALUES = {MeldKind.TIERCE: 20, MeldKind.QUARTE: 50, MeldKind.QUINTE: 100}
# Four-of-a-kind order at equal value: J > 9 > A > 10 > K > Q (7s and 8s make no meld).
CARRE_ORDER = (Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE, Rank.NINE, Rank.JACK)
_CARRE = MeldKind.CARRE
MELD_PROBLEMS = ("melds-off", "not-held", "card-reused", "too-short", "not-a-sequence", "not-a-carre",
                 "wrong-kind", "not-maximal")


def carre_value(rank: Rank, rules: Rules) -> int:
    """A four-of-a-kind's value; 0: no meld (four nines with ``carre_nines=0``)."""
    return _carre_value(rank, rules.carre_minor, rules.carre_nines)


def _carre_value(rank: Rank, carre_minor: int, carre_nines: int = 150) -> int:
    return {Rank.JACK: 200, Rank.NINE: carre_nines, Rank.ACE: 100}.get(rank, carre_minor)


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


def _carre(rank: Rank, carre_minor: int, carre_nines: int = 150) -> Meld:
    cards = tuple(Card.of(rank, suit) for suit in Suit)
    return Meld(MeldKind.CARRE, cards, _carre_value(rank, carre_minor, carre_nines), rank)


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
    return [_carre(rank, rules.carre_minor, rules.carre_nines) for rank in CARRE_ORDER
            if carre_value(rank, rules) and all(Card.of(rank, s) in held for s in Suit)]


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


def meld_cards(dealt: int, seat: Seat, first_trick: Sequence[tuple[Seat, Card]] | None, winner: Seat | None,
               rules: Rules) -> int | None:
    """The cards (a mask) ``seat`` may announce melds from. ``meld_cards=dealt``: the hand as
    dealt. ``after_trick1`` (002: "첫 트릭이 끝난 뒤 ... 자신의 패 일부와 첫 트릭으로 획득한 카드
    중 일부"): the hand after trick 1, and the four cards of trick 1 for ``winner``, the seat
    that won it (``first_trick``: its (seat, card) pairs; ``None`` when trick 1 is not known,
    and then the answer is ``None`` too)."""
    if rules.meld_cards == "dealt":
        return dealt
    if first_trick is None or len(first_trick) != 4:
        return None
    cards = played = 0
    for player, card in first_trick:
        cards |= 1 << card_index(card)
        if player is seat:
            played = 1 << card_index(card)
    return (dealt & ~played) | (cards if winner is seat else 0)


def check_melds(hand: int, announced: Sequence[tuple[MeldKind, int, int]], rules: Rules) -> tuple[Meld | str, ...]:
    """The one check of a player's announcements, on masks (rules.md §5, §9.6): ``hand``
    is the hand as dealt (or the cards ``meld_cards`` gives), each announcement is (kind,
    mask of its cards, how many cards were written). Each gives its ``Meld``, or the reason
    (one of ``MELD_PROBLEMS``) it is not one; ``check_declaration`` says the same with messages.

    A card serves in one meld only: an announcement may share no card with the ones
    made before it nor, unless it is a carré, with any carré announced (§9.6: the carrés
    are set aside before a run is tested for maximality, whatever the order)."""
    table = _meld_table(rules.carre_minor, rules.carre_nines)
    carres = 0
    for kind, mask, _ in announced:
        if kind is _CARRE:
            carres |= mask
    before = 0
    results: list[Meld | str] = []
    for kind, mask, count in announced:
        results.append(_check(table, rules, hand, kind, mask, count, before | (0 if kind is _CARRE else carres),
                              carres))
        before |= mask
    return tuple(results)


def _check(table: Mapping[int, Meld], rules: Rules, hand: int, kind: MeldKind, mask: int, count: int, others: int,
           carres: int) -> Meld | str:
    """One announcement: its Meld, or the first rule it breaks. ``others``: the cards of
    the announcements it may share none with; ``carres``: the cards of the carrés
    announced, set aside before the maximality test. A valid announcement is one table
    look-up and a few mask tests."""
    if not rules.melds:
        return "melds-off"
    if mask & ~hand:
        return "not-held"
    if count != mask.bit_count() or mask & others:  # a card written twice, or in another announcement
        return "card-reused"
    meld = table.get(mask)  # every run of 3 to 8 cards of a suit, and the six carrés
    if kind is _CARRE:
        return meld if meld is not None and meld.kind is _CARRE else "not-a-carre"
    if count < 3:
        return "too-short"
    if meld is None or meld.kind is _CARRE:
        return "not-a-sequence"
    if meld.kind is not kind:
        return "wrong-kind"
    top = mask.bit_length() - 1
    if ((mask & -mask) >> 1 | 1 << (top + 1)) & SUIT_MASKS[top >> 3] & hand & ~carres:
        return "not-maximal"  # the card below or above the run is held, and not in a carré
    return meld


def _problem(reason: str, kind: MeldKind, cards: tuple[Card, ...], hand: int) -> MeldProblem:
    """The MeldProblem of a ``reason`` that ``check_melds`` gave, its message naming the
    cards as written."""
    shown = " ".join(c.pretty() for c in cards)
    if reason == "melds-off":
        message = "announcements do not score under these rules"
    elif reason == "not-held":
        missing = " ".join(c.pretty() for c in cards if not hand >> card_index(c) & 1)
        message = f"{kind.value} {shown}: {missing} not held"
    elif reason == "card-reused":
        message = f"{kind.value} {shown}: a card serves in one meld only"
    elif reason == "not-a-carre":
        if len(cards) == 4 and all(card.rank is Rank.NINE for card in cards):
            message = f"{shown}: four nines are no meld under these rules (carre_nines=0)"
        else:
            message = f"{shown} is not four jacks, nines, aces, tens, kings or queens"
    elif reason == "too-short":
        message = f"{kind.value} {shown}: a sequence has at least 3 cards"
    elif reason == "not-a-sequence":
        message = f"{shown} is not a sequence of one suit"
    elif reason == "wrong-kind":
        message = f"{shown} is a {sequence_kind(len(cards)).value}, not a {kind.value}"
    else:
        message = f"{shown} is part of a longer run: a run is announced whole"
    return MeldProblem(reason, kind, cards, message)


def check_declaration(hand: Iterable[Card] | int, announced: Sequence[tuple[MeldKind, Sequence[Card]]],
                      rules: Rules) -> tuple[Meld | MeldProblem, ...]:
    """Check a player's announcements (kind, cards as written), in order, against the hand
    as dealt (its cards or mask): ``check_melds``, with a ``MeldProblem`` and its message
    for each announcement that is not a valid meld."""
    hand_mask = hand if isinstance(hand, int) else mask_of(hand)
    written = [(kind, tuple(cards)) for kind, cards in announced]
    results = check_melds(hand_mask, [(kind, mask_of(cards), len(cards)) for kind, cards in written], rules)
    return tuple(result if isinstance(result, Meld) else _problem(result, kind, cards, hand_mask)
                 for result, (kind, cards) in zip(results, written))


def check_announcement(hand: Iterable[Card] | int, kind: MeldKind, cards: Sequence[Card], rules: Rules, *,
                       others: Sequence[tuple[MeldKind, Sequence[Card]]] = ()) -> Meld | MeldProblem:
    """Check one announcement against the hand before trick 1. ``others``: the player's
    other announcements (kind, cards) that count for it: those it may share no card
    with, the carrés among them set aside before the maximality test (§9.6)."""
    hand_mask = hand if isinstance(hand, int) else mask_of(hand)
    cards = tuple(cards)
    used = carres = 0
    for other_kind, other in others:
        other_mask = mask_of(tuple(other))
        used |= other_mask
        if other_kind is _CARRE:
            carres |= other_mask
    table = _meld_table(rules.carre_minor, rules.carre_nines)
    result = _check(table, rules, hand_mask, kind, mask_of(cards), len(cards), used, carres)
    return result if isinstance(result, Meld) else _problem(result, kind, cards, hand_mask)


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
            leading = best[side]
            if leading is None or meld.key(denomination) > leading.key(denomination):
                best[side] = meld
    if not sums[0] and not sums[1]:
        return NO_MELDS
    order = _play_order(first_player, rules)
    if rules.meld_compare == "team_sum":
        winner = _higher_side(sums[0], sums[1])
        if winner is None and rules.meld_tie == "first":
            winner = next(s.index & 1 for s in order if melds_by_seat.get(s))
        elif winner is None and rules.meld_tie == "trump":
            winner = _trump_run_side(melds_by_seat, denomination)
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


def _trump_run_side(melds_by_seat: Mapping[Seat, Sequence[Meld]], denomination: Denomination) -> int | None:
    """``meld_tie=trump`` (000: "같은 점수의 카드 조합이라면, 으뜸패로 이루어진 연속된 카드의
    조합이 더 우선된다"): at equal sums the one side with a run in trumps scores; both or
    neither: nobody. (``best_single`` has this rule in ``Meld.key`` already.)"""
    sides = {seat.index & 1 for seat, melds in melds_by_seat.items()
             for meld in melds if not meld.is_carre and meld.key(denomination)[3]}
    return sides.pop() if len(sides) == 1 else None


def _higher_side(ns, ew) -> int | None:
    return 0 if ns > ew else 1 if ew > ns else None


def _play_order(first: Seat, rules: Rules) -> list[Seat]:
    order = [first]
    while len(order) < 4:
        order.append(order[-1].next(rules.clockwise))
    return order


@functools.cache
def _meld_table(carre_minor: int, carre_nines: int = 150) -> dict[int, Meld]:
    """Every valid meld by the mask of its cards: the runs of 3 to 8 cards of a suit and
    the carrés (their values under ``carre_minor``; four nines only when ``carre_nines``)."""
    table: dict[int, Meld] = {}
    for suit in range(4):
        for low in range(8):
            for top in range(low + 2, 8):
                cards = tuple(ALL_CARDS[8 * suit + r] for r in range(top, low - 1, -1))
                table[mask_of(cards)] = _sequence(cards)
    for rank in CARRE_ORDER:
        meld = _carre(rank, carre_minor, carre_nines)
        if meld.value:
            table[mask_of(meld.cards)] = meld
    return table


__all__ = ["Meld", "MeldProblem", "MeldOutcome", "NO_MELDS", "find_melds", "best_declaration", "declarable_sets",
           "check_melds", "check_announcement", "check_declaration", "meld_cards", "score_melds", "carre_value",
           "sequence_kind"]
