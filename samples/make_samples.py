#!/usr/bin/env python3
"""Regenerate the sample records of ``samples/``: ``python3 samples/make_samples.py``.

Every valid sample is a deal of the seeded generator (``replayer.generator``),
found by searching seeds in order for the wanted property, then dressed with
tags, players and comments, checked with the validator and printed with the
canonical writer. The search is deterministic: running the script again gives
the same bytes (``--check`` compares instead of writing).

Every invalid sample (``samples/invalid/``) is a valid deal with designed
faults; its ``.expected`` file lists the findings the faults must produce,
positioned on the faulty item (see ``samples/README.md`` for the format). The
script refuses to write an invalid sample whose validation differs from its
design, so a change of the validator shows up here as well as in the tests.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import sys
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from notation.cards import PASS, Call, CallKind, Card, Denomination, Rank, Seat  # noqa: E402
from notation.parser import parse, parse_record  # noqa: E402
from notation.record import Announcement, CallEntry, Claim, MeldKind, Record  # noqa: E402
from notation.writer import FILE_HEADER, write_record  # noqa: E402
from replayer.auction import AuctionState  # noqa: E402
from replayer.claims import claim_holds  # noqa: E402
from replayer.findings import CATALOGUE, Finding  # noqa: E402
from replayer.generator import GeneratedDeal, GeneratedMatch, deal_record, generate_deal, generate_match  # noqa: E402
from replayer.matches import check_matches  # noqa: E402
from replayer.play import PlayState  # noqa: E402
from replayer.rules import Rules  # noqa: E402
from replayer.scoring import MatchState, Outcome  # noqa: E402
from replayer.validator import validate  # noqa: E402

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
SEARCH_LIMIT = 200_000


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


def dress(deal: GeneratedDeal, table: Table, *, deal_number: int = 1, round_: str | None = None,
          score_before: tuple[int, int] = (0, 0)) -> Record:
    return without_void_hands(deal_record(deal, deal_number=deal_number, score_before=score_before,
                                          event=table.event, site=table.site, date=table.date,
                                          round_=round_ or table.round_, players=table.players))


def without_void_hands(record: Record) -> Record:
    """A void classic deal stops at 5 cards a hand, which the parser does not read (it wants 8
    or "-"): such hands are left out (the taking alone shows the deal was void)."""
    if record.hands and all(hand.cards is not None and len(hand.cards) == 5 for hand in record.hands):
        return dataclasses.replace(record, hands=())
    return record


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


def mark_card(record: Record, number: int, position: int, annotation: str | None = None,
              *comments: str) -> Record:
    """Annotate (``!``, ``?`` ...) and comment the card at ``position`` (1-4) of trick ``number``."""
    tricks = list(record.tricks)
    plays = list(tricks[number - 1].plays)
    entry = plays[position - 1]
    plays[position - 1] = dataclasses.replace(entry, annotation=annotation or entry.annotation,
                                              comments=entry.comments + comments)
    tricks[number - 1] = dataclasses.replace(tricks[number - 1], plays=tuple(plays))
    return dataclasses.replace(record, tricks=tuple(tricks))


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


# --- the valid samples -----------------------------------------------------------

def check_valid(records: list[Record], *, stopped_ok: bool = False) -> None:
    """Written, read back equal, validated clean with the Result equal to the rescore."""
    reports = []
    for record in records:
        text = write_record(record)
        again = parse_record(text)
        assert again == record, f"round trip differs:\n{text}"
        assert write_record(again) == text
        report = validate(again, repair=False)
        assert report.ok, report.text()
        if not (stopped_ok and record.stopped):
            assert report.rescored == record.result, report.text()
        reports.append(report)
    for match in check_matches(reports):
        assert match.ok, match.text()


def classic_round1() -> list[Record]:
    deal = find("ffb", lambda d: CallKind.TAKE in kinds(d) and d.score.outcome is Outcome.MADE
                and len(d.calls) >= 3 and not declared_belote(d))
    record = dress(deal, CLUB, deal_number=3)
    record = head_comment(record, "Donne classique : la retourne est prise au premier tour.")
    return [comment_trick(record, 8, "dix de der")]


def classic_round2() -> list[Record]:
    deal = find("ffb", lambda d: CallKind.NAME in kinds(d) and d.score.outcome is Outcome.MADE, dealer=E)
    record = dress(deal, CLUB, deal_number=4)
    taker_call = next(i for i, (_, call) in enumerate(deal.calls) if call.kind is CallKind.NAME)
    record = mark_call(record, taker_call, None, "au second tour, on choisit une autre couleur")
    return [head_comment(record, "Personne ne prend au premier tour ; preneur au second tour.")]


def void_deal() -> list[Record]:
    rules = Rules.parse("ffb")
    for seed in itertools.count():
        deal = generate_deal(random.Random(seed), rules, S)
        if deal.is_void:
            break
    record = dress(deal, CAFE, deal_number=7)
    record = head_comment(record, "Donne blanche : tout le monde passe deux fois, la donne passe au joueur "
                          "suivant. / A void deal: everybody passes twice; nobody scores.")
    return [record]


MELD_GOALS = ("tierce", "quarte", "quinte", "carre J", "carre 9", "carre A", "carre T", "carre K", "carre Q")


def meld_goals(deal: GeneratedDeal) -> set[str]:
    found = set()
    for a in deal.announcements:
        found.add(f"carre {a.cards[0].rank}" if a.kind is MeldKind.CARRE else str(a.kind))
    return found


FRENCH_SEATS = {N: "Nord", E: "Est", S: "Sud", W: "Ouest"}
_CARRE_NAMES = {"J": "de valets", "9": "de neuf", "A": "d'as", "T": "de dix", "K": "de rois", "Q": "de dames"}
_RUN_NAMES = {MeldKind.TIERCE: "tierce", MeldKind.QUARTE: "cinquante (quarte)", MeldKind.QUINTE: "cent (quinte)"}


def meld_name(announcement: Announcement) -> str:
    """``carré de valets``, ``cent (quinte) au J♣``, ``tierce au K♠``."""
    top = announcement.cards[0]
    if announcement.kind is MeldKind.CARRE:
        return f"carré {_CARRE_NAMES[str(top.rank)]}"
    return f"{_RUN_NAMES[announcement.kind]} au {top.pretty()}"


def announcements() -> list[Record]:
    """Deals that between them announce every kind of meld (greedy cover, in seed order)."""
    missing = set(MELD_GOALS)
    chosen: list[GeneratedDeal] = []
    for deal in deals("ffb-annonces"):
        if deal.contract is None:
            continue
        new = meld_goals(deal) & missing
        if new and (len(new) >= 2 or len(missing) <= 3):
            chosen.append(deal)
            missing -= new
            if not missing:
                break
    records = []
    for number, deal in enumerate(chosen, 1):
        record = dress(deal, CAFE, deal_number=number, round_=str(number))
        names = "; ".join(f"{FRENCH_SEATS[a.seat]} : {meld_name(a)}" for a in deal.announcements)
        records.append(head_comment(record, f"Annonces. {names}."))
    return records


def belote_rebelote() -> list[Record]:
    deal = find("ffb", lambda d: declared_belote(d) and d.score.outcome is Outcome.MADE, dealer=W)
    record = dress(deal, CLUB, deal_number=5)
    plays = [(n, p) for n, t in enumerate(record.tricks, 1) for p, e in enumerate(t.plays, 1) if e.declaration]
    record = mark_card(record, *plays[0], None, "belote ! (on l'annonce en jouant la première carte du couple)")
    record = mark_card(record, *plays[1], None, "rebelote : +20")
    return [head_comment(record, "Belote et rebelote : roi et dame d'atout dans la même main, 20 points.")]


def capot() -> list[Record]:
    deal = find("ffb", lambda d: d.score.capot is not None and d.score.outcome is Outcome.MADE)
    record = dress(deal, CLUB, deal_number=6)
    return [head_comment(record, "Capot ! Les preneurs font les huit plis : 252 points (le dix de der vaut 100).")]


def litige() -> list[Record]:
    deal = find("ffb", lambda d: d.score.outcome is Outcome.LITIGE)
    record = dress(deal, CAFE, deal_number=9)
    return [head_comment(record, f"Litige : {deal.score.ns.total} partout. La défense marque ses points ; ceux des preneurs sont "
                         "mis en réserve pour le vainqueur de la donne suivante.")]


def dedans() -> list[Record]:
    deal = find("ffb", lambda d: d.score.outcome is Outcome.FAILED and d.score.capot is None, dealer=S)
    record = dress(deal, CLUB, deal_number=8)
    return [head_comment(record, "Dedans : les preneurs ne font pas plus que la défense, qui marque "
                         f"{max(deal.score.scores)}.")]


def coinche_surcoinche() -> list[Record]:
    deal = find("ffb-coinche", lambda d: {CallKind.COINCHE, CallKind.SURCOINCHE} <= kinds(d))
    record = dress(deal, COINCHE_CLUB, deal_number=2)
    index = next(i for i, call in enumerate(calls_of(deal)) if call.kind is CallKind.SURCOINCHE)
    record = mark_call(record, index, "!?", "surcoinche : tout est multiplié par quatre")
    return [head_comment(record, "Coinche et surcoinche.")]


def capot_bid() -> list[Record]:
    made = find("ffb-coinche", lambda d: d.contract.capot and d.score.outcome is Outcome.MADE)
    failed = find("ffb-coinche", lambda d: d.contract.capot and d.score.outcome is Outcome.FAILED, dealer=E)
    first = head_comment(dress(made, COINCHE_CLUB, deal_number=5, round_="2"),
                         "Capot annoncé et réussi : 250 de contrat plus les points.")
    second = head_comment(dress(failed, COINCHE_CLUB, deal_number=6, round_="3"),
                          "Capot annoncé, mais la défense fait un pli : chute.")
    return [first, second]


def sa_ta() -> list[Record]:
    records = []
    for number, (denomination, dealer) in enumerate(((Denomination.NO_TRUMPS, N), (Denomination.ALL_TRUMPS, W)), 1):
        deal = find("ffb-coinche", lambda d, x=denomination: d.contract.denomination is x and not d.contract.capot,
                    dealer=dealer)
        word = "Sans-atout" if denomination is Denomination.NO_TRUMPS else "Tout-atout"
        records.append(head_comment(dress(deal, ONLINE, deal_number=number, round_=str(number)),
                                    f"{word} ({denomination}) contract."))
    return records


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
    raise LookupError("match")


def whole_match() -> list[Record]:
    rules = Rules.parse("ffb")
    match = league_match()
    records = [without_void_hands(record) for record in match.records]
    records[0] = head_comment(records[0], f"Match en {rules.target} points ; la donne tourne vers la droite.")
    last = records[-1]
    records[-1] = head_comment(last, f"Fin du match : {match.totals[0]} à {match.totals[1]}, "
                               f"victoire {match.winner}.")
    return records


def commented() -> list[Record]:
    """One deal with a comment or an annotation at every place the notation has one."""
    for deal in deals("ffb-annonces", N, 100):
        if (deal.contract is not None and declared_belote(deal) and deal.announcements
                and CallKind.TAKE in kinds(deal) and len(deal.calls) >= 2):
            record = dress(deal, CLUB, deal_number=11)
            claim = claim_point(record, 6)
            if claim is not None and claim[0] < 8:
                break
    record = head_comment(record, "Comments may go anywhere: after the tags, after a hand, the turned card, "
                          "a call, an announcement, before a trick, after a card, at the end of a trick, "
                          "after a claim.", "Deuxième commentaire d'en-tête.")
    hands = list(record.hands)
    hands[0] = dataclasses.replace(hands[0], comments=("main de Nord",))
    hands[2] = dataclasses.replace(hands[2], comments=("Sud", "second comment on the same hand"))
    record = dataclasses.replace(record, hands=tuple(hands), turned_comments=("la retourne",))
    record = mark_call(record, 0, "?!", "passe, trop court en atout ?")
    record = mark_call(record, len(record.taking) - 1, "!", "prend")
    announcements = list(record.announcements)
    announcements[0] = dataclasses.replace(announcements[0], annotation="!", comments=("annonce au premier pli",))
    record = dataclasses.replace(record, announcements=tuple(announcements))
    record = comment_trick(record, 1, "entame")
    record = mark_card(record, 1, 1, "!", "bonne entame / good lead")
    record = mark_card(record, 2, 3, "??", "a blunder")
    record = mark_card(record, 3, 2, "!!")
    record = mark_card(record, 4, 4, "?", "discutable")
    record = comment_trick(record, claim[0], "comment before the cards", "end of the trick")
    record = dataclasses.replace(record, tricks=record.tricks[:claim[0]],
                                 claim=Claim(claim[1], ("le reste est à nous / the rest is ours",)))
    return [with_result(record)]


def claim_point(record: Record, earliest: int) -> tuple[int, Seat] | None:
    """The first trick boundary from ``earliest`` where the leader's side can claim the rest."""
    for done in range(earliest, 8):
        state = _state_after(record, done)
        if claim_holds(state, state.turn.team):
            return done, state.turn
    return None


