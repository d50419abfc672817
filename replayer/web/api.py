"""The JSON API: search the archive, read one record with its findings, score, every step and
its stored double-dummy analysis, and validate a text without storing it."""

from __future__ import annotations

import json
from pathlib import PureWindowsPath
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request, url_for

from notation.jsonio import to_json
from notation.values import NotationError, Seat
from replayer.archive import SearchError, stored_record
from replayer.engine.rules import RulesError

from .archive_views import known_date, query_args, run_search
from .checking import check, is_blank, picked_rules
from .db import get_archive
from .replay_views import read_analysis_json
from .security import FORM_TYPES
from .seat_view import seat_view
from .step_builder import build_timeline
from .submit_views import submitted_data

bp = Blueprint("api", __name__, url_prefix="/api")

PRIVATE = frozenset({"owner_hash"})  # never leaves the server
HEAVY = frozenset({"raw", "canonical", "comments"})  # left out of search results
# What the one-seat view tells of a record's row: its tags before play, nothing of the result.
SEAT_KEYS = frozenset({"id", "event", "site", "date", "round", "deal", "north", "east", "south", "west", "dealer",
                       "variant", "rules", "match_id", "deal_in_match", "url", "replay_url", "match_url"})


def link(endpoint: str, **values: Any) -> str:
    """A URL in the API's answers. Absolute only when ``SERVER_NAME`` names the site (with
    ``PREFERRED_URL_SCHEME``), else relative to it: never built from the request's Host
    header, which any client sets as it likes."""
    config = current_app.config
    if config["SERVER_NAME"]:
        return url_for(endpoint, **values, _external=True, _scheme=config["PREFERRED_URL_SCHEME"])
    return url_for(endpoint, **values)


def public(row: dict, *, drop: frozenset[str] = frozenset()) -> dict[str, Any]:
    out = {key: value for key, value in row.items() if key not in PRIVATE and key not in drop}
    if "date" in out:
        out["date"] = known_date(out["date"])  # null when unknown, as every page says "date unknown"
    if out.get("source"):
        # the file's name only: the path it was imported from says where the server keeps its files
        # (PureWindowsPath cuts at both / and \, whatever machine imported it)
        out["source"] = PureWindowsPath(out["source"]).name
    out["url"] = link("api.record", record_id=row["id"])
    out["replay_url"] = link("replay.show", record_id=row["id"])
    if row.get("match_id"):
        out["match_url"] = link("matches.show", match_id=row["match_id"])
    return out


@bp.get("")
@bp.get("/")
def index():
    return jsonify(endpoints={
        "search": {"method": "GET", "url": link("api.records"),
                   "parameters": ["text", "player", "event", "date_from", "date_to", "variant", "profile",
                                  "contract", "validity", "sort", "order", "page", "per_page"]},
        "record": {"method": "GET", "url": link("api.records") + "/<id>"},
        "validate": {"method": "POST", "url": link("api.validate_text"),
                     "body": "the text (text/plain), or JSON {\"text\": \"...\"}; nothing is stored",
                     "parameters": ["rules"]},
    })


@bp.get("/records")
def records():
    try:
        query, page = run_search(request.args)
    except SearchError as error:  # a date or a contract that cannot be read: said, never ignored
        return jsonify(error={"status": 400, "title": "Bad request", "message": str(error),
                              "fields": error.problems}), 400
    args = query_args(request.args)

    def page_url(number: int) -> str | None:
        if not 1 <= number <= page.pages:
            return None
        return link("api.records", **{**args, "page": str(number)})

    return jsonify(records=[public(row, drop=HEAVY) for row in page.rows], total=page.total, page=page.page,
                   per_page=page.per_page, pages=page.pages, sort=query.sort,
                   order="desc" if query.descending else "asc",
                   next=page_url(page.page + 1), prev=page_url(page.page - 1))


@bp.get("/records/<int:record_id>")
def record(record_id: int):
    """The whole record; with ``seat`` (and ``step``), only what that seat knows at that step."""
    archive = get_archive()
    row = archive.get(record_id)
    if row is None:
        abort(404, description=f"no record {record_id}")
    if request.args.get("seat", "").strip():
        return _seat_record(row)
    out = public(row)
    out["findings"] = archive.findings(record_id)
    analysis = archive.analysis_row(record_id)  # stored by ``belote analyse``, never computed here
    stored = stored_record(row)
    if stored.record is None or stored.report is None:  # an archive edited by hand
        out.update(record=None, report=None, timeline=None, analysis=None, problem=stored.error)
        return jsonify(out)
    out["record"] = to_json(stored.record)
    out["report"] = stored.report.as_dict()
    out["timeline"] = build_timeline(stored.record, stored.report).as_dict()
    out["analysis"] = read_analysis_json(analysis["analysis"] or "") if analysis is not None else None
    return jsonify(out)


def _seat_record(row: dict[str, Any]):
    """The one-seat view of a record as JSON: the record's tags (not its text, its findings or its
    analysis, which tell the whole deal) and the table as the seat sees it at ``step``."""
    try:
        seat = Seat.parse(request.args["seat"].strip())
    except NotationError:
        abort(400, description="seat must be one of N, E, S, W (or left out to see every hand)")
    stored = stored_record(row)
    out = {key: value for key, value in public(row).items() if key in SEAT_KEYS}
    if stored.record is None or stored.report is None:
        out.update(view=None, problem=stored.error)
        return jsonify(out)
    timeline = build_timeline(stored.record, stored.report)
    step = request.args.get("step", "0").strip().lower()
    try:
        index = timeline.last if step in ("end", "last") else int(step, 10)  # as the page reads it
    except ValueError:
        abort(400, description="step must be a whole number, or end")
    out["view"] = seat_view(timeline, seat, index)
    return jsonify(out)


@bp.post("/validate")
def validate_text():
    data, rules = _posted_text()
    if is_blank(data):
        abort(400, description="no text: send the records as the body (text/plain) or as JSON {\"text\": \"...\"}")
    try:
        profile = picked_rules(rules)
    except RulesError as error:
        abort(400, description=f"rules: {error}")
    result = check(data, rules=profile)
    return jsonify(stored=False, **result.as_dict())


def _posted_text() -> tuple[bytes | str, str | None]:
    """The posted text and the ``rules`` asked for: a member of the JSON object, a form field,
    or, beside a text/plain body, a query argument."""
    if request.is_json:
        body = _json_body()
        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            abort(400, description="the JSON body must be an object with a string \"text\"")
        if not isinstance(body.get("rules"), (str, type(None))):
            abort(400, description="\"rules\" must be a string: the name of a rules profile")
        return body["text"], body.get("rules")
    if request.mimetype in FORM_TYPES:
        return submitted_data(), request.form.get("rules")
    return request.get_data(cache=False), request.args.get("rules")


def _json_body() -> Any:
    """The posted JSON, or a 400 that says in one line why it cannot be read. Read here rather
    than by ``request.get_json``, whose ``silent`` lets RecursionError through (a 500)."""
    try:
        return json.loads(request.get_data(cache=False))
    except RecursionError:
        abort(400, description="the JSON body is nested too deeply to be read")
    except ValueError as error:  # not JSON, or not in a Unicode encoding (UnicodeDecodeError)
        abort(400, description=f"the body is not valid JSON: {error}")
