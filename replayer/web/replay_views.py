"""Replay pages: the step-by-step card table of one stored record.

Every step renders on the server at ``/r/<id>?step=N`` (all links are real
hrefs, so the page works without JavaScript). ``static/replay.js`` fetches the
stage of every step once from ``/r/<id>/steps`` (the same partial templates) and
swaps them in place, which makes stepping instant without a second renderer.

View options, all in the query string and kept by every link:
``step`` (clamped; ``end`` or ``last`` for the last step), ``bottom`` (the seat
shown at the bottom of the table) and ``seat``: the one-seat ("play as") view, which
sends only what that seat knows at that step (``seat_view``): no other hand, nothing of
a later step, no stage prefetched, no link to the whole record. There ``guess=<card>``
(a link on each legal card of the seat when it is to play) shows the next step with
the card the user chose beside the card that was played.

A record's double-dummy analysis, when the archive stores one (``Archive.analysis``), is
read once per request and shown on the steps: the value of every legal card of the seat
to play on the card itself, the mark of each card played, the totals at the end
(``steps.analysis_view``). Without one, ``POST /r/<id>/analyse`` analyses the deal within
``ANALYSIS_SECONDS`` and stores it. The one-seat view shows none of it (the values tell
what the hidden hands hold).
"""

from __future__ import annotations

import functools
import gzip
import json as jsonlib
import math
import re
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from notation.jsonio import to_json
from notation.record import Record
from notation.values import SEATS, Call, Card, Denomination, NotationError, Seat
from replayer.archive import ArchiveBusyError, ArchiveError, stored_record
from replayer.check.findings import Finding
from replayer.check.report import Report

from .db import get_archive
from .errors import RETRY_AFTER
from .limits import limiter, parse_rate_limit
from .analysis_view import MARK_GLYPHS, AnalysedCard, AnalysisView, analysis_view
from .checking import source_lines
from .seat_view import seat_findings, visible_notes
from .record_cut import cut_text
from .step_builder import build_timeline
from .steps import CARD, END, Step, Timeline

bp = Blueprint("replay", __name__)

PLACES = ("bottom", "left", "top", "right")


# --- analysing a stored record ------------------------------------------------

@dataclass(frozen=True)
class Analysis:
    """A stored record read again with the report the archive kept, and its steps; ``error``
    when its text no longer reads."""

    record: Record | None
    report: Report | None
    timeline: Timeline | None
    error: str | None = None


@functools.lru_cache(maxsize=256)
def analyse(raw: str, report: str) -> Analysis:
    """The record of a stored text and its stored report, with its steps (cached: a replay is
    stepped through many times, and the values are immutable)."""
    stored = stored_record({"raw": raw, "report": report})
    if stored.record is None or stored.report is None:
        return Analysis(None, None, None, stored.error or "unreadable record")
    return Analysis(stored.record, stored.report, build_timeline(stored.record, stored.report))


def load(record_id: int) -> tuple[dict[str, Any], Analysis]:
    row = get_archive().get(record_id)
    if row is None:
        abort(404, description=f"There is no record {record_id} in the archive.")
    return row, analyse(row["raw"] or "", row["report"] or "")


@dataclass(frozen=True)
class StoredAnalysis:
    """The record's stored double-dummy analysis: its row (``solver``, ``created``...), the JSON
    read once (``data``, for the API) and laid out on the steps (``view``; ``None`` when it cannot
    be read). ``row`` is ``None`` when the archive has none."""

    row: dict[str, Any] | None
    data: dict[str, Any] | None
    view: AnalysisView | None


NO_ANALYSIS = StoredAnalysis(None, None, None)


def load_analysis(record_id: int, analysis: Analysis) -> StoredAnalysis:
    """The stored analysis of a record (one query, its JSON read once), never computed here."""
    row = get_archive().analysis_row(record_id)
    if row is None:
        return NO_ANALYSIS
    data = read_analysis_json(row["analysis"] or "")
    view = analysis_view(data, analysis.timeline) if data is not None and analysis.timeline is not None else None
    return StoredAnalysis({k: v for k, v in row.items() if k != "analysis"}, data, view)


