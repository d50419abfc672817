"""Read each section of a record word by word: the callbacks of the grammar.

The grammar hands over a whole section as one token (the tag-pair lines, the
hand lines, the calls, the announcements, the play); the builder below reads
its words, gives each card and call its exact position in the file, attaches
comments and annotations, and raises ``Problem`` (turned into a
``RecordSyntaxError`` by the parser) at the first word that does not fit.

The words themselves (patterns, caches, positions) are in ``words.py``.
"""

from __future__ import annotations

import re

from lark import Token, Transformer

from .values import Card, CallKind, Seat
from .errors import DealError
from .record import Announcement, CallEntry, CardEntry, Claim, Hand, Pos, Record, Trick
from .scan import unescape
from .exported import read_plain_announces, read_plain_calls, read_plain_hands, read_plain_tags
from .exported import read_plain_trick_line as _canonical_trick_line
from .words import (A_CARD, A_SEAT, AUCTION_CALL, AUCTION_KINDS, END_OF_LINE, INVALID, MELDS, NUMBER, SEATS,
                    TAKING_CALL, TAKING_KINDS, WORD, Problem, Where, cached, call_cache, call_entry, card_cache,
                    card_entry, comment_text, context, make_hand, make_pos, make_record, make_trick, played_cache,
                    read_call, read_card, read_played, unexpected)

# --- tag pairs ---------------------------------------------------------------------------------

_TAG_ITEM = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\\n]++|\\["\\])*+)"[ \t]*\]'
                       r"|\{([^}]*)\}|;([^\n]*)|\s+|(\S)")
_TAG_NAME = re.compile(r"\[[ \t]*([A-Za-z0-9_]*)[ \t]*")
_PLAIN_TAG_LINES = re.compile(r'\[[A-Za-z0-9_]++ "[^"\\\n]*+"\](?:\n\[[A-Za-z0-9_]++ "[^"\\\n]*+"\])*+')


def _tag_problem(value: str, start: int, where: Where) -> Problem:
    """Why the text at ``start`` is not a tag pair: which part is wrong."""
    if value[start] != "[":
        end = re.compile(r"[^\s{;]*").match(value, start).end()
        return unexpected(where.pos(start), value[start:max(end, start + 1)], f"a tag pair or {END_OF_LINE}")
    match = _TAG_NAME.match(value, start)
    at = match.end()
    if not match.group(1):
        return unexpected(where.pos(at), value[at:at + 1].strip(), "a tag name (letters, digits or _)")
    if value[at:at + 1] != '"':
        return unexpected(where.pos(at), value[at:at + 1].strip(), "a tag value in double quotes")
    i = at + 1
    while i < len(value) and value[i] != "\n":
        if value[i] == "\\":
            escaped = value[i + 1:i + 2]
            if escaped not in ('"', "\\"):
                problem = 'unexpected "\\" at the end of the line' if escaped in ("\n", "") else \
                    f'unexpected "{value[i:i + 2]}"'
                return Problem(where.pos(i), problem, value[i:i + 2].rstrip("\n"),
                               'only \\" and \\\\ escapes in a tag value')
            i += 2
        elif value[i] == '"':
            break
        else:
            i += 1
    else:
        return Problem(where.pos(at), "a tag value that is never closed", '"', 'a closing " on the same line')
    close = re.compile(r"[ \t]*").match(value, i + 1).end()
    return unexpected(where.pos(close), value[close:close + 1].strip(), '"]" to close the tag pair')


# --- the builder -------------------------------------------------------------------------------


