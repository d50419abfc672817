"""Submit a record: paste or upload, see every finding against the text, store it, delete it with the owner token.

A check is kept server-side (``replayer.archive.checks``: the text and its ``CheckSummary``, under
a random token, for ``CHECK_LIFETIME`` seconds, all of them within ``CHECK_ROOM`` bytes), and
every page about it is a GET: ``POST /submit`` checks and redirects to ``/submit/check/<token>``
(a summary, then the records with findings a page at a time), ``/submit/check/<token>/<n>`` is
record n in full, and ``POST /submit/store`` stores the kept text once and redirects to
``/submit/check/<token>/stored``. A reload of any of them sends nothing again.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, session, url_for

from replayer.archive import ArchiveBusyError, Submission
from replayer.archive.checks import CheckStore, CheckTooLargeError, KeptCheck, checks_path
from replayer.check.findings import Finding
from replayer.engine.rules import RulesError

from .archive_views import page_numbers
from .checking import (REPAIRED_RECORDS, CheckSummary, check, is_blank, normalize, picked_rules, recheck,
                       source_lines)
from .db import get_archive
from .errors import RETRY_AFTER

bp = Blueprint("submit", __name__)

PER_PAGE = 25  # records (and matches) a check page lists
SHOWN_MATCH_FINDINGS = 10  # of a match in a list; each is on its deal's page too
INLINE_LINES, INLINE_CHARS = 400, 150_000  # a text this short is listed whole on its check page, with a box to edit it
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
OWNER_TOKENS = "owner_tokens"  # in the session: check token -> owner token, until the stored page shows it once
KEPT_OWNER_TOKENS = 5  # a session keeps the owner tokens of its last few stores that were not shown yet

NOTHING = "Nothing to check: paste a record in the box or choose a file."
NO_RECORD = "No record was found in this text: a record starts with tag pairs such as [Event \"...\"] or with its hands."
BUSY = ("The archive is busy: an import or another submission is being written to it. Nothing was stored: "
        "check the text and store it again in a few seconds.")
BUSY_CHECK = "The site is busy, so this check could not be kept: send the text again in a few seconds."
TOO_LARGE = "This check is too large to be kept: split the text and send the parts one by one."
GONE = ("This check is no longer kept (a check is kept for {minutes} after it is made): "
        "paste or upload the text again.")
NOT_UTF8 = "This file is not UTF-8 text, so it cannot be stored. Save it as UTF-8 and send it again."


@dataclass(frozen=True)
class Paged:
    """One page of a list: its items, its number (from 1) and how many pages there are."""

    items: Sequence[Any]
    number: int
    pages: int
    total: int
    start: int  # the position (from 1) of its first item in the list

    @classmethod
    def of(cls, items: Sequence[Any], wanted: str | None, per_page: int = PER_PAGE) -> Paged:
        """Page ``wanted`` (a query argument: anything that is not a page number gives the first
        page, a number past the end the last one)."""
        pages = max(1, math.ceil(len(items) / per_page))
        number = min(max(int(wanted), 1), pages) if wanted and wanted.isdecimal() and len(wanted) < 10 else 1
        start = (number - 1) * per_page
        return cls(items[start:start + per_page], number, pages, len(items), start + 1)

    @property
    def numbers(self) -> list[int | None]:
        return page_numbers(self.number, self.pages)


def submitted_data() -> bytes | str:
    """The uploaded file if one was chosen, else the pasted text."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        return upload.read()
    return request.form.get("text", "")


@bp.get("/submit")
def form():
    return render_template("submit.html", text="", problem=None, rules=None)


def _picked_rules(text: str) -> str | None:
    """The form's ``rules`` (``picked_rules``); one that is not a profile name is a 400 with the
    form again, the pasted ``text`` in it, saying which are."""
    try:
        return picked_rules(request.form.get("rules"))
    except RulesError as error:
        page = render_template("submit.html", text=text, problem=f"Rules: {error}.", rules=None)
        abort(make_response(page, 400))