def read_analysis_json(text: str) -> dict[str, Any] | None:
    """A stored analysis's JSON, ``None`` when it is not an object (an archive edited by hand)."""
    try:
        data = jsonlib.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


# --- view options -------------------------------------------------------------

@dataclass(frozen=True)
class View:
    """What the reader asked to see: the step, the seat at the bottom, a one-seat view."""

    step: int
    bottom: Seat
    seat: Seat | None
    embed: bool = False
    guess: Card | None = None  # the card the user chose for the previous step ("play as")

    @property
    def default_bottom(self) -> bool:
        return self.bottom is (self.seat or Seat.SOUTH)

    @property
    def layout(self) -> tuple[Seat, Seat, Seat, Seat]:
        """Seats at bottom, left, top, right (the table as seen from the bottom seat)."""
        b = self.bottom.index
        return SEATS[b], SEATS[(b + 1) % 4], SEATS[(b + 2) % 4], SEATS[(b + 3) % 4]

    def args(self, **changes: Any) -> dict[str, Any]:
        """Query arguments for a link to another step or view; defaults are left out."""
        values: dict[str, Any] = {"step": self.step, "bottom": str(self.bottom), "seat": self.seat and str(self.seat)}
        values.update(changes)
        default_bottom = values["seat"] or "S"
        if values["bottom"] == default_bottom:
            values.pop("bottom")
        return {k: v for k, v in values.items() if v not in (None, "")}


def _seat_arg(name: str) -> Seat | None:
    text = request.args.get(name, "")
    if not text.strip():
        return None
    try:
        return Seat.parse(text)
    except NotationError:
        return None


def read_view(timeline: Timeline | None, embed: bool = False) -> View:
    """The view options of the request; a bad ``seat`` is refused (showing every hand
    would reveal what the reader asked to hide), a bad ``step`` or ``bottom`` is clamped."""
    seat = _seat_arg("seat")
    if request.args.get("seat", "").strip() and seat is None:
        abort(400, description="seat must be one of N, E, S, W (or left out to see every hand).")
    bottom = _seat_arg("bottom") or seat or Seat.SOUTH
    last = timeline.last if timeline is not None else 0
    guess = None
    if seat is not None and request.args.get("guess", "").strip():
        try:
            guess = Card.parse(request.args["guess"].strip())
        except NotationError:
            abort(400, description="guess must be a card, such as KS or K♠.")
    return View(_step_arg(request.args.get("step", ""), last), bottom, seat, embed, guess)


def _step_arg(text: str, last: int) -> int:
    text = text.strip().lower()
    if text in ("end", "last"):
        return last
    try:
        value = int(text, 10)
    except ValueError:  # not a number (or thousands of digits): the deal
        return 0
    return max(0, min(value, last))


# --- what a step shows --------------------------------------------------------

def visible_findings(timeline: Timeline, view: View) -> list[tuple[int, Finding]]:
    """(step, finding) pairs the reader may see: all of them, or in a one-seat view what that
    seat may know at the step (``seat_findings``)."""
    if view.seat is not None:
        return seat_findings(timeline, view.seat, view.step)
    return [(step.index, finding) for step in timeline.steps for finding in step.findings]


def hidden(view: View, seat: Seat, step: Step) -> bool:
    """Whether the one-seat view hides ``seat``'s hand at ``step`` (every hand shows at the end)."""
    return view.seat is not None and seat is not view.seat and step.kind != END


@dataclass(frozen=True)
class Guess:
    """The card the user chose for its seat ("play as") beside the card that was played."""

    chosen: Card
    played: Card
    legal: bool  # the chosen card was one the seat could play

    @property
    def right(self) -> bool:
        return self.chosen is self.played


def guess_of(timeline: Timeline, step: Step, view: View) -> Guess | None:
    """The user's guess at the card of ``step``, when it is a card of the one-seat view's seat."""
    if view.guess is None or view.seat is None or step.kind != CARD or step.card is None \
            or step.card.seat is not view.seat:
        return None
    before = timeline.steps[step.index - 1]
    legal = view.guess in before.legal if before.legal else view.guess in before.hand(view.seat).cards
    return Guess(view.guess, step.card.card, legal)


