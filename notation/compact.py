"""Records in canonical form read into plain values: no model objects, no positions.

``read_canonical(text)`` returns a ``CanonicalRecord`` when ``text`` is exactly what
the canonical writer prints for some complete deal (``write_record(parse_record(text))
== text``): tag pairs in export order, a blank line, the record's ``{comment}`` lines
if any, the four hands in seat order N E S W with their cards in canonical order, the
turned card, the taking or the auction, the announcements, then ``play`` and eight
tricks of four cards, every word in its canonical spelling, no other comment and no
annotation.  Anything else gives ``None``
(nothing is wrong with such a record: it only goes the general way, through
``parse``).

Why: records written by this tool are in that form, and a program that checks or
stores them (``replayer.express``) needs their values, not the hundred entries and
positions of the model: a position is only needed to say where a fault is, and a
record that goes through the express path has none.  ``tests/test_express.py``
checks, record by record, that what is read here is what ``parse`` reads.
"""

from __future__ import annotations

import re
from operator import itemgetter

from .values import ALL_CARDS, HAND_KEYS, Call, CallKind, Card, Seat
from .exported import read_plain_tags
from .record import MeldKind, tags_in_export_order
from .words import AUCTION_KINDS, INVALID, TAKING_KINDS, cached, call_cache, read_call

_TAG = r'\[[A-Za-z0-9_]++ "[^"\\\n]*+"\]'
_HAND = r"hand [NESW](?: [789TJQKA][SHDC]){8}"
_WORDS = r"(?: [^ \n]++)++"
_FORM = re.compile(
    rf"(?P<tags>{_TAG}(?:\n{_TAG})*+)\n\n"
    r"(?P<comments>(?:\{[^}\n]*+\}\n)*+)"
    rf"(?P<hands>{_HAND}\n{_HAND}\n{_HAND}\n{_HAND})\n"
    r"(?:turned (?P<turned>[789TJQKA][SHDC])\n)?"
    rf"(?P<bidding>taking|auction)(?P<calls>{_WORDS})\n"
    rf"(?P<announces>(?:announce{_WORDS}\n)*+)"
    rf"play\n(?P<tricks>(?:[1-8]\.{_WORDS}\n){{8}})")

_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_SEAT_OF_LETTER = {str(seat): seat for seat in _SEATS}
_CARD_OF_TEXT: dict[str, Card] = {str(card): card for card in ALL_CARDS}
_BIT_OF_TEXT: dict[str, int] = {str(card): 1 << card.index for card in ALL_CARDS}
_KEY_OF_TEXT: dict[str, int] = {str(card): HAND_KEYS[id(card)] for card in ALL_CARDS}
_MELD_OF_TEXT: dict[str, MeldKind] = {str(kind): kind for kind in MeldKind}
# A played word of the canonical form -> (card index, seat or None): "N:KH", "KH".
_PLAYED: dict[str, tuple[int, Seat | None]] = {
    prefix + str(card): (card.index, seat)
    for seat, prefix in [(None, "")] + [(seat, f"{seat}:") for seat in _SEATS] for card in ALL_CARDS}
_TRICK_LABELS = [f"{number}." for number in range(1, 9)]
_SEAT_LETTERS = ["N", "E", "S", "W"]
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
# A call word -> (seat or None, call) when the word is that call's canonical spelling, else INVALID.
_CANONICAL_CALLS: dict[str, tuple] = {}


class CanonicalRecord:
    """A complete deal read from its canonical text.

    ``hands`` are the masks (bit ``card.index``) of N, E, S, W; ``calls`` the (seat
    written or None, call) pairs of the taking or the auction; ``announcements``
    (seat, kind, mask, number of cards) in the order written; the play is three
    parallel tuples of 32 items: card indexes, seats written (or None) and
    declarations (``belote``, ``rebelote`` or None)."""

    __slots__ = ("tags", "comments", "hands", "turned", "auction", "calls", "announcements", "cards", "seats",
                 "declarations")

    def __init__(self, tags: tuple[tuple[str, str], ...], comments: tuple[str, ...], hands: tuple[int, int, int, int],
                 turned: Card | None, auction: bool, calls: tuple[tuple[Seat | None, Call], ...],
                 announcements: tuple[tuple[Seat, MeldKind, int, int], ...], cards: tuple[int, ...],
                 seats: tuple[Seat | None, ...], declarations: tuple[str | None, ...]) -> None:
        self.tags, self.comments, self.hands, self.turned, self.auction = tags, comments, hands, turned, auction
        self.calls, self.announcements, self.cards, self.seats = calls, announcements, cards, seats
        self.declarations = declarations


