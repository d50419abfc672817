"""The taking (classic belote) and the auction (coinche, contrée) as states.

Both states have one shape: ``turn`` (the seat to call, ``None`` once over),
``legal_calls()`` (exact and ordered: pass first, then the other calls in
ascending order), ``push(call, seat=None)`` checked, ``push_unchecked(call,
seat)`` that records a call as made, ``pop()``, ``is_over``, ``is_void``,
``contract`` and ``history`` (the calls with their seats).

A state keeps no undo copies: calls are many and take-backs rare, so ``pop``
replays the calls left from the start. The validator makes the sound calls of a
record through ``sound_calls.push_sound_calls``, a copy of these rules inlined
for speed, and explains the first call that is not sound with ``explain``.

``explain_illegal_call(state, call, seat)`` says why a call is not allowed, with
a stable rule id, so that a validator can report every illegal call of a record
and go on with ``push_unchecked``.

Rules: ``docs/rules.md`` §2 (taking) and §6 (auction); the choices made where the
rule books are open are listed in its §10.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import lru_cache
from typing import NamedTuple

from notation.values import (COINCHE, PASS, SURCOINCHE, TAKE, Call, CallKind, Card, Denomination, Rank,
                            Seat, Suit)
from notation.record import CallEntry

from .contract import Contract, contract_of
from .rules import Rules

SUIT_DENOMINATIONS: tuple[Denomination, ...] = tuple(Denomination.of_suit(s) for s in Suit)
ALL_DENOMINATIONS: tuple[Denomination, ...] = tuple(Denomination)


class SeatedCall(NamedTuple):
    seat: Seat
    call: Call

    def __str__(self) -> str:
        return f"{self.seat} {self.call}"


class Illegality(NamedTuple):
    """Why a call is not allowed: a stable ``rule`` id and a message naming seat and call."""

    rule: str
    message: str


class AuctionError(ValueError):
    """A call that may not be made; ``seat``, ``call`` and the ``rule`` id say which and why."""

    def __init__(self, message: str, seat: Seat | None, call: Call, rule: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.call = call
        self.rule = rule


class IllegalCallError(AuctionError):
    """The call breaks a rule of the taking or the auction."""


class OutOfTurnError(AuctionError):
    """The call was made by a seat that is not in turn (and may not interject)."""


class AuctionClosedError(AuctionError):
    """A call after the taking or the auction has closed."""


# Stable rule ids; the validator maps them to its catalogue (replay.CALL_RULES).
RULE_CLOSED = "auction.closed"
RULE_OUT_OF_TURN = "auction.out-of-turn"
_ERRORS: dict[str, type[AuctionError]] = {RULE_CLOSED: AuctionClosedError, RULE_OUT_OF_TURN: OutOfTurnError}


def explain_illegal_call(state: BiddingState, call: Call, seat: Seat | None = None) -> Illegality | None:
    """``None`` if ``seat`` (default: the seat in turn) may make ``call`` now, else why not."""
    return state.explain(call, seat)


class BiddingState(ABC):
    """What the taking and the auction share: seats, history, take-backs, checked pushes."""

    def __init__(self, rules: Rules, dealer: Seat) -> None:
        self.rules = rules
        self.dealer = dealer
        self.clockwise = rules.clockwise
        self.first_speaker = dealer if rules.first_speaker == "dealer" else dealer.next(self.clockwise)
        self._history: list[SeatedCall] = []

    # --- the shared interface ------------------------------------------------------

    @property
    def history(self) -> tuple[SeatedCall, ...]:
        return tuple(self._history)

    def entries(self) -> tuple[CallEntry, ...]:
        """The history as record entries."""
        return tuple(CallEntry(c.call, c.seat) for c in self._history)

    @property
    @abstractmethod
    def turn(self) -> Seat | None:
        """The seat to call; ``None`` once the taking or auction is over."""

    @property
    def is_over(self) -> bool:
        return self.turn is None

    @property
    def is_void(self) -> bool:
        """Over with no contract: everybody passed."""
        return self.is_over and self.contract is None

    @property
    @abstractmethod
    def contract(self) -> Contract | None:
        """The contract so far (the standing bid), ``None`` when nobody has taken or bid."""

    @abstractmethod
    def legal_calls(self) -> list[Call]:
        """The calls the seat in turn may make, pass first; empty once over."""

    def is_legal(self, call: Call, seat: Seat | None = None) -> bool:
        return self.explain(call, seat) is None

    def explain(self, call: Call, seat: Seat | None = None) -> Illegality | None:
        """``None`` if the call is allowed, else the rule it breaks."""
        turn = self.turn
        if turn is None:
            return Illegality(RULE_CLOSED, f"{self._caller(seat)} cannot call {call}: the {self._name} is over")
        if seat is not None and seat is not turn:
            return self._explain_out_of_turn(call, seat, turn)
        if self._allows(call, turn):
            return None
        return self._explain_in_turn(call, turn)

    def _allows(self, call: Call, seat: Seat) -> bool:
        """Whether the seat in turn may make ``call`` (states may answer faster than the list)."""
        return call in self.legal_calls()

    def push(self, call: Call, seat: Seat | None = None) -> None:
        """Make a call, checked; ``seat`` defaults to the seat in turn."""
        problem = self.explain(call, seat)
        if problem is not None:
            error = _ERRORS.get(problem.rule, IllegalCallError)
            raise error(problem.message, self._caller(seat), call, problem.rule)
        self.push_unchecked(call, seat)

    def push_unchecked(self, call: Call, seat: Seat | None = None) -> None:
        """Record ``call`` as made by ``seat`` without checking it, keeping a sensible state
        (docs/rules.md §10): an illegal call has the effect it would have had were it legal,
        a call that can have no effect counts as a pass, a call after the close changes nothing."""
        who = self._caller(seat)
        self._history.append(SeatedCall(who, call))
        self._apply(call, who)

    def pop(self) -> SeatedCall:
        """Take back the last call (the calls left are replayed from the start)."""
        if not self._history:
            raise IndexError(f"no call to take back in the {self._name}")
        last = self._history.pop()
        kept, self._history = self._history, []
        self._reset()
        for seated in kept:
            self._history.append(seated)
            self._apply(seated.call, seated.seat)
        return last

    def __len__(self) -> int:
        return len(self._history)

    # --- what each state defines -----------------------------------------------------

    _name = "auction"

    @abstractmethod
    def _reset(self) -> None:
        """Put the state's own fields back as they are before the first call."""

    @abstractmethod
    def _apply(self, call: Call, seat: Seat) -> None:
        """The effect of a call just recorded, checked or not."""

    @abstractmethod
    def _explain_in_turn(self, call: Call, seat: Seat) -> Illegality:
        """Why the seat in turn may not make ``call`` (which it may not)."""

    def _explain_out_of_turn(self, call: Call, seat: Seat, turn: Seat) -> Illegality | None:
        return Illegality(RULE_OUT_OF_TURN, f"{seat} cannot call {call}: it is {turn}'s turn to call")

    def _caller(self, seat: Seat | None) -> Seat:
        """The seat a call is made by: the one given, else the seat in turn, else (once
        over) the seat after the last caller."""
        if seat is not None:
            return seat
        if self.turn is not None:
            return self.turn
        return self._history[-1].seat.next(self.clockwise) if self._history else self.first_speaker


