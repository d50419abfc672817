"""The double-dummy solver: the value of every legal card with all four hands known.

From any position of the play (a ``PlayState``: any trick, any card within it), for
every card the seat in turn may play, the card points each side ends the deal with when
both sides then play their best, each side making as many card points as it can: the
last-trick 10 and a capot counted per the rules (``scoring.trick_points``).

The search (docs/analysis.md):

* alpha-beta, fail-soft, on one number ``s``: the NS card points taken (raw, before the
  rules' scaling) plus 10 for the last trick, plus 1 for an NS capot and minus 1 for an
  EW capot. NS maximise it, EW minimise it. Every side's final points are a monotone
  function of ``s`` alone (``outcome``), so the minimax value of ``s`` gives both.
* a transposition table at trick boundaries: the cards left (by their shape, suit by
  suit: whose hand each is in, its points), the leader and which sides have taken a trick
  (for the capot) key the bounds of the points still to come and the best move. It is a
  list of ``max_entries`` slots (2**20 by default: 8 MB, under 50 MB when every slot is
  full), two slots a position; a new position takes a free one, else replaces an older
  one. One ``Solver`` keeps it across the positions of a deal.
* equivalent cards are one move: two cards of one hand, next to each other in the
  order of the suit among the cards not yet gathered in a trick, and worth the same
  points, lead to the same values.
* move ordering: the table's best move first, then cards by a cheap guess of their
  worth (masters led, tricks won cheaply, points given to a partner who wins).

The legal cards come from ``play.Duties``, the rule the validator uses, and trick
winners from the same ``beats`` table: the solver and the validator cannot disagree.
"""

from __future__ import annotations

import time
from typing import Final, NamedTuple

from mypy_extensions import i64

from notation.values import ALL_CARDS, Card, Seat, SEATS, Team

from .cardmasks import SUIT_MASKS
from .play import Duties, PlayState, Position, TRICKS_PER_DEAL
from .scoring import FinishedDeal, trick_points

# Final: mypyc makes these constants of the C code, not names looked up in a module
MAX_ENTRIES: Final = 1 << 20  # table slots
INFINITY: Final = 1 << 12  # beyond any value of s
_OFFSET: Final = 16  # table bounds are stored as value + _OFFSET in 10-bit fields
_CHECK_EVERY: Final = 1 << 12  # nodes between two looks at the clock
_ENTRY_BITS: Final = 25  # a table slot: key << 25 | bounds (10 + 10 bits) and best move (5 bits)
_ENTRY_MASK: Final = (1 << 25) - 1
_TRICKS: Final = 8  # TRICKS_PER_DEAL, as a literal for mypyc
assert _TRICKS == TRICKS_PER_DEAL


class SolveInterrupted(Exception):
    """The time limit passed before the search ended."""


class CardValue(NamedTuple):
    """One legal card and what the deal comes to when it is played and both sides play best."""

    card: Card
    s: int  # the search value: NS raw card points + 10 for the last trick, +1/-1 for an NS/EW capot
    points: tuple[int, int]  # the final card points (NS, EW) per the rules: last trick and capot included
    deal: FinishedDeal  # the card play's part of the finished deal (no belote nor melds: the caller adds them)


class Solution(NamedTuple):
    """Every legal card of the seat in turn, valued; ``best`` are the cards of the best value."""

    seat: Seat
    values: tuple[CardValue, ...]  # by card index
    best: tuple[Card, ...]
    nodes: int  # positions searched

    def value_of(self, card: Card) -> CardValue:
        for value in self.values:
            if value.card is card:
                return value
        raise KeyError(f"{card} is not a legal card here")


