"""The canonical (export) form of records: one byte sequence per record.

``write_record(record)`` is what ``str(record)`` returns; ``parse`` of it gives
back an equal record, and writing that again gives the same bytes.

The archive writes every record it imports (its canonical text is what gets
hashed), so the common forms have fast paths: the text of every card, seat and
played word is looked up by ``id()`` (cards and seats are interned; hashing one
would hash enums in Python), and a section without annotation, declaration or
comment is one ``join``.  Whatever a look-up misses (a ``Card`` built outside
the interned 32, a comment, an annotation) goes the general way, which gives
the same text.
"""

from __future__ import annotations

from typing import IO, Iterable

from .values import ALL_CARDS, Call, Card, Seat
from .errors import WriteError
from .record import Announcement, CallEntry, CardEntry, Hand, MeldKind, Record, Trick

FILE_HEADER = "% belote-notation 1.0\n"

# Text by id() of the interned values; None is an unknown card ("??") or a seat left out ("").
_CARD_TEXT: dict[int, str] = {id(card): str(card) for card in ALL_CARDS} | {id(None): "??"}
_SEAT_PREFIX: dict[int, str] = {id(seat): f"{seat}:" for seat in Seat} | {id(None): ""}
_SEAT_TEXT: dict[int, str] = {id(seat): str(seat) for seat in Seat}
_PLAYED_TEXT: dict[int, dict[int, str]] = {  # seat -> card -> "S:KH"
    seat_id: {card_id: prefix + text for card_id, text in _CARD_TEXT.items()} for seat_id, prefix in _SEAT_PREFIX.items()}
_MELD_TEXT: dict[int, str] = {id(kind): str(kind) for kind in MeldKind}
_CALL_TEXT: dict[int, tuple[Call, str]] = {}
_TRICK_LABELS: tuple[str, ...] = tuple(f"{number}. " for number in range(33))


def write_record(record: Record) -> str:
    """The record in canonical form, ending with a newline (no blank line)."""
    lines = _tag_lines(record.tags)
    if lines:
        lines.append("")  # a blank line between the tag pairs and the body, as in PGN
    head = len(lines)
    if record.comments:
        lines.extend("{" + _braced(text) + "}" for text in record.comments)
    if record.hands:
        lines += _hand_lines(record.hands)
    if record.turned is not None or record.turned_unknown:
        lines.append("turned " + _cards((record.turned,)) + _after(record.turned_comments))
    if record.taking is not None:
        lines.append(_calls("taking", record.taking))
    if record.auction is not None:
        lines.append(_calls("auction", record.auction))
    for announcement in record.announcements:
        lines.append(_announcement(announcement))
    # A record without a body gets an empty play: a record of nothing would vanish from its file, and
    # tag pairs alone would merge with a record without tags after them (blank lines after tags go on).
    if record.tricks or record.claim is not None or record.stopped or head == len(lines):
        lines.append("play")
        lines += _trick_lines(record.tricks)
        if record.claim is not None:
            lines.append(f"claim {record.claim.seat}" + _after(record.claim.comments))
        elif record.stopped:
            lines.append("*")
    return "\n".join(lines) + "\n"


def dumps(records: Iterable[Record]) -> str:
    """A whole file: the ``%`` header line, then the records separated by blank lines."""
    return FILE_HEADER + "".join("\n" + write_record(record) for record in records)


def write_file(records: Iterable[Record], stream: IO[str]) -> int:
    """Write ``dumps(records)`` to a text stream record by record; return the count."""
    stream.write(FILE_HEADER)
    count = 0
    for count, record in enumerate(records, start=1):
        stream.write("\n" + write_record(record))
    return count


def _tag_lines(tags: tuple[tuple[str, str], ...]) -> list[str]:
    lines = [f'[{name} "{value}"]' for name, value in tags]
    # Checked on the lines at once: two quotes a line, no backslash or line break means nothing to escape.
    text = "".join(lines)
    if text.count('"') != 2 * len(lines) or "\\" in text or "\n" in text:
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    return lines


def _escape(value: str) -> str:
    if "\n" in value:
        raise WriteError(f"a tag value cannot hold a line break: {value!r}", value)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _braced(text: str) -> str:
    if "}" in text:
        raise WriteError(f'a comment here cannot hold "}}": {text!r}', text)
    return text


def _semicolon_last(comments: tuple[str, ...]) -> bool:
    """Whether the last comment must be written ``; ...`` (it holds "}", which braces cannot)."""
    return bool(comments) and "}" in comments[-1] and "\n" not in comments[-1]


def _after(comments: tuple[str, ...], line_ends: bool = True) -> str:
    """Comments after an item: ``{...}`` each, or ``; ...`` for a last one that holds "}"."""
    if not comments:
        return ""
    if line_ends and _semicolon_last(comments):
        return "".join(" {" + _braced(text) + "}" for text in comments[:-1]) + " ; " + comments[-1]
    return "".join(" {" + _braced(text) + "}" for text in comments)


