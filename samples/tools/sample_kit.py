"""What the sample scripts share: finding deals by seed, dressing them as records, the
lenient spelling of a record. Imported by ``make_samples.py`` and ``make_invalid.py``."""

from __future__ import annotations

import dataclasses
import itertools
import random
import sys
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent  # samples/ (the scripts are in samples/tools/)
sys.path.insert(0, str(ROOT.parent))

from notation.values import Call, CallKind, Card, Rank, Seat  # noqa: E402
from notation.record import MeldKind, Record  # noqa: E402
from notation.writer import FILE_HEADER, write_record  # noqa: E402
from replayer.engine.claims import claim_holds  # noqa: E402
from replayer.engine.generator import GeneratedDeal, GeneratedMatch, deal_record, generate_deal, generate_match  # noqa: E402
from replayer.engine.play import PlayState  # noqa: E402
from replayer.engine.rules import Rules  # noqa: E402
from replayer.engine.bidding import AuctionState  # noqa: E402
from replayer.engine.scoring import MatchState, Outcome  # noqa: E402
from replayer.check.validator import validate  # noqa: E402

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
SEARCH_LIMIT = 200_000
FRENCH_SEATS = {N: "Nord", E: "Est", S: "Sud", W: "Ouest"}


# --- finding deals ---------------------------------------------------------------

def deals(profile: str, dealer: Seat = N, start: int = 0) -> Iterator[GeneratedDeal]:
    """The generator's deals for seeds start, start + 1, ..."""
    rules = Rules.parse(profile)
    for seed in itertools.count(start):
        yield generate_deal(random.Random(seed), rules, dealer)


def find(profile: str, wanted: Callable[[GeneratedDeal], bool], dealer: Seat = N, start: int = 0) -> GeneratedDeal:
    """The first deal (in seed order) with the wanted property."""
    for deal in itertools.islice(deals(profile, dealer, start), SEARCH_LIMIT):
        if deal.contract is not None and wanted(deal):
            return deal
    raise LookupError(f"no {profile} deal found in {SEARCH_LIMIT} seeds")


def calls_of(deal: GeneratedDeal) -> list[Call]:
    return [call for _, call in deal.calls]


def kinds(deal: GeneratedDeal) -> set[CallKind]:
    return {call.kind for call in calls_of(deal)}


def declared_belote(deal: GeneratedDeal) -> bool:
    return any(entry.declaration for trick in deal.tricks for entry in trick.plays)


# --- dressing a deal as a record -------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Table:
    """Where and by whom a deal was played."""

    event: str
    site: str
    date: str
    players: tuple[str, str, str, str]  # N E S W
    round_: str = "1"


CLUB = Table("Club du jeudi", "Lyon", "2026.03.05", ("Anne Martin", "Bruno Lefèvre", "Claire Dubois", "Denis Moreau"))
CAFE = Table("Tournoi du Café des Sports", "Saint-Étienne", "2026.02.14",
             ("Josette Girard", "Marcel Roux", "Paulette Blanc", "René Fabre"))
COINCHE_CLUB = Table("Coinche-club de Montpellier, championnat d'hiver", "Montpellier", "2026.01.22",
                     ("Léa Bonnet", "Hugo Mercier", "Inès Garnier", "Yanis Chevalier"))
ONLINE = Table("Online friendly (Discord)", "Internet", "2025.12.28",
               ("Sam Carter", "Priya Nair", "Tom Becker", "Julie Petit"))
SEOUL = Table("Seoul Belote Meetup", "Seoul", "2026.04.11", ("Kim Min-jun", "Lee Seo-yeon", "Park Ji-ho", "Choi Yuna"))
# The seed pages' tables (docs/seeds.md): dated before SEOUL's 2026.04.11, which stays the newest sample,
# and with events in Hangul, which sort after the other samples' events.
NAMU = Table("나무 블로트의 밤 (Namu Belote Night)", "Seoul", "2026.03.24",
             ("Jung Ha-eun", "Kang Do-yun", "Yoon Seo-ah", "Han Ji-woo"))
