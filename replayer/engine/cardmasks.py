"""Cards as bit masks, and the per-denomination card tables of the play (rules.md §1, §3, §4).

Cards are bit positions 0..31 (``Card.index``: suit-major S H D C, natural rank
order 7 8 9 T J Q K A inside a suit), so a hand is a 32-bit int and a suit is an
8-bit field. For each denomination the engine needs two 32-entry tables, built
once and cached:

* ``beats[c]``: the cards that beat ``c`` when ``c`` is winning the trick. Because
  the winning card is always either a trump or of the suit led, this one mask
  decides both the trick winner and the "go over" duties of §3.
* ``points[c]``: the card's points at that denomination.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, NamedTuple

from notation.values import ALL_CARDS, Card, Denomination, Suit, card_index

SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
ALL_MASK = 0xFFFFFFFF

# Strength of each natural rank index (7 8 9 T J Q K A) in trump and plain order.
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A 10 K Q 8 7
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)  # A 10 K Q J 9 8 7
# Points per natural rank index.
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TA_POINTS: dict[str, tuple[int, ...]] = {
    "pagat": (0, 0, 9, 5, 14, 1, 3, 6),
    "ffb2015": (0, 0, 9, 5, 13, 2, 3, 6),
    "raw": TRUMP_POINTS,
    "raw_scaled": TRUMP_POINTS,
}

MODE_SUIT, MODE_SA, MODE_TA = 0, 1, 2

# Interned cards are looked up by identity: much cheaper than hashing the dataclass.
CARD_BIT: dict[int, int] = {id(card): 1 << card.index for card in ALL_CARDS}
_BIT_OF = CARD_BIT.__getitem__


def mask_of(cards: Iterable[Card | None]) -> int:
    """The mask of ``cards``; unknown cards (``None``) are left out."""
    if type(cards) is tuple:
        # The usual case, interned and distinct cards, all in C: a sum of distinct bits
        # is their union, and a repeated bit would carry and lose a bit of the count.
        try:
            mask = sum(map(_BIT_OF, map(id, cards)))
        except KeyError:  # an unknown card, or a Card that is not one of the interned 32
            pass
        else:
            if mask.bit_count() == len(cards):
                return mask
    mask = 0
    for card in cards:
        bit = CARD_BIT.get(id(card))
        if bit is None:  # None, or a Card that is not one of the interned 32
            if card is None:
                continue
            bit = 1 << card.index
        mask |= bit
    return mask


def cards_of(mask: int) -> frozenset[Card]:
    return frozenset(ALL_CARDS[i] for i in range(32) if mask >> i & 1)


def sorted_cards(mask: int) -> tuple[Card, ...]:
    """Cards of ``mask`` suit by suit (S H D C), highest natural rank first, for messages."""
    return tuple(ALL_CARDS[i] for s in range(4) for i in range(8 * s + 7, 8 * s - 1, -1) if mask >> i & 1)


def _higher(index: int, strength: tuple[int, ...]) -> int:
    """Same-suit cards stronger than card ``index`` in the given order."""
    base = index & ~7
    own = strength[index & 7]
    return sum(1 << (base + r) for r in range(8) if strength[r] > own)


class Table(NamedTuple):
    mode: int  # MODE_SUIT, MODE_SA or MODE_TA
    trump_mask: int  # the trump suit; every card at TA; none at SA
    beats: tuple[int, ...]
    points: tuple[int, ...]
    trump_suits: tuple[Suit, ...]  # suits whose K+Q make a belote

    @property
    def total(self) -> int:
        return sum(self.points)


@lru_cache(maxsize=None)
def table(denomination: Denomination, sa_ace: int = 19, ta_values: str = "pagat") -> Table:
    if denomination is Denomination.NO_TRUMPS:
        plain = PLAIN_POINTS[:7] + (sa_ace,)
        return Table(MODE_SA, 0, tuple(_higher(i, PLAIN_STRENGTH) for i in range(32)),
                     tuple(plain[i & 7] for i in range(32)), ())
    if denomination is Denomination.ALL_TRUMPS:
        values = TA_POINTS[ta_values]
        return Table(MODE_TA, ALL_MASK, tuple(_higher(i, TRUMP_STRENGTH) for i in range(32)),
                     tuple(values[i & 7] for i in range(32)), tuple(Suit))
    trump = denomination.suit
    assert trump is not None
    trump_mask = SUIT_MASKS[trump.index]
    beats = []
    points = []
    for i in range(32):
        if (1 << i) & trump_mask:
            beats.append(_higher(i, TRUMP_STRENGTH))
            points.append(TRUMP_POINTS[i & 7])
        else:  # a plain card is beaten by a higher card of its suit or by any trump
            beats.append(_higher(i, PLAIN_STRENGTH) | trump_mask)
            points.append(PLAIN_POINTS[i & 7])
    return Table(MODE_SUIT, trump_mask, tuple(beats), tuple(points), (trump,))


def trump_suits(denomination: Denomination) -> tuple[Suit, ...]:
    """Suits that are trump: one at a suit contract, all four at TA, none at SA."""
    return table(denomination).trump_suits