def _state_after(record: Record, tricks: int) -> PlayState:
    report = validate(record, repair=False)
    contract = report.score.contract
    hands = {hand.seat: hand.cards for hand in record.hands}
    state = PlayState(hands, contract, Rules.parse(record.tag("Rules")), dealer=record.dealer)
    for trick in record.tricks[:tricks]:
        for entry in trick.plays:
            state.push(entry.card, entry.declaration)
    return state


def partial() -> list[Record]:
    first = dress(find("ffb", lambda d: True, dealer=W, start=40), CAFE, deal_number=12, round_="5")
    first = set_tag(dataclasses.replace(first, tricks=first.tricks[:3], stopped=True), "Result", "?")
    first = head_comment(first, "Transcription interrompue après le troisième pli (*) : la donne n'est pas "
                         "marquée. / Transcription stopped after trick 3.")
    for deal in deals("ffb", E, 60):
        if deal.contract is None:
            continue
        record = dress(deal, CAFE, deal_number=13, round_="6")
        point = claim_point(record, 4)
        if point is not None and point[0] <= 5:
            break
    done, seat = point
    second = dataclasses.replace(record, tricks=record.tricks[:done], claim=Claim(seat))
    second = head_comment(with_result(second), f"{FRENCH_SEATS[seat]} abat son jeu après {done} plis : "
                          "les plis restants sont pour son camp.")
    return [first, second]