def guessable(timeline: Timeline, step: Step, view: View) -> tuple[Card, ...]:
    """The cards the one-seat view's seat may choose from when the next card is its own."""
    if view.seat is None or step.turn is not view.seat or step.index >= timeline.last:
        return ()
    after = timeline.steps[step.index + 1]
    if after.kind != CARD or after.card is None or after.card.seat is not view.seat:
        return ()
    return step.legal


def stage_context(row: dict[str, Any], analysis: Analysis, view: View,
                  stored: StoredAnalysis = NO_ANALYSIS) -> dict[str, Any]:
    timeline = analysis.timeline
    assert timeline is not None
    step = timeline.step(view.step)
    endpoint = "replay.embed" if view.embed else "replay.show"
    record_id = row["id"]

    base = url_for(endpoint, record_id=record_id)
    kept = urlencode(view.args(step=None))  # the view's other options, the same in every link

    def step_url(index: int, **changes: Any) -> str:
        if changes:
            return base + "?" + urlencode(view.args(step=timeline.clamp(index), **changes))
        return f"{base}?step={timeline.clamp(index)}" + (f"&{kept}" if kept else "")  # a page has ~100 of these

    places = dict(zip(view.layout, PLACES))
    dd = stored.view if view.seat is None else None  # the values would show the hidden hands
    last_trick = step.tricks[-1] if step.tricks and step.tricks[-1] is not step.trick else None
    findings = visible_findings(timeline, view)
    return {
        "dd": dd, "stored_analysis": stored, "to_play": dd.to_play(step) if dd is not None else None,
        "dd_card": dd_card_html, "mark_tag": mark_tag, "analysis_seconds": analysis_seconds(),
        "form_action": base, "row": row, "timeline": timeline, "step": step, "view": view, "step_url": step_url,
        "hidden": lambda seat: hidden(view, seat, step), "places": places, "layout": list(zip(PLACES, view.layout)),
        "next_finding": None if view.seat is not None else timeline.next_finding(step.index),
        "findings": findings, "step_findings": [f for index, f in findings if index == step.index],
        "illegal": illegal_cards(timeline, step.index),
        "END": END, "card": card_html, "card_backs": card_backs, "unknown_cards": unknown_cards,
        "notes": step.notes if view.seat is None else visible_notes(step, view.seat),
        "guess": guess_of(timeline, step, view), "guessable": guessable(timeline, step, view),
        "calls_so_far": timeline.calls_until(step.index),
        "announcements": timeline.announcements if view.seat is None else timeline.announced_by(step.index),
        "last_trick": last_trick, "glyph": glyph_html,
        "moves": move_list(timeline, step, step_url, dd, step.index if view.seat else timeline.last),
    }


DENOMINATION_WORDS = frozenset({"S", "H", "D", "C", "SA", "TA"})
# Cards and bids as the validator's messages write them (``7S``, ``90D``, ``capotbeloteSA``).
_NOTATION_WORD = re.compile(r"\b(?:(?:10|[7-9TJQKA])[SHDC]|(?:\d{2,3}|capot|capotbelote|generale|generalebelote)"
                            r"(?:SA|TA|[SHDC]))\b")


@bp.app_template_filter("symbols")
def symbols(text: str) -> str:
    """A message or a legal call with its cards and bids in the site's notation: ``J♠``, ``90♦``
    (the text stays plain: autoescaped like any other)."""
    def pretty(match: re.Match[str]) -> str:
        word = match.group(0)
        try:
            return (Card.parse(word) if len(word) <= 3 and not word[:2].isdigit() else Call.parse(word)).pretty()
        except NotationError:
            return word
    return _NOTATION_WORD.sub(pretty, str(text))


@bp.app_template_filter("contract_symbols")
def contract_symbols(text: str | None) -> str:
    """A contract as the archive keeps it (``110H coinche``, ``capotbelote D``, ``H``) with
    suit symbols: ``110♥ coinche``, ``capot belote ♦``, ``♥``."""
    def word(part: str) -> str:
        if part in DENOMINATION_WORDS:
            return Denomination.parse(part).pretty()
        if part in ("capotbelote", "generalebelote"):
            return part[:-6] + " belote"
        return symbols(part)
    return " ".join(word(part) for part in str(text or "").split())


