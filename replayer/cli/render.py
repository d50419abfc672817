"""Plain-text renderings for the terminal: the score table of a deal, a match's
running totals, and the trick by trick replay of ``belote show``.

Everything here is presentation over values the engine already computed
(``Report``, ``MatchReport``). Lines are plain text; hearts and
diamonds are styled red with ``click.style``, which ``click.echo`` strips when
the output is not a terminal. Text that comes from a record (tag values, players,
the words of a syntax error) goes through ``printable``: a control character in a
record never reaches the terminal as such.
"""

from __future__ import annotations

import re

import click

from notation.values import SEATS, Card, Suit, canonical_hand_order
from notation.record import Record

from ..engine.scoring import DealScore, Outcome
from ..check.compare import SCORE_ROWS  # the rows of a side's breakdown, shared with belote score --compare
from ..check.matches import MatchReport
from ..check.report import Replayed, Report
from ..engine.play import PlayState

RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
# C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional marks, embeddings,
# overrides and isolates that reorder what a terminal shows
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with its control characters escaped as Python writes them (``\\x1b``,
    ``\\u202e``): what a record holds is shown, never obeyed by the terminal."""
    if _UNPRINTABLE.search(text) is None:
        return text
    return _UNPRINTABLE.sub(lambda m: repr(m.group())[1:-1], text)


def styled(card: Card | None) -> str:
    """``9♥`` (red on a terminal), ``??`` for an unknown card."""
    if card is None:
        return "??"
    text = card.pretty()
    return click.style(text, fg="red") if card.suit in RED_SUITS else text


def record_title(report: Report) -> str:
    where = f", lines {report.lines[0]}-{report.lines[1]}" if report.lines else ""
    names = [report.tag(tag) for tag in ("Event", "Round", "Deal")]
    about = " / ".join(name for name in names if name)
    return printable(f"record {report.index + 1}{where}" + (f": {about}" if about else "") + f" [{report.rules_text}]")


# --- belote score -------------------------------------------------------------

def score_lines(report: Report) -> list[str]:
    """The breakdown of one deal as a two-column table (NS, EW), or why there is none."""
    lines = [record_title(report)]
    score = report.score
    if score is None:  # the findings say why
        return lines + ["  not scored:"] + [f"    {printable(str(finding).splitlines()[0])}"
                                            for finding in report.findings]
    if score.outcome is Outcome.VOID or score.ns is None or score.ew is None:
        return lines + ["  void deal: nobody took, no score (0-0)"]
    lines += [f"  {line}" for line in contract_lines(score)]
    lines += [f"  {'':20}{'NS':>11}{'EW':>11}", f"  {'':20}{score.ns.role:>11}{score.ew.role:>11}"]
    lines += [f"  {label:20}{getattr(score.ns, field):>11}{getattr(score.ew, field):>11}"
              for label, field in SCORE_ROWS]
    if report.recorded is not None:
        same = "matches" if report.recorded == score.scores else "DIFFERS from the rescored deal"
        lines.append(f"  recorded Result {report.recorded[0]}-{report.recorded[1]}: {same}")
    return lines


def contract_lines(score: DealScore) -> list[str]:
    contract = score.contract
    assert contract is not None
    value = f", contract value {score.contract_value}" if score.contract_value else ""
    lines = [f"contract {contract} (takers {score.takers}){value}, multiplier x{score.multiplier}"]
    if score.capot is not None:
        lines.append(f"capot by {score.capot}")
    lines.append(f"{score.outcome}: {score.formula}")
    if score.litige_hold:
        lines.append(f"litige: {score.litige_hold} held for the winner of the next scored deal")
    return lines


def match_lines(match: MatchReport) -> list[str]:
    """Each deal's score and the running totals, then the final totals and the winner."""
    lines = [printable(match.text().splitlines()[0]),
             f"  {'deal':>6}  {'dealer':6}  {'score':>11}  {'totals':>11}  {'Score tag':>11}"]
    for deal in match.deals:
        lines.append(f"  {printable(deal.deal or str(deal.record + 1)):>6}  {str(deal.dealer or '?'):6}"
                     f"  {_pair(deal.scores):>11}  {_pair(deal.after):>11}  {_pair(deal.recorded_before):>11}")
    if match.pending_litige:
        lines.append(f"  litige hold pending: {match.pending_litige}")
    lines += [f"  {printable(str(finding))}" for finding in match.findings]
    return lines


def _pair(pair: tuple[int, int] | None) -> str:
    return f"{pair[0]}-{pair[1]}" if pair is not None else "?"


# --- belote show --------------------------------------------------------------