# --- classic belote: the turned card and two rounds -------------------------------------

RULE_ROUND1 = "taking.round1-take-or-pass"
RULE_ROUND2 = "taking.round2-name-or-pass"
RULE_TURNED_SUIT = "taking.round2-turned-suit"
RULE_ROUND2_SA_TA = "taking.round2-sa-ta"
RULE_DEALER_MUST_TAKE = "taking.jack-forces-dealer"


def _round2(same_suit: bool, sa_ta: bool, turned: Suit) -> tuple[tuple[Call, ...], tuple[Denomination, ...]]:
    """Round 2 calls: pass, then the suits S H D C (the turned one only with
    ``round2_same_suit``), then SA and TA with ``round2_sa_ta``; and the names alone.
    Kept by the identity of the suit: an lru_cache would hash the enum in Python."""
    key = (same_suit, sa_ta, id(turned))
    hit = _ROUND2.get(key)
    if hit is None:
        named = [d for d in SUIT_DENOMINATIONS if same_suit or d.suit is not turned]
        if sa_ta:
            named += [Denomination.NO_TRUMPS, Denomination.ALL_TRUMPS]
        hit = _ROUND2[key] = ((PASS,) + tuple(Call(CallKind.NAME, d) for d in named), tuple(named))
    return hit


_ROUND2: dict[tuple[bool, bool, int], tuple[tuple[Call, ...], tuple[Denomination, ...]]] = {}
# The four seats in calling order from each first speaker, each way round.
_ORDERS: dict[tuple[int, bool], tuple[Seat, ...]] = {
    (id(first), clockwise): (first, first.next(clockwise), first.next(clockwise).next(clockwise),
                             first.next(not clockwise))
    for first in Seat for clockwise in (False, True)}