@bp.app_template_global("call_html")
@functools.lru_cache(maxsize=1024)
def call_html(call: Call) -> Markup:
    """A call as people write it, its suit symbol coloured: ``110♣``, ``pass``, ``capot ♥``."""
    pretty = call.pretty()
    suit = call.denomination.suit if call.denomination else None
    if suit is None or not pretty.endswith(suit.symbol):
        return Markup("{}").format(pretty)
    return Markup('{}<span class="s-{}">{}</span>').format(pretty[:-1], suit.value.lower(), suit.symbol)


def move_list(timeline: Timeline, step: Step, step_url: Any, dd: AnalysisView | None,
              upto: int) -> tuple[Markup, list[tuple[int, Markup]]]:
    """The move list up to step ``upto``: the calls, and each trick's cards, each move a link to
    its step with its glyph, mark and a dot when commented. Built here rather than in the
    template, with plain strings (every text escaped): a page lists some forty moves, and they
    were most of its rendering time."""
    def link(move: Step, body: str) -> str:
        here = move.index == step.index
        classes = "move" + (" current" if here else "") + (" illegal" if move.illegal and move.call else "")
        current = ' aria-current="step"' if here else ""
        return (f'<a class="{classes}" href="{escape(step_url(move.index))}" data-step="{move.index}"{current} '
                f'title="{escape(move.label())}">{body}</a>')

    calls = "".join(link(move, f'<span class="seat-tag">{move.call.seat or "?"}</span>{call_html(move.call.call)}'
                               f'{glyph_html(move.call.annotation)}')
                    for move in timeline.call_steps if move.index <= upto and move.call is not None)
    tricks: dict[int, list[str]] = {}
    for move in timeline.card_steps:
        if move.index > upto or move.card is None:
            break
        played = move.card
        mark = mark_tag(dd.mark_of(played, move.index)) if dd else ""
        commented = (f'<span class="has-comment" title="{escape(" / ".join(played.comments))}">'
                     f'<span class="visually-hidden">commented</span></span>') if played.comments else ""
        body = (f'<span class="seat-tag">{played.seat}</span>'
                f'{card_html(played.card, "small illegal" if move.illegal else "small")}'
                f'{glyph_html(played.annotation)}{mark}{commented}')
        tricks.setdefault(played.trick, []).append(link(move, body))
    return Markup(calls), [(number, Markup("".join(links))) for number, links in tricks.items()]


def glyph_html(annotation: str | None) -> Markup:
    """A transcriber's annotation glyph (``!``, ``??``...) beside a card or a call."""
    if not annotation:
        return Markup("")
    return Markup('<span class="glyph" title="annotation">{}</span>').format(annotation)


@functools.lru_cache(maxsize=1024)
def card_html(card: Card, extra: str = "") -> Markup:
    """A card as rank + suit symbol, coloured by its ``s-<suit>`` class (built here rather than
    in a Jinja macro: a page shows some 40 cards). No user text goes in."""
    classes = " ".join(["card", f"s-{card.suit.value.lower()}", *extra.split()])
    pretty = card.pretty()
    return Markup(f'<span class="{classes}" title="{pretty}"><span class="rank">{pretty[:-1]}</span>'
                  f'<span class="suit">{card.suit.symbol}</span></span>')


def dd_card_html(card: Card, position: AnalysedCard | None) -> Markup:
    """A card of the seat to play with its double-dummy badge: the points its side ends with if
    it is played (the best card(s) highlighted); a card it may not play is shown dimmed."""
    if position is None:
        return card_html(card)
    if card not in position.values:
        return card_html(card, "not-legal")
    return _badged(card, position.side_points(card), card in position.best, position.badge_title(card))


@functools.lru_cache(maxsize=4096)
def _badged(card: Card, points: int, best: bool, title: str) -> Markup:
    classes = f"card s-{card.suit.value.lower()} valued" + (" best" if best else "")
    pretty = card.pretty()
    return Markup(f'<span class="{classes}" title="{escape(title)}"><span class="rank">{pretty[:-1]}</span>'
                  f'<span class="suit">{card.suit.symbol}</span>'
                  f'<span class="dd-value{" best" if best else ""}">{points}</span></span>')


