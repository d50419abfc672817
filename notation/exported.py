"""Read sections written in export form, the fast way: split on spaces, look whole words up.

What the writer prints (and most files hold) is regular: one space between
words, canonical cards and seats, no comment but a trailing ``; text`` on a
trick line.  Each reader below takes a section (or a trick line) in that form
and returns its model values with exactly the positions the general readers
of ``sections.py`` would give, or ``None``/``False`` when the text is in any
other form: the general reader then reads it, and reports any error.  So the
readers here never raise and never need to be right about bad input, only
to recognise good input in export form.

Most of a record's reading time is spent building its some hundred values
(entries, tricks, positions), hence the draft and blank classes of ``words.py``.
"""

from __future__ import annotations

from operator import itemgetter

from .values import ALL_CARDS, HAND_KEYS, CallKind, Card, Seat
from .record import ANNOTATIONS, Announcement, CallEntry, CardEntry, Hand, Pos, Trick
from .words import (CARDS, INVALID, MELDS, SEATS, CardEntryBlank, PosBlank, TrickBlank, cached, call_cache, call_entry,
                    card_cache, comment_text, make_pos, make_sorted_hand, read_call, read_card)

# Every played word of the export form -> (card, seat, annotation, columns from the word to its card):
# ``S:KH``, ``KH!``, ``E:??`` ... (5 seat prefixes x 33 cards x 7 annotations, some 1,200 words).
PLAYED_WORDS: dict[str, tuple[Card | None, Seat | None, str | None, int]] = {
    (f"{seat.value}:" if seat else "") + text + (annotation or ""): (card, seat, annotation, 2 if seat else 0)
    for seat in (None, *Seat) for text, card in CARDS.items() for annotation in (None, *ANNOTATIONS)}

TRICK_LABELS: tuple[str, ...] = tuple(f"{number}." for number in range(1, 33))
"""``1.`` to ``32.``: more tricks than any deal has go to the general reader."""

# A hand's card words -> their rank in canonical hand order (``HAND_KEYS``: S H D C, A K Q J T 9 8 7, ?? last),
# and back: sorting small ints is what puts a hand in canonical order.
_HAND_KEY_OF_WORD: dict[str, int] = {str(card): HAND_KEYS[id(card)] for card in ALL_CARDS} | {"??": HAND_KEYS[id(None)]}
_CARD_OF_HAND_KEY: list[Card | None] = [None] * (len(ALL_CARDS) + 1)
for _card in ALL_CARDS:
    _CARD_OF_HAND_KEY[HAND_KEYS[id(_card)]] = _card
_UNKNOWN_KEY = HAND_KEYS[id(None)]

_SET_DECLARATION = CardEntry.__dict__["declaration"].__set__  # for an entry not yet shared


def read_plain_tags(value: str) -> list[tuple[str, str]]:
    """``[A "a"]\\n[B "b"]`` -> ``[(A, a), (B, b)]``; ``value`` must be plain tag lines (no escapes), checked before.

    ``A "a "B "b`` split on `` "``: no regex per tag.  A name holds no space and a value
    no quote, so the first `` "`` after a name is where its value starts.
    """
    fields = iter(value[1:-2].replace('"]\n[', ' "').split(' "'))
    return list(zip(fields, fields))


def read_plain_hands(value: str, line_number: int, column: int) -> tuple[Hand, ...] | None:
    """``hand <seat> <1 to 8 cards>`` lines, one space apart, a valid deal; else None."""
    hands: list[Hand] = []
    seats: list[Seat] = []
    dealt: list[int | None] = []
    for line in value.split("\n"):
        words = line.split(" ")
        if words[0] != "hand" or not 3 <= len(words) <= 10 or (seat := SEATS.get(words[1])) is None or seat in seats:
            return None  # (a second hand for a seat: the general reader says so)
        keys = list(map(_HAND_KEY_OF_WORD.get, words[2:]))
        if None in keys:  # a word that is not a card
            return None
        keys.sort()
        dealt += keys
        seats.append(seat)
        cards = itemgetter(*keys)(_CARD_OF_HAND_KEY) if len(keys) > 1 else (_CARD_OF_HAND_KEY[keys[0]],)
        hands.append(make_sorted_hand(seat, cards, (), make_pos(line_number, column)))
        line_number, column = line_number + 1, 1
    if len(set(dealt)) < len(dealt) and len(set(known := [key for key in dealt if key != _UNKNOWN_KEY])) < len(known):
        return None  # a card in two hands: the general reader says which
    return tuple(hands) if len(hands) <= 4 else None


