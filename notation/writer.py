"""The canonical (export) form of records: one byte sequence per record.

``write_record(record)`` is what ``str(record)`` returns; reading it gives back an equal
record, and writing that again gives the same text (docs/notation.md §3). A file is the
``%`` header line, then its records, each after a blank line.

The writer only reads a record's attributes: it imports no model class, so that the model
can print itself with it.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Iterable

from .errors import WriteError
from .values import ALL_CARDS, Card, Seat

if TYPE_CHECKING:
    from .record import Announcement, CallEntry, CardEntry, Hand, Record, Trick

FILE_HEADER = "% belote-notation 1.0\n"

_CARD_TEXT: dict[Card | None, str] = {card: str(card) for card in ALL_CARDS} | {None: "??"}
_SEAT_PREFIX: dict[Seat | None, str] = {seat: f"{seat}:" for seat in Seat} | {None: ""}


def write_record(record: Record) -> str:
    """The record in canonical form, ending with a newline (no blank line)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.tags]
    if lines:
        lines.append("")  # a blank line between the tag pairs and the body, as in PGN
    head = len(lines)
    lines += ["{" + _braced(text) + "}" for text in record.comments]
    lines += [_hand(hand) for hand in record.hands]
    if record.turned is not None or record.turned_unknown:
        lines.append("turned " + _CARD_TEXT[record.turned] + _after(record.turned_comments))
    if record.taking is not None:
        lines.append(_calls("taking", record.taking))
    if record.auction is not None:
        lines.append(_calls("auction", record.auction))
    lines += [_announcement(announcement) for announcement in record.announcements]
    # A record without a body gets an empty play: a record of nothing would vanish from its file, and
    # tag pairs alone would merge with a record without tags after them (blank lines after tags go on).
    if record.tricks or record.claim is not None or record.stopped or head == len(lines):
        lines.append("play")
        lines += [_trick(number, trick) for number, trick in enumerate(record.tricks, 1)]
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


def _escape(value: str) -> str:
    if "\n" in value:
        raise WriteError(f"a tag value cannot hold a line break: {value!r}", value)
    return value.replace("\\", "\\\\").replace('"', '\\"') if '"' in value or "\\" in value else value


def _braced(text: str) -> str:
    if "}" in text:
        raise WriteError(f'a comment here cannot hold "}}": {text!r}', text)
    return text


def _after(comments: tuple[str, ...], line_ends: bool = True) -> str:
    """Comments after an item: ``{...}`` each, or ``; ...`` for a last one that holds "}"
    (which braces cannot) when the item ends its line."""
    if not comments:
        return ""
    if line_ends and _semicolon_last(comments):
        return "".join(" {" + _braced(text) + "}" for text in comments[:-1]) + " ; " + comments[-1]
    return "".join(" {" + _braced(text) + "}" for text in comments)


def _semicolon_last(comments: tuple[str, ...]) -> bool:
    """Whether the last comment is written ``; ...``: it holds "}", which braces cannot."""
    return bool(comments) and "}" in comments[-1] and "\n" not in comments[-1]


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join([_CARD_TEXT[card] for card in cards])


def _hand(hand: Hand) -> str:
    cards = "-" if hand.cards is None else _cards(hand.cards)
    return f"hand {hand.seat} {cards}" + _after(hand.comments)


def _calls(keyword: str, entries: tuple[CallEntry, ...]) -> str:
    out = keyword
    for i, entry in enumerate(entries):
        out += ("" if out.endswith("\n") else " ") + _SEAT_PREFIX[entry.seat] + str(entry.call)
        if entry.annotation or entry.comments:
            out += (entry.annotation or "") + _after(entry.comments)
            if i < len(entries) - 1 and _semicolon_last(entry.comments):
                out += "\n"  # a ";" comment ends the line: the calls go on below
    return out


def _announcement(announcement: Announcement) -> str:
    return (f"announce {announcement.seat} {announcement.kind} {_cards(announcement.cards)}"
            f"{announcement.annotation or ''}" + _after(announcement.comments))


def _card(entry: CardEntry) -> str:
    text = _SEAT_PREFIX[entry.seat] + _CARD_TEXT[entry.card]
    if entry.annotation:
        text += entry.annotation
    if entry.declaration:
        text += " " + entry.declaration
    return text + _after(entry.comments, line_ends=False) if entry.comments else text


def _trick(number: int, trick: Trick) -> str:
    if not trick.plays:
        raise WriteError(f"trick {number} has no card")
    comments = trick.comments
    tail = ""
    if comments and "\n" not in comments[-1]:  # the last comment closes the line: "; text"
        tail, comments = " ; " + comments[-1] if comments[-1] else " ;", comments[:-1]
    leading = "".join(" {" + _braced(text) + "}" for text in comments)
    return f"{number}.{leading} " + " ".join([_card(entry) for entry in trick.plays]) + tail