class Solver:
    """The solver of one deal: a transposition table kept across the positions of its play.

    ``solve(state)`` values every legal card of the seat in turn in ``state``, a position
    of the deal the solver was made for (the same hands as dealt, contract and rules).
    """

    def __init__(self, state: PlayState, *, max_entries: int = MAX_ENTRIES) -> None:
        self.contract = state.contract
        self.rules = state.rules
        position = state.position()  # DealOverError (a ValueError) once the deal is over
        self._dealt = position.dealt
        self._search = _Search(position, max_entries)
        # Raw card points of the whole deal: every card's points.
        self._total = sum(position.points)

    def solve(self, state: PlayState, *, deadline: float | None = None) -> Solution:
        """Every legal card of the seat in turn valued. ``deadline`` (a ``time.monotonic()``
        value) stops the search with ``SolveInterrupted`` once passed."""
        position = state.position()
        if position.dealt != self._dealt or state.contract != self.contract or state.rules is not self.rules:
            raise ValueError("this position is not of the deal the solver was made for")
        search = self._search
        search.deadline = deadline if deadline is not None else 0.0
        start = search.nodes
        past = position.ns_points
        values: list[CardValue] = []
        for card, s in search.root(position):
            total = past + s
            values.append(CardValue(ALL_CARDS[card], total, *self.outcome(total)))
        values.sort(key=lambda value: value.card.index)
        maximise = position.turn & 1 == 0
        best_s = max(v.s for v in values) if maximise else min(v.s for v in values)
        best = tuple(v.card for v in values if v.s == best_s)
        return Solution(SEATS[position.turn], tuple(values), best, search.nodes - start)

    def outcome(self, s: int) -> tuple[tuple[int, int], FinishedDeal]:
        """The final card points (NS, EW) and the card play's ``FinishedDeal`` of a value ``s``.
        Each side's points depend on ``s`` alone (the module's docstring): any deal of that
        ``s`` serves, and this is one."""
        total = self._total
        if s > total + 10:  # an NS capot
            ns, last, tricks = total, Team.NS, _tricks(8, 0, self.contract.taker)
        elif s < 0:  # an EW capot
            ns, last, tricks = 0, Team.EW, _tricks(0, 8, self.contract.taker)
        else:  # 10 of s is the last trick: NS's when s reaches it (each side's points come out the same)
            last = Team.NS if s >= 10 else Team.EW
            ns, tricks = s - (10 if last is Team.NS else 0), _tricks(4, 4, self.contract.taker)
        deal = FinishedDeal(self.contract, (ns, total - ns), last, tricks)
        return trick_points(deal, self.rules)[1], deal


def solve(state: PlayState, *, deadline: float | None = None) -> Solution:
    """``Solver(state).solve(state)``: one position, a table of its own."""
    return Solver(state).solve(state, deadline=deadline)


def _tricks(ns: int, ew: int, taker: Seat) -> tuple[int, int, int, int]:
    """Tricks per seat for ``FinishedDeal`` from tricks per side: the solver counts them per
    side; the taker's side's go to the taker (what a générale asks), the other's to the next seat."""
    counts = [0, 0, 0, 0]
    ours, theirs = (ns, ew) if taker.index & 1 == 0 else (ew, ns)
    counts[taker.index] = ours
    counts[(taker.index + 1) % 4] = theirs
    return counts[0], counts[1], counts[2], counts[3]


