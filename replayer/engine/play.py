"""The card play of one deal: a ``PlayState`` shaped like python-chess's ``Board``.

``push`` plays the next card (checked against rules.md §3), ``push_unchecked``
plays it whatever the rules say (the validator goes on after an illegal play),
``pop`` rewinds. Hands are 32-bit masks and the per-denomination tables of
``cardmasks`` decide legality and trick winners with a few integer operations.
Below the ``Card`` level the state works on card indices 0..31: ``fault(index)``
says whether the seat in turn may play a card and ``apply(index)`` plays it, the
two calls a validator makes for every card of a record.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Iterable, Mapping, NamedTuple, Sequence

from notation.values import ALL_CARDS, DECLARATIONS, SEATS, SUITS, Card, Denomination, Rank, Seat, Suit, Team, card_index

from .cardmasks import MODE_SUIT, MODE_TA, SUIT_MASKS, Table, cards_of, mask_of, sorted_cards, table
from .contract import Contract
from .rules import Rules

TRICKS_PER_DEAL = 8
TEAMS = (Team.NS, Team.EW)  # index = seat index & 1


# --- errors -------------------------------------------------------------------

class PlayError(ValueError):
    """A card that cannot be played here; ``seat`` and ``card`` say which."""

    def __init__(self, message: str, seat: Seat | None = None, card: Card | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.card = card


class NotInHandError(PlayError):
    """The seat does not hold the card."""


class IllegalPlayError(PlayError):
    """The card breaks a duty of rules.md §3; ``illegality`` explains which."""

    def __init__(self, illegality: Illegality) -> None:
        super().__init__(illegality.message(), illegality.seat, illegality.card)
        self.illegality = illegality


class DealOverError(PlayError):
    """A card after the eighth trick (or after a claim)."""


class OutOfTurnError(PlayError):
    """``push(card, seat=...)`` named a seat that is not in turn."""


# --- values -------------------------------------------------------------------

class PlayedTrick(NamedTuple):
    """A finished trick: its leader, the (seat, card) pairs in play order, winner, card points."""

    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int


class Declaration(NamedTuple):
    """A word said with a card: ``"belote"`` or ``"rebelote"``."""

    seat: Seat
    card: Card
    word: str


class Belote(NamedTuple):
    """A K+Q of a trump suit in one hand as dealt, and whether it scores (rules.md §5, §9.11)."""

    seat: Seat
    suit: Suit
    entitled: bool

    @property
    def team(self) -> Team:
        return self.seat.team


ILLEGAL_REASONS = ("not-in-hand", "must-follow", "must-overtrump-in-trump-lead", "ta-must-beat",
                   "must-trump", "must-overtrump", "must-undertrump")


@dataclass(frozen=True, slots=True)
class Illegality:
    """Why ``seat`` may not play ``card`` (reason: one of ``ILLEGAL_REASONS``)."""

    reason: str
    seat: Seat
    card: Card
    legal: tuple[Card, ...]  # the cards the seat could play
    led: Suit | None
    winner: Seat | None  # current winner of the trick and its card
    winner_card: Card | None
    partner_master: bool
    trumps_held: tuple[Card, ...]

    def message(self) -> str:
        who, card = self.seat.full_name, self.card.pretty()
        alternatives = " ".join(c.pretty() for c in self.legal)
        if self.reason == "not-in-hand":
            return f"{who} played {card} but does not hold it (could play {alternatives})"
        led = self.led.plural[:-1] if self.led else "card"
        # follow_or_trump: the legal cards mix the suit led and trumps
        or_trump = any(c.suit is not self.led for c in self.legal) and any(c.suit is self.led for c in self.legal)
        if self.reason == "must-follow":
            return f"{who} played {card} but held {alternatives} and had to follow {led}s{' or trump' * or_trump}"
        assert self.winner is not None and self.winner_card is not None
        winning = f"{self.winner.full_name}'s {self.winner_card.pretty()}"
        if self.reason in ("must-overtrump-in-trump-lead", "ta-must-beat"):
            return f"{who} played {card} but could beat {winning} with {alternatives}: {who} had to go over"
        relation = f"{who}'s partner" if self.partner_master else "an opponent"
        if or_trump:  # a trump played instead of following, lower than the trump in the trick
            return (f"{who} trumped with {card} instead of following {led}s while {self.winner.full_name} "
                    f"({relation}) was winning with {self.winner_card.pretty()}: {who} had to follow or "
                    f"overtrump ({alternatives})")
        trumps = " ".join(c.pretty() for c in self.trumps_held)
        context = (f"{who} played {card} but held no {led} and held {trumps} while "
                   f"{self.winner.full_name} ({relation}) was winning with {self.winner_card.pretty()}")
        duty = {"must-trump": "had to trump", "must-overtrump": f"had to overtrump with {alternatives}",
                "must-undertrump": f"could not overtrump and had to play a trump ({alternatives})"}
        return f"{context}: {who} {duty[self.reason]}"


# --- the legal-card rule -----------------------------------------------------------

class Duties:
    """The one legal-card rule of rules.md §3, on masks, for one denomination and rule set.

    ``PlayState`` asks it for every card a record plays and the solver for every position
    it searches: both read the same rule, so they cannot disagree on a legal card.
    """

    def __init__(self, trump: int, beats: tuple[int, ...], climb: bool, climb_duty: str, exempt: bool,
                 must_under: bool, overtrump: bool, or_trump: int) -> None:
        self.trump = trump  # the trump mask (every card at TA, none at SA)
        self.beats = beats  # beats[c]: the cards that beat c when c wins the trick (cardmasks)
        self.climb = climb  # a trump (TA: any) lead must be beaten when possible
        self.climb_duty = climb_duty
        self.exempt = exempt  # partner_exemption
        self.must_under = must_under  # undertrump=must
        self.overtrump = overtrump  # must_overtrump
        self.or_trump = or_trump  # follow_or_trump: the trumps that may replace a card of the suit led

    def legal(self, hand: int, seat: int, led: int, win: int, win_seat: int, bit: int = 0) -> tuple[int, str]:
        """The cards of ``hand`` that ``seat`` may play into a trick whose suit led is ``led``
        (a mask) and whose winning card ``win`` is ``win_seat``'s, and the duty (one of
        ``ILLEGAL_REASONS``) that playing card ``bit``, held but not among them, breaks (""
        when every card of the hand may be played). A lead is free: callers do not ask."""
        followers = hand & led
        if followers:
            if led & self.trump and self.climb:  # trumps led (trump_lead_must_beat), or TA with ta_must_beat
                over = followers & self.beats[win]
                if over:
                    return over, self.climb_duty if bit & led else "must-follow"
            ruffs = hand & self.or_trump & ~led  # follow_or_trump: a trump may replace a card of the suit led
            if not ruffs:
                return followers, "must-follow"
            # A trump played instead still goes over a trump in the trick if it can (002 rule 3).
            over = ruffs & self.beats[win] if self.overtrump else ruffs
            return followers | (over or ruffs), "must-overtrump" if bit & ruffs else "must-follow"
        trumps = hand & self.trump
        if not trumps or (self.exempt and win_seat == seat ^ 2):
            return hand, ""
        if not self.overtrump:  # must_overtrump=false (004): any trump will do
            return trumps, "must-trump"
        # With no trump in the trick, beats[win] holds every trump: must trump is must go over.
        over = trumps & self.beats[win]
        if over:
            return over, "must-overtrump" if self.trump >> win & 1 else "must-trump"
        if self.must_under:
            return trumps, "must-undertrump"
        return hand, ""


class Position(NamedTuple):
    """A ``PlayState`` as plain integers (``PlayState.position()``): what a search needs."""

    hands: tuple[int, int, int, int]  # masks, by seat N E S W
    turn: int  # the seat to play
    n: int  # cards in the trick in progress
    led: int  # the mask of the suit led (0 at a lead)
    win: int  # the card winning the trick, and its seat
    win_seat: int
    trick_points: int  # points in the trick so far
    ns_points: int  # card points of the finished tricks
    ew_points: int
    won: int  # bit 0: NS have taken a trick; bit 1: EW have
    tricks: int  # finished tricks
    duties: Duties  # the legal-card rule
    beats: tuple[int, ...]  # the trick-winner table (cardmasks)
    points: tuple[int, ...]
    following: tuple[int, ...]  # the next seat to play after each seat
    dealt: tuple[int, ...]  # the hands the play started from


# --- the state ----------------------------------------------------------------

class PlayState:
    """The play of one deal, from the first lead to the eighth trick (or a claim).

    Inside, seats are ints 0..3 (N E S W) and cards ints 0..31 (``Card.index``), hands
    are 32-bit masks. Each rule is written once: ``_legal`` says which cards the seat
    in turn may play (rules.md §3) and which duty a card outside them breaks; ``apply``
    is the move, the trick-winner and points update of §4 included. Everything else is
    built on these two:

    * ``fault(index)``: ``None`` if the seat in turn may play card ``index`` now, else
      one of ``ILLEGAL_REASONS`` (``"not-in-hand"`` first);
    * ``apply(index, declaration=None)``: play card ``index`` for the seat in turn,
      unchecked (a card it does not hold is played all the same and taken from no hand);
    * ``push(card, ...)``: ``fault``, then ``apply``, raising a ``PlayError`` on a fault;
      ``push_unchecked(card)`` is ``apply``; ``pop()`` takes the last card back and plays
      the cards left in its trick again through ``apply``; ``legal_mask()`` and
      ``explain_illegal`` read ``_legal``; ``trick_winner`` plays a trick through ``apply``.

    A validator plays each card of a record with ``play(index, declaration, seat)``, the
    checked move, which says why a card may not be played; only then does it build an
    ``Illegality`` (``explain_illegal``) and play the card as written (``apply``).
    """

    __slots__ = ("contract", "rules", "_mode", "_beats", "_points", "_trump", "_duties", "_next", "_dealt", "_hands", "_turn", "_leader",
                 "_first_leader", "_n", "_led", "_win", "_win_seat", "_trick_points", "_tricks", "_plays",
                 "_team_points", "_trick_counts", "_claim", "_pairs")

    def __init__(self, hands: Mapping[Seat, Iterable[Card] | int] | tuple[int, int, int, int], contract: Contract,
                 rules: Rules, *, leader: Seat | None = None, dealer: Seat | None = None) -> None:
        """``hands``: each seat's cards (or mask), or the four masks in seat order N E S W."""
        (self._mode, self._beats, self._points, self._trump, self._duties, self._next, trump_suit_indices,
         dealer_leads) = _config(contract.denomination, rules)
        if leader is None:
            if dealer is None:
                raise ValueError("PlayState needs the first leader or the dealer")
            first = dealer.index if dealer_leads else self._next[dealer.index]
        else:
            first = leader.index
        self.contract = contract
        self.rules = rules
        if isinstance(hands, tuple):  # the replay passes the masks it has already made
            held = list(hands)
        else:
            held = [0, 0, 0, 0]
            for seat, cards in hands.items():
                held[_SEAT_POSITION[id(seat)]] = cards if isinstance(cards, int) else mask_of(cards)
        self._dealt = dealt = tuple(held)
        self._hands = held
        self._first_leader = self._leader = self._turn = first  # _turn is -1 once the deal is over
        # The trick in progress: _n cards (the last _n entries of _plays), the suit led (a
        # mask), the winning card and seat, the points so far.
        self._n = self._led = self._win = self._win_seat = self._trick_points = 0
        # Finished tricks as (leader, index of its first play, winner, points); PlayedTrick is built on demand.
        self._tricks: list[tuple[int, int, int, int]] = []
        self._plays: list[tuple[int, int, str | None, int]] = []  # seat, card, declaration, bit if held
        self._team_points = [0, 0]
        self._trick_counts = [0, 0, 0, 0]
        self._claim: int | None = None
        self._pairs = [(seat, suit) for suit in trump_suit_indices for seat in (0, 1, 2, 3)
                       if dealt[seat] & _KQ[suit] == _KQ[suit]]  # (seat, suit) holding a trump K+Q

    # --- queries ------------------------------------------------------------------

    @property
    def turn(self) -> Seat | None:
        return _SEAT_OR_NONE[self._turn]  # _turn is -1 once the deal is over

    @property
    def is_over(self) -> bool:
        return self._turn < 0  # after the eighth trick or a claim

    @property
    def leader(self) -> Seat:
        """The seat that leads (or led) the current trick."""
        return SEATS[self._leader]

    @property
    def first_leader(self) -> Seat:
        return SEATS[self._first_leader]

    def hand(self, seat: Seat) -> frozenset[Card]:
        return cards_of(self._hands[seat.index])

    def dealt(self, seat: Seat) -> frozenset[Card]:
        return cards_of(self._dealt[seat.index])

    def hand_mask(self, seat: Seat) -> int:
        return self._hands[seat.index]

    def _pairs_of(self, start: int, stop: int) -> tuple[tuple[Seat, Card], ...]:
        return tuple((SEATS[s], ALL_CARDS[c]) for s, c, _, _ in self._plays[start:stop])

    @property
    def tricks(self) -> tuple[PlayedTrick, ...]:
        return tuple(PlayedTrick(SEATS[leader], self._pairs_of(start, start + 4), SEATS[winner], points)
                     for leader, start, winner, points in self._tricks)

    @property
    def trick_count(self) -> int:
        """How many tricks are finished."""
        return len(self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return self._pairs_of(len(self._plays) - self._n, len(self._plays))

    @property
    def current_winner(self) -> tuple[Seat, Card] | None:
        return (SEATS[self._win_seat], ALL_CARDS[self._win]) if self._n else None

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        return self._pairs_of(0, len(self._plays))

    @property
    def moves(self) -> bytes:
        """Each card played, in order, as a byte: seat index << 5 | card index (plain data, for
        a report to keep)."""
        return bytes([seat << 5 | card for seat, card, _, _ in self._plays])

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        return tuple(Declaration(SEATS[s], ALL_CARDS[c], word) for s, c, word, _ in self._plays if word)

    @property
    def claimed_by(self) -> Seat | None:
        return None if self._claim is None else SEATS[self._claim]

    # --- the legal cards (rules.md §3) ----------------------------------------------

    def _legal(self, seat: int, bit: int = 0) -> tuple[int, str]:
        """The cards ``seat`` may play now and the duty that card ``bit`` breaks (``Duties.legal``)."""
        hand = self._hands[seat]
        if not self._n:
            return hand, ""  # the lead is free
        return self._duties.legal(hand, seat, self._led, self._win, self._win_seat, bit)

    def legal_mask(self) -> int:
        """The cards the seat in turn may play, as a mask (0 when the deal is over)."""
        return 0 if self._turn < 0 else self._legal(self._turn)[0]

    def legal_cards(self) -> frozenset[Card]:
        return cards_of(self.legal_mask())

    def is_legal(self, card: Card) -> bool:
        return bool(self.legal_mask() >> card_index(card) & 1)

    def fault(self, index: int) -> str | None:
        """``None`` if the seat in turn may play card ``index`` (0..31) now, else why not:
        one of ``ILLEGAL_REASONS``. Raises ``DealOverError`` once the deal is over."""
        turn = self._turn
        if turn < 0:
            raise DealOverError(f"{ALL_CARDS[index].pretty()} played after the end of the deal", None,
                                ALL_CARDS[index])
        legal, duty = self._legal(turn, 1 << index)
        if legal >> index & 1:  # the legal cards are held cards
            return None
        return duty if self._hands[turn] >> index & 1 else "not-in-hand"

    # --- moves --------------------------------------------------------------------

    def play(self, index: int, declaration: str | None = None, seat: Seat | None = None) -> str | None:
        """The checked move: play card ``index`` (0..31) for the seat in turn and return None,
        or, when it may not be played, play nothing and return why: ``"out-of-turn"`` when
        ``seat`` (the seat written, if any) is not the seat in turn, else what ``fault``
        says. Raises ``DealOverError`` once the deal is over."""
        return self._move((index,), (declaration,), (seat,), True)[1]

    def play_cards(self, cards: Sequence[int], declarations: Sequence[str | None],
                   seats: Sequence[Seat | None]) -> tuple[int, str | None]:
        """``play`` of cards in a row (each with its declaration and the seat written, if any)
        while each may be played: how many were, and why the next one may not be (None when
        all were). What a validator calls for a whole deal."""
        return self._move(cards, declarations, seats, True)

    def apply(self, index: int, declaration: str | None = None) -> None:
        """Play card ``index`` (0..31) for the seat in turn, unchecked (a card it does not hold
        is played all the same, and taken from no hand). Raises ``DealOverError`` once the
        deal is over."""
        self._move((index,), (declaration,), (None,), False)

    def _move(self, cards: Sequence[int], words: Sequence[str | None], seats: Sequence[Seat | None],
              check: bool) -> tuple[int, str | None]:
        """The one move, for cards in a row: each card leaves its seat's hand (if it is there),
        joins the trick, takes it over when it beats the winning card (rules.md §4) and adds its
        points; the fourth card closes the trick, whose winner leads the next. With ``check``
        a card is first tested (the seat written, the hand, ``_legal``) and the first one that
        may not be played stops the row. The state lives in locals along the row (a deal is 32
        moves) and goes back to the attributes at the end, and before ``_legal`` reads it."""
        turn, n, led, win, win_seat, trick_points = (self._turn, self._n, self._led, self._win, self._win_seat,
                                                    self._trick_points)
        hands, plays, beats, points, following = self._hands, self._plays, self._beats, self._points, self._next
        done, reason = 0, None
        for index, word, seat in zip(cards, words, seats):
            if turn < 0:
                self._turn = turn
                raise DealOverError(f"{ALL_CARDS[index].pretty()} played after the end of the deal", seat,
                                    ALL_CARDS[index])
            bit = 1 << index
            held = hands[turn] & bit
            if check:
                if seat is not None and seat is not SEATS[turn]:
                    reason = "out-of-turn"
                    break
                if not held:
                    reason = "not-in-hand"
                    break
                if n:
                    self._n, self._led, self._win, self._win_seat = n, led, win, win_seat
                    legal, duty = self._legal(turn, bit)
                    if not legal & bit:
                        reason = duty
                        break
            hands[turn] ^= held
            plays.append((turn, index, word, held))  # held: the card's bit, or 0
            done += 1
            if not n:
                led, win, win_seat, trick_points = SUIT_MASKS[index >> 3], index, turn, points[index]
            else:
                if beats[win] >> index & 1:
                    win, win_seat = index, turn
                trick_points += points[index]
            if n < 3:
                n += 1
                turn = following[turn]
                continue
            self._team_points[win_seat & 1] += trick_points
            self._trick_counts[win_seat] += 1
            self._tricks.append((self._leader, len(plays) - 4, win_seat, trick_points))
            n = 0
            self._leader = win_seat
            turn = win_seat if len(self._tricks) < TRICKS_PER_DEAL else -1
        self._turn, self._n, self._led, self._win, self._win_seat, self._trick_points = (turn, n, led, win, win_seat,
                                                                                        trick_points)
        return done, reason

    def push(self, card: Card, declaration: str | None = None, *, seat: Seat | None = None,
             check: bool = True) -> None:
        """Play ``card`` for the seat in turn; raise a ``PlayError`` if it may not be played:
        ``fault``, then ``apply``. ``check=False`` (what ``push_unchecked`` does) skips the
        tests of hand, rules and declaration."""
        turn = self._turn
        if turn < 0:
            raise DealOverError(f"{card.pretty()} played after the end of the deal", seat, card)
        if seat is not None and seat.index != turn:
            raise OutOfTurnError(f"{seat.full_name} played {card.pretty()} but it was "
                                 f"{SEATS[turn].full_name}'s turn", seat, card)
        index = card_index(card)
        if check:
            reason = self.fault(index)
            if reason == "not-in-hand":
                raise NotInHandError(f"{SEATS[turn].full_name} played {card.pretty()} but does not hold it",
                                     SEATS[turn], card)
            if reason is not None:
                raise IllegalPlayError(_explain(self, turn, card, reason))
            if declaration is not None and declaration not in DECLARATIONS:
                raise PlayError(f"unknown declaration {declaration!r} (expected belote or rebelote)",
                                SEATS[turn], card)
        self.apply(index, declaration)

    def push_unchecked(self, card: Card, declaration: str | None = None) -> None:
        """Play ``card`` for the seat in turn without any check (even a card it does not hold)."""
        self.apply(card_index(card), declaration)

    def give_turn(self, seat: Seat) -> bool:
        """Let ``seat`` play next although it is not its turn (a record that shows a card
        played out of turn); it also leads when the trick is empty. Refused (``False``)
        when the deal is over or the seat has already played in the current trick."""
        if self._turn < 0 or any(s == seat.index for s, _, _, _ in self._plays[len(self._plays) - self._n:]):
            return False
        if not self._n:
            self._leader = seat.index
        self._turn = seat.index
        return True

    def pop(self) -> Card:
        """Take back the last card played, reopening a finished trick if need be."""
        if self._claim is not None:
            raise PlayError("cannot take back a card after a claim; call undo_claim() first")
        plays = self._plays
        if not plays:
            raise PlayError("no card to take back")
        if not self._n:
            self._leader, _, winner, points = self._tricks.pop()
            self._team_points[winner & 1] -= points
            self._trick_counts[winner] -= 1
            self._n = 4
        seat, index, _, held = plays.pop()
        hands = self._hands
        hands[seat] |= held
        # The trick's other cards are taken back and played again: apply alone updates a trick.
        start = len(plays) - self._n + 1
        again = plays[start:]
        del plays[start:]
        self._n = 0
        for who, card, word, bit in again:
            hands[who] |= bit
            self._turn = who
            self.apply(card, word)
        self._turn = seat
        return ALL_CARDS[index]

    def claim(self, seat: Seat) -> None:
        """``seat``'s side takes every remaining trick, the cards in the current trick included.

        The claiming seat is credited with the remaining tricks (what a générale counts);
        rules.md is silent on a claim made mid-trick: like the FFB, the trick in progress
        counts as one of the tricks claimed.
        """
        if self.is_over:
            raise DealOverError(f"{seat.full_name} claimed after the end of the deal", seat)
        self._claim = seat.index
        self._turn = -1

    def undo_claim(self) -> None:
        """Withdraw a claim: play goes on from where it stopped."""
        if self._claim is not None:
            self._claim = None
            self._turn = self._next[self._plays[-1][0]] if self._n else self._leader

    def position(self) -> Position:
        """The state as plain integers, for a search that plays on from here (the solver)."""
        if self._turn < 0:
            raise DealOverError("the deal is over: no position to play on from")
        n = self._n
        won = 0
        for _, _, winner, _ in self._tricks:
            won |= 1 << (winner & 1)
        hands = self._hands
        return Position((hands[0], hands[1], hands[2], hands[3]), self._turn, n, self._led if n else 0, self._win if n else 0,
                        self._win_seat if n else 0, self._trick_points if n else 0, self._team_points[0],
                        self._team_points[1], won, len(self._tricks), self._duties, self._beats, self._points,
                        self._next, self._dealt)

    # --- results ------------------------------------------------------------------

    def card_points(self) -> tuple[int, int]:
        """Card points taken by (NS, EW), without the last-trick bonus; a claim adds what is left."""
        points = list(self._team_points)
        if self._claim is not None:
            left = self._trick_points if self._n else 0
            remaining = self._hands[0] | self._hands[1] | self._hands[2] | self._hands[3]
            left += sum(self._points[i] for i in range(32) if remaining >> i & 1)
            points[self._claim & 1] += left
        return points[0], points[1]

    def trick_counts(self) -> tuple[int, int, int, int]:
        """Tricks taken by N, E, S, W; a claiming seat takes every remaining trick."""
        counts = list(self._trick_counts)
        if self._claim is not None:
            counts[self._claim] += TRICKS_PER_DEAL - len(self._tricks)
        return counts[0], counts[1], counts[2], counts[3]

    @property
    def last_trick_team(self) -> Team | None:
        """The side that takes the last trick (the claimer's side after a claim)."""
        if self._claim is not None:
            return TEAMS[self._claim & 1]
        if len(self._tricks) >= TRICKS_PER_DEAL:
            return TEAMS[self._tricks[-1][2] & 1]
        return None

    def belotes(self) -> tuple[Belote, ...]:
        """Every K+Q of a trump suit in one hand as dealt, and whether it scores.

        With ``belote_must_announce`` the first of the two cards played must carry
        "belote" and the second "rebelote" (§5, §9.11). After a claim the second card
        may still be in hand: the claim shows it, so "belote" on the first card suffices
        (rules.md is silent; the FFB counts a belote announced before the claim).
        """
        return tuple(Belote(SEATS[seat], SUITS[suit], self._entitled(seat, suit)) for seat, suit in self._pairs)

    def belote_points(self) -> tuple[int, int]:
        """Belote points (NS, EW) the sides are entitled to, 20 a belote."""
        points = [0, 0]
        for seat, suit in self._pairs:
            if self._entitled(seat, suit):
                points[seat & 1] += 20
        return points[0], points[1]

    def belotes_sound(self) -> bool:
        """Every belote or rebelote said so far goes with the K or Q of a trump pair held
        as dealt by the seat that said it, and every such pair scores (``belotes()``
        would find nothing to report)."""
        pairs = self._pairs
        for seat, index, word, _ in filter(_WORD, self._plays):  # words are rare: the scan runs in C
            if not ((1 << index) & _KQ[index >> 3] and (seat, index >> 3) in pairs):
                return False
        return not pairs or all(self._entitled(seat, suit) for seat, suit in pairs)

    def _entitled(self, seat: int, suit: int) -> bool:
        if not self.rules.belote_must_announce:
            return True
        pair = _KQ[suit]
        words = [word for s, c, word, _ in self._plays if s == seat and (1 << c) & pair]
        return bool(words) and words[0] == "belote" and (
            words[1:] == ["rebelote"] or (len(words) == 1 and self._claim is not None))


_SEAT_POSITION = {id(seat): seat.index for seat in SEATS}
_SEAT_OR_NONE = (*SEATS, None)  # by seat index, None at -1
_WORD = itemgetter(2)  # the declaration of a play, "" never being one
_KQ = tuple((1 << (8 * s + Rank.KING.index)) | (1 << (8 * s + Rank.QUEEN.index)) for s in range(4))
_CONFIGS: dict[tuple[int, int], tuple[Rules, tuple]] = {}
_ANY_RULES = Rules()  # a trick's winner does not depend on the options


def _config(denomination: Denomination, rules: Rules) -> tuple:
    """What a PlayState needs from the denomination and the rules, cached per Rules object
    (hashing a Rules is slow, so the cache is keyed by identity and checks it)."""
    key = (id(rules), id(denomination))
    hit = _CONFIGS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    tab = table(denomination, rules.sa_ace, rules.ta_values)
    # Going over the winner is a duty on a trump lead at a suit contract (trump_lead_must_beat),
    # at TA when ta_must_beat; follow_or_trump lets a trump replace a card of the suit led.
    climb = (tab.mode == MODE_SUIT and rules.trump_lead_must_beat) or (tab.mode == MODE_TA and rules.ta_must_beat)
    climb_duty = "ta-must-beat" if tab.mode == MODE_TA else "must-overtrump-in-trump-lead"
    step = 1 if rules.clockwise else 3
    duties = Duties(tab.trump_mask, tab.beats, climb, climb_duty, rules.partner_exemption, rules.undertrump == "must",
                    rules.must_overtrump, tab.trump_mask if tab.mode == MODE_SUIT and rules.follow_or_trump else 0)
    config = (tab.mode, tab.beats, tab.points, tab.trump_mask, duties,
              tuple((i + step) % 4 for i in range(4)),
              _belote_suits(tab, rules), rules.first_leader == "dealer")
    if len(_CONFIGS) > 512:
        _CONFIGS.clear()
    _CONFIGS[key] = (rules, config)
    return config


def _belote_suits(tab: Table, rules: Rules) -> tuple[int, ...]:
    """The suits whose K+Q is a belote: the trump suits, none at TA with ``belote_at_ta=false``
    (004: "이 두 가지로 경매한 경우 게임 도중 블로트를 선언할 수 없다"; SA has no trump)."""
    if tab.mode == MODE_TA and not rules.belote_at_ta:
        return ()
    return tuple(suit.index for suit in tab.trump_suits)


def trick_winner(plays: Sequence[tuple[Seat, Card]], denomination: Denomination) -> Seat:
    """The winner of a (possibly incomplete) trick, per rules.md §4: the trick played
    out, each card by its seat, on an empty ``PlayState``."""
    state = PlayState((0, 0, 0, 0), Contract(plays[0][0], denomination), _ANY_RULES, leader=plays[0][0])
    for seat, card in plays:
        state.give_turn(seat)
        state.apply(card_index(card))
    winner = state._win_seat if state._n else state._tricks[-1][2]
    return SEATS[winner]


def explain_illegal(state: PlayState, card: Card) -> Illegality | None:
    """Why the seat in turn may not play ``card``, or ``None`` when it may."""
    if state.is_over:
        raise DealOverError(f"{card.pretty()} played after the end of the deal", None, card)
    reason = state.fault(card_index(card))
    return None if reason is None else _explain(state, state._turn, card, reason)


def _explain(state: PlayState, seat_index: int, card: Card, reason: str) -> Illegality:
    """The whole story of a fault ``reason`` (what ``fault`` said), for messages."""
    hand = state._hands[seat_index]
    trick = state._n > 0
    winner = SEATS[state._win_seat] if trick else None
    winner_card = ALL_CARDS[state._win] if trick else None
    led = ALL_CARDS[state._plays[-state._n][1]].suit if trick else None
    trumps = hand & state._trump if state._mode == MODE_SUIT else 0
    return Illegality(reason, SEATS[seat_index], card, sorted_cards(state._legal(seat_index)[0]),
                      led, winner, winner_card, trick and state._win_seat == seat_index ^ 2, sorted_cards(trumps))
