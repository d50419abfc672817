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
* a transposition table at trick boundaries: the cards left (a 32-bit mask: the deal
  fixes whose hand each card is in), the leader and which sides have taken a trick (for
  the capot) key the bounds of the points still to come. It holds at most
  ``max_entries`` positions (1,000,000 by default, about 150 MB at worst) and is emptied
  when full; one ``Solver`` keeps it across the positions of a deal.
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
from typing import NamedTuple

from notation.values import ALL_CARDS, Card, Seat, SEATS, Team

from .cardmasks import SUIT_MASKS
from .play import Duties, PlayState, Position, TRICKS_PER_DEAL
from .scoring import FinishedDeal, trick_points

MAX_ENTRIES = 1_000_000
INFINITY = 1 << 12  # beyond any value of s
_OFFSET = 16  # table bounds are stored as value + _OFFSET in 10-bit fields
_CHECK_EVERY = 1 << 12  # nodes between two looks at the clock


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
        self._dealt = tuple(state.hand_mask(seat) | _played_by(state, seat) for seat in SEATS)
        position = _position(state)
        self._search = _Search(position, self._dealt, max_entries)
        # Raw card points of the whole deal: every card's points.
        self._total = sum(position.points)

    @property
    def nodes(self) -> int:
        return self._search.nodes

    @property
    def table_size(self) -> int:
        return len(self._search.table)

    def solve(self, state: PlayState, *, deadline: float | None = None) -> Solution:
        """Every legal card of the seat in turn valued. ``deadline`` (a ``time.monotonic()``
        value) stops the search with ``SolveInterrupted`` once passed."""
        dealt = tuple(state.hand_mask(seat) | _played_by(state, seat) for seat in SEATS)
        if dealt != self._dealt or state.contract != self.contract or state.rules is not self.rules:
            raise ValueError("this position is not of the deal the solver was made for")
        position = _position(state)
        search = self._search
        search.deadline = deadline if deadline is not None else 0.0
        start = search.nodes
        past = position.ns_points
        values: list[CardValue] = []
        for card, s in search.root(position):
            total = past + s
            values.append(CardValue(ALL_CARDS[card], total, *self._outcome(total)))
        values.sort(key=lambda value: value.card.index)
        maximise = position.turn & 1 == 0
        best_s = max(v.s for v in values) if maximise else min(v.s for v in values)
        best = tuple(v.card for v in values if v.s == best_s)
        return Solution(SEATS[position.turn], tuple(values), best, search.nodes - start)

    def outcome(self, s: int) -> tuple[tuple[int, int], FinishedDeal]:
        """The final card points (NS, EW) and the card play's ``FinishedDeal`` of a value ``s``."""
        return self._outcome(s)

    def _outcome(self, s: int) -> tuple[tuple[int, int], FinishedDeal]:
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


def _played_by(state: PlayState, seat: Seat) -> int:
    mask = 0
    for who, card in state.plays:
        if who is seat:
            mask |= 1 << card.index
    return mask


def _position(state: PlayState) -> Position:
    if state.is_over:
        raise ValueError("the deal is over: there is nothing left to solve")
    return state.position()