def other_profiles() -> list[Record]:
    korean = find("korean", lambda d: d.score.outcome is Outcome.MADE and d.announcements)
    pagat = find("pagat-coinche", lambda d: d.announcements and d.contract.doubling == 0
                 and d.score.outcome is Outcome.MADE, dealer=S)
    first = head_comment(dress(korean, SEOUL, deal_number=1),
                         "Korean rules: play goes clockwise, the dealer speaks and leads first, "
                         "melds compare team sums.")
    second = head_comment(dress(pagat, ONLINE, deal_number=4, round_="3"),
                          "Pagat coinche: only the contract is multiplied; an 80 needs 82.")
    return [first, second]


VALID: dict[str, Callable[[], list[Record]]] = {
    "01-classic-round1": classic_round1,
    "02-classic-round2": classic_round2,
    "03-void-deal": void_deal,
    "04-announcements": announcements,
    "05-belote-rebelote": belote_rebelote,
    "06-capot": capot,
    "07-litige": litige,
    "08-dedans": dedans,
    "09-coinche-surcoinche": coinche_surcoinche,
    "10-capot-bid": capot_bid,
    "11-sans-atout-tout-atout": sa_ta,
    "12-match": whole_match,
    "13-comments": commented,
    "14-partial": partial,
    "15-korean-pagat": other_profiles,
}


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