CLUB_002 = Table("부산 블로트 클럽, 봄 리그 (Busan Belote Club)", "Busan", "2026.03.19",
                 ("Oh Min-seo", "Shin Jae-won", "Kwon Ye-jin", "Hwang Tae-yang"))
SATA = Table("인천 SA/TA 모임 (Incheon SA/TA Circle)", "Incheon", "2026.03.27",
             ("Seo Yu-jin", "Lim Hyun-woo", "Jang Soo-bin", "Song Min-ho"))
CLUB_004 = Table("대전 퀘시 클럽 (Daejeon Coinche Club)", "Daejeon", "2026.04.02",
                 ("Baek Na-rae", "Moon Jun-seo", "Nam Ga-eun", "Ryu Si-woo"))


def dress(deal: GeneratedDeal, table: Table, *, deal_number: int = 1, round_: str | None = None,
          score_before: tuple[int, int] = (0, 0)) -> Record:
    return deal_record(deal, deal_number=deal_number, score_before=score_before, event=table.event,
                       site=table.site, date=table.date, round_=round_ or table.round_, players=table.players)


def set_tag(record: Record, name: str, value: str) -> Record:
    tags = tuple((key, value if key == name else old) for key, old in record.tags)
    if name not in dict(tags):
        tags += ((name, value),)
    return dataclasses.replace(record, tags=tags)


def comment_trick(record: Record, number: int, *comments: str) -> Record:
    tricks = list(record.tricks)
    trick = tricks[number - 1]
    tricks[number - 1] = dataclasses.replace(trick, comments=trick.comments + comments)
    return dataclasses.replace(record, tricks=tuple(tricks))


def replace_play(record: Record, number: int, position: int, **changes) -> Record:
    """The record with fields of the card at ``position`` (1-4) of trick ``number`` changed."""
    tricks = list(record.tricks)
    plays = list(tricks[number - 1].plays)
    plays[position - 1] = dataclasses.replace(plays[position - 1], **changes)
    tricks[number - 1] = dataclasses.replace(tricks[number - 1], plays=tuple(plays))
    return dataclasses.replace(record, tricks=tuple(tricks))


def mark_card(record: Record, number: int, position: int, annotation: str | None = None,
              *comments: str) -> Record:
    """Annotate (``!``, ``?`` ...) and comment the card at ``position`` (1-4) of trick ``number``."""
    entry = record.tricks[number - 1].plays[position - 1]
    return replace_play(record, number, position, annotation=annotation or entry.annotation,
                        comments=entry.comments + comments)


def mark_call(record: Record, index: int, annotation: str | None = None, *comments: str) -> Record:
    """Annotate and comment call ``index`` (0-based) of the taking or the auction."""
    field = "taking" if record.taking is not None else "auction"
    calls = list(getattr(record, field))
    calls[index] = dataclasses.replace(calls[index], annotation=annotation or calls[index].annotation,
                                       comments=calls[index].comments + comments)
    return dataclasses.replace(record, **{field: tuple(calls)})


def head_comment(record: Record, *comments: str) -> Record:
    return dataclasses.replace(record, comments=record.comments + comments)


def card_index(record: Record, card: Card) -> tuple[int, int]:
    """(trick number, position) where ``card`` is played."""
    for number, trick in enumerate(record.tricks, 1):
        for position, entry in enumerate(trick.plays, 1):
            if entry.card is card:
                return number, position
    raise LookupError(card)


def with_result(record: Record) -> Record:
    """The Result tag set to the rescored deal (when it can be rescored): a record written
    with a designed fault then shows that fault and no other."""
    score = validate(record, repair=False).rescored
    return record if score is None else set_tag(record, "Result", f"{score[0]}-{score[1]}")


def file_text(records: list[Record]) -> str:
    return FILE_HEADER + "".join("\n" + write_record(record) for record in records)


# --- matches and claims ----------------------------------------------------------

LEAGUE = Table("Championnat du Rhône, phase de poules", "Villeurbanne", "2026.03.12",
               ("Odile Perrin", "Gérard Faure", "Nadia Haddad", "Louis Gauthier"), "Poule B, table 4")


