"""Random legal deals, records and matches, seeded, for every rules profile.

``generate_deal(rng, rules, dealer)`` shuffles and deals, runs the taking or the
auction with random but plausible calls (players bid on the strength of their
hands), plays cards drawn uniformly among the legal ones, says belote and
rebelote when a holder plays the trump K and Q, announces each player's
``best_declaration`` where melds are played, and scores the deal. The same
``random.Random`` state always gives the same deal.

``deal_record`` / ``generate_record`` turn a deal into a ``notation.record.Record``
and ``generate_match`` plays deals, the dealer rotating, until a side wins.

Cards are handled as indices 0..31 (``Card.index``) until the deal is built, and
legal cards are drawn from ``PlayState.legal_mask()`` bits: a deal costs well
under a millisecond.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from notation.values import (ALL_CARDS, COINCHE, PASS, SEATS, SURCOINCHE, TAKE, Call, CallKind, Card,
                            Denomination, Rank, Seat, Team)
from notation.record import Announcement, CallEntry, CardEntry, Hand, Record, Trick

from .bidding import AuctionState, SeatedCall, TakingState, bid_values_above
from .contract import Contract
from .melds import Meld, best_declaration, meld_cards
from .play import PlayState
from .rules import Rules
from .scoring import DealScore, MatchState, finished_deal, score_deal, void_deal_score

DENOMINATIONS: tuple[Denomination, ...] = tuple(Denomination)


# --- how strong a hand is -----------------------------------------------------------------

# A rough bidding value of each card (not its card points), by natural rank 7 8 9 T J Q K A.
_TRUMP_WORTH = (4, 4, 16, 10, 22, 6, 7, 12)
_PLAIN_WORTH = (0, 0, 0, 5, 0, 0, 2, 10)
_TA_WORTH = (0, 0, 10, 3, 16, 0, 1, 4)
_SA_WORTH = (0, 0, 0, 8, 0, 1, 3, 16)


def _byte_table(worth: Sequence[int]) -> tuple[int, ...]:
    """The worth of every set of cards of one suit, indexed by its 8-bit mask."""
    return tuple(sum(worth[r] for r in range(8) if byte >> r & 1) for byte in range(256))


_TRUMP_BYTE, _PLAIN_BYTE, _TA_BYTE, _SA_BYTE = (
    _byte_table(worth) for worth in (_TRUMP_WORTH, _PLAIN_WORTH, _TA_WORTH, _SA_WORTH))
_TRUMP_GAIN = tuple(t - p for t, p in zip(_TRUMP_BYTE, _PLAIN_BYTE))  # a suit's worth as trump over plain
# Thresholds, set from the strength distribution of random hands: a player takes in round 1
# about one time in six, an 8-card hand opens the auction about one time in three.
_TAKE_ROUND1 = 42
_TAKE_ROUND2 = 38
_OPENING_STRENGTH = 52
_CAPOT_STRENGTH = 78


def _strengths(mask: int) -> tuple[int, ...]:
    """How strong a hand (a card mask) is at each denomination, in ``Denomination`` order."""
    s, h, d, c = mask & 0xFF, mask >> 8 & 0xFF, mask >> 16 & 0xFF, mask >> 24
    plain = _PLAIN_BYTE[s] + _PLAIN_BYTE[h] + _PLAIN_BYTE[d] + _PLAIN_BYTE[c]
    gain = _TRUMP_GAIN
    return (plain + gain[s], plain + gain[h], plain + gain[d], plain + gain[c],
            _SA_BYTE[s] + _SA_BYTE[h] + _SA_BYTE[d] + _SA_BYTE[c],
            _TA_BYTE[s] + _TA_BYTE[h] + _TA_BYTE[d] + _TA_BYTE[c])


def _best(strengths: Sequence[int], allowed: Sequence[int], rng: random.Random) -> tuple[int, int]:
    """The denomination (its position in ``DENOMINATIONS``, among ``allowed``) the hand likes
    best and its strength, with a little noise so that players differ."""
    draw = rng.random
    noisy = {position: strengths[position] + int(draw() * 17) - 8 for position in allowed}
    best = max(noisy, key=noisy.__getitem__)
    return best, noisy[best]


# --- the taking and the auction -----------------------------------------------------------

def _classic_call(state: TakingState, strengths: Sequence[int], take: int, rng: random.Random) -> Call:
    """Take on a good hand for the turned suit (round 1), name the best suit (round 2)."""
    legal = state.legal_calls()
    if len(legal) == 1:
        return legal[0]
    if state.round == 1:
        return TAKE if take + int(rng.random() * 17) - 8 >= _TAKE_ROUND1 else PASS
    named = [DENOMINATIONS.index(c.denomination) for c in legal if c.denomination is not None]
    position, worth = _best(strengths, named, rng)
    return _NAME_CALLS[position] if worth >= _TAKE_ROUND2 else PASS


def _coinche_call(state: AuctionState, seat: Seat, strengths: Sequence[int], rng: random.Random,
                  mask: int = 0) -> Call:
    """Bid what the hand is worth (a partner's bid adds to it), coinche and surcoinche now and then;
    ``mask``: the hand, for a capot belote or générale belote (only with a belote in it)."""
    rules = state.rules
    draw = rng.random
    if state.doubling:
        if state.may_surcoinche(seat) and draw() < 0.2:
            return SURCOINCHE
        if not rules.decoincher:
            return PASS
    elif state.may_coinche(seat) and draw() < (0.15 if state.level >= 110 else 0.04):
        return COINCHE
    standing = state.standing_bid
    partner_bid = standing is not None and standing.seat is seat.partner
    support = 20 if partner_bid else 0
    values = bid_values_above(rules, state.level)
    count = 6 if rules.sa_ta else 4
    top = max(strengths[:count]) + 8  # the best the noise can make of the hand
    if top < _CAPOT_STRENGTH and (not values or _worth(rules, top, support) < values[0]):
        return PASS  # no bid within reach, whatever the noise
    position, strength = _best(strengths, range(count), rng)
    if strength >= _CAPOT_STRENGTH and draw() < 0.5:
        if (rules.capot_belote or rules.generale_belote) and _holds_belote(mask, position):
            belote = _belote_bid(state, seat, position, rng)
            if belote is not None:
                return belote
        if rules.generale and draw() < 0.2:
            return _call(CallKind.GENERALE, position)
        if not (standing and standing.call.kind in (CallKind.CAPOT, CallKind.GENERALE)):
            return _call(CallKind.CAPOT, position)
    worth = _worth(rules, strength, support)
    if not values or values[0] > worth or (partner_bid and draw() < 0.6):
        return PASS
    affordable = range(values[0], min(worth, values[-1]) + 1, values.step)
    return _call(CallKind.BID, position, affordable[0] if draw() < 0.7 else rng.choice(affordable))


def _holds_belote(mask: int, position: int) -> bool:
    """Whether the hand holds the K and Q of the trump of ``DENOMINATIONS[position]`` (of a suit at TA)."""
    suits = range(4) if position == 5 else (position,) if position < 4 else ()
    return any(mask & _KQ[s] == _KQ[s] for s in suits)


def _belote_bid(state: AuctionState, seat: Seat, position: int, rng: random.Random) -> Call | None:
    """A capot belote, or now and then a générale belote, in ``DENOMINATIONS[position]`` if legal."""
    kinds = (CallKind.GENERALE_BELOTE, CallKind.CAPOT_BELOTE) if rng.random() < 0.2 else (CallKind.CAPOT_BELOTE,)
    for kind in kinds:
        call = _call(kind, position)
        if state.is_legal(call, seat):
            return call
    return None


def _worth(rules: Rules, strength: int, support: int) -> int:
    """The bid a hand of ``strength`` is worth, with the partner's ``support``."""
    return rules.bid_min + 3 * (strength - _OPENING_STRENGTH) + support


_NAME_CALLS = tuple(Call(CallKind.NAME, d) for d in DENOMINATIONS)
_CALLS: dict[tuple[CallKind, int, int | None], Call] = {}


def _call(kind: CallKind, position: int, value: int | None = None) -> Call:
    """A bid, capot or générale in ``DENOMINATIONS[position]``, made once and shared."""
    key = (kind, position, value)
    call = _CALLS.get(key)
    if call is None:
        call = _CALLS[key] = Call(kind, DENOMINATIONS[position], value)
    return call


def _mask(hand: Sequence[int]) -> int:
    mask = 0
    for index in hand:
        mask |= 1 << index
    return mask


def _run_taking(state: TakingState, hands: Sequence[Sequence[int]], rng: random.Random) -> None:
    turned = state.turned
    masks = [_mask(hand) for hand in hands]
    strengths = [_strengths(mask) for mask in masks]
    take = [_strengths(mask | turned.mask)[turned.index >> 3] for mask in masks]
    while not state.is_over:
        seat = state.turn.index
        state.push_unchecked(_classic_call(state, strengths[seat], take[seat], rng))


def _run_auction(state: AuctionState, hands: Sequence[Sequence[int]], rng: random.Random) -> None:
    masks = [_mask(hand) for hand in hands]
    strengths = [_strengths(mask) for mask in masks]
    interjections = state.rules.coinche_out_of_turn
    while not state.is_over:
        if interjections and rng.random() < 0.03:
            seats = state.interjectors()  # now and then an opponent coinches out of turn
            if seats:
                state.push_unchecked(COINCHE, rng.choice(seats))
                continue
        seat = state.turn
        state.push_unchecked(_coinche_call(state, seat, strengths[seat.index], rng, masks[seat.index]), seat)
    answerers = state.answerers()  # coinche_closes: the bidding side may still answer with a surcoinche
    if answerers and rng.random() < 0.2:
        state.push_unchecked(SURCOINCHE, rng.choice(answerers))


def _shuffled(rng: random.Random) -> list[int]:
    """The 32 card indices in random order (sorting on random keys: faster than shuffle)."""
    keys = [rng.random() for _ in range(32)]
    return sorted(range(32), key=keys.__getitem__)


def _deal_classic(rng: random.Random, rules: Rules, dealer: Seat) -> tuple[TakingState, list[list[int]], Card]:
    deck = _shuffled(rng)
    hands = [deck[5 * i:5 * i + 5] for i in range(4)]
    turned, rest = ALL_CARDS[deck[20]], deck[21:]
    state = TakingState(rules, dealer, turned)
    _run_taking(state, hands, rng)
    if state.contract is not None:
        # the second distribution, in speaking order: the taker gets the turned card and 2 more
        taker = state.contract.taker
        for seat in state.order:
            count = 2 if seat is taker else 3
            hands[seat.index] += rest[:count]
            del rest[:count]
        hands[taker.index].append(turned.index)
    return state, hands, turned


def _deal_coinche(rng: random.Random, rules: Rules, dealer: Seat) -> tuple[AuctionState, list[list[int]], None]:
    deck = _shuffled(rng)
    hands = [deck[8 * i:8 * i + 8] for i in range(4)]
    state = AuctionState(rules, dealer)
    _run_auction(state, hands, rng)
    return state, hands, None


# --- announcements, belote and the play ----------------------------------------------------

_RUN_STARTS = 0x3F3F3F3F  # card bits that can start a run of 3 inside their suit
_CARRES = tuple(0x01010101 << rank for rank in range(2, 8))  # four 9s, 10s, Js, Qs, Ks, As
# Card entries are immutable values: the undeclared ones are shared.
_ENTRIES = tuple(CardEntry(card, seat) for seat in SEATS for card in ALL_CARDS)  # seat index << 5 | card
_KQ = tuple((1 << (8 * s + Rank.KING.index)) | (1 << (8 * s + Rank.QUEEN.index)) for s in range(4))


def _may_meld(mask: int) -> bool:
    """Whether the hand holds any meld at all: most hands do not, and need no search."""
    return bool(mask & (mask >> 1) & (mask >> 2) & _RUN_STARTS) or any(mask & c == c for c in _CARRES)


def _declare(hands: Sequence[Sequence[Card]], masks: Sequence[int], contract: Contract, rules: Rules,
             first_leader: Seat) -> dict[Seat, tuple[Meld, ...]]:
    """Each player, in play order from the first leader, declares ``best_declaration``."""
    declared: dict[Seat, tuple[Meld, ...]] = {}
    seat = first_leader
    for _ in range(4):
        if _may_meld(masks[seat.index]):
            melds = best_declaration(hands[seat.index], rules, contract.denomination)
            if melds:
                declared[seat] = melds
        seat = seat.next(rules.clockwise)
    return declared


def _belote_cards(masks: Sequence[int], denomination: Denomination, rules: Rules) -> int:
    """The trump kings and queens held as pairs in one hand (a pair per suit at TA unless
    ``belote_at_ta=false``, none at SA). A pair lies in one suit, so its two cards can be
    followed without knowing the seat."""
    trump = denomination.suit
    at_ta = denomination is Denomination.ALL_TRUMPS
    suits = (range(4) if rules.belote_at_ta else ()) if at_ta else (trump.index,) if trump else ()
    return sum(_KQ[s] for s in suits for mask in masks if mask & _KQ[s] == _KQ[s])


def _play(rng: random.Random, state: PlayState, masks: Sequence[int]) -> tuple[Trick, ...]:
    """Play 32 cards drawn uniformly among the legal ones; say belote, then rebelote."""
    pair_cards = _belote_cards(masks, state.contract.denomination, state.rules)
    step = 1 if state.rules.clockwise else 3
    draw = rng.random
    tricks = []
    for _ in range(8):
        seat = state.turn.index  # the leader: the winner of the last trick
        entries = []
        for _ in range(4):
            mask = state.legal_mask()
            for _ in range(int(draw() * mask.bit_count())):
                mask &= mask - 1  # drop the lowest legal card: the draw is the k-th one
            bit = mask & -mask
            index = bit.bit_length() - 1
            if bit & pair_cards:
                # "belote" while the other card of the pair is still in hand, then "rebelote"
                declaration = "belote" if pair_cards & _KQ[index >> 3] & ~bit else "rebelote"
                pair_cards &= ~bit
                state.push_unchecked(ALL_CARDS[index], declaration)
                entries.append(CardEntry(ALL_CARDS[index], SEATS[seat], declaration))
            else:
                state.push_unchecked(ALL_CARDS[index])
                entries.append(_ENTRIES[seat << 5 | index])
            seat = (seat + step) & 3
        tricks.append(Trick(tuple(entries)))
    return tuple(tricks)


# --- one deal -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GeneratedDeal:
    """One generated deal.

    ``hands``: the final hands in seat order N E S W, each in canonical order (8 cards;
    5 in a void classic deal, which stops after the first distribution). ``calls``: the
    taking or the auction with seats. ``tricks``: the play, with seats and belote/rebelote.
    ``score``: the deal score (the void score, 0-0, of a deal nobody took)."""

    rules: Rules
    dealer: Seat
    hands: tuple[tuple[Card, ...], ...]
    turned: Card | None
    calls: tuple[SeatedCall, ...]
    contract: Contract | None
    tricks: tuple[Trick, ...]
    announcements: tuple[Announcement, ...]
    melds: tuple[tuple[Seat, tuple[Meld, ...]], ...]  # what each player declared, in play order
    score: DealScore

    @property
    def is_void(self) -> bool:
        return self.contract is None

    @property
    def plays(self) -> tuple[CardEntry, ...]:
        """The 32 cards in play order, with seats and declarations."""
        return tuple(entry for trick in self.tricks for entry in trick.plays)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return self.hands[seat.index]


def generate_deal(rng: random.Random, rules: Rules, dealer: Seat = Seat.NORTH, *,
                  redeal_void: bool = False) -> GeneratedDeal:
    """One random legal deal. A deal nobody takes is returned void, or shuffled and
    dealt again by the same dealer when ``redeal_void``."""
    deal = _deal_coinche if rules.is_coinche else _deal_classic
    bidding, indices, turned = deal(rng, rules, dealer)
    while redeal_void and bidding.contract is None:
        bidding, indices, turned = deal(rng, rules, dealer)
    # index ^ 7 orders suits S H D C and ranks from the ace down: canonical hand order
    hands = tuple(tuple(ALL_CARDS[i] for i in sorted(hand, key=(7).__xor__)) for hand in indices)
    contract = bidding.contract
    if contract is None:
        return GeneratedDeal(rules, dealer, hands, turned, bidding.history, None, (), (), (), void_deal_score())
    masks = [_mask(hand) for hand in indices]
    state = PlayState(dict(zip(SEATS, hands)), contract, rules, dealer=dealer)
    tricks = _play(rng, state, masks)  # the announcements change nothing in the play: declared after it
    meld_hands, meld_masks = hands, masks
    if rules.melds and rules.meld_cards != "dealt":  # after_trick1: the hand left and the cards won in trick 1
        first = state.tricks[0]
        meld_masks = [meld_cards(masks[seat.index], seat, first.plays, first.winner, rules) or 0 for seat in SEATS]
        meld_hands = tuple(tuple(ALL_CARDS[i] for i in range(32) if mask >> i & 1) for mask in meld_masks)
    declared = _declare(meld_hands, meld_masks, contract, rules, state.first_leader) if rules.melds else {}
    announcements = tuple(Announcement(seat, meld.kind, meld.cards) for seat, melds in declared.items()
                          for meld in melds)
    score = score_deal(finished_deal(state, declared), rules)
    return GeneratedDeal(rules, dealer, hands, turned, bidding.history, contract, tricks, announcements,
                         tuple(declared.items()), score)


# --- records and matches --------------------------------------------------------------------

def variant_of(rules: Rules) -> str:
    """The ``Variant`` tag: belote (classic), contree (the ffb-contree profile) or coinche."""
    if not rules.is_coinche:
        return "belote"
    return "contree" if rules.profile == "ffb-contree" else "coinche"


def deal_record(deal: GeneratedDeal, *, deal_number: int = 1, score_before: tuple[int, int] = (0, 0),
                event: str = "Random deals", site: str = "replayer.generator", date: str = "????.??.??",
                round_: str = "1", players: Sequence[str] = ("North", "East", "South", "West")) -> Record:
    """The record of a generated deal, built directly as the record model."""
    rules = deal.rules
    result = deal.score.scores
    tags = (("Event", event), ("Site", site), ("Date", date), ("Round", round_), ("Deal", str(deal_number)),
            *((seat.full_name, name) for seat, name in zip(SEATS, players)),
            ("Dealer", str(deal.dealer)), ("Variant", variant_of(rules)), ("Rules", str(rules)),
            ("Target", str(rules.target)), ("Score", f"{score_before[0]}-{score_before[1]}"),
            ("Result", f"{result[0]}-{result[1]}"))
    hands = tuple(Hand(seat, deal.hands[seat.index]) for seat in SEATS)  # already in canonical order
    calls = tuple(CallEntry(call, seat) for seat, call in deal.calls)
    return Record(tags=tags, hands=hands, turned=deal.turned,
                  taking=None if rules.is_coinche else calls, auction=calls if rules.is_coinche else None,
                  announcements=deal.announcements, tricks=deal.tricks)


def generate_record(rng: random.Random, rules: Rules, dealer: Seat = Seat.NORTH, *, deal_number: int = 1,
                    score_before: tuple[int, int] = (0, 0), redeal_void: bool = False, **tags: str) -> Record:
    """A random legal deal as a record (tags: ``event``, ``site``, ``date``, ``round_``, ``players``)."""
    deal = generate_deal(rng, rules, dealer, redeal_void=redeal_void)
    return deal_record(deal, deal_number=deal_number, score_before=score_before, **tags)


@dataclass(frozen=True, slots=True)
class GeneratedMatch:
    """A match: its deals and records in order, the final totals and the winner."""

    deals: tuple[GeneratedDeal, ...]
    records: tuple[Record, ...]
    totals: tuple[int, int]
    winner: Team


def generate_match(rng: random.Random, rules: Rules, first_dealer: Seat = Seat.NORTH, *,
                   max_deals: int = 1000, **tags: str) -> GeneratedMatch:
    """Deals until a side reaches the target (rules.md §7), the deal passing to the next
    player each time, void deals included; each record's Score tag is the match score
    before it, as ``MatchState`` keeps it (litige holds are credited when they resolve)."""
    match = MatchState(rules)
    deals, records = [], []
    dealer = first_dealer
    while match.winner is None:
        if len(deals) >= max_deals:
            raise RuntimeError(f"no side reached {rules.target} in {max_deals} deals")
        deal = generate_deal(rng, rules, dealer)
        records.append(deal_record(deal, deal_number=len(deals) + 1, score_before=match.totals, **tags))
        deals.append(deal)
        match.add(deal.score)
        dealer = dealer.next(rules.clockwise)
    return GeneratedMatch(tuple(deals), tuple(records), match.totals, match.winner)


# --- as a person types it ----------------------------------------------------------------

_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_FRENCH = {"K": "R", "Q": "D", "J": "V"}
_CALL_SPELLINGS = {"pass": ("pass", "passe", "p", "-", "PASS"), "take": ("take", "prend", "pris"),
                   "coinche": ("coinche", "contre", "x"), "surcoinche": ("surcoinche", "surcontre", "xx")}
_MELD_SPELLINGS = {"tierce": ("tierce",), "quarte": ("quarte", "cinquante"), "quinte": ("quinte", "cent"),
                   "carre": ("carre", "carré")}
_REMARKS = ("bien joué", "hmm", "the lead", "dix de der")


def _typed_card(word: str, rng: random.Random) -> str:
    """A played or dealt card as a person might type it: 10 for T, French ranks, suit
    symbols, lower case, a lower-case seat, O for West."""
    seat, colon, card = word.rpartition(":")
    if len(card) != 2 or card == "??":
        return word
    rank, suit = card
    draw = rng.random()
    if rank == "T" and draw < 0.6:
        rank = "10"
    elif rank in _FRENCH and draw < 0.2:
        rank = _FRENCH[rank]
    draw = rng.random()
    suit = _SYMBOLS[suit] if draw < 0.3 else suit.lower() if draw < 0.6 else suit
    if rank.isalpha() and rng.random() < 0.3:
        rank = rank.lower()
    if seat and rng.random() < 0.3:
        seat = "o" if seat == "W" and rng.random() < 0.5 else seat.lower()
    return seat + colon + rank + suit


def typed_by_hand(text: str, rng: random.Random) -> str:
    """A record's canonical text as a person might type it (docs/notation.md §3, import form):
    tag pairs in any order and several to a line, hands in any order, every lenient spelling
    of cards, seats, calls and melds, keywords in any case, calls over two lines, trick numbers
    left out, comments, double spaces, CRLF line ends. For tests and benchmarks: it reads back
    as the same record but for the comments it adds to some tricks."""
    lines = text.rstrip("\n").split("\n")
    tags = [line for line in lines if line.startswith("[")]
    rng.shuffle(tags)
    out = []
    while tags:
        count = rng.randint(1, 3)
        out.append(" ".join(tags[:count]))
        tags = tags[count:]
    for line in lines:
        if not line or line.startswith("["):
            continue
        words = line.split(" ")
        head = words[0]
        if head == "hand":
            cards = words[2:]
            rng.shuffle(cards)
            line = rng.choice(("hand", "Hand", "HAND")) + f" {words[1].lower()} " + " ".join(
                _typed_card(card, rng) for card in cards)
        elif head in ("taking", "auction"):
            calls = []
            for word in words[1:]:
                seat, colon, call = word.rpartition(":")
                call = rng.choice(_CALL_SPELLINGS.get(call, (call,)))
                if rng.random() < 0.2:
                    call = call.replace("H", "♥")
                calls.append((seat.lower() if rng.random() < 0.3 else seat) + colon + call)
            line = head.upper() + " " + " ".join(calls[:3]) + ("\n\t" + " ".join(calls[3:]) if calls[3:] else "")
        elif head == "turned":
            line = "turned " + _typed_card(words[1], rng)
        elif head == "announce":
            line = " ".join([head, words[1], rng.choice(_MELD_SPELLINGS[words[2]])]
                            + [_typed_card(card, rng) for card in words[3:]])
        elif head.endswith(".") and head[:-1].isdigit():
            played = [_typed_card(word, rng) if word not in ("belote", "rebelote")
                      else rng.choice((word, word.capitalize())) for word in words[1:]]
            line = (head + " " if rng.random() < 0.5 else "") + ("  " if rng.random() < 0.2 else " ").join(played)
            if rng.random() < 0.2:
                line += " {" + rng.choice(_REMARKS) + "}"
        elif head == "play":
            line = rng.choice(("play", "PLAY", "Play"))
        out.append(line)
    end = "\r\n" if rng.random() < 0.3 else "\n"
    return end.join(out) + end