# --- the invalid samples ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Expect:
    """A designed finding: ``rule`` at the item ``where`` points to.

    ``where`` is ("card", record, trick, position), ("call", record, index),
    ("announce", record, index), ("claim", record), ("tag", record, name),
    ("record", record) (its first line), ("text", needle[, shift]) (the first
    occurrence of ``needle`` in the file, ``shift`` characters on) or ("none",)
    (a finding with no position)."""

    rule: str
    where: tuple


@dataclasses.dataclass(frozen=True)
class Invalid:
    text: str
    expected: tuple[Expect, ...]
    about: str  # one line for the README and the .expected header


def file_text(records: list[Record]) -> str:
    return FILE_HEADER + "".join("\n" + write_record(record) for record in records)


def findings_of(text: str) -> list[tuple[int | None, int | None, str, str]]:
    """(line, column, rule, severity) of every finding of a file: each record, then each match."""
    reports = [validate(result, repair=False) for result in parse(text)]
    found = [f for report in reports for f in report.findings]
    found += [f for match in check_matches(reports) for f in match.findings]
    return sorted(((f.location.line, f.location.column, f.rule, str(f.severity)) for f in found), key=_order)


def _order(item: tuple) -> tuple:
    line, column, rule, _ = item
    return (line if line is not None else 1 << 30, column or 0, rule)


def locate(text: str, where: tuple) -> tuple[int | None, int | None]:
    kind = where[0]
    if kind == "none":
        return None, None
    if kind == "text":
        return _where_in(text, where[1], *where[2:])
    record = list(parse(text))[where[1]].record
    if kind == "record":
        return record.source.first_line, 1
    if kind == "tag":
        lines = record.source.text.split("\n")
        number = next(i for i, line in enumerate(lines) if line.startswith(f"[{where[2]} "))
        return record.source.first_line + number, 1
    pos = {"card": lambda: record.tricks[where[2] - 1].plays[where[3] - 1].pos,
           "call": lambda: (record.taking or record.auction)[where[2]].pos,
           "announce": lambda: record.announcements[where[2]].pos,
           "claim": lambda: record.claim.pos}[kind]()
    return pos.line, pos.column


def expected_lines(invalid: Invalid) -> list[tuple[int | None, int | None, str, str]]:
    rows = [(*locate(invalid.text, e.where), e.rule, str(CATALOGUE[e.rule][0])) for e in invalid.expected]
    return sorted(rows, key=_order)


def render_expected(rows: list[tuple], about: str, name: str) -> str:
    head = f"# {name}.belote: {about}\n# line:column rule-id severity\n"
    return head + "".join(f"{_at(line)}:{_at(column)} {rule} {severity}\n" for line, column, rule, severity in rows)


def _at(number: int | None) -> str:
    return "-" if number is None else str(number)


# Base deals: clean records the faults are written into.

def base(profile: str, wanted: Callable[[GeneratedDeal], bool] = lambda d: True, dealer: Seat = N,
         start: int = 0, table: Table = CLUB, number: int = 1) -> Record:
    return dress(find(profile, wanted, dealer, start), table, deal_number=number)


def findings_after(record: Record) -> list[Finding]:
    return list(validate(record, repair=False).findings)


def swap_plays(record: Record, first: tuple[int, int], second: tuple[int, int]) -> Record:
    """The record with the cards at two (trick, position) places exchanged (one seat's plays)."""
    tricks = [list(t.plays) for t in record.tricks]
    (a, i), (b, j) = first, second
    x, y = tricks[a - 1][i - 1], tricks[b - 1][j - 1]
    tricks[a - 1][i - 1] = dataclasses.replace(x, card=y.card, declaration=y.declaration)
    tricks[b - 1][j - 1] = dataclasses.replace(y, card=x.card, declaration=x.declaration)
    return dataclasses.replace(record, tricks=tuple(dataclasses.replace(t, plays=tuple(p))
                                                    for t, p in zip(record.tricks, tricks)))


def seat_places(record: Record) -> dict[Seat, list[tuple[int, int]]]:
    places: dict[Seat, list[tuple[int, int]]] = {}
    for number, trick in enumerate(record.tricks, 1):
        for position, entry in enumerate(trick.plays, 1):
            places.setdefault(entry.seat, []).append((number, position))
    return places