def mark_tag(position: AnalysedCard | None) -> Markup:
    """The mark of a card played (``?!``, ``?``, ``??``) with its name and cost in its title;
    nothing for a card without a mark."""
    if position is None or not position.mark:
        return Markup("")
    title = f"{position.mark}: {position.cost} point{'s' if position.cost != 1 else ''} lost"
    if position.fate_changed:
        title += ", and the contract's fate changed"
    return Markup(f'<span class="mark m-{position.mark}" title="{escape(title)}">{MARK_GLYPHS[position.mark]}</span>')


def card_backs(count: int, label: str = "hidden card") -> Markup:
    return Markup(f'<span class="card back" title="{label}" aria-label="{label}"></span>' * count)


def unknown_cards(count: int) -> Markup:
    return Markup('<span class="card unknown" title="card not known">?</span>' * count)


def illegal_cards(timeline: Timeline, upto: int) -> set[tuple[int, int]]:
    """(trick, position) of the cards marked illegal up to step ``upto``."""
    return {(s.card.trick, s.card.position) for s in timeline.steps[:upto + 1] if s.illegal and s.card}


# --- routes -------------------------------------------------------------------

def _page(record_id: int, embed: bool) -> str | tuple[str, int]:
    row, analysis = load(record_id)
    view = read_view(analysis.timeline, embed)
    template = "embed.html" if embed else "replay.html"
    if analysis.timeline is None:
        return render_template(template, row=row, analysis=analysis, view=view, unreadable=True), 422
    context = stage_context(row, analysis, view, load_analysis(record_id, analysis))
    lines = source_lines(row["raw"] or "", analysis.timeline.findings) if view.seat is None and not embed else ()
    return render_template(template, analysis=analysis, unreadable=False, lines=lines, **context)


@bp.get("/r/<int:record_id>")
def show(record_id: int):
    return _page(record_id, embed=False)


@bp.get("/r/<int:record_id>/embed")
def embed(record_id: int):
    return _page(record_id, embed=True)


@bp.get("/r/<int:record_id>/steps")
def steps(record_id: int):
    """Every step's stage, for replay.js to swap in without a round trip. In the one-seat view
    only the steps up to ``step`` (what the seat has seen): the future is never sent ahead."""
    row, analysis = load(record_id)
    if analysis.timeline is None:
        abort(404, description="This record cannot be read, so it has no steps.")
    base = read_view(analysis.timeline, request.args.get("embed") == "1")
    stored = load_analysis(record_id, analysis)
    upto = base.step if base.seat is not None else analysis.timeline.last
    stages = [render_template("_table.html", **stage_context(row, analysis, View(index, base.bottom, base.seat,
                                                                                 base.embed), stored))
              for index in range(upto + 1)]
    body = ('<div class="replay-steps">' + "".join(stages) + "</div>").encode()
    response = Response(body, mimetype="text/html")
    response.vary.add("Accept-Encoding")
    if "gzip" in request.accept_encodings:  # forty stages repeat themselves: about a tenth of the size
        response.set_data(gzip.compress(body, compresslevel=5))
        response.headers["Content-Encoding"] = "gzip"
    return response