class SectionBuilder(Transformer):
    """Inline callbacks of ``belote.lark``: each returns the model value of its rule."""

    def comment(self, children: list[Token]) -> str:
        token = children[0]
        return comment_text(token.value[1:-1] if token.type == "COMMENT" else token.value[1:])

    def head(self, children: list) -> tuple[tuple, tuple]:
        tags: list[tuple[str, str]] = []
        comments: list[str] = []
        for child in children:
            if type(child) is str:
                comments.append(child)
                continue
            value = child.value
            if _PLAIN_TAG_LINES.fullmatch(value) is not None:  # the export form
                tags.extend(read_plain_tags(value))
                continue
            for m in _TAG_ITEM.finditer(value):
                kind = m.lastindex  # the value's group (2) closes last in a tag pair
                if kind == 2:
                    tags.append((m.group(1), unescape(m.group(2))))
                elif kind == 3 or kind == 4:
                    comments.append(comment_text(m.group(kind)))
                elif kind == 5:
                    raise _tag_problem(value, m.start(), Where(child))
        return tuple(tags), tuple(comments)

    def hands(self, children: list) -> tuple[Hand, ...]:
        if len(children) == 1:
            token = children[0]
            plain = read_plain_hands(token.value, token.line + context.line_offset, token.column)
            if plain is not None:
                return plain
        hands: list[list] = []  # [seat, cards or None, comments, pos, [(card, token, offset or None)]]
        for child in children:
            if type(child) is str:
                hands[-1][2].append(child)
            else:
                _read_hand_lines(child, hands)
        return _check_deal(hands)

    def turned(self, children: list) -> tuple[Card | None, Pos, tuple[str, ...]]:
        read, pos, comments = _one_word(children[0], lambda w: cached(card_cache, w, read_card), A_CARD)
        if read[1] is not None:  # an annotation: not for the turned card
            raise unexpected(pos, children[0].value[pos.column - children[0].column:].split()[0], A_CARD)
        return read[0], pos, comments + tuple(children[1:])

    def taking(self, children: list) -> tuple[str, tuple[CallEntry, ...]]:
        return "taking", _read_calls(children, TAKING_KINDS, TAKING_CALL)

    def auction(self, children: list) -> tuple[str, tuple[CallEntry, ...]]:
        return "auction", _read_calls(children, AUCTION_KINDS, AUCTION_CALL)

    def announces(self, children: list) -> tuple[Announcement, ...]:
        if len(children) == 1:
            token = children[0]
            plain = read_plain_announces(token.value, token.line + context.line_offset, token.column)
            if plain is not None:
                return plain
        found: list[list] = []  # [seat, kind, cards, annotation, comments, pos]
        for child in children:
            if type(child) is str:
                found[-1][4].append(child)
            else:
                _read_announce_lines(child, found)
        return tuple(Announcement(seat, kind, tuple(cards), annotation, tuple(comments), pos)
                     for seat, kind, cards, annotation, comments, pos in found)

    def play(self, children: list) -> tuple[tuple[Trick, ...], Claim | None, bool]:
        tricks = _read_tricks(children[0])
        ending = children[1]
        return tricks, (ending if isinstance(ending, Claim) else None), ending == "*"

    def claim(self, children: list) -> Claim:
        seat, pos, comments = _one_word(children[0], lambda w: SEATS.get(w, INVALID), A_SEAT)
        return Claim(seat, comments + tuple(children[1:]), pos)

    def stopped(self, children: list) -> str:
        return "*"

    def start(self, children: list) -> Record:
        (tags, comments), hands, turned, bidding, announcements, play = children
        tricks, claim, stopped = play if play is not None else ((), None, False)
        turned_card, turned_pos, turned_comments = turned if turned is not None else (None, None, ())
        taking = bidding[1] if bidding is not None and bidding[0] == "taking" else None
        auction = bidding[1] if bidding is not None and bidding[0] == "auction" else None
        return make_record(tags, comments, hands, turned_card, taking, auction, announcements, tricks, claim, stopped,
                           turned_comments, turned_pos, turned is not None and turned_card is None)


# --- sections ----------------------------------------------------------------------------------


def _one_word(token: Token, read, expected: str) -> tuple[object, Pos, tuple[str, ...]]:
    """A keyword line with one word (``turned JH``, ``claim N``) and comments after it."""
    where = Where(token)
    found, pos, comments = INVALID, None, []
    for m in WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 2 or kind == 3:
            comments.append(comment_text(m.group(kind)))
        elif kind == 4 and m.start() > 0:
            word = m.group(4)
            if pos is not None:
                raise unexpected(where.pos(m.start()), word, END_OF_LINE)
            pos = where.pos(m.start())
            found = read(word)
            if found is INVALID:
                raise unexpected(pos, word, expected)
    if pos is None:
        raise Problem(where.pos(len(token.value)), "unexpected end of the line", "", expected)
    return found, pos, tuple(comments)