def illegal_swaps(record: Record) -> Iterator[tuple[Record, str, tuple[int, int]]]:
    """Records where one seat plays two of its cards in the other order and exactly one
    illegal play results (at the earlier place); the Result is set to the rescore."""
    for seat, places in seat_places(record).items():
        for first, second in itertools.combinations(places, 2):
            swapped = with_result(swap_plays(record, first, second))
            found = findings_after(swapped)
            if len(found) == 1 and found[0].location.trick == first[0] and found[0].location.card == first[1]:
                yield swapped, found[0].rule, first


def illegal_play(profile: str, rule: str, start: int = 0) -> tuple[Record, tuple[int, int]]:
    for seed in itertools.count(start):
        deal = generate_deal(random.Random(seed), Rules.parse(profile), N)
        if deal.contract is None:
            continue
        for swapped, found, place in illegal_swaps(dress(deal, CLUB, deal_number=seed % 9 + 1)):
            if found == rule:
                return swapped, place
    raise LookupError(rule)


def revoke() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "must-follow")
    record = head_comment(record, "Renonce : le joueur ne fournit pas alors qu'il a la couleur demandée.")
    return Invalid(file_text([record]), (Expect("must-follow", ("card", 0, trick, position)),),
                   "a revoke: a seat does not follow suit although it can")


def must_trump() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "must-trump", start=10)
    return Invalid(file_text([record]), (Expect("must-trump", ("card", 0, trick, position)),),
                   "a seat that cannot follow discards although it holds a trump (partner not master)")


def must_overtrump() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "must-overtrump", start=230)  # the search from 0 finds 230
    return Invalid(file_text([record]), (Expect("must-overtrump", ("card", 0, trick, position)),),
                   "a seat trumps under an opponent's trump although it could overtrump")


def trump_lead() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "trump-lead-must-go-over", start=30)
    return Invalid(file_text([record]), (Expect("trump-lead-must-go-over", ("card", 0, trick, position)),),
                   "trumps led: a seat plays a low trump although it can go over the highest one")


def two_illegal_plays() -> Invalid:
    record, first = illegal_play("ffb", "must-follow", start=50)
    for swapped, rule, second in _second_faults(record, first):
        return Invalid(file_text([swapped]), (Expect("must-follow", ("card", 0, *first)),
                                              Expect(rule, ("card", 0, *second))),
                       "two illegal plays in one record: both are reported")
    raise LookupError("two illegal plays")


def _second_faults(record: Record, first: tuple[int, int]) -> Iterator[tuple[Record, str, tuple[int, int]]]:
    for seat, places in seat_places(record).items():
        for a, b in itertools.combinations(places, 2):
            if first in (a, b) or a[0] == first[0]:
                continue
            swapped = with_result(swap_plays(record, a, b))
            found = findings_after(swapped)
            where = {(f.location.trick, f.location.card) for f in found}
            if len(found) == 2 and where == {first, a}:
                yield swapped, next(f.rule for f in found if (f.location.trick, f.location.card) == a), a


def card_not_held() -> Invalid:
    """A seat plays a card of another hand (so that card is played twice)."""
    for seed in itertools.count(5):
        record = base("ffb", start=seed, number=2)
        hands = {hand.seat: hand.cards for hand in record.hands}
        for number, position in [(3, 2), (4, 3), (5, 2), (2, 4)]:
            entry = record.tricks[number - 1].plays[position - 1]
            for card in hands[entry.seat.partner]:
                tricks = [list(t.plays) for t in record.tricks]
                tricks[number - 1][position - 1] = dataclasses.replace(entry, card=card)
                changed = dataclasses.replace(record, tricks=tuple(
                    dataclasses.replace(t, plays=tuple(p)) for t, p in zip(record.tricks, tricks)))
                changed = with_result(changed)
                found = findings_after(changed)
                if [f.rule for f in found] == ["card-not-held"]:
                    return Invalid(file_text([changed]), (Expect("card-not-held", ("card", 0, number, position)),),
                                   "a seat plays a card dealt to its partner (the card is played twice)")
    raise LookupError("card-not-held")


def _auction_with(record: Record, calls: list[CallEntry]) -> Record:
    return with_result(dataclasses.replace(record, auction=tuple(calls)))


def _close(record: Record, calls: list[CallEntry]) -> list[CallEntry]:
    """``calls`` followed by passes until the auction is over (as the engine sees it)."""
    rules = Rules.parse(record.tag("Rules"))
    state = AuctionState(rules, record.dealer)
    for entry in calls:
        state.push_unchecked(entry.call, entry.seat)
    while not state.is_over:
        calls.append(CallEntry(PASS, state.turn))
        state.push_unchecked(PASS, state.turn)
    return calls


def _only(record: Record, rule: str) -> bool:
    return [f.rule for f in findings_after(record)] == [rule]