def show_lines(record: Record, report: Report) -> list[str]:
    """The replay of one record: hands, taking or auction, announcements, tricks, breakdown."""
    replayed = report.replay or Replayed()
    lines = [record_title(report), f"dealer {report.dealer.full_name if report.dealer else '?'}", "", "Hands"]
    lines += [f"  {line}" for line in hand_lines(record, replayed)]
    lines += bidding_lines(record, replayed)
    if record.announcements:
        lines.append("Announcements")
        lines += [f"  {a.seat} {a.kind} " + " ".join(styled(card) for card in a.cards)
                  for a in record.announcements]
    if record.tricks:
        lines.append("Play")
        state = replayed.play_state(report.rules, report.dealer) if report.rules else None
        lines += [f"  {line}" for line in trick_lines(record, state, report.score)]
    if record.claim is not None:
        lines.append(f"  {record.claim.seat.full_name} claims the remaining tricks")
    if record.stopped:
        lines.append("  * play stopped")
    if report.findings:
        lines.append("Findings")
        lines += [f"  {printable(line)}" for finding in report.findings for line in str(finding).splitlines()]
    if report.score is not None:
        lines.append("Score")
        lines += [f"  {line}" for line in report.score.lines()]
    return lines


def hand_lines(record: Record, replayed: Replayed) -> list[str]:
    """One line per seat, cards grouped by suit: ``N  North  ♠ A K 7   ♥ 10 9 ...``."""
    labels = []
    for seat in SEATS:
        name = record.player(seat)
        player = f" ({name})" if name and name != seat.full_name else ""
        labels.append(printable(f"{seat}  {seat.full_name}{player}"))
    width = max(map(len, labels))
    lines = []
    for seat, label in zip(SEATS, labels):
        dealt = replayed.hand(seat)  # (in the order of the 32 cards: shown as a hand is written)
        cards = canonical_hand_order(dealt) if dealt is not None else record.hand(seat)
        lines.append(f"{label:{width}}  " + ("-" if cards is None else _suits(cards)))
    return lines


def _suits(cards: tuple[Card | None, ...]) -> str:
    groups = []
    for suit in Suit:
        ranks = " ".join(card.pretty()[:-1] for card in cards if card is not None and card.suit is suit)
        group = f"{suit.symbol} {ranks or '-'}"
        groups.append(click.style(group, fg="red") if suit in RED_SUITS else group)
    unknown = sum(1 for card in cards if card is None)
    return "   ".join(groups) + (f"   ?? x{unknown}" if unknown else "")


def bidding_lines(record: Record, replayed: Replayed) -> list[str]:
    calls = record.auction if record.auction is not None else record.taking
    if calls is None:
        return []
    lines = [("Auction" if record.auction is not None else "Taking")
             + (f" (turned {styled(record.turned)})" if record.turned is not None else "")]
    seats = list(replayed.call_seats) + [None] * len(calls)
    lines.append("  " + "  ".join(f"{entry.seat or seats[i] or '?'}:{entry.call.pretty()}"
                                  for i, entry in enumerate(calls)))
    contract = replayed.contract
    lines.append(f"  contract {contract}" if contract else "  no contract")
    return lines


def trick_lines(record: Record, state: PlayState | None, score: DealScore | None = None) -> list[str]:
    """Each trick as played (seat:card, belote words), who led, who won, and the running
    card points; the last trick adds its bonus (100 for a capot under der100)."""
    played = state.tricks if state is not None else ()
    running = [0, 0]
    lines = []
    for number, trick in enumerate(record.tricks, 1):
        done = played[number - 1] if number <= len(played) else None
        seats = [seat for seat, _ in done.plays] if done is not None else [entry.seat for entry in trick.plays]
        cards = "  ".join(f"{entry.seat or seat or '?'}:{styled(entry.card)}"
                          + (f" {entry.declaration}" if entry.declaration else "")
                          for seat, entry in zip(seats, trick.plays))
        if done is None:
            lines.append(f"{number}. {cards}")
            continue
        side = done.winner.index & 1
        running[side] += done.points
        points = str(done.points)
        if number == 8:
            bonus = _last_trick_bonus(score, side)
            running[side] += bonus
            points += f" + {bonus} last trick"
        lines.append(f"{number}. {cards}   led by {done.leader}, won by {done.winner} ({points})   "
                     f"NS {running[0]}  EW {running[1]}")
    return lines


def _last_trick_bonus(score: DealScore | None, side: int) -> int:
    """What the last trick is worth in the rescored deal (10, or 100 for a capot), else 10."""
    taken = None if score is None else score.ns if side == 0 else score.ew
    return taken.last_trick if taken is not None else 10