def league_match() -> GeneratedMatch:
    """The first ffb match (in seed order) of at most 12 deals with a void deal and a dedans."""
    rules = Rules.parse("ffb")
    for seed in itertools.count(1):
        match = generate_match(random.Random(seed), rules, E, event=LEAGUE.event, site=LEAGUE.site,
                               date=LEAGUE.date, round_=LEAGUE.round_, players=LEAGUE.players)
        outcomes = {deal.score.outcome for deal in match.deals}
        if {Outcome.VOID, Outcome.FAILED} <= outcomes and len(match.deals) <= 12:
            return match


def claim_point(record: Record, earliest: int) -> tuple[int, Seat] | None:
    """The first trick boundary from ``earliest`` where the leader's side can claim the rest."""
    for done in range(earliest, 8):
        state = state_after(record, done)
        if claim_holds(state, state.turn.team):
            return done, state.turn
    return None


def state_after(record: Record, tricks: int) -> PlayState:
    """The play of a clean record after its first ``tricks`` tricks."""
    report = validate(record, repair=False)
    contract = report.score.contract
    hands = {hand.seat: hand.cards for hand in record.hands}
    state = PlayState(hands, contract, Rules.parse(record.tag("Rules")), dealer=record.dealer)
    for trick in record.tricks[:tricks]:
        for entry in trick.plays:
            state.push(entry.card, entry.declaration)
    return state


# --- the lenient import form -----------------------------------------------------

LENIENT_SOURCES = (("05-belote-rebelote", 0), ("09-coinche-surcoinche", 0), ("04-announcements", 0))
"""The canonical records the lenient file transcribes, in order (file stem, record index)."""

_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_FRENCH = {"K": "R", "Q": "D", "J": "V"}
_CALL_WORDS = {CallKind.PASS: "passe", CallKind.TAKE: "prend", CallKind.COINCHE: "contre",
               CallKind.SURCOINCHE: "surcontre"}
_MELD_WORDS = {MeldKind.TIERCE: "tierce", MeldKind.QUARTE: "cinquante", MeldKind.QUINTE: "cent",
               MeldKind.CARRE: "carré"}


def lenient_card(card: Card, style: int) -> str:
    """One of four hand-written spellings: ``10h``, ``10♥``, ``V♥``, ``rh``."""
    rank, suit = ("10" if card.rank is Rank.TEN else str(card.rank)), str(card.suit)
    if style % 4 == 0:
        return (rank + suit).lower()
    if style % 4 == 1:
        return rank + _SYMBOLS[suit]
    if style % 4 == 2:
        return _FRENCH.get(rank, rank) + _SYMBOLS[suit]
    return (_FRENCH.get(rank, rank) + suit).lower()


def lenient_call(call: Call) -> str:
    """``passe``, ``prend``, ``contre``, ``surcontre``, ``80♥``, ``capot♠``, ``sa``."""
    if call.kind in _CALL_WORDS:
        return _CALL_WORDS[call.kind]
    text = str(call)
    return text[:-1] + _SYMBOLS[text[-1]] if call.denomination.suit is not None else text.lower()


def _braces(comments: tuple[str, ...]) -> str:
    return "".join(f" {{{text}}}" for text in comments)


def lenient_text(record: Record) -> str:
    """The record as a person might type it: tags out of order, hands unsorted, French ranks,
    suit symbols, ``10``, no seat prefixes, no trick numbers, tabs and CRLF line ends."""
    count = itertools.count()
    tags = sorted(record.tags, key=lambda pair: (pair[0] not in ("North", "East", "South", "West"), pair[0]))
    lines = [f'[{name}  "{value}"]' for name, value in tags] + [""]
    lines += [f"{{{text}}}" for text in record.comments]
    for hand in reversed(record.hands):
        seat = "o" if hand.seat is W else str(hand.seat).lower()
        cards = "\t".join(lenient_card(card, next(count)) for card in reversed(hand.cards))
        lines.append(f"Hand {seat}\t{cards}" + _braces(hand.comments))
    if record.turned is not None:
        lines.append(f"Turned {lenient_card(record.turned, 2)}")
    calls = record.taking if record.taking is not None else record.auction
    words = [lenient_call(c.call) + (c.annotation or "") + _braces(c.comments) for c in calls]
    lines.append(("TAKING\t" if record.taking is not None else "Auction\t") + "\t".join(words))
    for a in record.announcements:
        seat = "o" if a.seat is W else str(a.seat)
        word = _MELD_WORDS[a.kind] if a.kind is not MeldKind.CARRE or a.cards[0].rank is not Rank.JACK else "Carre"
        lines.append(f"announce {seat} {word} " + " ".join(lenient_card(c, next(count)) for c in a.cards))
    lines.append("PLAY")
    for trick in record.tricks:
        plays = []
        for entry in trick.plays:
            text = lenient_card(entry.card, next(count)) + (entry.annotation or "")
            plays.append(text + (" " + entry.declaration.upper() if entry.declaration else "")
                         + _braces(entry.comments))
        leading = _braces(trick.comments[:-1]).strip()
        tail = "\t; " + trick.comments[-1] if trick.comments else ""
        lines.append((leading + " " if leading else "") + "\t".join(plays) + tail)
    return "".join(line + "\r\n" for line in lines)


