"""Records as JSON values, losslessly (comments and annotations included).

``to_json(record)`` gives plain dicts, lists, strings, ints and booleans in the form
of the JSON schema ``record.schema.json`` (shipped in this package, ``SCHEMA_FILE``);
``from_json(value)`` reads them back (``from_json(to_json(r)) == r``). Empty lists,
``None`` and ``False`` are left out; positions are written only when asked
(``positions=True``) and never read.

``from_json`` refuses, with a ``JSONFormatError`` naming the path of the first bad
value (``tricks[0].plays: 5 items, at most 4``), a value nested deeper than
``MAX_DEPTH``, one the schema refuses (checked with the ``jsonschema`` package:
the schema is the one statement of the JSON form), then what a schema cannot
say: a card dealt twice, a comment the canonical writer cannot write where it
stands, and a record whose text the reader refuses (its limits). So every record
it gives can be written and read back.
``decode_json(text)`` is ``json.loads`` whose failures (bad JSON, bad UTF-8,
nesting beyond Python's recursion limit) are ``JSONFormatError`` too.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from itertools import islice
from typing import TYPE_CHECKING, Any, Iterator

from .values import Call, Card, NotationError, Seat
from .errors import JSONFormatError, WriteError
from .parser import parse
from .writer import write_record
from .record import Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Trick

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

JSON = dict[str, Any]
SCHEMA_FILE = "record.schema.json"
MAX_DEPTH = 16
"""Containers nested deeper than this are refused before the schema is applied (a record's
JSON nests 6 deep: ``tricks[i].plays[j].comments``); this keeps the schema's validator
and its messages from recursing through a hostile value."""
MAX_ERRORS = 1000  # the schema's errors looked at for the first one


def to_json(record: Record, positions: bool = False) -> JSON:
    """The record as a JSON-ready dict; with ``positions``, each item's ``[line, column]`` too."""
    out: JSON = {}
    if record.tags:
        out["tags"] = [[name, value] for name, value in record.tags]
    _put(out, "comments", record.comments)
    if record.hands:
        out["hands"] = [_item({"seat": str(h.seat), "cards": None if h.cards is None else [_card(c) for c in h.cards]},
                              h.comments, None, h.pos, positions) for h in record.hands]
    if record.turned is not None or record.turned_unknown:
        out["turned"] = _card(record.turned)
        _put(out, "turned_comments", record.turned_comments)
    for name in ("taking", "auction"):
        entries = getattr(record, name)
        if entries is not None:
            out[name] = [_item(_seated({"call": str(e.call)}, e.seat), e.comments, e.annotation, e.pos, positions)
                         for e in entries]
    if record.announcements:
        out["announcements"] = [
            _item({"seat": str(a.seat), "kind": a.kind.value, "cards": [str(c) for c in a.cards]},
                  a.comments, a.annotation, a.pos, positions) for a in record.announcements]
    if record.tricks:
        out["tricks"] = [_item({"plays": [_play(e, positions) for e in t.plays]}, t.comments, None, t.pos, positions)
                         for t in record.tricks]
    if record.claim is not None:
        out["claim"] = _item({"seat": str(record.claim.seat)}, record.claim.comments, None, record.claim.pos,
                             positions)
    if record.stopped:
        out["stopped"] = True
    return out


def _card(card: Card | None) -> str:
    return "??" if card is None else str(card)


def _put(out: JSON, key: str, comments: tuple[str, ...]) -> None:
    if comments:
        out[key] = list(comments)


def _seated(out: JSON, seat: Seat | None) -> JSON:
    if seat is not None:
        out["seat"] = str(seat)
    return out


def _item(out: JSON, comments: tuple[str, ...], annotation: str | None, pos: Pos | None, positions: bool) -> JSON:
    if annotation:
        out["annotation"] = annotation
    _put(out, "comments", comments)
    if positions and pos is not None:
        out["pos"] = [pos.line, pos.column]
    return out