@bp.post("/submit")
def check_view():
    """Check the text, keep the check and redirect to its page (POST, redirect, GET)."""
    data = submitted_data()
    rules = _picked_rules(normalize(data) if isinstance(data, str) else "")
    if is_blank(data):
        return render_template("submit.html", text="", problem=NOTHING, rules=rules), 400
    result = check(data, hashes=True, rules=rules)
    if not result.records:
        return render_template("submit.html", text=result.text, problem=NO_RECORD, rules=rules), 400
    summary = CheckSummary.of(result, get_archive().stored_ids(r.hash for r in result.records if r.hash))
    config = current_app.config
    try:
        with kept_checks() as checks:
            token = checks.keep(result.text, summary.to_json(), lifetime=float(config["CHECK_LIFETIME"]),
                                room=int(config["CHECK_ROOM"]))
    except ArchiveBusyError:  # a pasted text back in the form; a file is still on the visitor's disk
        text = result.text if isinstance(data, str) else ""
        page = render_template("submit.html", text=text, problem=BUSY_CHECK, rules=rules)
        return page, 503, {"Retry-After": str(RETRY_AFTER)}
    except CheckTooLargeError:
        return render_template("submit.html", text="", problem=TOO_LARGE, rules=rules), 413
    return redirect(url_for("submit.checked", token=token), 303)


def kept_checks() -> CheckStore:
    """The kept checks (``CHECKS_DB``, else the file beside the archive), to use in a ``with``."""
    config = current_app.config
    return CheckStore(config["CHECKS_DB"] or checks_path(config["DB"]), timeout=float(config["DB_TIMEOUT"]))


def _kept(token: str) -> tuple[KeptCheck, CheckSummary]:
    """The check kept under ``token`` and its summary, else a 404 that says checks expire."""
    pending = None
    if TOKEN.fullmatch(token):
        with kept_checks() as checks:
            pending = checks.get(token)
    try:
        summary = CheckSummary.from_json(pending.summary) if pending is not None else None
    except (ValueError, KeyError, TypeError, IndexError):  # a summary this version cannot read
        summary = None
    if pending is None or summary is None:
        abort(404, description=GONE.format(minutes=_minutes()))
    return pending, summary