def bid_not_higher() -> Invalid:
    """The first of two bids is raised to the level of the second, which is then not higher."""
    for deal in deals("ffb-coinche", W):
        bids = [i for i, call in enumerate(calls_of(deal)) if call.kind is CallKind.BID]
        if deal.contract is None or len(bids) < 2 or deal.contract.doubling:
            continue
        record = dress(deal, COINCHE_CLUB, deal_number=3)
        calls = list(record.auction)
        first, second = calls[bids[0]], calls[bids[1]]
        calls[bids[0]] = dataclasses.replace(first, call=Call(CallKind.BID, first.call.denomination,
                                                               second.call.value))
        changed = _auction_with(record, calls)
        if _only(changed, "bid-not-higher"):
            return Invalid(file_text([changed]), (Expect("bid-not-higher", ("call", 0, bids[1])),),
                           "a bid at the level of the standing bid (not higher)")
    raise LookupError("bid-not-higher")


def coinche_by_bidding_side() -> Invalid:
    """The bidder's partner 'coinches' its own side's bid."""
    for deal in deals("ffb-coinche", S, 100):
        calls = calls_of(deal)
        if deal.contract is None or deal.contract.doubling or len(calls) < 6:
            continue
        record = dress(deal, COINCHE_CLUB, deal_number=4)
        entries = list(record.auction)
        last_bid = max(i for i, c in enumerate(calls) if c.kind is CallKind.BID)
        partner = last_bid + 2
        entries = entries[:partner] + [dataclasses.replace(entries[partner], call=Call(CallKind.COINCHE))]
        changed = _auction_with(record, _close(record, entries))
        if _only(changed, "coinche-by-bidding-side"):
            return Invalid(file_text([changed]), (Expect("coinche-by-bidding-side", ("call", 0, partner)),),
                           "a coinche by the bidder's partner")
    raise LookupError("coinche-by-bidding-side")


def call_after_close() -> Invalid:
    record = base("ffb-coinche", lambda d: d.contract.doubling == 0, dealer=E, table=COINCHE_CLUB, number=6)
    calls = list(record.auction)
    seat = calls[-1].seat.next(Rules.parse(record.tag("Rules")).clockwise)
    calls.append(CallEntry(PASS, seat, comments=("un passe de trop",)))
    changed = _auction_with(record, calls)
    return Invalid(file_text([changed]), (Expect("call-after-auction-closed", ("call", 0, len(calls) - 1)),),
                   "a call after three passes closed the auction")


def announcement_not_held() -> Invalid:
    for deal in deals("ffb-annonces", W, 10):
        if deal.contract is None:
            continue
        record = dress(deal, CAFE, deal_number=2)
        seat = next(s for s in (N, E, S, W) if s not in deal.melds)
        hand = set(record.hand(seat))
        for suit in "SHDC":
            run = tuple(Card.parse(rank + suit) for rank in ("A", "K", "Q"))
            if not set(run) <= hand:
                missing = " ".join(str(card) for card in run if card not in hand)
                claimed = Announcement(seat, MeldKind.TIERCE, run, comments=(f"sans {missing} !",))
                changed = with_result(dataclasses.replace(record, announcements=record.announcements + (claimed,)))
                if _only(changed, "announcement-not-held"):
                    index = len(changed.announcements) - 1
                    return Invalid(file_text([changed]), (Expect("announcement-not-held", ("announce", 0, index)),),
                                   "a tierce announced with cards the player does not hold")
    raise LookupError("announcement-not-held")


def belote_without_pair() -> Invalid:
    for deal in deals("ffb", S, 30):
        if deal.contract is None or declared_belote(deal):
            continue
        record = dress(deal, CLUB, deal_number=9)
        trump = deal.contract.denomination.suit
        king, queen = Card.parse("K" + str(trump)), Card.parse("Q" + str(trump))
        number, position = card_index(record, king)
        seat = record.tricks[number - 1].plays[position - 1].seat
        if queen in record.hand(seat):
            continue
        tricks = [list(t.plays) for t in record.tricks]
        tricks[number - 1][position - 1] = dataclasses.replace(tricks[number - 1][position - 1], declaration="belote")
        changed = dataclasses.replace(record, tricks=tuple(dataclasses.replace(t, plays=tuple(p))
                                                           for t, p in zip(record.tricks, tricks)))
        if _only(changed, "belote-without-king-queen"):
            return Invalid(file_text([changed]), (Expect("belote-without-king-queen", ("card", 0, number, position)),),
                           "belote said with the trump king by a player who does not hold the queen")
    raise LookupError("belote-without-king-queen")


def wrong_result() -> Invalid:
    record = base("ffb", lambda d: d.score.outcome is Outcome.MADE, dealer=S, start=7, number=5)
    ns, ew = record.result
    changed = set_tag(record, "Result", f"{ns + 10}-{ew - 10}")
    return Invalid(file_text([changed]), (Expect("result-mismatch", ("tag", 0, "Result")),),
                   "a Result tag that differs from the rescored deal (10 points moved)")


def match_wrong_score() -> Invalid:
    records = whole_match()
    ns, ew = records[2].score
    records[2] = set_tag(records[2], "Score", f"{ns + 20}-{ew}")
    return Invalid(file_text(records), (Expect("score-tag-mismatch", ("record", 2)),),
                   "a match whose third deal carries a wrong Score tag (the running score is off by 20)")


