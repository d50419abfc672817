"""The canonical (export) form of records: one byte sequence per record.

``write_record(record)`` is what ``str(record)`` returns; ``parse`` of it gives
back an equal record, and writing that again gives the same bytes.
"""

from __future__ import annotations

from typing import IO, Iterable

from .cards import Seat
from .errors import WriteError
from .record import Announcement, CallEntry, CardEntry, Hand, Record, Trick

FILE_HEADER = "% belote-notation 1.0\n"


def write_record(record: Record) -> str:
    """The record in canonical form, ending with a newline (no blank line)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags]
    if lines:
        lines.append("")  # a blank line between the tag pairs and the body, as in PGN
    lines.extend("{" + _braced(text) + "}" for text in record.comments)
    lines.extend(_hand(hand) for hand in record.hands)
    if record.turned is not None:
        lines.append(f"turned {record.turned}" + _after(record.turned_comments))
    if record.taking is not None:
        lines.append(_calls("taking", record.taking))
    if record.auction is not None:
        lines.append(_calls("auction", record.auction))
    lines.extend(_announcement(a) for a in record.announcements)
    if record.tricks or record.claim is not None or record.stopped:
        lines.append("play")
        lines.extend(_trick(number, trick) for number, trick in enumerate(record.tricks, start=1))
        if record.claim is not None:
            lines.append(f"claim {record.claim.seat}" + _after(record.claim.comments))
        elif record.stopped:
            lines.append("*")
    if lines and lines[-1] == "":
        lines.pop()
    return "".join(line + "\n" for line in lines)


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
    if line_ends and _semicolon_last(comments):
        return "".join(" {" + _braced(text) + "}" for text in comments[:-1]) + " ; " + comments[-1]
    return "".join(" {" + _braced(text) + "}" for text in comments)


def _seat_prefix(seat: Seat | None) -> str:
    return f"{seat}:" if seat is not None else ""


def _hand(hand: Hand) -> str:
    cards = "-" if hand.cards is None else " ".join("??" if c is None else str(c) for c in hand.cards)
    return f"hand {hand.seat} {cards}" + _after(hand.comments)


def _calls(keyword: str, entries: tuple[CallEntry, ...]) -> str:
    out = keyword
    for i, entry in enumerate(entries):
        out += ("" if out.endswith("\n") else " ") + _seat_prefix(entry.seat) + str(entry.call)
        out += (entry.annotation or "") + _after(entry.comments)
        if _semicolon_last(entry.comments) and i < len(entries) - 1:
            out += "\n"  # a ";" comment ends the line: the calls go on below
    return out


def _announcement(announcement: Announcement) -> str:
    cards = " ".join(str(card) for card in announcement.cards)
    return (f"announce {announcement.seat} {announcement.kind} {cards}{announcement.annotation or ''}"
            + _after(announcement.comments))


def _card(entry: CardEntry) -> str:
    card = "??" if entry.card is None else str(entry.card)
    text = _seat_prefix(entry.seat) + card + (entry.annotation or "")
    if entry.declaration:
        text += " " + entry.declaration
    return text + _after(entry.comments, line_ends=False)


def _trick(number: int, trick: Trick) -> str:
    if not trick.plays:
        raise WriteError(f"trick {number} has no card")
    comments = trick.comments
    tail = ""
    if comments and "\n" not in comments[-1]:
        tail, comments = " ; " + comments[-1] if comments[-1] else " ;", comments[:-1]
    leading = "".join(" {" + _braced(text) + "}" for text in comments)
    return f"{number}.{leading} " + " ".join(_card(entry) for entry in trick.plays) + tail
