"""Sharing a deal or a step: the table drawn as an image, and the tags that preview a page.

``GET /r/<id>.svg?step=N`` draws the table at one step (``templates/step.svg``): the four
hands, suit by suit like a bridge diagram, the seats and players, the dealer and the taker,
the trick on the table with the card winning it, the calls so far and the turned card during
the taking or auction, the score at the end. ``bottom=`` turns the table and ``seat=`` draws
what that seat knows at that step and nothing more, as the one-seat view does (the same
``Step`` fields: a hidden hand shows its public cards and a back for each other card). The
steps are the replay's (``replay_views.load``: its timeline, ``read_view``: its options), so
a bad step is clamped and an unknown record is a 404. A stored record is never edited, so
the image may be cached for a day.

The replay and match pages preview themselves with Open Graph and Twitter card tags
(``share_meta``, ``match_share_meta``, in ``templates/_share_meta.html``): title,
contract and result, the image of a step; absolute URLs only from ``SERVER_NAME``
(``api.link``). In the one-seat view they tell no more than the seat knows.

"Copy the record up to this step" is ``GET /r/<id>.belote?upto=N`` (``replay_views.text``,
``record_cut``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from flask import Blueprint, Response, render_template, request

from notation.values import SEATS, Card, Seat, Suit
from replayer.check.scoresheet import ScoreSheet
from replayer.engine.contract import Contract
from replayer.engine.scoring import Outcome

from .api import link
from .replay_views import PLACES, Analysis, View, load, read_view
from .steps import CALL, CLAIM, DEAL, END, HandView, Step, Timeline

bp = Blueprint("share", __name__)

WIDTH, HEIGHT = 600, 450
CACHE = "public, max-age=86400"  # a stored record never changes: a day
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
# The site's four-colour deck (replay.css): spades black, hearts red, diamonds orange, clubs green.
SUIT_FILL = {Suit.SPADES: "#111111", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#c05600", Suit.CLUBS: "#17703a"}
# Where each place's hand panel (176x124) and its card in the trick (40x54) are drawn.
PANEL = {"top": (212, 36), "left": (8, 164), "right": (416, 164), "bottom": (212, 292)}
TRICK_CARD = {"top": (280, 162), "left": (226, 199), "right": (334, 199), "bottom": (280, 236)}
NAME_LENGTH = 22
OUTCOME_WORDS = {Outcome.MADE: "made", Outcome.FAILED: "failed (dedans)", Outcome.LITIGE: "litige",
                 Outcome.VOID: "void"}
TITLE_LENGTH = 52
MAX_CALLS = 16
# Characters XML 1.0 does not allow, which the pages' own filter (security.visible) leaves as they are.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# --- what the image shows -----------------------------------------------------

@dataclass(frozen=True)
class SuitLine:
    suit: Suit
    fill: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Panel:
    """One hand as the image draws it: its cards suit by suit when it is shown, else the
    cards the whole table knows and a back for each other card."""

    seat: Seat
    place: str
    x: int
    y: int
    player: str | None
    dealer: bool
    taker: bool
    to_play: bool
    lines: tuple[SuitLine, ...]
    backs: int  # hidden cards
    unknown: int  # cards the record does not know


@dataclass(frozen=True)
class TrickCard:
    card: Card
    fill: str
    x: int
    y: int
    winning: bool


def suit_lines(cards: tuple[Card, ...]) -> tuple[SuitLine, ...]:
    """The cards by suit, in the site's suit order, each suit as the hand orders it."""
    return tuple(SuitLine(suit, SUIT_FILL[suit], tuple(c for c in cards if c.suit is suit)) for suit in SUIT_ORDER)