class _Search:
    """The alpha-beta search on integers (the part mypyc compiles to C)."""

    def __init__(self, position: Position, dealt: tuple[int, ...], max_entries: int) -> None:
        self.hands: list[int] = [0, 0, 0, 0]
        self.duties: Duties = position.duties
        self.beats: tuple[int, ...] = position.beats
        self.points: tuple[int, ...] = position.points
        self.following: tuple[int, ...] = position.following
        self.table: dict[int, int] = {}
        self.max_entries = max_entries
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
        self.shapes = self._shapes(dealt, position.points)

    def _shapes(self, dealt: tuple[int, ...], points: tuple[int, ...]) -> list[int]:
        """For each suit and each set of its cards still in the hands (8 bits), a number that
        stands for what the play can make of them: whose hand each card is in and its
        points, strongest first. Two positions whose suits have the same shapes play out to
        the same points, whichever of two like cards went before (a transposition)."""
        owner = [0] * 32
        for seat in range(4):
            for c in range(32):
                if dealt[seat] >> c & 1:
                    owner[c] = seat
        shapes: list[int] = []
        for suit in range(4):
            known: dict[tuple[tuple[int, int], ...], int] = {}
            for subset in range(256):
                alive = subset << (8 * suit)
                shape = tuple((owner[c], points[c]) for c in self.order[suit] if alive >> c & 1)
                shapes.append(known.setdefault(shape, len(known)))
        return shapes

    def _key(self, remaining: int, turn: int, won: int) -> int:
        shapes = self.shapes
        return (shapes[remaining & 255] | shapes[256 + (remaining >> 8 & 255)] << 8
                | shapes[512 + (remaining >> 16 & 255)] << 16 | shapes[768 + (remaining >> 24)] << 24
                | turn << 32 | won << 34)

    # --- the root -------------------------------------------------------------------

    def root(self, p: Position) -> list[tuple[int, int]]:
        """Each legal card of the seat in turn and its future value (s minus the NS points
        of the finished tricks)."""
        hands = self.hands
        for seat in range(4):
            hands[seat] = p.hands[seat]
        turn, n = p.turn, p.n
        hand = hands[turn]
        legal = hand if n == 0 else self.duties.legal(hand, turn, p.led, p.win, p.win_seat)[0]
        class_of = [-1] * 32  # each legal card's representative
        values: dict[int, int] = {}
        guess = 0
        for card in self._ordered(legal, turn, n, p.led, p.win, p.win_seat, -1, class_of):
            # MTD(f): windows of width one around a guess (the last card's value) close in on
            # the exact value; the table keeps what each pass proved
            lower, upper = -INFINITY, INFINITY
            while lower < upper:
                beta = guess + 1 if guess == lower else guess
                guess = self._after(card, turn, n, p.led, p.win, p.win_seat, p.trick_points, p.won, p.tricks,
                                    beta - 1, beta)
                if guess < beta:
                    upper = guess
                else:
                    lower = guess
            values[card] = guess
        return [(card, values[class_of[card]]) for card in range(32) if legal >> card & 1]

    # --- the search -------------------------------------------------------------------

    def _after(self, c: int, turn: int, n: int, led: int, win: int, ws: int, tp: int, won: int, tricks: int,
               alpha: int, beta: int) -> int:
        """The future value once ``turn`` plays card ``c`` into a trick of ``n`` cards."""
        hands = self.hands
        hand = hands[turn]
        hands[turn] = hand & ~(1 << c)
        if n == 0:
            led, win, ws, tp = SUIT_MASKS[c >> 3], c, turn, self.points[c]
        else:
            if self.beats[win] >> c & 1:
                win, ws = c, turn
            tp += self.points[c]
        if n < 3:
            v = self._node(self.following[turn], n + 1, led, win, ws, tp, won, tricks, alpha, beta)
        else:
            team = ws & 1
            v = tp if team == 0 else 0
            won |= 1 << team
            if tricks + 1 == TRICKS_PER_DEAL:
                if team == 0:
                    v += 10
                if won == 1:
                    v += 1
                elif won == 2:
                    v -= 1
            else:
                v += self._node(ws, 0, 0, 0, 0, 0, won, tricks + 1, alpha - v, beta - v)
        hands[turn] = hand
        return v

    def _node(self, turn: int, n: int, led: int, win: int, ws: int, tp: int, won: int, tricks: int,
              alpha: int, beta: int) -> int:
        """The future value (NS points still to come, the trick in progress included) of the
        position where ``turn`` is to play, fail-soft within (alpha, beta)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._look_at_clock()
        hands = self.hands
        hand = hands[turn]
        key = 0
        best_move = -1
        if n == 0:
            key = self._key(hands[0] | hands[1] | hands[2] | hands[3], turn, won)
            entry = self.table.get(key)
            if entry is not None:
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
                best_move = entry >> 20
            legal = hand
        else:
            legal = self.duties.legal(hand, turn, led, win, ws)[0]
        moves = self._ordered(legal, turn, n, led, win, ws, best_move)
        maximise = turn & 1 == 0
        alpha0, beta0 = alpha, beta
        best = -INFINITY if maximise else INFINITY
        chosen = -1
        for c in moves:
            v = self._after(c, turn, n, led, win, ws, tp, won, tricks, alpha, beta)
            if maximise:
                if v > best:
                    best, chosen = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best, chosen = v, c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if n == 0:
            table = self.table
            if len(table) >= self.max_entries:
                table.clear()
            entry = table.get(key)
            lo, hi = -INFINITY // 4, INFINITY // 4
            if entry is not None:
                lo = (entry & 1023) - _OFFSET
                hi = (entry >> 10 & 1023) - _OFFSET
            if best <= alpha0:
                hi = min(hi, best)  # an upper bound
            elif best >= beta0:
                lo = max(lo, best)  # a lower bound
            else:
                lo = hi = best
            lo = max(lo, -_OFFSET)
            hi = min(hi, 1023 - _OFFSET)
            table[key] = (lo + _OFFSET) | (hi + _OFFSET) << 10 | chosen << 20
        return best

    def _ordered(self, legal: int, turn: int, n: int, led: int, win: int, ws: int, first: int,
                 class_of: list[int] | None = None) -> list[int]:
        """The moves worth trying at this node, one per class of equivalent cards, the likely
        best first (``first``, the table's best move, before all). ``class_of``, if given, gets
        each legal card's representative."""
        hands = self.hands
        alive = hands[0] | hands[1] | hands[2] | hands[3]
        if n:
            alive |= 1 << win  # the winning card decides which cards are equivalent
        points, beats, rank = self.points, self.beats, self.rank
        keyed: list[int] = []
        for suit in range(4):
            in_suit = legal & SUIT_MASKS[suit]
            if not in_suit:
                continue
            previous = -1
            for c in self.order[suit]:
                if not alive >> c & 1:
                    continue
                if not in_suit >> c & 1:
                    previous = -1
                    continue
                if previous >= 0 and points[previous] == points[c]:
                    if class_of is not None:
                        class_of[c] = class_of[previous]
                    previous = c
                    continue  # equivalent to the card above it
                previous = c
                if class_of is not None:
                    class_of[c] = c
                if c == first:
                    score = 0
                elif n == 0:
                    # a master first (nothing left above it), else the lowest card
                    score = 10 if rank_is_top(c, alive, self.order) else 200 - rank[c] * 8 + points[c]
                elif beats[win] >> c & 1:
                    if ws == turn ^ 2:
                        score = 120 + rank[c] * 4  # over a partner: late
                    elif n == 3:
                        score = 40 - points[c]  # the last card takes the trick: the richest
                    else:
                        score = 20 + rank[c] * 4  # the highest, safest first
                elif ws == turn ^ 2:
                    score = 60 - points[c]  # the partner wins: give points
                else:
                    score = 100 + points[c] * 2 - rank[c]  # a discard: the cheapest
                keyed.append(score << 6 | c)
        keyed.sort()
        return [k & 63 for k in keyed]

    def _look_at_clock(self) -> None:
        self.next_check = self.nodes + _CHECK_EVERY
        if self.deadline and time.monotonic() > self.deadline:
            raise SolveInterrupted("the time limit passed")




def rank_is_top(c: int, alive: int, order: list[list[int]]) -> bool:
    """Whether card ``c`` is the strongest card left of its suit."""
    for other in order[c >> 3]:
        if alive >> other & 1:
            return other == c
    return False
