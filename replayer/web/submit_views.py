"""Submit a record: paste or upload, see every finding against the text, store it, delete it with the owner token."""

from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template, request

from replayer.archive import ArchiveBusyError

from .checking import Check, check, is_blank, normalize
from .db import get_archive
from .errors import RETRY_AFTER

bp = Blueprint("submit", __name__)

NOTHING = "Nothing to check: paste a record in the box or choose a file."
NO_RECORD = "No record was found in this text: a record starts with tag pairs such as [Event \"...\"] or with its hands."
BUSY = ("The archive is busy: an import or another submission is being written to it. Nothing was stored: "
        "check the text and store it again in a few seconds.")


def submitted_data() -> bytes | str:
    """The uploaded file if one was chosen, else the pasted text."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        return upload.read()
    return request.form.get("text", "")


@bp.get("/submit")
def form():
    return render_template("submit.html", text="", problem=None)


@bp.post("/submit")
def check_view():
    data = submitted_data()
    if is_blank(data):
        return render_template("submit.html", text="", problem=NOTHING), 400
    result: Check = check(data)
    if not result.records:
        return render_template("submit.html", text=result.text, problem=NO_RECORD), 400
    return render_template("submit_check.html", check=result, lines=result.lines())


@bp.post("/submit/store")
def store():
    text = normalize(request.form.get("text", ""))
    if not text.strip():
        return render_template("submit.html", text="", problem=NOTHING), 400
    try:
        submission = get_archive().add(text, source_name="submitted")
    except ArchiveBusyError:  # the text back in the form, rather than lost on an error page
        return render_template("submit.html", text=text, problem=BUSY), 503, {"Retry-After": str(RETRY_AFTER)}
    status = 200 if submission.ids or submission.duplicates else 422
    response = make_response(render_template("submit_stored.html", submission=submission), status)
    response.headers["Cache-Control"] = "no-store"  # the owner token is shown once: keep it out of caches
    return response


def _record_or_404(record_id: int) -> dict:
    row = get_archive().get(record_id)
    if row is None:
        abort(404, description=f"There is no record {record_id} in the archive. It may have been deleted.")
    return row


@bp.get("/delete/<int:record_id>")
def delete(record_id: int):
    return render_template("delete.html", row=_record_or_404(record_id), problem=None)


@bp.post("/delete/<int:record_id>")
def delete_confirm(record_id: int):
    row = _record_or_404(record_id)
    token = request.form.get("token", "").strip()
    if not token or not get_archive().delete(record_id, token):
        problem = "This owner token does not match the record: nothing was deleted."
        return render_template("delete.html", row=row, problem=problem), 403
    return render_template("deleted.html", record_id=record_id)
