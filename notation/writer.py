"""The canonical (export) form of records: one byte sequence per record.

``write_data(data)`` writes a record's plain data (``RecordData``, what the reader gives);
``write_record(record)``, what ``str(record)`` returns, writes a ``Record`` through its data
(``Record.data``). Reading the text gives back an equal record, and writing that again gives
the same text (docs/notation.md §3). A file is the ``%`` header line, then its records, each
after a blank line.

The export order is the writer's: known tags first (``TAG_ROSTER``), hands in seat order,
the cards of a hand in canonical order (suits S H D C, ranks A K Q J T 9 8 7, unknown cards
last). The writer imports no model class, so that the model can print itself with it.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Iterable, Sequence

from .errors import WriteError
from .lexer import UNKNOWN
from .values import ALL_CARDS, Seat, hand_sort_key

if TYPE_CHECKING:
    from .reader import RecordData
    from .record import Record

FILE_HEADER = "% belote-notation 1.0\n"

TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "Deal", "North", "East", "South", "West",
                               "Dealer", "Variant", "Rules", "Target", "Score", "Result")
"""Known tags, in export order; other tags follow them in the order given."""

_ROSTER_RANK = {name: i for i, name in enumerate(TAG_ROSTER)}
_OTHER = len(TAG_ROSTER)
# by card index, UNKNOWN (-1) last in the list
_CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in ALL_CARDS) + ("??",)
_HAND_KEY: tuple[int, ...] = tuple(hand_sort_key(card) for card in ALL_CARDS) + (hand_sort_key(None),)
_SEAT_PREFIX: dict[Seat | None, str] = {seat: f"{seat}:" for seat in Seat} | {None: ""}
_NONE: list[str] = []  # no comments


def tags_in_export_order(tags: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The roster's tags in roster order, then the others as given (a stable sort, done only when needed)."""
    tags = tuple(tags)
    ranks = [_ROSTER_RANK.get(pair[0], _OTHER) for pair in tags]
    return tags if ranks == sorted(ranks) else tuple(sorted(tags, key=lambda pair: _ROSTER_RANK.get(pair[0], _OTHER)))


def write_record(record: Record) -> str:
    """The record in canonical form, ending with a newline (no blank line)."""
    return write_data(record.data(places=False))


def write_data(data: RecordData) -> str:
    """The canonical text of a record's data, ending with a newline (no blank line)."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags_in_export_order(data.tags)]
    if lines:
        lines.append("")  # a blank line between the tag pairs and the body, as in PGN
    head = len(lines)
    lines += ["{" + _braced(text) + "}" for text in data.comments]
    hands = data.hands
    if any(hands[i][0].index > hands[i + 1][0].index for i in range(len(hands) - 1)):
        hands = sorted(hands, key=lambda hand: hand[0].index)
    lines += [_hand(seat, cards, comments) for seat, cards, _, comments in hands]
    if data.turned is not None:
        lines.append("turned " + _CARD_TEXT[data.turned] + _after(data.turned_comments))
    if data.bidding is not None:
        lines.append(_calls(data))
    lines += [f"announce {seat} {kind} {_cards(cards)}{note or ''}" + _after(comments)
              for seat, kind, cards, note, _, comments in data.announcements]
    # A record without a body gets an empty play: a record of nothing would vanish from its file, and
    # tag pairs alone would merge with a record without tags after them (blank lines after tags go on).
    if data.tricks or data.claim is not None or data.stopped or head == len(lines):
        lines.append("play")
        lines += [_trick(data, number) for number in range(len(data.tricks))]
        if data.claim is not None:
            lines.append(f"claim {data.claim[0]}" + _after(data.claim[2]))
        elif data.stopped:
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


def _after(comments: Sequence[str], line_ends: bool = True) -> str:
    """Comments after an item: ``{...}`` each, or ``; ...`` for a last one that holds "}"
    (which braces cannot) when the item ends its line."""
    if not comments:
        return ""
    if line_ends and _semicolon_last(comments):
        return "".join(" {" + _braced(text) + "}" for text in comments[:-1]) + " ; " + comments[-1]
    return "".join(" {" + _braced(text) + "}" for text in comments)


def _semicolon_last(comments: Sequence[str]) -> bool:
    """Whether the last comment is written ``; ...``: it holds "}", which braces cannot."""
    return bool(comments) and "}" in comments[-1] and "\n" not in comments[-1]


def _cards(cards: Iterable[int]) -> str:
    return " ".join([_CARD_TEXT[card] for card in cards])


def _hand(seat: Seat, cards: list[int] | None, comments: list[str]) -> str:
    text = "-" if cards is None else _cards(sorted(cards, key=_HAND_KEY.__getitem__))
    return f"hand {seat} {text}" + _after(comments)


def _calls(data: RecordData) -> str:
    out = data.bidding or ""
    calls, comments_of = data.calls, data.call_comments
    for i, (call, seat, note, _) in enumerate(calls):
        out += ("" if out.endswith("\n") else " ") + _SEAT_PREFIX[seat] + str(call)
        comments = comments_of.get(i, _NONE)
        if note or comments:
            out += (note or "") + _after(comments)
            if i < len(calls) - 1 and _semicolon_last(comments):
                out += "\n"  # a ";" comment ends the line: the calls go on below
    return out


def _trick(data: RecordData, number: int) -> str:
    plays = data.trick_plays(number)
    if not plays:
        raise WriteError(f"trick {number + 1} has no card")
    comments = data.trick_comments.get(number, _NONE)
    tail = ""
    if comments and "\n" not in comments[-1]:  # the last comment closes the line: "; text"
        tail, comments = " ; " + comments[-1] if comments[-1] else " ;", comments[:-1]
    leading = "".join(" {" + _braced(text) + "}" for text in comments)
    cards, declarations, play_comments = data.plays, data.declarations, data.play_comments
    words = []
    for i in plays:
        card, seat, note, _ = cards[i]
        text = _SEAT_PREFIX[seat] + _CARD_TEXT[card]
        if note:
            text += note
        if i in declarations:
            text += " " + declarations[i]
        if i in play_comments:
            text += _after(play_comments[i], line_ends=False)
        words.append(text)
    return f"{number + 1}.{leading} " + " ".join(words) + tail