def _play(entry: CardEntry, positions: bool) -> JSON:
    out = _seated({"card": _card(entry.card)}, entry.seat)
    if entry.declaration:
        out["declaration"] = entry.declaration
    return _item(out, entry.comments, entry.annotation, entry.pos, positions)


# --- reading -------------------------------------------------------------------------------------

JSONPath = list[str | int]


def decode_json(data: str | bytes) -> Any:
    """``json.loads(data)``; text that is not JSON (or not UTF-8), or that nests beyond what
    Python can decode, is a ``JSONFormatError`` ("not JSON: ...")."""
    try:
        return json.loads(data)
    except RecursionError:  # the decoder stops at the recursion limit and unwinds cleanly
        raise JSONFormatError("not JSON: nested too deeply to decode") from None
    except ValueError as error:  # bad JSON, bad UTF-8, an integer of too many digits
        raise JSONFormatError(f"not JSON: {error}") from None


@cache
def record_schema() -> JSON:
    """The JSON schema of a record: ``record.schema.json``, shipped in this package (one dict,
    cached: do not change it)."""
    text = resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@cache
def _validator() -> Validator:
    """The schema's validator, on the schema with its ``$ref``s replaced by what they name (the
    same schema, checked twice as fast: ``jsonschema`` resolves a reference at every use)."""
    from jsonschema import Draft202012Validator  # loaded when first needed: reading the notation does not
    schema = record_schema()
    return Draft202012Validator(_inlined(schema, schema["$defs"]))  # type: ignore[return-value]


def _inlined(node: Any, definitions: JSON) -> Any:
    """``node`` with each ``{"$ref": "#/$defs/name"}`` replaced by that definition (none refers to itself)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return _inlined(definitions[node["$ref"].removeprefix("#/$defs/")], definitions)
        return {key: _inlined(value, definitions) for key, value in node.items() if key != "$defs"}
    return [_inlined(item, definitions) for item in node] if isinstance(node, list) else node


def from_json(value: Any) -> Record:
    """A record from the value ``to_json`` gives (``pos`` is ignored). A value that is not one
    is a ``JSONFormatError`` with the path of its first bad value (see the module's docstring)."""
    problem = _too_deep(value) or _schema_problem(value) or _deal_problem(value)
    if problem is not None:
        raise problem
    record = _record(value)
    problem = _not_read_back(record, value)
    if problem is not None:
        raise problem
    return record


# the checks, in this order: depth, the schema, the deal, then the writer and the reader

def _too_deep(value: Any) -> JSONFormatError | None:
    """The first container nested deeper than ``MAX_DEPTH``, found without recursion."""
    top = _items(value)
    if top is None:
        return None
    stack, path = [top], []  # an iterator over the items of each open container; the keys leading to them
    while stack:
        for key, child in stack[-1]:
            items = _items(child)
            if items is not None:
                path.append(key)
                if len(path) == MAX_DEPTH:
                    return JSONFormatError(f"nested deeper than {MAX_DEPTH} levels", _path_text(path))
                stack.append(items)
                break
        else:
            stack.pop()
            if path:
                path.pop()
    return None


def _items(value: Any) -> Iterator[tuple[Any, Any]] | None:
    if isinstance(value, dict):
        return iter(value.items())
    if isinstance(value, list):
        return enumerate(value)
    return None


def _schema_problem(value: Any) -> JSONFormatError | None:
    """What the schema refuses first, in the order of the value (keys as given, items by index),
    among its first ``MAX_ERRORS`` errors (a value with thousands is not looked at further)."""
    problems = [_problem(error) for error in islice(_validator().iter_errors(value), MAX_ERRORS)]
    if not problems:
        return None
    path, reason = min(problems, key=lambda problem: _order(value, problem[0]))
    return JSONFormatError(reason, _path_text(path))


def _problem(error: ValidationError) -> tuple[JSONPath, str]:
    """The path and the one-line reason of a schema error, in the schema's words (its titles)."""
    more, reason = _EXPLAIN.get(str(error.validator), _not_a)(error)
    return [*error.absolute_path, *more], reason


_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "a string", "boolean": "true or false",
               "integer": "an integer", "null": "null"}