def strip_seats(record: Record) -> Record:
    """The record with no seat prefix on calls and cards (what a lenient transcription says)."""
    calls = {field: tuple(dataclasses.replace(c, seat=None) for c in getattr(record, field))
             for field in ("taking", "auction") if getattr(record, field) is not None}
    tricks = tuple(dataclasses.replace(t, plays=tuple(dataclasses.replace(e, seat=None) for e in t.plays))
                   for t in record.tricks)
    return dataclasses.replace(record, tricks=tricks, **calls)




# --- the seed pages (docs/seeds.md) ----------------------------------------------

NAMU_MATCH = dataclasses.replace(NAMU, event="나무 블로트의 밤, 500점 경기 (match to 500)", round_="Table 2")


def exact_target(match: GeneratedMatch) -> int | None:
    """The number of the deal after which a side stands exactly at the target without
    having won (match_end=exceed: 500 is not over 500), if there is one."""
    state = MatchState(match.deals[0].rules)
    for number, deal in enumerate(match.deals, 1):
        state.add(deal.score)
        if state.target in state.totals and state.winner is None:
            return number
    return None


def namu_match() -> GeneratedMatch:
    """The first namu-classic match (in seed order) in which a side stands exactly at 500
    after a deal, so that the match goes on, and that ends by passing 500."""
    rules = Rules.parse("namu-classic")
    for seed in itertools.count(0):
        match = generate_match(random.Random(seed), rules, N, event=NAMU_MATCH.event, site=NAMU_MATCH.site,
                               date=NAMU_MATCH.date, round_=NAMU_MATCH.round_, players=NAMU_MATCH.players)
        if exact_target(match) is not None:
            return match


def meld_sums(deal: GeneratedDeal) -> tuple[int, int]:
    """The points each side (NS, EW) announced."""
    sums = [0, 0]
    for seat, melds in deal.melds:
        sums[seat.index & 1] += sum(meld.value for meld in melds)
    return sums[0], sums[1]


def trumped_instead_of_following(deal: GeneratedDeal) -> tuple[int, int] | None:
    """(trick, position) of the first trump played by a seat that held the suit led
    (follow_or_trump=true), if any."""
    trump = deal.contract.denomination.suit
    if trump is None:
        return None
    hands = {seat: set(deal.hand(seat)) for seat in (N, E, S, W)}
    for number, trick in enumerate(deal.tricks, 1):
        led = trick.plays[0].card.suit
        for position, entry in enumerate(trick.plays, 1):
            if (position > 1 and led is not trump and entry.card.suit is trump
                    and any(card.suit is led for card in hands[entry.seat])):
                return number, position
            hands[entry.seat].discard(entry.card)
    return None


def coinche_out_of_turn(deal: GeneratedDeal) -> int | None:
    """The index of a coinche called by a seat not in turn (coinche_out_of_turn=true), if any."""
    state = AuctionState(deal.rules, deal.dealer)
    for index, (seat, call) in enumerate(deal.calls):
        if call.kind is CallKind.COINCHE and seat is not state.turn:
            return index
        state.push_unchecked(call, seat)
    return None