def panel(step: Step, timeline: Timeline, seat: Seat, place: str, shown: bool) -> Panel:
    hand: HandView = step.hand(seat)
    over = step.kind == END
    if shown:  # the hand as held (at the end, as dealt: the hand record)
        cards, backs, unknown = (hand.dealt if over else hand.cards), 0, hand.unknown
    else:  # as the one-seat view shows it: what the table knows, a back for each other card
        cards, backs, unknown = hand.public, hand.size - len(hand.public), 0
    x, y = PANEL[place]
    taker = step.contract is not None and step.contract.taker is seat
    return Panel(seat, place, x, y, short(timeline.players[seat.index], NAME_LENGTH), timeline.dealer is seat,
                 taker, step.turn is seat and not over, suit_lines(cards), backs, unknown)


def trick_cards(step: Step, places: Mapping[Seat, str]) -> tuple[TrickCard, ...]:
    if step.trick is None or step.kind in (END, CLAIM):
        return ()
    return tuple(TrickCard(p.card, SUIT_FILL[p.card.suit], *TRICK_CARD[places[p.seat]], p.seat is step.trick.winner)
                 for p in step.trick.plays)


def contract_line(contract: Contract | None) -> str:
    """``110 ♣ surcoinched by East``: a contract in a few words (the page says ``taken by``)."""
    if contract is None:
        return ""
    level = contract.level_text(contract.denomination.pretty(), " ", "générale", belote=" belote")
    doubled = ("", " coinched", " surcoinched")[contract.doubling]
    return f"{level}{doubled} by {contract.taker.full_name}"


def result_line(timeline: Timeline) -> str:
    """``made: 0-1080``: how the deal ended, rescored (the recorded Result when not rescored)."""
    score = timeline.score
    if score is not None:
        if score.outcome is Outcome.VOID:
            return "void deal, no score"
        return f"{OUTCOME_WORDS[score.outcome]}: {score.scores[0]}-{score.scores[1]}"
    if timeline.recorded is not None:
        return f"result {timeline.recorded[0]}-{timeline.recorded[1]}"
    return "not scored"


def end_words(timeline: Timeline) -> str:
    """Under the score at the end: the outcome (the score is drawn above it), else how it ended."""
    score = timeline.score
    if score is None:
        return result_line(timeline)
    return "void deal, no score" if score.outcome is Outcome.VOID else "contract " + OUTCOME_WORDS[score.outcome]


def short(text: str | None, length: int) -> str | None:
    """User text fit for the image: characters XML refuses replaced, cut with an ellipsis."""
    if text is None:
        return None
    text = _NOT_XML.sub("\ufffd", text)
    return text if len(text) <= length else text[:length - 1].rstrip() + "…"


def title_room(contract: str) -> int:
    """How many characters of the title fit in the image's top line beside the contract (bold
    15 px text is some 9 px a character, the contract's 14 px some 8)."""
    return max(16, min(TITLE_LENGTH, int((WIDTH - 48 - 8.2 * len(contract)) / 9.2)))


def deal_title(row: Mapping[str, Any]) -> str:
    """``Event, round 1, deal 2`` as the replay's heading says it."""
    title = row.get("event") or "Deal"
    if row.get("round"):
        title += f", round {row['round']}"
    if row.get("deal"):
        title += f", deal {row['deal']}"
    return title


def image_context(row: Mapping[str, Any], timeline: Timeline, view: View) -> dict[str, Any]:
    step = timeline.step(view.step)
    places = dict(zip(view.layout, PLACES))
    over = step.kind == END
    panels = [panel(step, timeline, seat, places[seat], view.seat is None or seat is view.seat or over)
              for seat in SEATS]
    calls = timeline.calls_until(step.index) if step.kind in (DEAL, CALL) else ()
    contract = contract_line(step.contract)
    return {
        "width": WIDTH, "height": HEIGHT, "title": short(deal_title(row), title_room(contract)), "step": step,
        "timeline": timeline, "panels": panels, "trick": trick_cards(step, places),
        "contract": contract, "label": step.label(), "suit_fill": SUIT_FILL,
        "calls": calls[_first_call_shown(len(calls)):], "calls_cut": len(calls) > MAX_CALLS,
        "speaking_order": timeline.speaking_order,
        "turned": timeline.turned if step.kind in (DEAL, CALL) else None,
        "over": over, "result": end_words(timeline) if over else None,
        "playing_as": view.seat,
    }