def claim_inconsistent() -> Invalid:
    for deal in deals("ffb", E, 200):
        if deal.contract is None:
            continue
        record = dress(deal, CAFE, deal_number=10)
        state = _state_after(record, 5)
        if claim_holds(state, state.turn.team) is False:
            claimed = with_result(dataclasses.replace(record, tricks=record.tricks[:5], claim=Claim(state.turn)))
            if _only(claimed, "claim-inconsistent"):
                return Invalid(file_text([claimed]), (Expect("claim-inconsistent", ("claim", 0)),),
                               "a claim of the last three tricks that the defence can beat")
    raise LookupError("claim-inconsistent")


def play_out_of_turn() -> Invalid:
    """Two cards of a trick written in the wrong order (each with its right seat)."""
    for seed in itertools.count():
        record = base("ffb", start=seed, number=4)
        for number in (3, 4, 5, 2, 6):
            changed = with_result(swap_plays(record, (number, 2), (number, 3)))
            changed = _swap_seats(changed, number)
            found = findings_after(changed)
            if [f.rule for f in found] == ["play-out-of-turn", "play-out-of-turn"]:
                return Invalid(file_text([changed]), (Expect("play-out-of-turn", ("card", 0, number, 2)),
                                                      Expect("play-out-of-turn", ("card", 0, number, 3))),
                               "the second and third cards of a trick written in the wrong order")
    raise LookupError("play-out-of-turn")


def _swap_seats(record: Record, number: int) -> Record:
    """Trick ``number`` with the seats of its second and third cards exchanged back, so that
    each card keeps the seat that played it (only the order is wrong)."""
    trick = record.tricks[number - 1]
    plays = list(trick.plays)
    plays[1], plays[2] = (dataclasses.replace(plays[1], seat=plays[2].seat),
                          dataclasses.replace(plays[2], seat=plays[1].seat))
    tricks = list(record.tricks)
    tricks[number - 1] = dataclasses.replace(trick, plays=tuple(plays))
    return dataclasses.replace(record, tricks=tuple(tricks))


def taking_turned_suit() -> Invalid:
    """A round-1 take rewritten as the same suit named in round 2, which is not allowed."""
    record = base("ffb", lambda d: CallKind.TAKE in kinds(d), dealer=W, start=15, number=2)
    rules = Rules.parse(record.tag("Rules"))
    taker = record.taking[-1].seat
    seat, calls = record.taking[0].seat, []
    for _ in range(4):
        calls.append(CallEntry(PASS, seat))
        seat = seat.next(rules.clockwise)
    while seat is not taker:
        calls.append(CallEntry(PASS, seat))
        seat = seat.next(rules.clockwise)
    calls.append(CallEntry(Call(CallKind.NAME, Denomination(str(record.turned.suit))), taker))
    changed = dataclasses.replace(record, taking=tuple(calls))
    return Invalid(file_text([changed]), (Expect("taking-turned-suit", ("call", 0, len(calls) - 1)),),
                   "round 2 names the suit of the turned card")


def match_over() -> Invalid:
    """The match of 12-match, then one more deal although a side has won."""
    match = league_match()
    records = [without_void_hands(record) for record in match.records]
    dealer = match.deals[-1].dealer.next(Rules.parse("ffb").clockwise)
    extra = find("ffb", lambda d: True, dealer=dealer, start=500)
    records.append(dress(extra, LEAGUE, deal_number=len(records) + 1, score_before=match.totals))
    return Invalid(file_text(records), (Expect("match-over", ("record", len(records) - 1)),),
                   "a deal played after a side reached the target")


def dealer_rotation() -> Invalid:
    """Four deals of a match in progress; the third is dealt by the wrong player."""
    rules = Rules.parse("ffb")
    state = MatchState(rules)
    records = []
    for number, dealer in enumerate((N, W, E, S), 1):  # after West, South should deal
        deal = find("ffb", lambda d: True, dealer=dealer, start=700 + 10 * number)
        records.append(dress(deal, LEAGUE, deal_number=number, score_before=state.totals))
        state.add(deal.score)
    return Invalid(file_text(records), (Expect("dealer-rotation", ("record", 2)),
                                        Expect("dealer-rotation", ("record", 3))),
                   "the third deal is dealt by East instead of South (the fourth is then out of turn too)")


# Syntax errors: the canonical text of a clean deal with one word broken.

def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def _syntax(edit: Callable[[str, Record], tuple[str, tuple]], about: str, rule: str = "syntax-error",
            start: int = 0) -> Invalid:
    record = base("ffb", start=start, number=1)
    text, where = edit(file_text([record]), record)
    return Invalid(text, (Expect(rule, where),), about)


def _bad_card(text: str, record: Record) -> tuple[str, tuple]:
    entry = record.tricks[3].plays[1]
    old = f"{entry.seat}:{entry.card}"
    return _edit(text, old, f"{entry.seat}:XZ"), ("text", "XZ")


