"""The match pages: the deals of a stored match with a running score sheet and a score chart.

Every record of the match is re-validated from its raw text with the rules it was
stored with (about a millisecond each), then ``replayer.scoresheet`` lays out the
sheet; nothing about the match is recomputed here.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Blueprint, abort, jsonify, render_template, url_for

from notation.values import SEATS
from notation.parser import parse_record
from replayer.findings import Location, make_finding
from replayer.engine.rules import RulesError
from replayer.scoresheet import ScoreSheet, score_sheet
from replayer.validator import Report, validate

from .chart import score_chart
from .db import get_archive

bp = Blueprint("matches", __name__)


@bp.get("/m/<int:match_id>")
def show(match_id: int):
    match, sheet = _load(match_id)
    return render_template("match.html", match=match, sheet=sheet, chart=score_chart(sheet),
                           seats=SEATS, title=_title(match, sheet))


@bp.get("/m/<int:match_id>.json")
def json(match_id: int):
    match, sheet = _load(match_id)
    data: dict[str, Any] = {"id": match_id, "url": url_for("matches.show", match_id=match_id)}
    data.update(sheet.as_dict())
    for row in data["rows"]:
        row["record_id"] = row.pop("key")
        row["replay_url"] = url_for("replay.show", record_id=row["record_id"])
    return jsonify(data)


def _load(match_id: int) -> tuple[Mapping[str, Any], ScoreSheet]:
    archive = get_archive()
    match = archive.get_match(match_id)
    if match is None:
        abort(404, description=f"There is no match {match_id} in the archive.")
    # match_records may leave the texts out (a listing): then each record is read whole
    rows = [row if "raw" in row else archive.get(row["id"]) or row for row in archive.match_records(match_id)]
    reports = [_report(row, i) for i, row in enumerate(rows)]
    return match, score_sheet(reports, keys=[row["id"] for row in rows])


def _report(row: Mapping[str, Any], index: int) -> Report:
    """The record re-validated as stored; a record that no longer parses becomes a report of its error."""
    try:
        record = parse_record(row.get("raw") or "")
    except ValueError as error:  # RecordSyntaxError: the archive stores parseable records only
        finding = make_finding("syntax-error", str(error), Location(index, 1, 1))
        return Report(index, (finding,), row.get("rules") or "ffb")
    try:
        return validate(record, row.get("rules") or None, index)
    except RulesError:  # a rules string that this version no longer reads: the record's own tags decide
        return validate(record, None, index)


def _title(match: Mapping[str, Any], sheet: ScoreSheet) -> str:
    parts = [match.get("event") or sheet.event, match.get("round") or sheet.round]
    return " · ".join(str(p) for p in parts if p) or f"Match {match.get('id', '')}".strip()