def _first_call_shown(count: int) -> int:
    """The middle of the table has room for four rows of calls: the last ones, from the start of
    a round (a row is one round, in speaking order)."""
    first = max(0, count - MAX_CALLS)
    return first + (-first) % 4


def svg_response(body: str, status: int = 200) -> Response:
    response = Response(body, status=status, mimetype="image/svg+xml")
    if status == 200:
        response.headers["Cache-Control"] = CACHE
    return response


@bp.get("/r/<int:record_id>.svg")
def step_image(record_id: int) -> Response:
    row, analysis = load(record_id)  # 404 for a record the archive does not have
    if analysis.timeline is None:
        return svg_response(render_template("step.svg", width=WIDTH, height=HEIGHT, unreadable=True,
                                            title=short(deal_title(row), TITLE_LENGTH)), 404)
    view = read_view(analysis.timeline)  # a bad step clamped, a bad seat refused (400)
    return svg_response(render_template("step.svg", unreadable=False, **image_context(row, analysis.timeline, view)))


# --- previews of the pages ------------------------------------------------------

@dataclass(frozen=True)
class ShareMeta:
    """What a link to a page shows where it is shared (Open Graph and Twitter card tags)."""

    title: str
    description: str
    url: str
    image: str
    image_alt: str


@bp.app_template_global()
def share_meta(row: Mapping[str, Any], analysis: Analysis, view: View) -> ShareMeta | None:
    """The preview of a replay page: the deal, its contract and result, the image of the step
    shown (of the end when the address names no step). In the one-seat view only what that
    seat knows at the step: the contract standing then, no result, the image of that view."""
    timeline = analysis.timeline
    if timeline is None:
        return None
    record_id = row["id"]
    title = deal_title(row)
    if view.seat is not None:
        step = timeline.step(view.step)
        args = view.args(step=step.index)
        standing = contract_line(step.contract)
        description = f"Play the deal as {view.seat.full_name}" + (f": {standing}" if standing else "") + "."
    else:
        shown = view.step if request.args.get("step", "").strip() else timeline.last
        args = view.args(step=shown)
        description = (contract_line(timeline.contract) or "No contract") + ", " + result_line(timeline)
        players = _players(timeline.players)
        if players:
            description += f". {players}"
    return ShareMeta(title, description, link("replay.show", record_id=record_id, **args),
                     link("share.step_image", record_id=record_id, **args), f"The card table of {title}")


@bp.app_template_global()
def match_share_meta(match: Mapping[str, Any], sheet: ScoreSheet, title: str) -> ShareMeta:
    """The preview of a match page: its result; the image is the end of the deal that decided
    it (the last deal while it has no winner): the cards and score of the match's last word."""
    match_id = match["id"]
    if sheet.winner is not None and sheet.totals is not None:
        description = f"{sheet.winner.value} win {sheet.totals[0]}-{sheet.totals[1]} at deal {sheet.winning_deal}"
    elif sheet.totals is not None:
        description = f"{sheet.totals[0]}-{sheet.totals[1]} after {len(sheet.rows)} deals, no winner yet"
    else:
        description = f"{len(sheet.rows)} deals"
    stored = [row for row in sheet.rows if row.key is not None]
    rows = [row for row in stored if row.number == sheet.winning_deal] or stored[-1:]
    image = link("share.step_image", record_id=rows[0].key, step="end") if rows else ""
    return ShareMeta(title, description + ".", link("matches.show", match_id=match_id), image,
                     f"The last deal of {title}")


def _players(players: tuple[str | None, ...]) -> str:
    """``Anne & Claire v Bruno & Denis`` (NS v EW), when the record names them."""
    if not any(players):
        return ""
    north, east, south, west = (name or "?" for name in players)
    return f"{north} & {south} v {east} & {west}"
