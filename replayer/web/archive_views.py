"""The archive page: list, search, sort and page through the stored records (a plain GET form)."""

from __future__ import annotations

import re
from typing import Any, Mapping

from flask import Blueprint, current_app, render_template, request, send_from_directory, url_for

from replayer.archive import SearchError, SearchPage, SearchQuery
from replayer.engine.rules import PROFILE_DESCRIPTIONS

from .db import get_archive

bp = Blueprint("archive", __name__)

FILTERS = ("text", "player", "event", "date_from", "date_to", "variant", "profile", "contract", "validity")
VARIANTS = ("belote", "coinche", "contree")
VALIDITIES = (("", "valid or not"), ("valid", "valid only"), ("invalid", "with errors only"))
# (sort key or None when the column does not sort, title, first click sorts descending?)
COLUMNS = (("id", "#", True), ("date", "Date", True), ("event", "Event", False), (None, "Players", False),
           ("variant", "Variant", False), ("contract", "Contract", False), (None, "Recorded / rescored", False),
           ("errors", "Findings", True))


_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def query_args(args: Mapping[str, str]) -> dict[str, str]:
    """The search arguments of a request that links keep: known keys only, one value each,
    control characters (never meant, and NUL upsets SQLite's full-text queries) made spaces, trimmed."""
    clean: dict[str, str] = {}
    for key in (*FILTERS, "sort", "order", "page", "per_page"):
        value = args.get(key, "")
        if isinstance(value, str):
            value = _CONTROL.sub(" ", value).strip()[:200]
            if value:
                clean[key] = value
    return clean


def run_search(args: Mapping[str, str]) -> tuple[SearchQuery, SearchPage]:
    """The search of a request's arguments, for the archive page and ``/api/records`` alike:
    ``SearchQuery.from_args`` reads them, ``Archive.search`` runs it. ``SearchError`` (its
    ``problems``: field -> message) when a date or a contract cannot be read."""
    query = SearchQuery.from_args(query_args(args))
    return query, get_archive().search(query)


DATE_UNKNOWN = "date unknown"


def known_date(value: object) -> str | None:
    """A record's or a match's date as it is written, or None when it is not known: no date,
    ``????.??.??`` or anything else without a digit. The one test of an unknown date, for
    the pages (``date_text``) and the JSON (``null``); a date partly known (``2026.??.??``)
    is shown as written."""
    text = value.strip() if isinstance(value, str) else ""
    return text if any(c.isdigit() for c in text) else None


@bp.app_template_filter("date_text")
def date_text(value: object) -> str:
    """A date on a page: as written, or "date unknown" (every page: the archive, the
    replay, the match, the delete form)."""
    return known_date(value) or DATE_UNKNOWN


@bp.app_context_processor
def rules_profiles() -> dict[str, Any]:
    """Every rules profile and its one-line description, for the archive filter and the
    submit page's list (docs/rules.md §8)."""
    return {"rules_profiles": tuple(PROFILE_DESCRIPTIONS.items())}


@bp.get("/")
def index():
    args = query_args(request.args)
    try:
        query, page = run_search(request.args)
    except SearchError as error:  # the form again, each message beside its field; nothing searched
        return render_template("archive.html", query=SearchQuery.from_args(args), page=None, args=args,
                               problems=error.problems, columns=COLUMNS, variants=VARIANTS,
                               validities=VALIDITIES), 400

    def link(**changes: Any) -> str:
        """This search with some arguments changed (page links and sort headers keep the filters)."""
        merged = {**args, **{k: str(v) for k, v in changes.items() if v not in (None, "")}}
        for key in [k for k, v in changes.items() if v in (None, "")]:
            merged.pop(key, None)
        return url_for("archive.index", **merged)

    def sort_link(key: str, descending_first: bool) -> str:
        if query.sort == key:
            order = "asc" if query.descending else "desc"
        else:
            order = "desc" if descending_first else "asc"
        return link(sort=key, order=order, page=None)

    return render_template("archive.html", query=query, page=page, args=args, link=link, sort_link=sort_link,
                           problems={}, columns=COLUMNS, variants=VARIANTS, validities=VALIDITIES,
                           page_numbers=page_numbers(page.page, page.pages), page_url=lambda n: link(page=n))


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the page says; answer with the site's SVG icon."""
    return send_from_directory(current_app.static_folder, "favicon.svg", mimetype="image/svg+xml", max_age=86400)


def page_numbers(current: int, pages: int, around: int = 2) -> list[int | None]:
    """Page numbers to link: the first, the last and a few around the current one; None for a gap."""
    wanted = {1, pages, *range(current - around, current + around + 1)}
    shown = sorted(n for n in wanted if 1 <= n <= pages)
    out: list[int | None] = []
    for n in shown:
        if out and n - (out[-1] or 0) > 1:
            out.append(None)
        out.append(n)
    return out
