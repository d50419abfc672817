"""The statistics pages and their JSON twins: the players table (``/stats``), a player's
figures (``/stats/player/<name>``), a partnership's (``/stats/pair?a=..&b=..``), each filtered by
the archive's own search form (``SearchQuery.from_args``: a bad date is the archive's 400,
said beside its field). The figures are the archive's SQL (``Archive.player_stats``...); this
module only reads the request and lays them out."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from flask import Blueprint, abort, jsonify, render_template, request, url_for

from replayer.archive import SearchError, SearchQuery
from replayer.archive.stats import PLAYER_SORTS

from .archive_views import VARIANTS, VALIDITIES, page_numbers, query_args
from .db import get_archive
from .stats_chart import bar_label, contracts_chart

bp = Blueprint("stats", __name__)

FILTERS = ("text", "player", "event", "date_from", "date_to", "variant", "profile", "contract", "validity")
# The players table: (sort key, title, first click sorts descending?, data-label on a phone card).
COLUMNS = (("player", "Player", False), ("played", "Deals", True), ("taken", "Taken", True),
           ("taken_pct", "Taken %", True), ("made_pct", "Made %", True), ("coinches_won", "Coinches won", True),
           ("belotes", "Belotes", True), ("capots", "Capots", True), ("litiges", "Litiges", True),
           ("avg_taker_score", "Avg as takers", True), ("avg_defender_score", "Avg as defenders", True))
PER_PAGE = 50


def _filters(args: Mapping[str, str]) -> dict[str, str]:
    """The search filters a request gives (cleaned as the archive page cleans them)."""
    return {key: value for key, value in query_args(args).items() if key in FILTERS}


def _query(args: Mapping[str, str]) -> SearchQuery:
    return SearchQuery.from_args(_filters(args))


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or "")
    except ValueError:
        return default


def _players(args: Mapping[str, str]) -> dict[str, Any]:
    sort = args.get("sort", "played")
    descending = args.get("order", "desc" if sort != "player" else "asc") != "asc"
    return get_archive().players(_query(args), sort=sort if sort in PLAYER_SORTS else "played",
                                 descending=descending, page=_int(args.get("page"), 1), per_page=PER_PAGE)


def _pair_names(args: Mapping[str, str]) -> tuple[str, str]:
    """The two players of ``/stats/pair``; a 400 that says why when they are not two names."""
    first, second = (args.get(key, "").strip()[:200] for key in ("a", "b"))
    if not first or not second:
        abort(400, description="name two players: ?a=First Player&b=Second Player")
    if first == second:
        abort(400, description="a and b must be two different players")
    return first, second


def _form_context(args: Mapping[str, str], problems: Mapping[str, str]) -> dict[str, Any]:
    return {"args": _filters(args), "problems": problems, "variants": VARIANTS, "validities": VALIDITIES,
            "contracts_chart": contracts_chart, "bar_label": bar_label}


def _html(template: str, load: Callable[[], dict[str, Any]], **context: Any):
    """A statistics page, or its form with each unreadable field's message (400)."""
    try:
        data = load()
    except SearchError as error:
        return render_template(template, data=None, **_form_context(request.args, error.problems), **context), 400
    return render_template(template, data=data, **_form_context(request.args, {}), **context)


def _json(load: Callable[[], dict[str, Any]]):
    try:
        data = load()
    except SearchError as error:  # as /api/records says it
        return jsonify(error={"status": 400, "title": "Bad request", "message": str(error),
                              "fields": error.problems}), 400
    return jsonify(filters=_filters(request.args), **data)


def _player(name: str) -> dict[str, Any]:
    data = get_archive().player_stats(name, _query(request.args))
    if data is None:
        abort(404, description=f"no stored record names the player {name!r}")
    return data


# --- pages ----------------------------------------------------------------------

@bp.get("/stats")
def index():
    args = request.args

    def link(**changes: Any) -> str:
        merged = {**_filters(args), **{k: v for k, v in args.items() if k in ("sort", "order")}, **changes}
        return url_for("stats.index", **{k: v for k, v in merged.items() if v not in (None, "")})

    def sort_link(key: str, descending_first: bool, data: dict[str, Any]) -> str:
        if data["sort"] == key:
            return link(sort=key, order="asc" if data["descending"] else "desc", page=None)
        return link(sort=key, order="desc" if descending_first else "asc", page=None)

    return _html("stats.html", lambda: _players(args), columns=COLUMNS, sort_link=sort_link,
                 page_numbers=page_numbers, page_url=lambda number: link(page=number))


@bp.get("/stats/player/<path:name>")
def player(name: str):
    return _html("stats_player.html", lambda: _player(name), name=name)


@bp.get("/stats/pair")
def pair():
    first, second = _pair_names(request.args)
    return _html("stats_pair.html", lambda: get_archive().partnership_stats(first, second, _query(request.args)),
                 names=(first, second))


# --- JSON -----------------------------------------------------------------------

@bp.get("/api/stats")
def api_index():
    return _json(lambda: _players(request.args))


@bp.get("/api/stats/player/<path:name>")
def api_player(name: str):
    return _json(lambda: _player(name))


@bp.get("/api/stats/pair")
def api_pair():
    first, second = _pair_names(request.args)
    return _json(lambda: get_archive().partnership_stats(first, second, _query(request.args)))