class _Search:
    """The alpha-beta search on integers (the part mypyc compiles to C).

    A position is ``alive``, the cards still in the hands (a mask: the deal says whose hand
    each card is in, ``hand = alive & dealt[seat]``), and the trick in progress: the seat
    to play, the cards in it (``n``), the suit led, the winning card and its seat, its points.
    """

    def __init__(self, position: Position, max_entries: int) -> None:
        self.dealt: list[int] = list(position.dealt)
        self.duties: Duties = position.duties
        self.beats: list[int] = list(position.beats)
        self.points: list[int] = list(position.points)
        self.following: list[int] = list(position.following)
        # The transposition table: open addressing in a list of ``slots`` (a power of two)
        # ints, each ``key << 25 | entry`` (0: empty); a lookup allocates nothing.
        slots = 1 << max(1, (max_entries - 1).bit_length())
        self.slots: list[int] = [0] * slots
        self.mask = slots - 1
        self.nodes = 0
        self.deadline = 0.0
        self.next_check = _CHECK_EVERY
        # each suit's cards from the strongest down, in this denomination
        self.order: list[list[int]] = []
        for suit in range(4):
            cards = [8 * suit + r for r in range(8)]
            cards.sort(key=lambda c: -bin(position.beats[c] & SUIT_MASKS[suit]).count("1"))
            self.order.append(cards)
        self.rank: list[int] = [0] * 32  # position of a card in its suit's order (0: the strongest)
        for suit in range(4):
            for i, c in enumerate(self.order[suit]):
                self.rank[c] = i
        assert max(position.points) < 32, "a card's points must fit the 5 bits _shapes gives them"
        self.shapes = self._shapes(position.points)
        # _classes, memoised (-1: not yet) by suit, the suit's cards left and its legal cards:
        # they depend on the denomination's order and points only, so deals share them
        memo_key = (tuple(position.points), tuple(tuple(cards) for cards in self.order))
        classes = _CLASSES.get(memo_key)
        if classes is None:
            if len(_CLASSES) >= 8:  # 2 MB each
                _CLASSES.clear()
            classes = _CLASSES[memo_key] = [-1] * (4 << 16)
        self.classes: list[int] = classes
        self.bits = _BITS
        self.guesses = _guesses(position.points, self.rank)

    def _shapes(self, points: tuple[int, ...]) -> list[int]:
        """For each suit and each set of its cards still in the hands (8 bits), a number that
        stands for what the play can make of them: whose hand each card is in and its
        points, strongest first. Two positions whose suits have the same shapes play out to
        the same points, whichever of two like cards went before (a transposition)."""
        owner = [0] * 32
        for seat in range(4):
            for c in range(32):
                if self.dealt[seat] >> c & 1:
                    owner[c] = seat
        shapes: list[int] = []
        for suit in range(4):
            known: dict[int, int] = {}
            for subset in range(256):
                alive = subset << (8 * suit)
                shape = 0  # 7 bits a card left, strongest first: its owner and points (at most 20), plus 1
                for c in self.order[suit]:
                    if alive >> c & 1:
                        shape = shape << 7 | (owner[c] << 5 | points[c]) + 1
                shapes.append(known.setdefault(shape, len(known)))
        return shapes

    def _key(self, alive: i64, turn: i64, won: i64) -> i64:
        shapes = self.shapes
        return (shapes[alive & 255] | shapes[256 + (alive >> 8 & 255)] << 8
                | shapes[512 + (alive >> 16 & 255)] << 16 | shapes[768 + (alive >> 24 & 255)] << 24
                | turn << 32 | won << 34)

    # --- the root -------------------------------------------------------------------

    def root(self, p: Position) -> list[tuple[int, int]]:
        """Each legal card of the seat in turn and its future value (s minus the NS points
        of the finished tricks)."""
        alive = p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]
        turn, n = p.turn, p.n
        hand = p.hands[turn]
        legal = hand if n == 0 else self.duties.legal(hand, turn, p.led, p.win, p.win_seat)[0]
        moves, masters = self._moves(alive, legal, n, p.win)
        values: dict[int, int] = {}
        # the future value lies between -1 (an EW capot still possible; else 0) and every
        # point left, the last 10 and 1 more for an NS capot still possible
        floor = -1 if p.won & 1 == 0 else 0
        ceiling = p.trick_points + 10 + (1 if p.won & 2 == 0 else 0)
        for card in range(32):
            if alive >> card & 1:
                ceiling += self.points[card]
        guess = ceiling // 2  # the first window: half of what is left (then: the last card's value)
        while moves:
            card = self._next_move(moves, masters, turn, n, p.win, p.win_seat, -1)
            moves &= ~(1 << card)
            # MTD(f): windows of width one around a guess (the last card's value) close in on
            # the exact value between the bounds; the table keeps what each pass proved
            lower, upper = floor, ceiling
            while lower < upper:
                beta = min(max(guess, lower + 1), upper)  # the guess, within what is not proved yet
                guess = self._after(alive, card, turn, n, p.led, p.win, p.win_seat, p.trick_points, p.won,
                                    p.tricks, beta - 1, beta)
                if guess < beta:
                    upper = guess
                else:
                    lower = guess
            values[card] = guess = lower
        # a card left out is worth what the nearest representative above it in its suit is
        results: list[tuple[int, int]] = []
        for suit in range(4):
            value = 0
            for c in self.order[suit]:
                if c in values:
                    value = values[c]
                if legal >> c & 1:
                    results.append((c, value))
        return results

    # --- the search -------------------------------------------------------------------

    def _after(self, alive: i64, c: i64, turn: i64, n: i64, led: i64, win: i64, ws: i64, tp: i64, won: i64,
               tricks: i64, alpha: i64, beta: i64) -> i64:
        """The future value once ``turn`` plays card ``c`` into a trick of ``n`` cards."""
        alive &= ~(1 << c)
        if n == 0:
            led, win, ws, tp = 255 << (c & 24), c, turn, self.points[c]  # the suit of c: bits 8(c//8)..
        else:
            if self.beats[win] >> c & 1:
                win, ws = c, turn
            tp += self.points[c]
        if n < 3:
            return self._node(alive, self.following[turn], n + 1, led, win, ws, tp, won, tricks, alpha, beta)
        tricks += 1
        if tricks == _TRICKS:
            return _last(ws, tp, won)
        v = tp if ws & 1 == 0 else 0
        won |= 1 << (ws & 1)
        if tricks == _TRICKS - 1:  # the last trick plays itself: one card in each hand
            return v + self._last_trick(alive, ws, won)
        return v + self._node(alive, ws, 0, 0, 0, 0, 0, won, tricks, alpha - v, beta - v)

    def _last_trick(self, alive: i64, leader: i64, won: i64) -> i64:
        """The future value of the eighth trick, which ``leader`` leads."""
        self.nodes += 1
        c = self._only_card(alive & self.dealt[leader])
        win, ws, tp = c, leader, self.points[c]
        seat = leader
        for _ in range(3):
            seat = self.following[seat]
            c = self._only_card(alive & self.dealt[seat])
            if self.beats[win] >> c & 1:
                win, ws = c, seat
            tp += self.points[c]
        return _last(ws, tp, won)

    def _only_card(self, hand: i64) -> i64:
        """The card of a hand of one card."""
        for suit in range(4):
            byte = hand >> 8 * suit & 255
            if byte:
                return self.bits[256 * suit + byte][0]
        raise ValueError("an empty hand")

    def _node(self, alive: i64, turn: i64, n: i64, led: i64, win: i64, ws: i64, tp: i64, won: i64, tricks: i64,
              alpha: i64, beta: i64) -> i64:
        """The future value (NS points still to come, the trick in progress included) of the
        position where ``turn`` is to play, fail-soft within (alpha, beta)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._look_at_clock()
        hand = alive & self.dealt[turn]
        key = 0
        best_move = -1
        if n == 0:
            key = self._key(alive, turn, won)
            entry = self._probe(key)
            if entry:
                lo = (entry & 1023) - _OFFSET
                hi = (entry >> 10 & 1023) - _OFFSET
                if lo >= beta:
                    return lo
                if hi <= alpha or lo == hi:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                best_move = entry >> 20 & 31
            legal = hand
        else:
            legal = self.duties.legal(hand, turn, led, win, ws)[0]
        maximise = turn & 1 == 0
        alpha0, beta0 = alpha, beta
        best = -INFINITY if maximise else INFINITY
        chosen = -1
        moves, masters = self._moves(alive, legal, n, win)
        while moves:
            c = self._next_move(moves, masters, turn, n, win, ws, best_move)
            moves &= ~(1 << c)
            v = self._after(alive, c, turn, n, led, win, ws, tp, won, tricks, alpha, beta)
            if maximise:
                if v > best:
                    best, chosen = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, chosen = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if n == 0:
            self._store(key, best, alpha0, beta0, chosen)
        return best

    def _probe(self, key: i64) -> i64:
        """The entry of position ``key`` in the table (0: none): two slots may hold it."""
        slots = self.slots
        index = (key ^ key >> 15 ^ key >> 27) & self.mask
        value = slots[index]
        if value >> _ENTRY_BITS == key and value:
            return value & _ENTRY_MASK
        value = slots[index ^ 1]
        if value >> _ENTRY_BITS == key and value:
            return value & _ENTRY_MASK
        return 0

    def _store(self, key: i64, best: i64, alpha: i64, beta: i64, move: i64) -> None:
        """Keep what the search of a trick's start proved: a bound, or the exact value, merged
        with what the table knew; a position new to the table takes the slot of its pair that
        is empty, else the first."""
        entry = self._probe(key)
        lo, hi = -_OFFSET, 1023 - _OFFSET
        if entry:
            lo = (entry & 1023) - _OFFSET
            hi = (entry >> 10 & 1023) - _OFFSET
        if best <= alpha:
            hi = min(hi, best)  # an upper bound
        elif best >= beta:
            lo = max(lo, best)  # a lower bound
        else:
            lo = hi = best
        slots = self.slots
        index = (key ^ key >> 15 ^ key >> 27) & self.mask
        if slots[index] >> _ENTRY_BITS != key or not slots[index]:  # not in the first slot
            other = slots[index ^ 1]
            if (other and other >> _ENTRY_BITS == key) or (slots[index] and not other):
                index ^= 1  # in the second slot, or the second is free
        slots[index] = key << _ENTRY_BITS | (lo + _OFFSET) | (hi + _OFFSET) << 10 | move << 20

    def _moves(self, alive: i64, legal: i64, n: i64, win: i64) -> tuple[i64, i64]:
        """The moves worth trying: one legal card per class of equivalent cards (a mask), and
        the masters among them (no card left above them in their suit). Two legal cards are
        equivalent when they are next to each other among the cards left and worth the same
        points; while a trick is on, its winning card counts among the cards left."""
        if n:
            alive |= 1 << win
        moves = masters = 0
        for suit in range(4):
            shift = 8 * suit
            in_suit = legal >> shift & 255
            if in_suit:
                key = suit << 16 | (alive >> shift & 255) << 8 | in_suit
                known = self.classes[key]
                if known < 0:
                    known = self._classes(suit, alive >> shift & 255, in_suit)
                    self.classes[key] = known
                moves |= (known & 255) << shift
                masters |= (known >> 8) << shift
        return moves, masters

    def _classes(self, suit: i64, alive: i64, legal: i64) -> i64:
        """``_moves`` for one suit's 8 bits: the representatives, and the masters << 8."""
        points = self.points
        found = top = 0
        previous = -1
        first = True
        for c in self.order[suit]:
            bit = 1 << (c & 7)
            if not alive & bit:
                continue
            if not legal & bit:
                previous = -1
            elif previous < 0 or points[previous] != points[c]:
                found |= bit
                if first:
                    top = bit
            previous = c if legal & bit else -1
            first = False
        return found | top << 8

    def _next_move(self, moves: i64, masters: i64, turn: i64, n: i64, win: i64, ws: i64, first: i64) -> i64:
        """The move to try next among ``moves`` (a mask): the table's best move ``first``, then
        the likely best by a cheap guess (``_GUESSES``). Chosen one at a time: a cut-off often
        comes after the first, and the rest need no ordering."""
        if first >= 0 and moves >> first & 1:
            return first
        if n == 0:
            split, yes, no = masters, _LEAD_MASTER, _LEAD_LOW
        else:  # the cards that take the trick over, and the others
            split = self.beats[win]
            if ws == turn ^ 2:
                yes, no = _OVER_PARTNER, (_GIVE_LAST if n == 3 else _GIVE)
            else:
                yes, no = (_TAKE_LAST if n == 3 else _TAKE), _DISCARD
        guesses, bits = self.guesses, self.bits
        chosen, lowest = -1, INFINITY
        for suit in range(4):
            byte = moves >> 8 * suit & 255
            if byte:
                for c in bits[256 * suit + byte]:
                    score = guesses[(yes if split >> c & 1 else no) + c]
                    if score < lowest:
                        chosen, lowest = c, score
        return chosen

    def _look_at_clock(self) -> None:
        self.next_check = self.nodes + _CHECK_EVERY
        if self.deadline and time.monotonic() > self.deadline:
            raise SolveInterrupted("the time limit passed")


