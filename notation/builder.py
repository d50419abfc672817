"""From the reader's plain data to the rich ``Record``.

``to_record(data)`` builds the model of ``record.py`` (what JSON, the site, the repairs and
people use) from a ``RecordData``; with ``positions`` every item gets its ``Pos``, worked
out line by line from the places the reader kept. ``Record.data()`` goes the other way,
for a ``Record`` made in code and given to the validator or the writer, which read
``RecordData``.
"""

from __future__ import annotations

from .lexer import UNKNOWN, word_columns
from .reader import WORD_BITS, RecordData, logical_line, offset_position
from .record import Announcement, CallEntry, CardEntry, Claim, Hand, Pos, Record, Source, Trick
from .values import ALL_CARDS, Card

_WORD_MASK = (1 << WORD_BITS) - 1


class _Positions:
    """The positions of a record's places, each line cut into words once."""

    def __init__(self, data: RecordData, wanted: bool) -> None:
        self.data, self.wanted = data, wanted
        self.lines = data.text.split("\n")
        self.columns: dict[int, tuple[str, list[int]]] = {}

    def __call__(self, at: int, shift: int = 0) -> Pos | None:
        if not self.wanted or not at:
            return None
        line = at >> WORD_BITS
        if self.data.columns:
            return Pos(line, at & _WORD_MASK)
        cut = self.columns.get(line)
        if cut is None:
            text = logical_line(self.lines, line - self.data.first_line)
            cut = self.columns[line] = (text, word_columns(text))
        text, columns = cut
        return Pos(*offset_position(text, line, columns[at & _WORD_MASK] + shift))


def _card(index: int) -> Card | None:
    return None if index == UNKNOWN else ALL_CARDS[index]


def to_record(data: RecordData, positions: bool = True, source: Source | None = None) -> Record:
    """The ``Record`` of ``data``; without ``positions`` its items have no ``pos`` (cheaper, for
    the writer)."""
    pos = _Positions(data, positions)
    hands = tuple(Hand(seat, None if cards is None else tuple(map(_card, cards)), tuple(comments), pos(at))
                  for seat, cards, at, comments in data.hands)
    calls = tuple(CallEntry(call, seat, note, tuple(data.call_comments.get(i, ())), pos(at, 2 if seat else 0))
                  for i, (call, seat, note, at) in enumerate(data.calls))
    announcements = tuple(Announcement(seat, kind, tuple(ALL_CARDS[index] for index in cards),  # never ??
                                       note, tuple(comments), pos(at))
                          for seat, kind, cards, note, at, comments in data.announcements)
    plays = [CardEntry(_card(index), seat, data.declarations.get(i), note, tuple(data.play_comments.get(i, ())),
                       pos(at, 2 if seat else 0))
             for i, (index, seat, note, at) in enumerate(data.plays)]
    tricks = []
    for number, (first, at) in enumerate(data.tricks):
        end = data.tricks[number + 1][0] if number + 1 < len(data.tricks) else len(plays)
        where = data.trick_position(number) if positions else None
        tricks.append(Trick(tuple(plays[first:end]), tuple(data.trick_comments.get(number, ())),
                            None if where is None else Pos(*where)))
    claim = None
    if data.claim is not None:
        seat, at, comments = data.claim
        claim = Claim(seat, tuple(comments), pos(at))
    turned = data.turned
    return Record(tags=tuple(data.tags), comments=tuple(data.comments), hands=hands,
                  turned=None if turned is None else _card(turned),
                  taking=calls if data.bidding == "taking" else None,
                  auction=calls if data.bidding == "auction" else None, announcements=announcements,
                  tricks=tuple(tricks), claim=claim, stopped=data.stopped, source=source,
                  turned_comments=tuple(data.turned_comments),
                  turned_pos=pos(data.turned_place) if turned is not None else None,
                  turned_unknown=turned == UNKNOWN)
