#!/usr/bin/env python3
"""Regenerate the sample records of ``samples/``: ``python3 samples/tools/make_samples.py``.

Every valid sample is a deal of the seeded generator (``replayer.engine.generator``),
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
from typing import Callable

from make_invalid import INVALID, expected_lines, findings_of, render_expected
from sample_kit import (CAFE, CLUB, CLUB_002, CLUB_004, COINCHE_CLUB, FRENCH_SEATS, LENIENT_SOURCES, NAMU, ONLINE,
                        ROOT, SATA, SEOUL, E, N, S, W, calls_of, claim_point, coinche_out_of_turn, comment_trick,
                        declared_belote, deals, dress, exact_target, file_text, find, head_comment, kinds,
                        league_match, lenient_text, mark_call, mark_card, meld_sums, namu_match, set_tag,
                        strip_seats, trumped_instead_of_following, with_result)
from notation.values import CallKind, Denomination, Rank
from notation.parser import parse_record
from notation.record import Announcement, Claim, MeldKind, Record
from notation.writer import write_record
from replayer.engine.generator import GeneratedDeal, generate_deal
from replayer.check.matches import check_matches
from replayer.engine.rules import Rules
from replayer.engine.scoring import Outcome
from replayer.check.validator import validate


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
    record = dress(deal, CLUB)
    record = head_comment(record, "Donne classique : la retourne est prise au premier tour.")
    return [comment_trick(record, 8, "dix de der")]


def classic_round2() -> list[Record]:
    deal = find("ffb", lambda d: CallKind.NAME in kinds(d) and d.score.outcome is Outcome.MADE, dealer=E)
    record = dress(deal, CLUB)
    taker_call = next(i for i, (_, call) in enumerate(deal.calls) if call.kind is CallKind.NAME)
    record = mark_call(record, taker_call, None, "au second tour, on choisit une autre couleur")
    return [head_comment(record, "Personne ne prend au premier tour ; preneur au second tour.")]


def void_deal() -> list[Record]:
    rules = Rules.parse("ffb")
    for seed in itertools.count():
        deal = generate_deal(random.Random(seed), rules, S)
        if deal.is_void:
            break
    record = dress(deal, CAFE)
    record = head_comment(record, "Donne blanche : tout le monde passe deux fois, la donne passe au joueur "
                          "suivant. / A void deal: everybody passes twice; nobody scores.")
    return [record]


MELD_GOALS = ("tierce", "quarte", "quinte", "carre J", "carre 9", "carre A", "carre T", "carre K", "carre Q")


def meld_goals(deal: GeneratedDeal) -> set[str]:
    found = set()
    for a in deal.announcements:
        found.add(f"carre {a.cards[0].rank}" if a.kind is MeldKind.CARRE else str(a.kind))
    return found


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
    record = dress(deal, CLUB)
    plays = [(n, p) for n, t in enumerate(record.tricks, 1) for p, e in enumerate(t.plays, 1) if e.declaration]
    record = mark_card(record, *plays[0], None, "belote ! (on l'annonce en jouant la première carte du couple)")
    record = mark_card(record, *plays[1], None, "rebelote : +20")
    return [head_comment(record, "Belote et rebelote : roi et dame d'atout dans la même main, 20 points.")]


def capot() -> list[Record]:
    deal = find("ffb", lambda d: d.score.capot is not None and d.score.outcome is Outcome.MADE)
    record = dress(deal, CLUB)
    return [head_comment(record, "Capot ! Les preneurs font les huit plis : 252 points (le dix de der vaut 100).")]


def litige() -> list[Record]:
    deal = find("ffb", lambda d: d.score.outcome is Outcome.LITIGE)
    record = dress(deal, CAFE)
    return [head_comment(record, f"Litige : {deal.score.ns.total} partout. La défense marque ses points ; ceux des preneurs sont "
                         "mis en réserve pour le vainqueur de la donne suivante.")]


def dedans() -> list[Record]:
    deal = find("ffb", lambda d: d.score.outcome is Outcome.FAILED and d.score.capot is None, dealer=S)
    record = dress(deal, CLUB)
    return [head_comment(record, "Dedans : les preneurs ne font pas plus que la défense, qui marque "
                         f"{max(deal.score.scores)}.")]


def coinche_surcoinche() -> list[Record]:
    deal = find("ffb-coinche", lambda d: {CallKind.COINCHE, CallKind.SURCOINCHE} <= kinds(d))
    record = dress(deal, COINCHE_CLUB)
    index = next(i for i, call in enumerate(calls_of(deal)) if call.kind is CallKind.SURCOINCHE)
    record = mark_call(record, index, "!?", "surcoinche : tout est multiplié par quatre")
    return [head_comment(record, "Coinche et surcoinche.")]


def capot_bid() -> list[Record]:
    made = find("ffb-coinche", lambda d: d.contract.capot and d.score.outcome is Outcome.MADE)
    failed = find("ffb-coinche", lambda d: d.contract.capot and d.score.outcome is Outcome.FAILED, dealer=E)
    first = head_comment(dress(made, COINCHE_CLUB, round_="2"),
                         "Capot annoncé et réussi : 250 de contrat plus les points.")
    second = head_comment(dress(failed, COINCHE_CLUB, round_="3"),
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


def whole_match() -> list[Record]:
    rules = Rules.parse("ffb")
    match = league_match()
    records = list(match.records)
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
            record = dress(deal, CLUB)
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


def partial() -> list[Record]:
    first = dress(find("ffb", lambda d: True, dealer=W, start=40), CAFE, round_="5")
    first = set_tag(dataclasses.replace(first, tricks=first.tricks[:3], stopped=True), "Result", "?")
    first = head_comment(first, "Transcription interrompue après le troisième pli (*) : la donne n'est pas "
                         "marquée. / Transcription stopped after trick 3.")
    for deal in deals("ffb", E, 60):
        if deal.contract is None:
            continue
        record = dress(deal, CAFE, round_="6")
        point = claim_point(record, 4)
        if point is not None and point[0] <= 5:
            break
    done, seat = point
    second = dataclasses.replace(record, tricks=record.tricks[:done], claim=Claim(seat))
    second = head_comment(with_result(second), f"{FRENCH_SEATS[seat]} abat son jeu après {done} plis : "
                          "les plis restants sont pour son camp.")
    third = dress(find("ffb", lambda d: d.score.outcome is Outcome.MADE, dealer=S, start=80), CAFE, round_="7")
    hidden = tuple(dataclasses.replace(hand, cards=None) if hand.seat in (E, W) else hand for hand in third.hands)
    third = head_comment(dataclasses.replace(third, hands=hidden),
                         "Feuille de Nord-Sud : les mains d'Est et d'Ouest ne sont pas notées (-) ; "
                         "les 32 cartes jouées suffisent à les reconstituer.")
    return [first, second, third]


def other_profiles() -> list[Record]:
    # The korean record keeps its Rules tag: korean is now an old name, an alias of namu-annonces
    # (docs/seeds.md); the record reads as namu-annonces with the info finding rules-alias.
    korean = find("namu-annonces", lambda d: d.score.outcome is Outcome.MADE and d.announcements)
    pagat = find("pagat-coinche", lambda d: d.announcements and d.contract.doubling == 0
                 and d.score.outcome is Outcome.MADE, dealer=S)
    first = head_comment(set_tag(dress(korean, SEOUL), "Rules", OLD_NAME),
                         "Korean rules: play goes clockwise, the dealer speaks and leads first, "
                         "melds compare team sums.")
    second = head_comment(dress(pagat, ONLINE, round_="3"),
                          "Pagat coinche: only the contract is multiplied; an 80 needs 82.")
    return [first, second]


OLD_NAME = "korean"  # sample 15's Rules tag, as it was written before the seed profiles


# --- the seed pages (docs/seeds.md): one file per page, a record or more per profile ---

def _sides(deal: GeneratedDeal) -> str:
    ns, ew = deal.score.scores
    return f"{ns}-{ew}"


def namu() -> list[Record]:
    """000 (namu wiki): its three games, each record showing a rule of the page."""
    classic = find("namu-classic", lambda d: d.score.outcome is Outcome.MADE and declared_belote(d)
                   and CallKind.TAKE in kinds(d))
    tie = find("namu-annonces", lambda d: meld_sums(d)[0] == meld_sums(d)[1] > 0 and d.score.meld_team is not None,
               dealer=E)
    aside = find("namu-annonces", lambda d: d.score.outcome is Outcome.FAILED and _melds_would_make(d), dealer=S)
    coinched = find("namu-coinche", lambda d: d.contract.doubling == 1 and d.score.outcome is Outcome.MADE
                    and d.score.meld_team is d.contract.taker.team.other, dealer=W)
    cancelled = find("namu-coinche", _surcoinche_cancelled)
    records = [
        head_comment(dress(classic, NAMU, round_="1"),
                     "namu-classic: 딜러를 맡은 플레이어부터 시계 방향으로 (from the dealer, clockwise): the dealer "
                     "speaks first and leads trick 1, play goes clockwise; a belote said, the contract made."),
        head_comment(dress(tie, NAMU, round_="2"),
                     "namu-annonces: 같은 점수의 카드 조합이라면, 으뜸패로 이루어진 연속된 카드의 조합이 더 우선된다 "
                     f"(equal melds: the run in trumps wins). {_meld_words(tie)}: equal sums, and only "
                     f"{tie.score.meld_team}'s run is in trumps, so {tie.score.meld_team} scores its melds."),
        head_comment(dress(aside, NAMU, round_="3"),
                     "namu-annonces: 공격 팀의 승리 조건은 팀이 획득한 카드 점수가 과반인 82점 이상 (the takers "
                     f"need a majority of the card points, 92 with a belote). {_fail_words(aside)}"),
        head_comment(dress(coinched, NAMU, round_="4"),
                     "namu-coinche: 쿠앙슈 선언이 유효할 경우 : 얻는 점수의 2배 (+ 수비 팀의 카드 조합 점수) (coinched: "
                     "twice what the takers make, plus the defence's melds). "
                     f"Score: {coinched.score.formula}: {_sides(coinched)}."),
        head_comment(dress(cancelled, NAMU, round_="5"),
                     "namu-coinche: 쉬르쿠앙슈 선언 후 누군가가 다른 공약을 선언하면 무효화된다 (a bid after the "
                     "surcoinche cancels it): the coinche and the surcoinche are gone, the last bid is played "
                     "undoubled."),
    ]
    return records


def _melds_would_make(deal: GeneratedDeal) -> bool:
    """The takers fail on card points and belote, although their melds would have carried them."""
    takers = deal.contract.taker.team
    mine, theirs = deal.score.side(takers), deal.score.side(takers.other)
    melds = meld_sums(deal)[0 if takers.value == "NS" else 1]
    return (deal.score.meld_team is takers and mine.points + mine.belote <= theirs.points + theirs.belote
            < mine.points + mine.belote + melds)


def _fail_words(deal: GeneratedDeal) -> str:
    takers = deal.contract.taker.team
    mine, theirs = deal.score.side(takers), deal.score.side(takers.other)
    melds = meld_sums(deal)[0 if takers.value == "NS" else 1]
    return (f"The takers ({takers}) make {mine.points} + belote {mine.belote} against {theirs.points} + "
            f"{theirs.belote}: failed, although their melds ({melds}) would have carried them; "
            f"the defence scores {deal.score.defenders_score}.")


def _meld_words(deal: GeneratedDeal) -> str:
    return " against ".join(f"{seat.full_name} {meld}" for seat, melds in deal.melds for meld in melds)


def _surcoinche_cancelled(deal: GeneratedDeal) -> bool:
    calls = calls_of(deal)
    return any(call.kind is CallKind.SURCOINCHE and any(c.kind is CallKind.BID for c in calls[i + 1:])
               for i, call in enumerate(calls))


def namu_whole_match() -> list[Record]:
    """A namu-classic match: a side stands at exactly 500 and the match goes on (it must pass 500)."""
    match = namu_match()
    at = exact_target(match)
    records = list(match.records)
    records[0] = head_comment(records[0], "namu-classic match: 500점을 넘은 팀이 있을 경우 모든 게임은 종료된다 "
                              "(the match ends when a side is over 500).")
    records[at] = head_comment(records[at], f"The match stands at {records[at].tag('Score')}: 500 is not over "
                               "500 (match_end=exceed), so play goes on.")
    records[-1] = head_comment(records[-1], f"End of the match: {match.totals[0]}-{match.totals[1]}, "
                               f"{match.winner} win.")
    return records


def club_classic() -> list[Record]:
    """002 (a club's Belote): melds after trick 1 with the cards won in it, follow or trump."""
    made = find("club-classic", lambda d: d.score.outcome is Outcome.MADE and trumped_instead_of_following(d)
                and _won_card_meld(d) is not None)
    failed = find("club-classic", lambda d: d.score.outcome is Outcome.FAILED
                  and d.score.meld_team is d.contract.taker.team, dealer=E)
    record = dress(made, CLUB_002, round_="1")
    seat, card = _won_card_meld(made)
    record = head_comment(record, "club-classic: 딜러 왼쪽의 플레이어 (the dealer's left-hand player) speaks "
                          "first, the dealer leads. 자신의 패 일부와 첫 트릭으로 획득한 카드 중 일부 (melds from "
                          f"the hand and the cards won in trick 1): {seat.full_name} announces with {card}, "
                          "won in trick 1.")
    number, position = trumped_instead_of_following(made)
    record = mark_card(record, number, position, None, "같은 문양의 카드를 내야하며 으뜸패를 내도 된다: "
                       "a trump, although this hand holds the suit led (follow_or_trump)")
    second = head_comment(dress(failed, CLUB_002, round_="2"),
                          "club-classic: 선언 점수는 최종 계산과 무관하다 (melds play no part in the final "
                          "count): the takers fail, keep their melds and lose the rest "
                          f"({_sides(failed)}).")
    return [record, second]


def _won_card_meld(deal: GeneratedDeal) -> tuple | None:
    """(seat, card) of an announced card the seat was not dealt (it won it in trick 1)."""
    for announcement in deal.announcements:
        for card in announcement.cards:
            if card not in deal.hand(announcement.seat):
                return announcement.seat, card
    return None


def sata() -> list[Record]:
    """003: SA and TA in the classic game, valet forcé; the Coinche of the page."""
    forced = find("sata-classic", lambda d: d.turned.rank is Rank.JACK and len(d.calls) == 4
                  and d.calls[-1].seat is d.dealer and d.score.outcome is Outcome.MADE)
    all_trumps = find("sata-classic", lambda d: d.contract.denomination is Denomination.ALL_TRUMPS
                      and d.score.outcome is Outcome.MADE, dealer=E)
    closing = find("sata-coinche", lambda d: calls_of(d)[-1].kind is CallKind.COINCHE
                   and d.score.outcome is Outcome.MADE and any(s.rounding for s in (d.score.ns, d.score.ew)),
                   dealer=S)
    belote = find("sata-coinche", lambda d: d.contract.belote and d.score.outcome is Outcome.MADE)
    return [
        head_comment(dress(forced, SATA, round_="1"),
                     "sata-classic: valet forcé. A jack is turned: the dealer may not pass in round 1, and takes."),
        head_comment(dress(all_trumps, SATA, round_="2"),
                     "sata-classic: tout atout (TA) named in round 2."),
        head_comment(dress(closing, SATA, round_="3"),
                     "sata-coinche: Coinche를 선언할 수 있는데 공약을 더이상 걸 수 없고 그 시점에서 바로 끝난다 "
                     "(the coinche ends the auction); only the contract is doubled, and the scores are rounded "
                     f"at the units (첫자리에서 반올림): {_sides(closing)}."),
        head_comment(dress(belote, SATA, round_="4"),
                     f"sata-coinche: Capot Belote, {belote.contract.contract_value(belote.rules)}: every trick "
                     f"and the takers' belote, coinched. Score: {belote.score.formula}."),
    ]


def club_coinche() -> list[Record]:
    """004 (a club's Coinche): the dealer opens, anyone coinches, no belote at TA."""
    coinched = find("club-coinche", lambda d: coinche_out_of_turn(d) is not None and d.score.outcome is Outcome.MADE)
    all_trumps = find("club-coinche", lambda d: d.contract.denomination is Denomination.ALL_TRUMPS
                      and _kq_pair(d) is not None, dealer=W)
    seat, suit = _kq_pair(all_trumps)
    first = dress(coinched, CLUB_004, round_="1")
    index = coinche_out_of_turn(coinched)
    first = mark_call(first, index, None, "누구든지 차례와 무관하게 (anyone, out of turn): the auction ends here")
    return [
        head_comment(first, "club-coinche: 딜러부터 경매를 시작한다 (the dealer opens the auction); 퀘시를 선언했다면 "
                     "경매는 즉시 종료되고 (a coinche ends the auction); 그 게임은 점수가 두 배가 된다 (the deal's "
                     f"scores double): {_sides(coinched)}."),
        head_comment(dress(all_trumps, CLUB_004, round_="2"),
                     "club-coinche: 이 두 가지로 경매한 경우 게임 도중 블로트를 선언할 수 없다 (no belote at SA or "
                     f"TA): {seat.full_name} holds K{suit} Q{suit} and says nothing."),
    ]


def _kq_pair(deal: GeneratedDeal) -> tuple | None:
    for seat in (N, E, S, W):
        hand = deal.hand(seat)
        for suit in "SHDC":
            if {str(c) for c in hand} >= {"K" + suit, "Q" + suit}:
                return seat, suit
    return None


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
    "17-namu": namu,
    "18-namu-match": namu_whole_match,
    "19-club-classic": club_classic,
    "20-sata": sata,
    "21-club-coinche": club_coinche,
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
        files[ROOT / "invalid" / f"{name}.expected"] = render_expected(rows, invalid, name)
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