# the cards of each suit whose bits are set in a byte: _BITS[256 * suit + byte]
_BITS: list[list[int]] = [[8 * suit + i for i in range(8) if byte >> i & 1] for suit in range(4)
                          for byte in range(256)]

# Move ordering: a guess of each card's worth in each situation, the lowest tried first;
# _GUESSES[kind + card], kind one of these offsets.
_LEAD_MASTER: Final = 0  # a lead of a card with nothing left above it: the richest first
_LEAD_LOW: Final = 32  # another lead: the lowest first
_OVER_PARTNER: Final = 64  # a card over the partner's winning card: late
_GIVE: Final = 96  # under the partner's winning card, an opponent still to play: the cheapest
_GIVE_LAST: Final = 128  # under the partner's winning card, the trick's last card: the richest
_TAKE: Final = 160  # over an opponent's card, someone still to play: the cheapest winner first
_TAKE_LAST: Final = 192  # over an opponent's card, the trick's last card: the richest
_DISCARD: Final = 224  # under an opponent's card: the cheapest


def _guesses(points: tuple[int, ...], rank: list[int]) -> list[int]:
    """The ordering table for a denomination's points and rank order (rank 0: the strongest)."""
    table = [0] * 256
    for c in range(32):
        p, r = points[c], rank[c]
        for kind, guess in ((_LEAD_MASTER, 30 - p), (_LEAD_LOW, 200 - r * 8 + p), (_OVER_PARTNER, 120 + r * 4),
                            (_GIVE, 60 + p), (_GIVE_LAST, 60 - p), (_TAKE, 50 - r * 4), (_TAKE_LAST, 40 - p),
                            (_DISCARD, 100 + p * 2 - r)):
            table[kind + c] = guess
    return table
_CLASSES: dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], list[int]] = {}  # _Search.classes


def _last(winner: i64, points: i64, won: i64) -> i64:
    """The value to NS of the eighth trick: its points and the last-trick 10 to the winner's
    side, and the capot mark (+1 NS, -1 EW) when one side took every trick."""
    team = winner & 1
    won |= 1 << team
    v = points + 10 if team == 0 else 0
    if won == 1:
        v += 1
    elif won == 2:
        v -= 1
    return v