def read_canonical(text: str) -> CanonicalRecord | None:
    """The values of ``text`` when it is a complete deal in canonical form, else ``None``."""
    match = _FORM.fullmatch(text)
    if match is None:
        return None
    tags = tuple(read_plain_tags(match["tags"]))
    hands = _hands(match["hands"])
    auction = match["bidding"] == "auction"
    calls = _calls(match["calls"], AUCTION_KINDS if auction else TAKING_KINDS)
    announcements = _announcements(match["announces"])
    play = _play(match["tricks"])
    comments = _comments(match["comments"])
    if hands is None or calls is None or announcements is None or play is None or comments is None:
        return None
    if tags_in_export_order(tags) is not tags:
        return None
    turned = match["turned"]
    return CanonicalRecord(tags, comments, hands, None if turned is None else _CARD_OF_TEXT[turned], auction, calls,
                           announcements, *play)


def _comments(text: str) -> tuple[str, ...] | None:
    """The record's ``{comment}`` lines; None when one is not in canonical form (spaces
    inside its braces, which the parser takes off)."""
    if not text:
        return ()
    comments = tuple(line[1:-1] for line in text.split("\n")[:-1])
    return comments if all(comment == comment.strip() for comment in comments) else None


def _hands(text: str) -> tuple[int, int, int, int] | None:
    """Four ``hand`` lines in seat order, 8 distinct cards each in canonical order (the
    pattern checked the shape); None otherwise."""
    words = text.split()  # hand N <8 cards> hand E <8 cards> ...
    if words[1::10] != _SEAT_LETTERS:
        return None
    del words[::10], words[::9]  # "hand", then the seat letters: the 32 cards left
    keys = list(map(_KEY_OF_TEXT.__getitem__, words))
    if len(set(keys)) < 32:  # a card twice
        return None
    masks = []
    for start in range(0, 32, 8):
        hand = keys[start:start + 8]
        if hand != sorted(hand):  # not in canonical order
            return None
        masks.append(sum(map(_BIT_OF_TEXT.__getitem__, words[start:start + 8])))
    return masks[0], masks[1], masks[2], masks[3]


def _calls(text: str, allowed: frozenset[CallKind]) -> tuple[tuple[Seat | None, Call], ...] | None:
    calls = []
    for word in text[1:].split(" "):
        read = _CANONICAL_CALLS.get(word)
        if read is None:
            read = _canonical_call(word)
        if read is INVALID or read[1].kind not in allowed:
            return None
        calls.append(read)
    return tuple(calls)


def _canonical_call(word: str) -> tuple:
    """(seat, call) of a call word in canonical spelling (the parser's shared Call), else INVALID."""
    read = cached(call_cache, word, read_call)
    if read is not INVALID:
        seat, call, annotation = read
        prefix = "" if seat is None else f"{seat}:"
        read = (seat, call) if annotation is None and word == prefix + str(call) else INVALID
    if len(_CANONICAL_CALLS) < 5000:
        _CANONICAL_CALLS[word] = read
    return read


def _announcements(text: str) -> tuple[tuple[Seat, MeldKind, int, int], ...] | None:
    """``announce <seat> <kind> <cards>`` lines; a comment, an annotation or a card twice: None."""
    found = []
    for line in text.split("\n")[:-1]:
        words = line.split(" ")
        if len(words) < 4:
            return None
        seat, kind = _SEAT_OF_LETTER.get(words[1]), _MELD_OF_TEXT.get(words[2])
        bits = list(map(_BIT_OF_TEXT.get, words[3:]))
        if seat is None or kind is None or None in bits or len(set(bits)) < len(bits):
            return None
        found.append((seat, kind, sum(bits), len(bits)))
    return tuple(found)


def _play(text: str) -> tuple[tuple[int, ...], tuple[Seat | None, ...], tuple[str | None, ...]] | None:
    """Eight trick lines of four plain played words (a declaration may follow a card).

    The words of all eight lines at once: with the declarations taken out, a label is
    every fifth word (``1.`` to ``8.``, the pattern put one at the start of each line)."""
    words = text.split()
    declared: list[tuple[int, str]] = []  # (position of the card once the declarations are out, declaration)
    if len(words) != 40:
        positions = sorted(_positions(words, "belote") + _positions(words, "rebelote"))
        declared = [(position - 1 - k, words[position]) for k, position in enumerate(positions)]
        for position in reversed(positions):
            del words[position]
    if len(words) != 40 or words[::5] != _TRICK_LABELS:
        return None
    del words[::5]
    played = list(map(_PLAYED.get, words))
    if None in played:
        return None
    declarations: list[str | None] = [None] * 32
    for position, word in declared:
        number = position - position // 5 - 1  # the card's number in the play, from 0
        if position % 5 == 0 or declarations[number] is not None:  # after a label, or a card's second word
            return None
        declarations[number] = word
    return tuple(map(_FIRST, played)), tuple(map(_SECOND, played)), tuple(declarations)


def _positions(words: list[str], word: str) -> list[int]:
    """Where ``word`` is in ``words``."""
    found: list[int] = []
    start = 0
    while word in words[start:]:
        start = words.index(word, start) + 1
        found.append(start - 1)
    return found