def _minutes() -> str:
    minutes = max(1, round(float(current_app.config["CHECK_LIFETIME"]) / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


@bp.get("/submit/check/<token>")
def checked(token: str):
    pending, summary = _kept(token)
    return _check_page(pending, summary)


def _check_page(pending: KeptCheck, summary: CheckSummary, problem: str | None = None,
                status: int = 200) -> tuple[str, int]:
    """The check's page: the summary, the store form, then the records (and matches) with
    findings, or all of them (``show=all``), a page at a time (``page``, ``mpage``); a short
    text is listed whole below them."""
    shown = request.args.get("show")
    show_all = shown == "all" or (shown != "findings" and len(summary.records) <= PER_PAGE)
    records, matches = summary.listed(show_all)
    inline = summary.lines <= INLINE_LINES and len(pending.text) <= INLINE_CHARS
    token = pending.token

    def record_url(number: int) -> str:
        return url_for("submit.checked_record", token=token, number=number)

    records_page, matches_page = Paged.of(records, request.args.get("page")), Paged.of(matches, request.args.get("mpage"))

    def list_url(show: str | None = None, page: int = 1, mpage: int = 1) -> str:
        """This list (``show``: another one, from its first page) at pages ``page`` and ``mpage``."""
        args = {"show": show or ("all" if show_all else "findings"), "page": page, "mpage": mpage}
        return url_for("submit.checked", token=token, **{k: v for k, v in args.items() if v != 1})

    return render_template(
        "submit_check.html", token=token, summary=summary, counts=summary.counts, show_all=show_all,
        records=records_page, matches=matches_page, list_url=list_url,
        records_page_url=lambda n: list_url(page=n, mpage=matches_page.number) + "#records",
        matches_page_url=lambda n: list_url(page=records_page.number, mpage=n) + "#matches",
        record_url=record_url, lines_url=(lambda number: "") if inline else record_url,
        lines=source_lines(pending.text, [f for r in summary.records for f in r.shown]) if inline else None,
        text=pending.text if inline else None, stored=pending.outcome is not None, expires=_clock(pending.expires),
        repaired=REPAIRED_RECORDS, shown_match_findings=SHOWN_MATCH_FINDINGS, problem=problem), status


def _clock(when: float) -> str:
    return datetime.datetime.fromtimestamp(when, datetime.timezone.utc).strftime("%H:%M UTC")


@bp.get("/submit/check/<token>/<int:number>")
def checked_record(token: str, number: int):
    """One record of a check in full: every finding, its score and its lines."""
    pending, summary = _kept(token)
    record = summary.record(number)
    if record is None:
        abort(404, description=f"There is no record {number} in this check: it has {len(summary.records)}.")
    report = (recheck(pending.text, record.first_line, record.last_line, number - 1, summary.rules)
              if summary.utf8 else None)
    findings = report.findings if report is not None else record.findings  # all of them, with repairs
    lines = source_lines(pending.text, findings + record.match_findings, record.first_line, record.last_line)
    return render_template("submit_record.html", token=token, record=record, findings=findings, lines=lines,
                           complete=report is not None or not record.more, count=len(summary.records),
                           rules=summary.rules)


@bp.post("/submit/store")
def store():
    """Store a kept check (``check``: its token) under the rules it was checked with, and redirect
    to what was stored; a script may send the ``text`` itself instead (and ``rules``, a profile for
    every record), and gets the stored page as the answer."""
    token = request.form.get("check", "")
    if token:
        return _store_kept(token)
    text = normalize(request.form.get("text", ""))
    rules = _picked_rules(text)
    if not text.strip():
        return render_template("submit.html", text="", problem=NOTHING, rules=rules), 400
    try:
        submission = get_archive().add(text, source_name="submitted", rules=rules)
    except ArchiveBusyError:  # the text back in the form, rather than lost on an error page
        page = render_template("submit.html", text=text, problem=BUSY, rules=rules)
        return page, 503, {"Retry-After": str(RETRY_AFTER)}
    status = 200 if submission.ids or submission.duplicates else 422
    return _stored_page(submission, submission.token, status=status)


def _store_kept(token: str):
    pending, summary = _kept(token)
    if pending.outcome is not None:  # stored already (a second click, the back button): not again
        return redirect(url_for("submit.stored", token=token), 303)
    if not summary.utf8:
        return _check_page(pending, summary, problem=NOT_UTF8, status=422)
    try:
        submission = get_archive().add(pending.text, source_name="submitted", rules=summary.rules)
    except ArchiveBusyError:  # the check page again, its Store button with it
        page, status = _check_page(pending, summary, problem=BUSY, status=503)
        return page, status, {"Retry-After": str(RETRY_AFTER)}
    outcome = {"ids": submission.ids, "duplicates": submission.duplicates,
               "rejected": [f.as_dict() for f in submission.rejected]}
    try:
        with kept_checks() as checks:
            checks.note_stored(token, json.dumps(outcome, separators=(",", ":")))
    except ArchiveBusyError:  # stored, but what was stored could not be kept: shown now, once
        return _stored_page(submission, submission.token, status=200)
    if submission.token:
        _hold_owner_token(token, submission.token)
    return redirect(url_for("submit.stored", token=token), 303)


@bp.get("/submit/check/<token>/stored")
def stored(token: str):
    """What storing a kept check did; the owner token the first time only."""
    pending, _summary = _kept(token)
    if pending.outcome is None:
        return redirect(url_for("submit.checked", token=token), 303)
    try:
        outcome = json.loads(pending.outcome)
        submission = Submission(tuple(outcome["ids"]), tuple(outcome["duplicates"]), None,
                                tuple(map(Finding.from_dict, outcome["rejected"])))
    except (ValueError, KeyError, TypeError):  # a row edited by hand
        abort(404, description=GONE.format(minutes=_minutes()))
    return _stored_page(submission, _owner_token(token), check_token=token)


def _hold_owner_token(token: str, owner: str) -> None:
    """Keep the owner token of check ``token``'s records in the session until its stored page shows it."""
    waiting = session.get(OWNER_TOKENS)
    waiting = dict(waiting) if isinstance(waiting, dict) else {}
    waiting[token] = owner
    session[OWNER_TOKENS] = dict(list(waiting.items())[-KEPT_OWNER_TOKENS:])


def _owner_token(token: str) -> str | None:
    """The owner token of the records stored from check ``token``, taken out of the session:
    it is shown once."""
    waiting = session.get(OWNER_TOKENS)
    if not isinstance(waiting, dict) or token not in waiting:
        return None
    waiting = dict(waiting)
    owner = waiting.pop(token)
    session[OWNER_TOKENS] = waiting
    return owner if isinstance(owner, str) else None


def _stored_page(submission: Submission, owner: str | None, *, status: int = 200, check_token: str | None = None):
    """What was stored, as ranges of ids (a submission may hold thousands, mostly consecutive),
    and the owner token when it is shown (once: out of every cache)."""
    page = render_template("submit_stored.html", submission=submission, owner_token=owner,
                           stored_ranges=id_ranges(submission.ids), duplicate_ranges=id_ranges(submission.duplicates),
                           check_token=check_token)
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"  # the owner token is shown once: keep it out of caches
    return response


def id_ranges(ids: Sequence[int]) -> list[tuple[int, int]]:
    """The distinct ids as runs of consecutive ones: [39, 40, 41, 7, 7] -> [(7, 7), (39, 41)]."""
    runs: list[tuple[int, int]] = []
    for record_id in sorted(set(ids)):
        if runs and record_id == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], record_id)
        else:
            runs.append((record_id, record_id))
    return runs


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