class TakingState(BiddingState):
    """Classic belote (docs/rules.md §2): round 1 take or pass, round 2 name a denomination or pass.

    The first take or name closes the taking; eight passes make the deal void. The
    turn follows the number of calls made, so a call recorded against the wrong seat
    does not shift the seats of the calls after it.
    """

    _name = "taking"

    def __init__(self, rules: Rules, dealer: Seat, turned: Card) -> None:
        super().__init__(rules, dealer)
        self.turned = turned
        self.order: tuple[Seat, ...] = _ORDERS[id(self.first_speaker), self.clockwise]
        self._contract: Contract | None = None
        self._round2_calls, self._round2_names = _round2(rules.round2_same_suit, rules.round2_sa_ta, turned.suit)

    @property
    def round(self) -> int:
        """1 or 2 while calls are made; 3 once eight passes have closed the taking."""
        return len(self._history) // 4 + 1

    @property
    def turn(self) -> Seat | None:
        if self._contract is not None or len(self._history) >= 8:
            return None
        return self.order[len(self._history) % 4]

    @property
    def contract(self) -> Contract | None:
        return self._contract

    @property
    def dealer_must_take(self) -> bool:
        """``jack_forces_dealer``: the dealer may not pass in round 1 over a turned jack."""
        return (self.rules.jack_forces_dealer and self.turned.rank is Rank.JACK
                and self.round == 1 and self.turn is self.dealer)

    def legal_calls(self) -> list[Call]:
        if self.turn is None:
            return []
        if self.round == 1:
            return [TAKE] if self.dealer_must_take else [PASS, TAKE]
        return list(self._round2_calls)

    def _allows(self, call: Call, seat: Seat) -> bool:
        """``call in legal_calls()`` without building the list: a take, a pass or a
        name equals a listed call exactly when its kind (and denomination) do."""
        kind = call.kind
        if len(self._history) < 4:
            return kind is CallKind.TAKE or (kind is CallKind.PASS and not self.dealer_must_take)
        return kind is CallKind.PASS or (kind is CallKind.NAME and call.denomination in self._round2_names)

    def _reset(self) -> None:
        self._contract = None

    def _apply(self, call: Call, seat: Seat) -> None:
        if self._contract is not None or len(self._history) > 8:
            return  # a call after the close has no effect
        if call.kind is CallKind.TAKE:
            self._contract = contract_of(seat, Denomination.of_suit(self.turned.suit))
        elif call.denomination is not None:
            self._contract = contract_of(seat, call.denomination)

    def _explain_in_turn(self, call: Call, seat: Seat) -> Illegality:
        said = f"{seat} cannot call {call}"
        if self.round == 1:
            if call is PASS:
                return Illegality(RULE_DEALER_MUST_TAKE,
                                  f"{said}: the dealer must take when the turned card is a jack ({self.turned})")
            return Illegality(RULE_ROUND1, f"{said}: in round 1 the only calls are take and pass")
        if call.kind is CallKind.NAME and call.denomination is not None:
            if call.denomination.suit is self.turned.suit:
                return Illegality(RULE_TURNED_SUIT,
                                  f"{said}: the turned suit ({self.turned.suit.plural}) may not be named in round 2")
            return Illegality(RULE_ROUND2_SA_TA, f"{said}: SA and TA may not be named (round2_sa_ta is off)")
        return Illegality(RULE_ROUND2, f"{said}: in round 2 the only calls are a suit name and pass")