def _expected_type(error: ValidationError) -> tuple[JSONPath, str]:
    types = error.validator_value
    return [], "expected " + " or ".join(_TYPE_WORDS[t] for t in ([types] if isinstance(types, str) else types))


def _item_count(error: ValidationError) -> tuple[JSONPath, str]:
    count, bound = len(error.instance), error.validator_value
    side = "at most" if error.validator == "maxItems" else "at least"
    return [], f"{count} item{'' if count == 1 else 's'}, {side} {bound}"


def _missing(error: ValidationError) -> tuple[JSONPath, str]:
    return [next(key for key in error.validator_value if key not in error.instance)], "missing"


def _unknown_key(error: ValidationError) -> tuple[JSONPath, str]:
    known = error.schema.get("properties", {})  # type: ignore[union-attr]
    return [next(key for key in error.instance if key not in known)], "unknown key"


def _dependent(error: ValidationError) -> tuple[JSONPath, str]:
    present = error.instance
    key, needed = next((key, need) for key, needs in error.validator_value.items() if key in present
                       for need in needs if need not in present)
    return [key], f"only with {needed}"


def _too_many_matching(error: ValidationError) -> tuple[JSONPath, str]:
    """``maxContains``: the first item beyond the bound; the schema's title names the items."""
    matching = _validator().evolve(schema=error.schema["contains"]).is_valid  # type: ignore[index]
    matches = [i for i, item in enumerate(error.instance) if matching(item)]
    bound = error.validator_value
    return [matches[bound]], f"{len(matches)} {error.schema['title']}, at most {bound}"  # type: ignore[index]


def _refused(error: ValidationError) -> tuple[JSONPath, str]:
    """``not``: its title is the reason (else the title of the schema holding it); a ``not`` of
    keys points at the last of them."""
    refused = error.validator_value
    reason = refused.get("title") or f"not {error.schema.get('title', 'allowed')}"  # type: ignore[union-attr]
    if isinstance(error.instance, str):
        reason += f": {_shown(error.instance)}"
    return refused.get("required", [])[-1:], reason


def _below(error: ValidationError) -> tuple[JSONPath, str]:
    return [], f"{_shown(error.instance)}, at least {error.validator_value}"


def _not_a(error: ValidationError) -> tuple[JSONPath, str]:
    """``enum``, ``const``, ``pattern``, ``maxLength``: not what the schema's title says."""
    return [], f"not {error.schema.get('title', 'allowed')}: {_shown(error.instance)}"  # type: ignore[union-attr]


_EXPLAIN = {"type": _expected_type, "minItems": _item_count, "maxItems": _item_count, "required": _missing,
            "additionalProperties": _unknown_key, "dependentRequired": _dependent,
            "maxContains": _too_many_matching, "not": _refused, "minimum": _below}


def _order(value: Any, path: JSONPath) -> list[int]:
    """Where ``path`` is in ``value``: the rank of each key among its object's keys (a key not
    there after them), each index."""
    order, node = [], value
    for part in path:
        if isinstance(node, dict):
            keys = list(node)
            order.append(keys.index(part) if part in node else len(keys))
            node = node.get(part)  # type: ignore[arg-type]
        else:
            order.append(part if isinstance(part, int) else 0)
            node = node[part] if isinstance(node, list) and isinstance(part, int) and part < len(node) else None
    return order


def _path_text(path: JSONPath | tuple[Any, ...]) -> str:
    """``tricks[0].plays[1].card``; a key that is not a short plain name is shown quoted, in brackets."""
    text = ""
    for part in path:
        if isinstance(part, str) and part.isidentifier() and part.isascii() and len(part) <= 40:
            text += f".{part}" if text else part
        else:
            text += f"[{part}]" if isinstance(part, int) else f"[{_shown(part)}]"
    return text