@bp.get("/r/<int:record_id>.belote")
def text(record_id: int):
    if "upto" in request.args:  # "copy the record up to this step": the text cut there
        return cut_response(record_id)
    row = get_archive().get(record_id)
    if row is None:
        abort(404, description=f"There is no record {record_id} in the archive.")
    response = Response(row["raw"] or "", mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="record-{record_id}.belote"'
    return response


def cut_response(record_id: int) -> Response:
    """The record's canonical text cut after step ``upto`` (clamped; ``end`` for the whole deal),
    shown in the browser rather than downloaded: the replay's copy link opens it without
    JavaScript. Its steps are those of the whole-table view: no seat is hidden here."""
    row, analysis = load(record_id)
    if analysis.record is None or analysis.timeline is None or analysis.report is None:
        abort(404, description="This record cannot be read, so it cannot be cut at a step.")
    index = _step_arg(request.args.get("upto", ""), analysis.timeline.last)
    body = cut_text(analysis.record, analysis.timeline, index, analysis.report.rules)
    response = Response(body, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'inline; filename="record-{record_id}-step-{index}.belote"'
    return response


@bp.get("/r/<int:record_id>.json")
def json(record_id: int):
    row, analysis = load(record_id)
    body: dict[str, Any] = {"id": record_id, "raw": row["raw"], "rules": row.get("rules")}
    if analysis.record is None or analysis.report is None:
        body.update(record=None, error=analysis.error, findings=[], score=None)
        return jsonify(body), 422
    report = analysis.report
    body["analysis"] = load_analysis(record_id, analysis).data
    body.update(record=to_json(analysis.record), findings=[f.as_dict() for f in report.findings],
                ok=report.ok, score=report.score.as_dict() if report.score else None,
                recorded=list(report.recorded) if report.recorded else None,
                result_matches=analysis.timeline.result_matches if analysis.timeline else None,
                unchecked=list(report.unchecked))
    response = jsonify(body)
    response.headers["Content-Disposition"] = f'attachment; filename="record-{record_id}.json"'
    return response


# --- analysing a deal on request ------------------------------------------------

# One analysis at a time in a process: each holds a server thread for up to ANALYSIS_SECONDS.
_ANALYSING = threading.BoundedSemaphore(1)


def analysis_seconds() -> float:
    """The time limit of an analysis asked for on the site (``ANALYSIS_SECONDS``; 0: none is offered)."""
    try:
        seconds = float(current_app.config.get("ANALYSIS_SECONDS", 10) or 0)
    except (TypeError, ValueError):
        return 0.0
    return seconds if math.isfinite(seconds) and seconds > 0 else 0.0


def _check_rate_limit() -> None:
    """The site's post limit (``RATE_LIMIT``), counted for this form on its own."""
    limit = parse_rate_limit(current_app.config.get("RATE_LIMIT"))
    if limit is None:
        return
    wait = limiter(current_app).hit((request.endpoint or "replay.analyse_deal", request.remote_addr or "-"), limit)
    if wait:
        seconds = max(1, math.ceil(round(wait, 6)))
        raise TooManyRequests(description=f"Too many analyses asked for from your address: try again in {seconds} s.",
                              retry_after=seconds)


@bp.post("/r/<int:record_id>/analyse")
def analyse_deal(record_id: int):
    """Analyse a stored deal that has no analysis yet, within ``ANALYSIS_SECONDS`` (the analysis
    stops there with what it has, and says so), store it and go back to the replay (303)."""
    _check_rate_limit()
    row, analysis = load(record_id)
    if analysis.timeline is None:
        abort(422, description="This record can no longer be read, so it cannot be analysed.")
    view = read_view(analysis.timeline)
    back = url_for("replay.show", record_id=record_id, **view.args(step=_step_arg(request.form.get("step", ""),
                                                                                  analysis.timeline.last)))
    seconds = analysis_seconds()
    if not seconds:
        abort(403, description="This site does not analyse deals on request; `belote analyse --db` does.")
    archive = get_archive()
    if archive.analysis_row(record_id) is not None:  # analysed meanwhile (another visitor, a reload)
        return redirect(back, 303)
    if not _ANALYSING.acquire(blocking=False):
        raise ServiceUnavailable(description="Another deal is being analysed: try again in a few seconds.",
                                 retry_after=RETRY_AFTER)
    try:
        summary = archive.analyse([record_id], max_seconds=seconds, redo=False, from_end=True)
    except ArchiveBusyError:
        raise
    except ArchiveError as error:
        current_app.logger.warning("analysis of record %s failed: %s", record_id, error)
        abort(422, description="This deal could not be analysed: " + str(error).splitlines()[0])
    finally:
        _ANALYSING.release()
    if record_id not in summary.ids and archive.analysis_row(record_id) is None:
        abort(422, description="This deal could not be analysed: its text no longer reads.")
    return redirect(back, 303)
