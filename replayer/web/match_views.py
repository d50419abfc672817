"""The match pages: the deals of a stored match with a running score sheet and a score chart.

The reports the archive kept of the match's records go to ``check.scoresheet``, which lays
out the sheet; nothing is validated again here.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Blueprint, abort, jsonify, render_template, url_for

from notation.values import SEATS
from replayer.archive import stored_record
from replayer.check.findings import Location, make_finding
from replayer.check.report import Report
from replayer.check.scoresheet import ScoreSheet, score_sheet

from .archive_views import known_date
from .chart import legend, score_chart
from .db import get_archive

bp = Blueprint("matches", __name__)


@bp.get("/m/<int:match_id>")
def show(match_id: int):
    match, sheet = _load(match_id)
    return render_template("match.html", match=match, sheet=sheet, chart=score_chart(sheet),
                           legend=legend(sheet), seats=SEATS, title=_title(match, sheet))


@bp.get("/m/<int:match_id>.json")
def json(match_id: int):
    match, sheet = _load(match_id)
    data: dict[str, Any] = {"id": match_id, "url": url_for("matches.show", match_id=match_id)}
    data.update(sheet.as_dict())
    data["date"] = known_date(match.get("date") or data["date"])  # null when unknown, as on the pages
    for row in data["rows"]:
        row["record_id"] = row.pop("key")
        row["replay_url"] = url_for("replay.show", record_id=row["record_id"])
    return jsonify(data)


def _load(match_id: int) -> tuple[Mapping[str, Any], ScoreSheet]:
    archive = get_archive()
    match = archive.get_match(match_id)
    if match is None:
        abort(404, description=f"There is no match {match_id} in the archive.")
    # match_records leaves the texts out (a listing): each record is read whole
    rows = [archive.get(row["id"]) or row for row in archive.match_records(match_id)]
    reports = [_report(row, i) for i, row in enumerate(rows)]
    return match, score_sheet(reports, keys=[row["id"] for row in rows])


def _report(row: dict[str, Any], index: int) -> Report:
    """The report the archive kept; a record whose text no longer reads becomes a report of its error."""
    stored = stored_record(row)
    if stored.report is None:
        finding = make_finding("syntax-error", stored.error or "unreadable record", Location(index, 1, 1))
        return Report(index, (finding,), None)
    return stored.report.renumbered(index)


def _title(match: Mapping[str, Any], sheet: ScoreSheet) -> str:
    parts = [match.get("event") or sheet.event, match.get("round") or sheet.round]
    return " · ".join(str(p) for p in parts if p) or f"Match {match.get('id', '')}".strip()
