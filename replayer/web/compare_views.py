"""What-if rules: a stored deal scored under two rule sets side by side.

``/r/<id>/compare?rules=A&rules=B`` validates the stored record again under each rules text
(here re-validating is the point: the archive keeps the report of its own rules only) and
shows ``replayer.check.compare.compare_rules``: the breakdown with the rows that differ
highlighted, and the findings that appear or vanish. ``/r/<id>/compare.json`` gives the same
comparison as JSON (``Comparison.as_dict``).

The form on the page is a plain GET form, one rules picker per rule set (a profile and an
options field), so its URL is shareable; it sends ``profile`` and ``options`` pairs, which
read as the rules texts ``profile; options``. Without any, the page compares the record's own
rules with a related rule set (``other_rules``), with the form prefilled. A single rules text
is compared with the record's own rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from replayer.archive import StoredRecord, stored_record
from replayer.check.compare import Comparison, compare_rules, label
from replayer.engine.rules import PROFILES, Rules, RulesError

from .db import get_archive

bp = Blueprint("compare", __name__)

MAX_RULE_SETS = 4  # each one is a validation of the deal
MAX_RULES_TEXT = 400  # characters of one rules text: a profile and every option fits in far less


@dataclass(frozen=True)
class Picker:
    """One rule set on the form: the rules text asked for, as the profile select and the
    options field show it, and what is wrong with it (``None`` when it reads)."""

    index: int  # 1-based, for the field ids
    text: str
    profile: str
    options: str
    error: str | None = None

    @property
    def label(self) -> str:
        return label(self.index - 1)

    @property
    def known_profile(self) -> bool:
        """Whether the select lists the profile (an unknown one is added to it, as typed)."""
        return self.profile in PROFILES


@dataclass(frozen=True)
class Asked:
    """What the request asks to compare: the pickers, the rules read from them (when all
    read), and a problem with the request as a whole (too many rule sets)."""

    pickers: tuple[Picker, ...]
    rules: tuple[Rules, ...] | None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.rules is not None and self.problem is None

    def message(self) -> str:
        """Every problem in one line, for the JSON error."""
        problems = [self.problem] if self.problem else []
        problems += [f"rules {p.index} ({p.text[:60]!r}): {p.error}" for p in self.pickers if p.error]
        return "; ".join(problems)


# --- reading the request ----------------------------------------------------------

def other_rules(rules: Rules) -> str:
    """A rule set worth comparing a record's rules with: the profile alone when the rules add
    options to it, else an FFB profile of the same game: ffb-coinche and ffb-contree against
    each other, ffb and ffb-annonces against each other, any other profile against ffb-coinche
    (Coinche) or ffb (classic)."""
    if rules.overrides:
        return rules.profile
    pairs = {"ffb-coinche": "ffb-contree", "ffb-contree": "ffb-coinche", "ffb": "ffb-annonces", "ffb-annonces": "ffb"}
    return pairs.get(rules.profile, "ffb-coinche" if rules.is_coinche else "ffb")


def asked_texts(args: MultiDict[str, str], own: str) -> list[str]:
    """The rules texts of the request: ``rules`` (repeated), else the form's ``profile`` and
    ``options`` pairs, else the record's own rules and ``other_rules``; a single text is
    compared with the record's own rules."""
    texts = [text.strip() for text in args.getlist("rules")]
    if not texts:
        pairs = zip_longest(args.getlist("profile"), args.getlist("options"), fillvalue="")
        texts = ["; ".join(part for part in (profile.strip(), options.strip().strip(";").strip()) if part)
                 for profile, options in pairs]
    if not texts:
        return [own, other_rules(Rules.parse(own))]
    return [own, texts[0]] if len(texts) == 1 else texts


def read_asked(texts: list[str]) -> Asked:
    """Each text read as rules, with its picker; a text that does not read keeps its message."""
    pickers, rules = [], []
    for index, text in enumerate(texts[:MAX_RULE_SETS], 1):
        try:
            if len(text) > MAX_RULES_TEXT:
                raise RulesError(f"a rules text of at most {MAX_RULES_TEXT} characters, please")
            # Rules.parse, not the memoized rules_from_text: a visitor's texts must not fill its cache
            parsed = Rules.parse(text)
        except RulesError as error:
            profile, options = split_rules_text(text)
            pickers.append(Picker(index, text, profile, options, str(error)))
            continue
        rules.append(parsed)
        pickers.append(Picker(index, text, parsed.profile, "; ".join(f"{k}={v}" for k, v in parsed.overrides)))
    problem = None
    if len(texts) > MAX_RULE_SETS:
        problem = f"at most {MAX_RULE_SETS} rule sets can be compared, {len(texts)} were given"
    return Asked(tuple(pickers), tuple(rules) if len(rules) == len(pickers) else None, problem)


def split_rules_text(text: str) -> tuple[str, str]:
    """(profile, options) of a rules text that does not read, to show it on the form again."""
    head, _, rest = text.partition(";")
    if "=" in head:  # no profile: ffb and options
        return "ffb", text.strip()
    return head.strip()[:60], rest.strip()


# --- the pages -------------------------------------------------------------------

def load(record_id: int) -> StoredRecord:
    row = get_archive().get(record_id)
    if row is None:
        abort(404, description=f"There is no record {record_id} in the archive.")
    return stored_record(row)


def compared(stored: StoredRecord, asked: Asked) -> Comparison | None:
    if not asked.ok or stored.record is None or asked.rules is None:
        return None
    return compare_rules(stored.record, asked.rules)


def own_rules(stored: StoredRecord) -> str:
    """The rules the archive checked the record under (its tags, or the rules it was stored with)."""
    return stored.report.rules_text if stored.report is not None and stored.report.rules is not None else "ffb"


@bp.get("/r/<int:record_id>/compare")
def page(record_id: int):
    stored = load(record_id)
    own = own_rules(stored)
    asked = read_asked(asked_texts(request.args, own))
    comparison = compared(stored, asked)
    status = 400 if not asked.ok else 422 if stored.record is None else 200
    return render_template("compare.html", row=stored.row, stored=stored, own=own, asked=asked,
                           comparison=comparison, canonical=_canonical(record_id, asked, "compare.page"),
                           canonical_json=_canonical(record_id, asked, "compare.json")), status


@bp.get("/r/<int:record_id>/compare.json")
def json(record_id: int):
    row = get_archive().get(record_id)
    if row is None:
        return _json_error(404, "Not found", f"There is no record {record_id} in the archive.")
    stored = stored_record(row)
    own = own_rules(stored)
    asked = read_asked(asked_texts(request.args, own))
    if not asked.ok:
        fields = {"rules": [p.error for p in asked.pickers]}
        return _json_error(400, "Bad request", asked.message(), fields=fields)
    comparison = compared(stored, asked)
    if comparison is None:
        return _json_error(422, "Unprocessable", f"This record can no longer be read: {stored.error}")
    return jsonify({"id": record_id, "record_rules": own, **comparison.as_dict()})


def _json_error(status: int, title: str, message: str, **extra: Any) -> tuple[Response, int]:
    """The API's error shape (``replayer.web.errors``): ``{"error": {status, title, message}}``."""
    return jsonify(error={"status": status, "title": title, "message": message, **extra}), status


def _canonical(record_id: int, asked: Asked, endpoint: str) -> str | None:
    """The link to this comparison with its rules texts as ``rules`` (shorter than the form's
    pairs, and what the docs show); None when the request has a problem."""
    if not asked.ok:
        return None
    return url_for(endpoint, record_id=record_id, rules=[p.text for p in asked.pickers])
