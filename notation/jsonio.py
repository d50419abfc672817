"""Records as JSON values, losslessly (comments and annotations included).

``to_json(record)`` gives plain dicts, lists, strings, ints and booleans in
the form of ``docs/record.schema.json``; ``from_json(value)`` reads them back
(``from_json(to_json(r)) == r``) and raises ``JSONFormatError`` with the path
of the first bad value.  Empty lists, ``None`` and ``False`` are left out;
positions are written only when asked (``positions=True``) and never read.
"""

from __future__ import annotations

from typing import Any, Callable

from .values import Call, Card, NotationError, Seat
from .errors import JSONFormatError
from .record import (ANNOTATIONS, DECLARATIONS, Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos,
                     Record, Trick)

JSON = dict[str, Any]


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


def from_json(value: Any) -> Record:
    """A record from the value ``to_json`` gives (extra keys such as ``pos`` are ignored)."""
    obj = _object(value, "")
    tags = tuple(_tag(pair, f"tags[{i}]") for i, pair in enumerate(_list(obj, "tags", "")))
    taking = _calls(obj, "taking")
    auction = _calls(obj, "auction")
    turned = obj.get("turned")
    return Record(
        tags=tags, comments=_comments(obj, "comments", ""),
        hands=tuple(_hand(h, f"hands[{i}]") for i, h in enumerate(_list(obj, "hands", ""))),
        turned=None if turned is None else _maybe_card(turned, "turned"), turned_unknown=turned == "??",
        turned_comments=_comments(obj, "turned_comments", ""),
        taking=taking, auction=auction,
        announcements=tuple(_announcement(a, f"announcements[{i}]")
                            for i, a in enumerate(_list(obj, "announcements", ""))),
        tricks=tuple(_trick(t, f"tricks[{i}]") for i, t in enumerate(_list(obj, "tricks", ""))),
        claim=None if obj.get("claim") is None else _claim(obj["claim"], "claim"),
        stopped=_bool(obj.get("stopped", False), "stopped"))


def _object(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise JSONFormatError("expected an object", path)
    return value


def _list(obj: dict, key: str, path: str) -> list:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise JSONFormatError("expected a list", _join(path, key))
    return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise JSONFormatError("expected a string", path)
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise JSONFormatError("expected true or false", path)
    return value


def _parse(reader: Callable[[str], Any], value: Any, path: str) -> Any:
    try:
        return reader(_string(value, path))
    except NotationError as exc:
        raise JSONFormatError(str(exc), path) from None


def _comments(obj: dict, key: str, path: str) -> tuple[str, ...]:
    where = _join(path, key)
    return tuple(_string(text, f"{where}[{i}]") for i, text in enumerate(_list(obj, key, path)))


def _annotation(obj: dict, path: str) -> str | None:
    value = obj.get("annotation")
    if value is not None and value not in ANNOTATIONS:
        raise JSONFormatError(f"expected one of {' '.join(ANNOTATIONS)}", _join(path, "annotation"))
    return value


def _seat(obj: dict, path: str, required: bool = True) -> Seat | None:
    if "seat" not in obj and not required:
        return None
    if "seat" not in obj:
        raise JSONFormatError("missing", _join(path, "seat"))
    return _parse(Seat.parse, obj["seat"], _join(path, "seat"))


def _maybe_card(value: Any, path: str) -> Card | None:
    return None if value == "??" else _parse(Card.parse, value, path)


def _tag(pair: Any, path: str) -> tuple[str, str]:
    if not isinstance(pair, list) or len(pair) != 2:
        raise JSONFormatError("expected a [name, value] pair", path)
    return _string(pair[0], f"{path}[0]"), _string(pair[1], f"{path}[1]")


def _hand(value: Any, path: str) -> Hand:
    obj = _object(value, path)
    cards = obj.get("cards")
    if cards is not None and not isinstance(cards, list):
        raise JSONFormatError("expected a list or null", _join(path, "cards"))
    return Hand(_seat(obj, path), None if cards is None else tuple(
        _maybe_card(c, f"{path}.cards[{i}]") for i, c in enumerate(cards)), _comments(obj, "comments", path))


def _calls(obj: dict, key: str) -> tuple[CallEntry, ...] | None:
    if obj.get(key) is None:
        return None
    entries = []
    for i, value in enumerate(_list(obj, key, "")):
        path = f"{key}[{i}]"
        item = _object(value, path)
        entries.append(CallEntry(_parse(Call.parse, item.get("call"), _join(path, "call")),
                                 _seat(item, path, required=False), _annotation(item, path),
                                 _comments(item, "comments", path)))
    return tuple(entries)


def _announcement(value: Any, path: str) -> Announcement:
    obj = _object(value, path)
    try:
        kind = MeldKind(obj.get("kind"))
    except ValueError:
        raise JSONFormatError("expected tierce, quarte, quinte or carre", _join(path, "kind")) from None
    cards = tuple(_parse(Card.parse, c, f"{path}.cards[{i}]") for i, c in enumerate(_list(obj, "cards", path)))
    return Announcement(_seat(obj, path), kind, cards, _annotation(obj, path), _comments(obj, "comments", path))


def _trick(value: Any, path: str) -> Trick:
    obj = _object(value, path)
    plays = []
    for i, play in enumerate(_list(obj, "plays", path)):
        where = f"{path}.plays[{i}]"
        item = _object(play, where)
        declaration = item.get("declaration")
        if declaration is not None and declaration not in DECLARATIONS:
            raise JSONFormatError("expected belote or rebelote", _join(where, "declaration"))
        plays.append(CardEntry(_maybe_card(item.get("card"), _join(where, "card")), _seat(item, where, required=False),
                               declaration, _annotation(item, where), _comments(item, "comments", where)))
    return Trick(tuple(plays), _comments(obj, "comments", path))


def _claim(value: Any, path: str) -> Claim:
    obj = _object(value, path)
    return Claim(_seat(obj, path), _comments(obj, "comments", path))