def _read_hand_lines(token: Token, hands: list[list]) -> None:
    """``hand <seat> <1 to 8 cards | ->`` lines, with comments after them."""
    value = token.value
    if "{" not in value and ";" not in value and "\t" not in value:
        fast = _fast_hand_lines(token)
        if fast is not None:
            hands.extend(fast)
            return
    where = Where(token)
    state = "keyword"
    for m in WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 1:
            _end_hand_line(hands[-1], state, where, m.start())
            state = "keyword"
        elif kind != 4:
            hands[-1][2].append(comment_text(m.group(kind)))
        elif state == "keyword":
            hands.append([None, [], [], where.pos(m.start()), []])
            state = "seat"
        else:
            word, hand = m.group(4), hands[-1]
            if state == "seat":
                pos = where.pos(m.start())
                hand[0] = SEATS.get(word)
                if hand[0] is None:
                    raise unexpected(pos, word, A_SEAT)
                state = "cards"
            elif state == "cards" and word == "-" and not hand[1]:
                hand[1] = None
                state = "done"
            elif state == "cards":
                read = cached(card_cache, word, read_card)
                if read is INVALID or read[1] is not None:
                    raise unexpected(where.pos(m.start()), word, f"{A_CARD}, ?? or the end of the hand")
                if len(hand[1]) == 8:
                    raise Problem(where.pos(m.start()), f"a ninth card in hand {hand[0]}", word, "8 cards in a hand", DealError)
                hand[1].append(read[0])
                if read[0] is not None:
                    hand[4].append((read[0], token, m.start()))
            else:
                raise unexpected(where.pos(m.start()), word, END_OF_LINE)
    _end_hand_line(hands[-1], state, where, len(token.value))


def _fast_hand_lines(token: Token) -> list[list] | None:
    """Plain hand lines of 1 to 8 cards, read without positions for the cards; None if any line is not plain."""
    hands = []
    line_number = token.line + context.line_offset
    column = token.column
    for line in token.value.split("\n"):
        words = line.split()
        if not 3 <= len(words) <= 10 or words[2] == "-" or (seat := SEATS.get(words[1])) is None:
            return None
        cards = []
        for word in words[2:]:
            read = card_cache.get(word)
            if read is None:
                read = cached(card_cache, word, read_card)
            if read is INVALID or read[1] is not None:
                return None
            cards.append(read[0])
        placed = [(card, token, None) for card in cards if card is not None]
        hands.append([seat, cards, [], make_pos(line_number, column + len(line) - len(line.lstrip())), placed])
        line_number, column = line_number + 1, 1
    return hands


def _card_offset(token: Token, card: Card, line: int) -> int:
    """Where ``card`` is written on the ``line`` (of the file) of a run of hand lines, for an error."""
    start = 0
    for _ in range(line - token.line - context.line_offset):
        start = token.value.index("\n", start) + 1
    end = token.value.find("\n", start)
    for m in WORD.finditer(token.value, start, end if end >= 0 else len(token.value)):
        if m.lastindex == 4 and cached(card_cache, m.group(4), read_card)[:1] == (card,):
            return m.start()
    return start


def _end_hand_line(hand: list, state: str, where: Where, offset: int) -> None:
    if state == "seat":
        raise Problem(where.pos(offset), "unexpected end of the line", "", A_SEAT)
    if state == "cards" and not hand[1]:  # 1 to 8 cards: how many the deal needs is the validator's business
        raise Problem(hand[3], f"hand {hand[0]} has no cards", "hand", "1 to 8 cards (or - for an unknown hand)",
                      DealError)


def _check_deal(hands: list[list]) -> tuple[Hand, ...]:
    """At most four hands, one per seat, no card in two hands."""
    known = [id(card) for hand in hands for card, _, _ in hand[4]]  # by id(): cards are interned
    if len(hands) <= 4 and len({hand[0] for hand in hands}) == len(hands) and len(set(known)) == len(known):
        return tuple(make_hand(seat, cards, tuple(comments), pos) for seat, cards, comments, pos, _ in hands)
    seen: list[Seat] = []  # something is wrong: find the first fault, in the order written
    dealt: dict[int, Seat] = {}
    for seat, cards, comments, pos, placed in hands:
        if len(seen) == 4:
            raise Problem(pos, "a fifth hand", "hand", "at most 4 hands, one per seat", DealError)
        if seat in seen:
            raise Problem(pos, f"a second hand for seat {seat}", "hand", "one hand per seat", DealError)
        seen.append(seat)
        for card, token, offset in placed:
            if id(card) in dealt:
                if offset is None:  # read by the fast path: find the card again
                    offset = _card_offset(token, card, pos.line)
                raise Problem(Where(token).pos(offset), f"{card} is dealt twice (hands {dealt[id(card)]} and {seat})",
                              str(card), "each card in one hand only", DealError)
            dealt[id(card)] = seat
    return tuple(make_hand(seat, cards, tuple(comments), pos) for seat, cards, comments, pos, _ in hands)