def _cards(cards: tuple[Card | None, ...]) -> str:
    """Card texts one space apart; ``None`` is ``??``."""
    try:
        return " ".join(map(_CARD_TEXT.__getitem__, map(id, cards)))
    except KeyError:  # a Card built outside the interned 32
        return " ".join("??" if card is None else str(card) for card in cards)


def _seat(seat: Seat) -> str:
    text = _SEAT_TEXT.get(id(seat))
    return text if text is not None else str(seat)


def _seat_prefix(seat: Seat | None) -> str:
    prefix = _SEAT_PREFIX.get(id(seat))
    return prefix if prefix is not None else f"{seat}:"


def _hand_lines(hands: tuple[Hand, ...]) -> list[str]:
    lines = []
    card_text, seat_text = _CARD_TEXT, _SEAT_TEXT
    for hand in hands:
        try:  # the common case: known seat, interned cards (None is "??"), no comment
            if hand.comments:
                raise KeyError
            lines.append("hand " + seat_text[id(hand.seat)] + " " + " ".join([card_text[id(card)] for card in hand.cards]))
        except (KeyError, TypeError):  # a comment, an unknown hand (None), a Card outside the interned 32
            lines.append(_hand(hand))
    return lines


def _hand(hand: Hand) -> str:
    cards = "-" if hand.cards is None else _cards(hand.cards)
    return "hand " + _seat(hand.seat) + " " + cards + _after(hand.comments)


def _call_text(call: Call) -> str:
    """``str(call)``, remembered by id(): the parser shares one Call per word, so a file has a few dozen.

    Each entry holds its call, so that no other object can get that id while the entry is there.
    """
    held = _CALL_TEXT.get(id(call))
    if held is None:
        if len(_CALL_TEXT) >= 1000:
            _CALL_TEXT.clear()
        held = _CALL_TEXT[id(call)] = (call, str(call))
    return held[1]


def _calls(keyword: str, entries: tuple[CallEntry, ...]) -> str:
    prefix = _SEAT_PREFIX
    if not any([entry.annotation or entry.comments for entry in entries]):  # the common case: one line, one join
        return " ".join([keyword, *[(prefix.get(id(entry.seat)) or _seat_prefix(entry.seat)) + _call_text(entry.call)
                                    for entry in entries]])
    out = keyword
    for i, entry in enumerate(entries):
        out += ("" if out.endswith("\n") else " ") + _seat_prefix(entry.seat) + _call_text(entry.call)
        out += (entry.annotation or "") + _after(entry.comments)
        if _semicolon_last(entry.comments) and i < len(entries) - 1:
            out += "\n"  # a ";" comment ends the line: the calls go on below
    return out


def _announcement(announcement: Announcement) -> str:
    kind = _MELD_TEXT.get(id(announcement.kind)) or str(announcement.kind)
    return (f"announce {_seat(announcement.seat)} {kind} {_cards(announcement.cards)}"
            f"{announcement.annotation or ''}" + _after(announcement.comments))


def _card(entry: CardEntry) -> str:
    text = (_PLAYED_TEXT.get(id(entry.seat)) or {}).get(id(entry.card))
    if text is None:
        text = _seat_prefix(entry.seat) + _cards((entry.card,))
    if entry.annotation:
        text += entry.annotation
    if entry.declaration:
        text += " " + entry.declaration
    return text + _after(entry.comments, line_ends=False)


def _trick_lines(tricks: tuple[Trick, ...]) -> list[str]:
    lines = []
    played, card, labels = _PLAYED_TEXT, _card, _TRICK_LABELS
    for number, trick in enumerate(tricks, start=1):
        try:  # the common case: a trick without comments, its plain words looked up whole (seat, then card)
            if trick.comments or not trick.plays:
                raise KeyError
            lines.append(labels[number] + " ".join([
                played[id(entry.seat)][id(entry.card)] if not (entry.annotation or entry.declaration or entry.comments)
                else card(entry) for entry in trick.plays]))
        except (KeyError, IndexError):  # a comment, no card, a Card outside the interned 32, over 32 tricks
            lines.append(_trick(number, trick))
    return lines


def _trick(number: int, trick: Trick) -> str:
    if not trick.plays:
        raise WriteError(f"trick {number} has no card")
    comments = trick.comments
    tail = ""
    if comments and "\n" not in comments[-1]:
        tail, comments = " ; " + comments[-1] if comments[-1] else " ;", comments[:-1]
    leading = "".join(" {" + _braced(text) + "}" for text in comments)
    return f"{number}.{leading} " + " ".join(map(_card, trick.plays)) + tail