def read_plain_calls(value: str, line_number: int, column: int,
                     allowed: frozenset[CallKind]) -> tuple[CallEntry, ...] | None:
    """``taking``/``auction`` and its calls on one line, one space apart, all allowed; else None."""
    if "{" in value or ";" in value or not value.isprintable():  # printable: no other space than " "
        return None
    words = value.split(" ")
    column += len(words[0]) + 1
    entries = []
    for word in words[1:]:
        read = call_cache.get(word)
        if read is None:
            read = cached(call_cache, word, read_call)
        if read is INVALID or read[1].kind not in allowed:
            return None
        seat = read[0]
        entries.append(call_entry(read[1], seat, read[2], (), make_pos(line_number, column + 2 if seat else column)))
        column += len(word) + 1
    return tuple(entries) if entries else None


def read_plain_announces(value: str, line_number: int, column: int) -> tuple[Announcement, ...] | None:
    """``announce <seat> <meld> <cards>[annotation] [{comment}]`` lines, one space apart; else None."""
    if ";" in value:
        return None
    found = []
    for line in value.split("\n"):
        comments: tuple[str, ...] = ()
        if "{" in line:  # one {comment} closing the line
            start = line.find(" {")
            if start < 0 or line[-1] != "}" or line.count("{") != 1 or line.count("}") != 1:
                return None
            comments = (comment_text(line[start + 2:-1]),)
            line = line[:start]
        words = line.split(" ")
        if len(words) < 4 or words[0] != "announce" or not line.isprintable():
            return None
        seat, kind = SEATS.get(words[1]), MELDS.get(words[2].lower())
        if seat is None or kind is None:
            return None
        cards: list[Card] = []
        annotation = None
        for word in words[3:]:
            read = card_cache.get(word)
            if read is None:
                read = cached(card_cache, word, read_card)
            if read is INVALID or read[0] is None or annotation is not None:  # only the last card is annotated
                return None
            cards.append(read[0])
            annotation = read[1]
        # The announcement is placed at its meld word.
        pos = make_pos(line_number, column + len(words[0]) + len(words[1]) + 2)
        found.append(Announcement(seat, kind, tuple(cards), annotation, comments, pos))
        line_number, column = line_number + 1, 1
    return tuple(found)


def read_plain_trick_line(line: str, line_number: int, tricks: list[Trick]) -> bool:
    """Read a trick line in export form (``2. E:KD S:AH! W:7D N:8C ; text``) into ``tricks``; False if it is not.

    The hottest loop of the reader: one ``split``, one dict look-up per word.
    """
    count = len(tricks)
    comments: tuple[str, ...] = ()
    cut = line.find(";")
    if cut >= 0:  # a comment to the end of the line, one space after the last card
        if line[cut - 1:cut] != " ":
            return False
        comments = (line[cut + 1:].strip(),)
        line = line[:cut - 1]
    words = line.split(" ")
    if count >= len(TRICK_LABELS) or words[0] != TRICK_LABELS[count]:
        return False
    plays: list[CardEntry] = []
    column = len(words[0]) + 2
    for word in words[1:]:
        played = PLAYED_WORDS.get(word)
        if played is not None:
            # card_entry(...) and make_pos(...) inlined: the drafts filled here cost half as much.
            pos = PosBlank()
            pos.line = line_number
            pos.column = column + played[3]
            pos.__class__ = Pos  # type: ignore[assignment]
            entry = CardEntryBlank()
            entry.card = played[0]
            entry.seat = played[1]
            entry.declaration = None
            entry.annotation = played[2]
            entry.comments = ()
            entry.pos = pos  # type: ignore[assignment]
            entry.__class__ = CardEntry  # type: ignore[assignment]
            plays.append(entry)  # type: ignore[arg-type]
        elif (word == "belote" or word == "rebelote") and plays and plays[-1].declaration is None:
            _SET_DECLARATION(plays[-1], word)
        else:
            return False
        column += len(word) + 1
    if not 1 <= len(plays) <= 4:
        return False
    pos = PosBlank()
    pos.line = line_number
    pos.column = 1
    pos.__class__ = Pos  # type: ignore[assignment]
    trick = TrickBlank()
    trick.plays = tuple(plays)
    trick.comments = comments
    trick.pos = pos  # type: ignore[assignment]
    trick.__class__ = Trick  # type: ignore[assignment]
    tricks.append(trick)  # type: ignore[arg-type]
    return True