def _read_calls(children: list, allowed: frozenset[CallKind], expected: str) -> tuple[CallEntry, ...]:
    """The calls after ``taking`` or ``auction``, over one or more lines."""
    token = children[0]
    if len(children) == 1:
        plain = read_plain_calls(token.value, token.line + context.line_offset, token.column, allowed)
        if plain is not None:
            return plain
    where = Where(token)
    entries: list[list] = []  # [call, seat, annotation, comments, pos]
    waiting: list[str] = []  # comments before the first call belong to it
    for m in WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 2 or kind == 3:
            (entries[-1][3] if entries else waiting).append(comment_text(m.group(kind)))
        elif kind == 4 and m.start() > 0:
            word = m.group(4)
            read = cached(call_cache, word, read_call)
            if read is INVALID or read[1].kind not in allowed:
                offset = m.start() + (2 if len(word) > 2 and word[1] == ":" else 0)
                raise unexpected(where.pos(offset), word[offset - m.start():], expected)
            entries.append([read[1], read[0], read[2], waiting, where.pos(m.start() + (2 if read[0] else 0))])
            waiting = []
    for comment in children[1:]:
        (entries[-1][3] if entries else waiting).append(comment)
    if waiting:
        raise Problem(where.pos(len(token.value)), "a comment with no call", "", expected)
    return tuple(call_entry(call, seat, annotation, tuple(comments), pos)
                 for call, seat, annotation, comments, pos in entries)


def _read_announce_lines(token: Token, found: list[list]) -> None:
    """``announce <seat> <meld> <cards>[annotation]`` lines."""
    where = Where(token)
    state = "keyword"
    for m in WORD.finditer(token.value):
        kind = m.lastindex
        if kind == 1:
            _end_announce_line(found[-1], state, where, m.start())
            state = "keyword"
        elif kind != 4:
            found[-1][4].append(comment_text(m.group(kind)))
        elif state == "keyword":
            found.append([None, None, [], None, [], None])
            state = "seat"
        else:
            word, pos, entry = m.group(4), where.pos(m.start()), found[-1]
            if state == "seat":
                entry[0] = SEATS.get(word)
                if entry[0] is None:
                    raise unexpected(pos, word, A_SEAT)
                state = "kind"
            elif state == "kind":
                entry[1] = MELDS.get(word.lower())
                if entry[1] is None:
                    raise unexpected(pos, word, "tierce, quarte, quinte or carre")
                entry[5] = pos
                state = "cards"
            elif state == "cards" and entry[3] is None:
                read = cached(card_cache, word, read_card)
                if read is INVALID or read[0] is None:
                    raise unexpected(pos, word, f"{A_CARD} or the end of the announcement")
                entry[2].append(read[0])
                entry[3] = read[1]
            else:
                raise unexpected(pos, word, END_OF_LINE)
    _end_announce_line(found[-1], state, where, len(token.value))


def _end_announce_line(entry: list, state: str, where: Where, offset: int) -> None:
    expected = {"seat": A_SEAT, "kind": "tierce, quarte, quinte or carre"}.get(state)
    if state == "cards" and not entry[2]:
        expected = A_CARD
    if expected is not None:
        raise Problem(where.pos(offset), "unexpected end of the line", "", expected)


def _read_tricks(token: Token) -> tuple[Trick, ...]:
    """The play: one trick per line, ``[n.] [seat:]card[annotation] [belote|rebelote] {comment} ...``.

    Lines in export form are read by ``exported.py``, other lines without
    comments or tabs by a fast path; from the first other line on, the play
    is read word by word.
    """
    value = token.value
    tricks: list[Trick] = []
    offset = value.find("\n") + 1
    if offset == 0 or value[4:offset].strip():
        return _read_tricks_slowly(token, 0, tricks)
    line_number = token.line + context.line_offset + 1
    lines = value[offset:].split("\n")
    if value.endswith("\n"):
        lines.pop()
    for line in lines:
        if not _canonical_trick_line(line, line_number, tricks) and (
                "{" in line or ";" in line or "\t" in line or not _fast_trick_line(line, line_number, tricks)):
            return _read_tricks_slowly(token, offset, tricks)
        offset, line_number = offset + len(line) + 1, line_number + 1
    return tuple(tricks)