# --- coinche / contrée: the auction ------------------------------------------------------

RULE_NOT_AUCTION_CALL = "auction.not-an-auction-call"
RULE_DENOMINATION = "auction.denomination"
RULE_GENERALE_OFF = "auction.generale-off"
RULE_BID_VALUE = "auction.bid-value"
RULE_BID_NOT_HIGHER = "auction.bid-not-higher"
RULE_BID_AFTER_COINCHE = "auction.bid-after-coinche"
RULE_COINCHER_PARTNER = "auction.coincher-partner-must-pass"
RULE_COINCHE_NO_BID = "auction.coinche-no-bid"
RULE_COINCHE_OWN_SIDE = "auction.coinche-own-side"
RULE_COINCHE_TWICE = "auction.coinche-twice"
RULE_SURCOINCHE_OFF = "auction.surcoinche-off"
RULE_SURCOINCHE_NO_COINCHE = "auction.surcoinche-no-coinche"
RULE_SURCOINCHE_BY_DEFENCE = "auction.surcoinche-by-defence"

_CAPOT_LEVEL = 1_000_000
_GENERALE_LEVEL = 2_000_000


def bid_level(call: Call) -> int:
    """A number that orders bids: the value, then capot, then générale."""
    if call.kind is CallKind.GENERALE:
        return _GENERALE_LEVEL
    if call.kind is CallKind.CAPOT:
        return _CAPOT_LEVEL
    return call.value or 0


def bid_denominations(rules: Rules) -> tuple[Denomination, ...]:
    return ALL_DENOMINATIONS if rules.sa_ta else SUIT_DENOMINATIONS