def _unclosed_tag(text: str, record: Record) -> tuple[str, tuple]:
    return _edit(text, '[Site "Lyon"]', '[Site "Lyon"'), ("text", '[Site "Lyon"', 12)  # where "]" is due


def _bad_call(text: str, record: Record) -> tuple[str, tuple]:
    entry = record.taking[1]
    old = f"taking {record.taking[0].seat}:{record.taking[0].call} {entry.seat}:{entry.call}"
    return _edit(text, old, old[:-len(str(entry.call))] + "tkae"), ("text", "tkae")


def _short_hand(text: str, record: Record) -> tuple[str, tuple]:
    cards = record.hand(N)
    line = "hand N " + " ".join(map(str, cards))
    return _edit(text, line, "hand N " + " ".join(map(str, cards[:7]))), ("text", "hand N ")


def _dealt_twice(text: str, record: Record) -> tuple[str, tuple]:
    west = "hand W " + " ".join(map(str, record.hand(W)))
    north = record.hand(N)[0]
    changed = "hand W " + " ".join(map(str, (north,) + record.hand(W)[1:]))
    return _edit(text, west, changed), ("text", f"hand W {north}", len("hand W "))


def recovery() -> Invalid:
    """Three records, the middle one broken: the others still read and validate."""
    records = [base("ffb", start=s, dealer=d, number=n) for s, d, n in ((3, N, 1), (4, W, 2), (5, S, 3))]
    records = [set_tag(r, "Round", str(i)) for i, r in enumerate(records, 1)]
    text = file_text(records)
    entry = records[1].tricks[2].plays[2]
    broken = f"{entry.seat}:{entry.card}"
    where = text.index(broken, text.index('[Deal "2"]'))
    text = text[:where] + f"{entry.seat}:1O{str(entry.card)[1]}" + text[where + len(broken):]
    return Invalid(text, (Expect("syntax-error", ("text", "1O")),),
                   "three records, the second with a misspelt card (1O for 10): only it is lost")


def _where_in(text: str, needle: str, shift: int = 0) -> tuple[int, int]:
    """Line and column of the first ``needle`` in ``text``, ``shift`` characters on."""
    offset = text.index(needle) + shift
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


INVALID: dict[str, Callable[[], Invalid]] = {
    "syntax-bad-card": lambda: _syntax(_bad_card, "a card written XZ in trick 4"),
    "syntax-unclosed-tag": lambda: _syntax(_unclosed_tag, "a tag pair without its ]",
                                           start=1),
    "syntax-bad-call": lambda: _syntax(_bad_call, "a misspelt call (tkae)", start=2),
    "hand-size": lambda: _syntax(_short_hand, "a hand of 7 cards", "hand-size", start=3),
    "dealt-twice": lambda: _syntax(_dealt_twice, "a card dealt to North and to West",
                                   "duplicate-card", start=4),
    "recovery": recovery,
    "revoke": revoke,
    "must-trump": must_trump,
    "must-overtrump": must_overtrump,
    "trump-lead-must-go-over": trump_lead,
    "two-illegal-plays": two_illegal_plays,
    "card-not-held": card_not_held,
    "bid-not-higher": bid_not_higher,
    "coinche-by-bidding-side": coinche_by_bidding_side,
    "call-after-auction-closed": call_after_close,
    "announcement-not-held": announcement_not_held,
    "belote-without-king-queen": belote_without_pair,
    "wrong-result": wrong_result,
    "match-wrong-score": match_wrong_score,
    "claim-inconsistent": claim_inconsistent,
    "play-out-of-turn": play_out_of_turn,
    "taking-turned-suit": taking_turned_suit,
    "match-over": match_over,
    "dealer-rotation": dealer_rotation,
}


# --- main ------------------------------------------------------------------------

def build() -> dict[Path, str]:
    """Every file of samples/ this script owns, as text."""
    files: dict[Path, str] = {}
    records: dict[str, list[Record]] = {}
    for name, make in VALID.items():
        records[name] = make()
        check_valid(records[name], stopped_ok=True)
        files[ROOT / f"{name}.belote"] = file_text(records[name])
    lenient = [records[stem][index] for stem, index in LENIENT_SOURCES]
    files[ROOT / "16-lenient-import.belote"] = "\ufeff" + "\r\n".join(
        lenient_text(strip_seats(record)) for record in lenient)
    for name, make in INVALID.items():
        invalid = make()
        rows = expected_lines(invalid)
        found = findings_of(invalid.text)
        if found != rows:
            raise AssertionError(f"{name}: designed {rows} but the validator finds {found}")
        files[ROOT / "invalid" / f"{name}.belote"] = invalid.text
        files[ROOT / "invalid" / f"{name}.expected"] = render_expected(rows, invalid.about, name)
    return files


def main(argv: list[str]) -> int:
    files = build()
    if "--check" in argv:
        stale = [path for path, text in files.items()
                 if not path.exists() or path.read_bytes() != text.encode("utf-8")]
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT.parent)}")
        return 1 if stale else 0
    (ROOT / "invalid").mkdir(exist_ok=True)
    for path, text in files.items():
        path.write_bytes(text.encode("utf-8"))
    print(f"wrote {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