def _fast_trick_line(line: str, line_number: int, tricks: list[Trick]) -> bool:
    """Read a plain trick line into ``tricks``; False (and nothing read) if it needs the full reader."""
    plays: list[CardEntry] = []
    column, trick_pos, numbered = 1, None, False
    for word in line.split(" "):
        if not word:
            column += 1
            continue
        read = played_cache.get(word)
        if read is None:
            read = cached(played_cache, word, read_played)
        if read is INVALID:
            if word[-1] == "." and word[:-1].isdigit() and not plays and not numbered:
                if int(word[:-1]) != len(tricks) + 1:
                    return False
                numbered, trick_pos = True, make_pos(line_number, column)
            elif (word == "belote" or word == "rebelote") and plays and plays[-1].declaration is None:
                object.__setattr__(plays[-1], "declaration", word)  # not yet shared
            else:
                return False
        elif len(plays) == 4:
            return False
        else:
            pos = make_pos(line_number, column + 2 if read[0] is not None else column)
            plays.append(card_entry(read[1], read[0], None, read[2], (), pos))
            if trick_pos is None:
                trick_pos = pos
        column += len(word) + 1
    if not plays:
        return False
    tricks.append(make_trick(tuple(plays), (), trick_pos))
    return True


def _read_tricks_slowly(token: Token, start: int, tricks: list[Trick]) -> tuple[Trick, ...]:
    """The play from offset ``start`` on, word by word."""
    where = Where(token)
    where.pos(start)
    waiting: list[str] = []  # comments before the first trick
    plays: list[list] | None = None  # the trick being read: [card, seat, declaration, annotation, comments, pos]
    trick_comments: list[str] = []
    trick_pos = None

    def close(offset: int) -> None:
        nonlocal plays, trick_comments
        if plays is not None:
            if not plays:
                raise Problem(where.pos(offset), "unexpected end of the trick", "", A_CARD)
            entries = tuple(card_entry(c, s, d, a, tuple(notes), p) for c, s, d, a, notes, p in plays)
            tricks.append(make_trick(entries, tuple(trick_comments), trick_pos))
        plays, trick_comments = None, []

    for m in WORD.finditer(token.value, start):
        kind = m.lastindex
        if kind == 1:
            close(m.start())
        elif kind == 2 or kind == 3:
            text = comment_text(m.group(kind))
            if plays is None:
                if tricks:
                    last = tricks[-1]
                    tricks[-1] = make_trick(last.plays, last.comments + (text,), last.pos)
                else:
                    waiting.append(text)
            elif kind == 2 and plays:
                plays[-1][4].append(text)
            else:
                trick_comments.append(text)
        elif m.start() > 0:
            word = m.group(4)
            read = cached(played_cache, word, read_played)
            if read is not INVALID:
                pos = where.pos(m.start() + (2 if read[0] else 0))
                if plays is None:
                    plays, trick_comments, trick_pos = [], waiting, pos
                    waiting = []
                if len(plays) == 4:
                    raise Problem(pos, f"a fifth card in trick {len(tricks) + 1}", word,
                                  "at most 4 cards in a trick (one trick per line)")
                plays.append([read[1], read[0], None, read[2], [], pos])
                continue
            pos = where.pos(m.start())
            lowered = word.lower()
            if lowered in ("belote", "rebelote"):
                if not plays or plays[-1][2] is not None or plays[-1][4]:
                    raise unexpected(pos, word, A_CARD)
                plays[-1][2] = lowered
            elif (number := NUMBER.fullmatch(word)) is not None:
                if plays:
                    close(m.start())
                if plays is not None or int(number.group(1)) != len(tricks) + 1:
                    raise unexpected(pos, word, f"trick number {len(tricks) + 1}. (or none)")
                plays, trick_comments, trick_pos = [], waiting, pos
                waiting = []
            else:
                offset = 2 if len(word) > 2 and word[1] == ":" and word[0] in SEATS else 0
                raise unexpected(where.pos(m.start() + offset), word[offset:], f"{A_CARD} or the end of the trick")
    close(len(token.value))
    if waiting:
        raise Problem(where.pos(len(token.value)), "a comment with no trick", "", "a trick")
    return tuple(tricks)