def _shown(value: Any) -> str:
    """A value in a one-line message: a string quoted and escaped (its first 40 characters),
    a container by its kind, other values as JSON."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    return json.dumps(value) if value is None or isinstance(value, bool) else repr(value)[:40]


def _deal_problem(obj: JSON) -> JSONFormatError | None:
    """A known card in two hands, or twice in one (the schema cannot compare items)."""
    dealt: dict[str, str] = {}
    for i, hand in enumerate(obj.get("hands", ())):
        for j, card in enumerate(hand["cards"] or ()):
            if card in dealt:
                return JSONFormatError(f"{card} is dealt twice (hands {dealt[card]} and {hand['seat']})",
                                       f"hands[{i}].cards[{j}]")
            if card != "??":
                dealt[card] = hand["seat"]
    return None


def _not_read_back(record: Record, obj: JSON) -> JSONFormatError | None:
    """What the notation cannot hold and the schema does not say: what the canonical writer
    refuses (a comment holding "}" where only braces can write it: at the path of that
    comment), then what the reader refuses in the text written (its limits: tag pairs,
    tricks, the words of a line...)."""
    try:
        text = write_record(record)
    except WriteError as error:
        reason = str(error).replace(repr(error.text), _shown(error.text))
        return JSONFormatError(reason, _path_text(_comment_path(obj, error.text) or ()))
    results = list(parse(text))
    if len(results) == 1 and results[0].ok:
        return None
    first = next((result.errors[0] for result in results if result.errors), None)
    why = f"{len(results)} records" if first is None else first.problem
    return JSONFormatError(f"the notation written from it cannot be read back: {why}")


def _comment_path(node: Any, text: str, path: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """The path of the first comment equal to ``text`` (the value is shallow: the schema holds)."""
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        if isinstance(key, str) and key.endswith("comments") and text in child:
            return (*path, key, child.index(text))
        found = _comment_path(child, text, (*path, key))
        if found is not None:
            return found
    return None


# the record built from a value the checks passed

def _record(obj: JSON) -> Record:
    turned = obj.get("turned")
    claim = obj.get("claim")
    return Record(
        tags=tuple((name, value) for name, value in obj.get("tags", ())), comments=_comments(obj),
        hands=tuple(Hand(Seat.parse(h["seat"]), None if h["cards"] is None else tuple(map(_read_card, h["cards"])),
                         _comments(h)) for h in obj.get("hands", ())),
        turned=None if turned is None else _read_card(turned), turned_unknown=turned == "??",
        turned_comments=tuple(obj.get("turned_comments", ())),
        taking=_calls(obj, "taking"), auction=_calls(obj, "auction"),
        announcements=tuple(Announcement(Seat.parse(a["seat"]), MeldKind(a["kind"]), tuple(map(Card.parse, a["cards"])),
                                         a.get("annotation"), _comments(a)) for a in obj.get("announcements", ())),
        tricks=tuple(Trick(tuple(map(_play_entry, t["plays"])), _comments(t)) for t in obj.get("tricks", ())),
        claim=None if claim is None else Claim(Seat.parse(claim["seat"]), _comments(claim)),
        stopped=obj.get("stopped", False))


def _comments(obj: JSON) -> tuple[str, ...]:
    return tuple(obj.get("comments", ()))


def _read_card(text: str) -> Card | None:
    return None if text == "??" else Card.parse(text)


def _seat(obj: JSON) -> Seat | None:
    return Seat.parse(obj["seat"]) if "seat" in obj else None


def _calls(obj: JSON, key: str) -> tuple[CallEntry, ...] | None:
    if key not in obj:
        return None
    return tuple(CallEntry(_call(item["call"], f"{key}[{i}].call"), _seat(item), item.get("annotation"),
                           _comments(item)) for i, item in enumerate(obj[key]))


def _call(text: str, path: str) -> Call:
    """A call the schema's pattern lets through may still be out of the notation's range (a bid of
    too many digits): ``Call.parse`` says so."""
    try:
        return Call.parse(text)
    except NotationError as error:
        raise JSONFormatError(str(error), path) from None


def _play_entry(obj: JSON) -> CardEntry:
    return CardEntry(_read_card(obj["card"]), _seat(obj), obj.get("declaration"), obj.get("annotation"),
                     _comments(obj))