def bid_values_above(rules: Rules, level: int) -> range:
    """The bid values allowed over a standing bid of ``level`` (0: no bid yet): the ladder
    of ``bid_min``..``bid_max`` by ``bid_step``, or with ``bid_values=any_step`` any whole
    value a step above the last bid (the first bid: any value from ``bid_min``)."""
    if rules.bid_values == "multiples":
        above = max(0, (level - rules.bid_min) // rules.bid_step + 1) if level else 0
        return range(rules.bid_min + above * rules.bid_step, rules.bid_max + 1, rules.bid_step)
    lowest = level + rules.bid_step if level else rules.bid_min
    return range(max(lowest, rules.bid_min), rules.bid_max + 1)


def bids_above(rules: Rules, level: int) -> tuple[Call, ...]:
    """Every bid higher than ``level``, ascending: values, then capot, then générale;
    denominations S H D C (SA TA) within a level."""
    return _bids(rules, level)


def _is_bid_above(rules: Rules, level: int, call: Call) -> bool:
    """``call in bids_above(rules, level)``, worked out rather than looked up: the
    lookup would hash the Rules and the Call (enum hashes run in Python)."""
    if call.denomination not in bid_denominations(rules):
        return False
    kind = call.kind
    if kind is CallKind.BID:
        return call.value in bid_values_above(rules, level)
    if kind is CallKind.CAPOT:
        return level < _CAPOT_LEVEL
    return kind is CallKind.GENERALE and bool(rules.generale) and level < _GENERALE_LEVEL


@lru_cache(maxsize=None)
def _bids(rules: Rules, level: int) -> tuple[Call, ...]:
    denominations = bid_denominations(rules)
    bids = [Call(CallKind.BID, d, v) for v in bid_values_above(rules, level) for d in denominations]
    if level < _CAPOT_LEVEL:
        bids += [Call(CallKind.CAPOT, d) for d in denominations]
    if rules.generale and level < _GENERALE_LEVEL:
        bids += [Call(CallKind.GENERALE, d) for d in denominations]
    return tuple(bids)


class AuctionState(BiddingState):
    """The coinche auction (docs/rules.md §6).

    A pass does not stop a later bid. The auction ends after three passes following
    a bid or a coinche, at once after a surcoinche, and is void after four passes
    with no bid. After a call the turn passes to the player after the caller (so an
    interjected coinche moves the turn to the player after the coincher).
    """

    def __init__(self, rules: Rules, dealer: Seat) -> None:
        super().__init__(rules, dealer)
        self._reset()

    @property
    def turn(self) -> Seat | None:
        return self._turn

    @property
    def standing_bid(self) -> SeatedCall | None:
        """The last bid and its bidder."""
        return self._bid

    @property
    def doubling(self) -> int:
        return self._doubling

    @property
    def coincher(self) -> Seat | None:
        return self._coincher

    @property
    def contract(self) -> Contract | None:
        if self._bid is None:
            return None
        seat, call = self._bid
        assert call.denomination is not None
        return contract_of(seat, call.denomination, call.value, call.kind is CallKind.CAPOT,
                           call.kind is CallKind.GENERALE, self._doubling)

    @property
    def level(self) -> int:
        """The level of the standing bid, 0 before any bid."""
        return bid_level(self._bid.call) if self._bid else 0

    def legal_calls(self) -> list[Call]:
        seat = self._turn
        if seat is None:
            return []
        calls = [PASS]
        if self.may_coinche(seat):
            calls.append(COINCHE)
        if self.may_surcoinche(seat):
            calls.append(SURCOINCHE)
        if self.may_bid():
            calls += bids_above(self.rules, self.level)
        return calls

    def interjectors(self) -> list[Seat]:
        """Seats not in turn that may coinche now (``coinche_out_of_turn``, §9.9)."""
        if not self.rules.coinche_out_of_turn or self._turn is None:
            return []
        return [s for s in Seat if s is not self._turn and self.may_coinche(s)]

    def _allows(self, call: Call, seat: Seat) -> bool:
        kind = call.kind
        if kind is CallKind.PASS:
            return True
        if kind is CallKind.COINCHE:
            return self.may_coinche(seat)
        if kind is CallKind.SURCOINCHE:
            return self.may_surcoinche(seat)
        return call.is_bid and self.may_bid() and _is_bid_above(self.rules, self.level, call)

    def may_coinche(self, seat: Seat) -> bool:
        """Whether ``seat`` may coinche the standing bid now (in turn or, where allowed, not)."""
        return self._bid is not None and self._doubling == 0 and seat.team is not self._bid.seat.team

    def may_surcoinche(self, seat: Seat) -> bool:
        return (self.rules.surcoinche and self._doubling == 1 and self._bid is not None
                and seat.team is self._bid.seat.team)

    def may_bid(self) -> bool:
        """Whether the seat in turn may bid at all (no coinche standing, or ``decoincher``)."""
        return self._doubling == 0 or self.rules.decoincher

    # --- changes --------------------------------------------------------------------

    def _reset(self) -> None:
        self._turn: Seat | None = self.first_speaker
        self._bid: SeatedCall | None = None
        self._doubling = 0
        self._coincher: Seat | None = None
        self._passes = 0

    def _apply(self, call: Call, seat: Seat) -> None:
        """Unchecked: a bid of any level stands, a coinche or surcoinche that cannot
        apply (no bid, no coinche) and a classic call count as passes."""
        if self._turn is None:
            return
        self._turn = seat.next(self.clockwise)
        if call.is_bid:
            self._bid, self._doubling, self._coincher, self._passes = SeatedCall(seat, call), 0, None, 0
        elif call.kind is CallKind.COINCHE and self._bid is not None and self._doubling == 0:
            self._doubling, self._coincher, self._passes = 1, seat, 0
        elif call.kind is CallKind.SURCOINCHE and self._doubling == 1:
            self._doubling, self._turn = 2, None
        else:
            self._passes += 1
            if self._passes >= (3 if self._bid is not None else 4):
                self._turn = None

    # --- explanations ----------------------------------------------------------------

    def _explain_out_of_turn(self, call: Call, seat: Seat, turn: Seat) -> Illegality | None:
        if call.kind is CallKind.COINCHE and self.rules.coinche_out_of_turn:
            return None if self.may_coinche(seat) else self._explain_coinche(seat, call)
        return super()._explain_out_of_turn(call, seat, turn)

    def _explain_in_turn(self, call: Call, seat: Seat) -> Illegality:
        said = f"{seat} cannot call {call}"
        if call.kind in (CallKind.TAKE, CallKind.NAME):
            return Illegality(RULE_NOT_AUCTION_CALL,
                              f"{said}: the auction has bids, pass, coinche and surcoinche, not take or a bare suit")
        if call.kind is CallKind.COINCHE:
            return self._explain_coinche(seat, call)
        if call.kind is CallKind.SURCOINCHE:
            if not self.rules.surcoinche:
                return Illegality(RULE_SURCOINCHE_OFF, f"{said}: surcoinche is not played (surcoinche=false)")
            if self._doubling != 1:
                return Illegality(RULE_SURCOINCHE_NO_COINCHE, f"{said}: there is no coinche to answer")
            return Illegality(RULE_SURCOINCHE_BY_DEFENCE,
                              f"{said}: only the bidding side ({self._bid_text()}) may surcoinche")
        return self._explain_bid(call, seat, said)

    def _explain_bid(self, call: Call, seat: Seat, said: str) -> Illegality:
        assert call.denomination is not None
        rules = self.rules
        if self._doubling and not rules.decoincher:
            if self._coincher is not None and seat is self._coincher.partner:
                return Illegality(RULE_COINCHER_PARTNER, f"{said}: after {self._coincher}'s coinche "
                                  f"the coincher's partner may only pass")
            return Illegality(RULE_BID_AFTER_COINCHE, f"{said}: nobody may bid after a coinche "
                              f"(decoincher=false); pass or surcoinche")
        if call.denomination not in bid_denominations(rules):
            return Illegality(RULE_DENOMINATION, f"{said}: SA and TA are not played (sa_ta=false)")
        if call.kind is CallKind.GENERALE and not rules.generale:
            return Illegality(RULE_GENERALE_OFF, f"{said}: générale is not played (generale=0)")
        if call.kind is CallKind.BID and call.value not in bid_values_above(rules, 0):
            ladder = (f"a multiple of {rules.bid_step} from {rules.bid_min}" if rules.bid_values == "multiples"
                      else f"a whole number from {rules.bid_min}")
            return Illegality(RULE_BID_VALUE, f"{said}: a bid is {ladder} to {rules.bid_max}")
        needed = "" if rules.bid_values == "multiples" or call.kind is not CallKind.BID else \
            f" by at least {rules.bid_step}"
        return Illegality(RULE_BID_NOT_HIGHER, f"{said}: a bid must be higher{needed} than {self._bid_text()}")

    def _explain_coinche(self, seat: Seat, call: Call) -> Illegality:
        said = f"{seat} cannot call {call}"
        if self._bid is None:
            return Illegality(RULE_COINCHE_NO_BID, f"{said}: there is no bid to coinche")
        if self._doubling:
            return Illegality(RULE_COINCHE_TWICE, f"{said}: {self._bid_text()} is already coinched")
        return Illegality(RULE_COINCHE_OWN_SIDE,
                          f"{said}: only an opponent of the bidder may coinche {self._bid_text()}")

    def _bid_text(self) -> str:
        return f"{self._bid.call} by {self._bid.seat}" if self._bid else "no bid"


def new_bidding(rules: Rules, dealer: Seat, turned: Card | None = None) -> BiddingState:
    """The taking (classic, needs the turned card) or the auction (coinche) of ``rules``."""
    if rules.is_coinche:
        return AuctionState(rules, dealer)
    if turned is None:
        raise ValueError("the classic taking needs the turned card")
    return TakingState(rules, dealer, turned)
