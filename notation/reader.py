"""The reader: one record's text into plain data, every word read once.

``read_record(text, first_line)`` reads a record as the splitter cut it into a
``RecordData``: tag pairs, hands as card indexes, calls as the shared ``Call`` values,
plays as (card index, seat, annotation, place) tuples, comments attached to what they
follow (docs/notation.md §2.7). Nothing is judged but the notation itself: a record may
break every rule of the game. The first word that is not notation stops the record with a
``RecordSyntaxError`` that says where and what was expected there.

Where each item was written is kept as a *place* (``line << 20 | word``: its line in the
file and the number of its word on that line). Columns are worked out only when somebody
asks (a finding to show, a ``Record`` with positions), by cutting that line into words
again. ``to_record(data)`` (``builder.py``) makes the rich ``Record`` of ``record.py``
for the writer, JSON and the site; the validator works on the data itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from .errors import DealError, LimitError, RecordSyntaxError
from .lexer import (AUCTION_KINDS, CARD_WORDS, DECLARATION_WORDS, MELD_WORDS, SEAT_WORDS, TAG_ITEM, TAG_PAIR,
                    KNOWN_PLAYS, TAKING_KINDS, UNKNOWN, call, call_out_of_range, card, comment_text, open_comment, played,
                    trick_number, unescape,
                    word_columns, words)
from .splitter import FEW_TAGS_TEXT, MAX_TAGS, MAX_TRICKS, MAX_WORDS
from .values import ALL_CARDS, Call, MeldKind, Seat

A_CARD = "a card (e.g. JH, 10S)"
A_SEAT = "a seat (N, E, S or W)"
END_OF_LINE = "a comment or the end of the line"
TAKING_CALL = "a call of the taking (pass, take or a suit)"
AUCTION_CALL = "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)"
MELD = "tierce, quarte, quinte or carre"

HEAD, HANDS, TURNED, BIDDING, ANNOUNCES, PLAY, CLAIMED, STOPPED = range(8)
_SECTION_OF = {"hand": HANDS, "turned": TURNED, "taking": BIDDING, "auction": BIDDING, "announce": ANNOUNCES,
               "play": PLAY}
_REPEATED = (HANDS, ANNOUNCES)  # sections of several lines, each with its keyword
# What may start the next line, in words, in each section.
_NEXT = {HEAD: "a tag pair, a hand, the turned card, taking, auction, an announcement or play",
         HANDS: "a hand, the turned card, taking, auction, an announcement or play",
         TURNED: "taking, auction, an announcement or play", BIDDING: "an announcement or play",
         ANNOUNCES: "an announcement or play", CLAIMED: "a comment or the end of the record",
         STOPPED: "the end of the record"}
WORD_BITS = 20
_WORD_MASK = (1 << WORD_BITS) - 1
_LABELS = tuple(f"{number}." for number in range(MAX_TRICKS + 2))  # the number written before a trick


def place(line: int, word: int) -> int:
    """Where an item is: word ``word`` (from 0) of line ``line`` of the file."""
    return line << WORD_BITS | word


@dataclass(slots=True, eq=False)
class RecordData:
    """One record as read: plain values, each item with its place.

    Seats are ``Seat`` values (``None`` where none was written), cards indexes 0..31
    (``Card.index``; ``UNKNOWN`` for ``??``), calls the shared ``Call`` values. Lists are
    in the order written; the comments that follow an item are in the ``*_comments`` lists
    or dicts (keyed by the item's number), empty for most records.
    """

    text: str = ""  # as read, line ends "\n"
    first_line: int = 1
    index: int = 0  # of the record in its file
    tags: list[tuple[str, str]] = field(default_factory=list)
    tag_places: list[int] = field(default_factory=list)  # place of each tag: its number on its line
    comments: list[str] = field(default_factory=list)  # the record's own
    hands: list[tuple[Seat, list[int] | None, int, list[str]]] = field(default_factory=list)  # seat, cards, place
    turned: int | None = None  # a card index, UNKNOWN, or None: no turned line
    turned_place: int = 0
    turned_comments: list[str] = field(default_factory=list)
    bidding: str | None = None  # "taking", "auction" or None
    calls: list[tuple[Call, Seat | None, str | None, int]] = field(default_factory=list)  # call, seat, note, place
    call_comments: dict[int, list[str]] = field(default_factory=dict)
    # seat, kind, cards, annotation, place (of the meld word), comments
    announcements: list[tuple[Seat, MeldKind, tuple[int, ...], str | None, int, list[str]]] = \
        field(default_factory=list)
    plays: list[tuple[int, Seat | None, str | None, int]] = field(default_factory=list)  # card, seat, note, place
    declarations: dict[int, str] = field(default_factory=dict)  # play number -> "belote" or "rebelote"
    play_comments: dict[int, list[str]] = field(default_factory=dict)
    tricks: list[tuple[int, int]] = field(default_factory=list)  # (number of its first play, place)
    trick_comments: dict[int, list[str]] = field(default_factory=dict)
    claim: tuple[Seat, int, list[str]] | None = None  # seat, place, comments
    stopped: bool = False
    columns: bool = False  # places hold columns, not word numbers (data made from a Record: no text)

    def position(self, at: int, shift: int = 0) -> tuple[int, int] | None:
        """The (line, column) in the file of the word at place ``at``, ``shift`` characters into it
        (2 skips a seat prefix such as ``W:``); None for an item placed nowhere (place 0)."""
        if not at:
            return None
        line = at >> WORD_BITS
        if self.columns:
            return line, at & _WORD_MASK
        text = logical_line(self.text.split("\n"), line - self.first_line)
        return offset_position(text, line, word_columns(text)[at & _WORD_MASK] + shift)

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name`` (as ``Record.tag``)."""
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def tag_position(self, name: str) -> tuple[int, int] | None:
        """Where the first tag called ``name`` is written (its ``[``), None when there is none."""
        for (key, _), at in zip(self.tags, self.tag_places):
            if key == name:
                return self.tag_at(at)
        return None

    def tag_at(self, at: int) -> tuple[int, int] | None:
        """The (line, column) of the tag pair at place ``at`` (its number on its line)."""
        if not at or self.columns:
            return self.position(at)
        line = at >> WORD_BITS
        text = logical_line(self.text.split("\n"), line - self.first_line)
        offset = [m.start() for m in TAG_PAIR.finditer(text)][at & _WORD_MASK]
        return offset_position(text, line, offset)

    def trick_position(self, number: int) -> tuple[int, int] | None:
        """Where trick ``number`` (from 0) is written: its number, else its first card (after a seat prefix)."""
        first, at = self.tricks[number]
        card = self.plays[first] if first < len(self.plays) else None
        return self.position(at, 2 if card is not None and card[3] == at and card[1] is not None else 0)

    def trick_plays(self, number: int) -> range:
        """The play numbers of trick ``number`` (from 0)."""
        end = self.tricks[number + 1][0] if number + 1 < len(self.tricks) else len(self.plays)
        return range(self.tricks[number][0], end)


def logical_line(lines: list[str], index: int) -> str:
    """Line ``index`` of ``lines`` with the lines after it while a ``{`` comment it opens is not
    closed: how the reader sees a comment that runs over lines."""
    text = lines[index]
    if "{" not in text or open_comment(text, quotes=text.lstrip()[:1] == "[") is None:
        return text
    for rest in lines[index + 1:]:
        text += "\n" + rest
        if open_comment(rest, True) is None:
            break
    return text


def offset_position(text: str, line: int, offset: int) -> tuple[int, int]:
    """(line, column) of ``offset`` in a logical line that starts at file line ``line``."""
    return line + text.count("\n", 0, offset), offset - text.rfind("\n", 0, offset)


def _logical_lines(lines: list[str], escapes: tuple[int, ...], first_line: int) -> tuple[list[str], list[int]]:
    """The lines the reader reads (a comment that runs over lines makes one line of them; blank
    and escape lines left out) and the index of the line each one starts at."""
    numbers = [i for i, text in enumerate(lines) if text and not text.isspace()]
    if escapes:
        numbers = [i for i in numbers if i not in escapes]
    texts = [lines[i] for i in numbers]
    if not any("{" in text and open_comment(text, quotes=text.lstrip()[:1] == "[") is not None for text in texts):
        return texts, numbers
    joined_texts: list[str] = []
    joined_numbers: list[int] = []
    i = 0
    while i < len(lines):
        text, number = lines[i], i
        i += 1
        if not text or text.isspace() or number in escapes:
            continue
        if "{" in text:
            start = open_comment(text, quotes=text.lstrip()[:1] == "[")
            while start is not None and i < len(lines):  # comment lines are the comment's, blank or not
                text += "\n" + lines[i]
                i += 1
                start = open_comment(lines[i - 1], True)
            if start is not None:
                opening = text.rfind("{") if start == -1 else start
                raise _Problem(offset_position(text, first_line + number, opening), "a comment that is never closed", "{",
                               'a closing "}"')
        joined_texts.append(text)
        joined_numbers.append(number)
    return joined_texts, joined_numbers


class _Problem(Exception):
    """The first thing that is not notation: where and what (made a RecordSyntaxError)."""

    def __init__(self, at: tuple[int, int] | None, problem: str, found: str, expected: str,
                 kind: type[RecordSyntaxError] = RecordSyntaxError) -> None:
        super().__init__(problem)
        self.at, self.problem, self.found, self.expected, self.kind = at, problem, found, expected, kind


def read_record(text: str, first_line: int = 1, index: int = 0, escapes: tuple[int, ...] = ()) -> RecordData:
    """The record of ``text`` (its lines are lines ``first_line``... of the file; ``escapes``:
    the 0-based lines to leave out); raise ``RecordSyntaxError`` at the first word that is not
    notation."""
    reader = _Reader(RecordData(text, first_line, index), escapes)
    try:
        reader.read()
    except _Problem as problem:
        line, column = problem.at or (first_line, 1)
        lines = text.split("\n")
        shown = lines[line - first_line] if 0 <= line - first_line < len(lines) else ""
        raise problem.kind(problem.problem, record_index=index, line=line, column=column, text=problem.found,
                           expected=problem.expected, source_line=shown) from None
    return reader.data


class _Reader:
    """The state of reading one record: its logical lines, the section, the waiting comments."""

    def __init__(self, data: RecordData, escapes: tuple[int, ...]) -> None:
        self.data = data
        self.lines = data.text.split("\n")
        self.escapes = escapes
        self.texts: list[str] = []  # the logical lines read (see _logical_lines)
        self.numbers: list[int] = []  # the 0-based line of the record each one starts at
        self.section = HEAD
        self.waiting: list[str] = []  # comments before the first call or trick
        self.line = 0  # the file line of the logical line being read
        self.index = 0  # the logical line being read
        self.section_last = 0  # the last logical line of the section being read

    # --- where ----------------------------------------------------------------------------------

    def problem(self, word: int, found: str, expected: str, shift: int = 0, what: str = "",
                kind: type[RecordSyntaxError] = RecordSyntaxError) -> _Problem:
        """An error at word ``word`` of the line being read."""
        if found[:1] in ("{", ";"):
            found = found[0]  # a comment is quoted by its mark
        what = what or (f'unexpected "{found[:30]}"' if found else "unexpected end of the line")
        text = self.texts[self.index]
        return _Problem(offset_position(text, self.line, word_columns(text)[word] + shift), what, found, expected,
                        kind)

    def end_of(self, index: int) -> tuple[int, int]:
        """Where logical line ``index`` ends: the line and the column after its last character."""
        text = self.texts[index]
        last = text.rsplit("\n", 1)[-1]
        return self.data.first_line + self.numbers[index] + text.count("\n"), len(last) + 1

    def at_end(self, problem: str, expected: str) -> _Problem:
        """An error at the end of the line being read."""
        return _Problem(self.end_of(self.index), problem, "", expected)

    def past_limit(self, what: str, at: tuple[int, int] | None = None) -> _Problem:
        """A record past one of the reader's limits, at ``at`` (the line being read by default)."""
        return _Problem(at or (self.line, 1), f"more than {what} in a record", "", "", LimitError)

    def count_words(self) -> None:
        """Raise at the line where the record goes past ``MAX_WORDS`` words, if it does."""
        count = 0
        for index, text in enumerate(self.texts):
            count += len(words(text))
            if count > MAX_WORDS:
                self.line = self.data.first_line + self.numbers[index]
                raise self.past_limit(f"{MAX_WORDS} words")

    def too_many_tags(self) -> _Problem:
        """The record has more than ``MAX_TAGS`` tag pairs: where the first one past the limit is."""
        return self.past_limit(f"{MAX_TAGS} tag pairs", self.data.tag_at(self.data.tag_places[MAX_TAGS]))

    def too_many_tricks(self) -> _Problem:
        """The record has more than ``MAX_TRICKS`` tricks: where the first one past the limit is."""
        return self.past_limit(f"{MAX_TRICKS} tricks", self.data.position(self.data.tricks[MAX_TRICKS][1]))

    # --- lines ----------------------------------------------------------------------------------

    def read(self) -> None:
        first_line = self.data.first_line
        texts, numbers = self.texts, self.numbers = _logical_lines(self.lines, self.escapes, first_line)
        if len(self.data.text) > MAX_WORDS:  # (a word takes a character at least: else within the limit)
            self.count_words()
        index = 0
        while index < len(texts):
            self.index, self.line = index, first_line + numbers[index]
            if self.section == PLAY:
                index = self.trick_lines(index)
            elif self.section == HEAD and texts[index].lstrip()[:1] == "[":
                index = self.tag_lines(index)
            else:
                self.read_line(words(texts[index]))
                self.section_last = index
                index += 1
        self.end_section()

    def trick_lines(self, index: int) -> int:
        """The trick lines from logical line ``index`` to the end of the play; return where it ends.

        Most lines are a trick number and four cards alone, which are read at once; any other
        line is read word by word (``trick_line``), which also says what is wrong."""
        texts, numbers, first_line = self.texts, self.numbers, self.data.first_line
        plays, tricks = self.data.plays, self.data.tricks
        known = KNOWN_PLAYS.get
        while index < len(texts):
            text = texts[index]
            tokens = words(text)
            head = tokens[0]
            self.index, self.line = index, first_line + numbers[index]
            if head[0] == "*" or (head[0] in "cC" and head.lower() == "claim"):
                if len(tricks) > MAX_TRICKS:
                    raise self.too_many_tricks()
                self.end_play(tokens)
                self.section_last = index
                return index + 1
            line = self.line << WORD_BITS
            number = len(tricks) + 1
            start = 1 if number < len(_LABELS) and head == _LABELS[number] else 0
            found = list(map(known, tokens[start:]))
            if 0 < len(found) <= 4 and None not in found and not self.waiting:
                tricks.append((len(plays), line))
                known_found = cast("list[tuple[int, Seat | None, str | None]]", found)  # no None: checked above
                plays += [(card, seat, note, line | k) for k, (card, seat, note) in enumerate(known_found, start)]
            else:
                self.trick_line(tokens, 0)
            self.section_last = index
            index += 1
        if len(tricks) > MAX_TRICKS:
            raise self.too_many_tricks()
        return index

    def read_line(self, tokens: list[str]) -> None:
        """A line outside the play and the tag pairs: a section's keyword, a comment, more calls."""
        section = self.section
        first = tokens[0]
        comment = first[0] == "{" or first[0] == ";"
        new = _SECTION_OF.get(first.lower()) if first.isascii() else None  # keywords: ASCII in any case
        if section == BIDDING and (comment or (new is None and first[0] not in "*[")):
            self.call_line(tokens, 0)
        elif comment:
            self.comment_line(tokens)
        else:
            if new is None or new < section or (new == section and new not in _REPEATED):
                raise self.problem(0, first, _NEXT.get(section, ""))
            if new != section:
                self.start(new)
            if new == HANDS:  # (direct calls: a compiled reader calls its methods natively)
                self.hand_line(tokens)
            elif new == TURNED:
                self.turned_line(tokens)
            elif new == BIDDING:
                self.bidding_line(tokens)
            elif new == ANNOUNCES:
                self.announce_line(tokens)
            else:
                self.play_line(tokens)

    def end_play(self, tokens: list[str]) -> None:
        """``claim <seat>`` or ``*``: the end of the play."""
        first = tokens[0]
        if first[0] != "*":
            self.start(CLAIMED).claim_line(tokens)
            return
        self.start(STOPPED).data.stopped = True
        if first != "*":
            raise self.problem(0, first[1:], _NEXT[STOPPED], 1)
        if len(tokens) > 1:
            raise self.problem(1, tokens[1], _NEXT[STOPPED])

    def start(self, section: int) -> _Reader:
        """End the section being read and start ``section``."""
        self.end_section()
        self.section = section
        return self

    def end_section(self) -> None:
        """What is checked once a section is over."""
        if self.section == HANDS:
            self.check_deal()
        elif self.waiting:
            end = self.end_of(self.section_last)
            if self.section == BIDDING:
                expected = AUCTION_CALL if self.data.bidding == "auction" else TAKING_CALL
                raise _Problem(end, "a comment with no call", "", expected)
            raise _Problem(end, "a comment with no trick", "", "a trick")

    def comment_line(self, tokens: list[str]) -> None:
        """A line of comments outside the calls and the play: they go to the last item read."""
        section, data = self.section, self.data
        for k, token in enumerate(tokens):
            if section == STOPPED or (token[0] != "{" and token[0] != ";"):
                raise self.problem(k, token, _NEXT[section] if section in (HEAD, STOPPED) else END_OF_LINE)
            text = comment_text(token)
            if section == HEAD:
                data.comments.append(text)
            elif section == HANDS:
                data.hands[-1][3].append(text)
            elif section == TURNED:
                data.turned_comments.append(text)
            elif section == ANNOUNCES:
                data.announcements[-1][5].append(text)
            else:
                data.claim[2].append(text)  # type: ignore[index]

    # --- the head -------------------------------------------------------------------------------

    def tag_lines(self, index: int) -> int:
        """The run of lines of tag pairs from logical line ``index``; return the line after it.


        The usual run, one tag pair a line and nothing else, is read in one go."""
        texts, numbers, data = self.texts, self.numbers, self.data
        end = index + 1
        while end < len(texts) and texts[end].lstrip()[:1] == "[":
            end += 1
        block = "\n".join(texts[index:end])
        # between, name, value, between, name, value, ..., between (a block too short for MAX_TAGS pairs)
        parts = TAG_PAIR.split(block) if len(block) <= FEW_TAGS_TEXT else [block]
        if len(parts) > 1 and not "".join(parts[::3]).strip(" \t\n"):  # tag pairs and blanks alone
            pairs = list(zip(parts[1::3], parts[2::3]))
            data.tags += pairs if "\\" not in block else [(name, unescape(value)) for name, value in pairs]
            first = data.first_line
            if len(pairs) == end - index:  # one a line
                data.tag_places += [(first + numbers[i]) << WORD_BITS for i in range(index, end)]
            else:
                data.tag_places += [(first + numbers[i]) << WORD_BITS | k for i in range(index, end)
                                    for k in range(len(TAG_PAIR.findall(texts[i])))]
            if len(data.tags) > MAX_TAGS:  # (several blocks of tag pairs)
                raise self.too_many_tags()
            return end
        for number in range(index, end):
            self.index, self.line = number, data.first_line + numbers[number]
            self.tag_line(texts[number])
            if len(data.tags) > MAX_TAGS:
                raise self.too_many_tags()
        return end

    def tag_line(self, text: str) -> None:
        """Tag pairs, several to a line if need be, and comments (the record's)."""
        data = self.data
        pair = 0
        for m in TAG_ITEM.finditer(text):
            kind = m.lastindex
            if kind == 2:
                data.tags.append((m[1], unescape(m[2])))
                data.tag_places.append(place(self.line, pair))
                pair += 1
            elif kind == 3 or kind == 4:
                data.comments.append(m[kind].strip())
            elif kind == 5:
                raise self.tag_problem(text, m.start())

    def tag_problem(self, text: str, start: int) -> _Problem:
        """Why the text at ``start`` of a line of tag pairs is not a tag pair: which part is wrong."""
        def problem(offset: int, what: str, found: str, expected: str) -> _Problem:
            return _Problem(offset_position(text, self.line, offset), what, found, expected)

        def unexpected(offset: int, found: str, expected: str) -> _Problem:
            return problem(offset, f'unexpected "{found}"' if found else "unexpected end of the line", found,
                           expected)

        def blanks(offset: int) -> int:
            return offset + len(text[offset:]) - len(text[offset:].lstrip(" \t"))

        if text[start] != "[":
            found = words(text[start:])[0]
            return unexpected(start, found[0] if found[0] in "{;" else found[:30], f"a tag pair or {END_OF_LINE}")
        name = end = blanks(start + 1)
        while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
            end += 1
        if end == name:
            return unexpected(name, text[name:name + 1].strip(), "a tag name (letters, digits or _)")
        quote = blanks(end)
        if text[quote:quote + 1] != '"':
            return unexpected(quote, text[quote:quote + 1].strip(), "a tag value in double quotes")
        i = quote + 1
        while i < len(text) and text[i] != "\n" and text[i] != '"':
            if text[i] == "\\":
                if text[i + 1:i + 2] not in ('"', "\\"):
                    what = ('unexpected "\\" at the end of the line' if text[i + 1:i + 2] in ("\n", "")
                            else f'unexpected "{text[i:i + 2]}"')
                    return problem(i, what, text[i:i + 2].rstrip("\n"), 'only \\" and \\\\ escapes in a tag value')
                i += 1
            i += 1
        if text[i:i + 1] != '"':
            return problem(quote, "a tag value that is never closed", '"', 'a closing " on the same line')
        close = blanks(i + 1)
        return unexpected(close, text[close:close + 1].strip(), '"]" to close the tag pair')

    # --- the deal -------------------------------------------------------------------------------

    def hand_line(self, tokens: list[str]) -> None:
        """``hand <seat> <1 to 8 cards | ->`` and comments; a line of cards alone is read at once."""
        seat = SEAT_WORDS.get(tokens[1]) if len(tokens) > 2 else None
        quick = list(map(CARD_WORDS.get, tokens[2:]))
        if seat is not None and len(quick) <= 8 and None not in quick:
            self.data.hands.append((seat, cast("list[int]", quick), place(self.line, 0), []))  # no None: checked
            return
        comments: list[str] = []
        seat = None
        cards: list[int] | None = []
        for k in range(1, len(tokens)):
            token = tokens[k]
            if token[0] == "{" or token[0] == ";":
                comments.append(comment_text(token))
            elif seat is None:
                seat = SEAT_WORDS.get(token)
                if seat is None:
                    raise self.problem(k, token, A_SEAT)
            elif cards is None:
                raise self.problem(k, token, END_OF_LINE)
            elif token == "-" and not cards:
                cards = None
            else:
                index = CARD_WORDS.get(token)
                if index is None:
                    raise self.problem(k, token, f"{A_CARD}, ?? or the end of the hand")
                if len(cards) == 8:
                    raise self.problem(k, token, "8 cards in a hand", what=f"a ninth card in hand {seat}",
                                       kind=DealError)
                cards.append(index)
        if seat is None:
            raise self.at_end("unexpected end of the line", A_SEAT)
        if cards == []:
            raise _Problem(self.data.position(place(self.line, 0)), f"hand {seat} has no cards", "hand",
                           "1 to 8 cards (or - for an unknown hand)", DealError)
        self.data.hands.append((seat, cards, place(self.line, 0), comments))

    def check_deal(self) -> None:
        """At most four hands, one per seat, no card in two hands (in the order written)."""
        data = self.data
        hands = data.hands
        known = [index for _, cards, _, _ in hands for index in cards or () if index != UNKNOWN]
        if len(hands) <= 4 and len({hand[0] for hand in hands}) == len(hands) and len(set(known)) == len(known):
            return
        seen: list[Seat] = []
        dealt: dict[int, Seat] = {}
        for seat, cards, at, _ in hands:
            if len(seen) == 4:
                raise _Problem(data.position(at), "a fifth hand", "hand", "at most 4 hands, one per seat", DealError)
            if seat in seen:
                raise _Problem(data.position(at), f"a second hand for seat {seat}", "hand", "one hand per seat",
                               DealError)
            seen.append(seat)
            for index in cards or ():
                if index in dealt:
                    text = str(ALL_CARDS[index])
                    raise _Problem(data.position(at + self.card_word(at, index)), f"{text} is dealt twice (hands "
                                   f"{dealt[index]} and {seat})", text, "each card in one hand only", DealError)
                if index != UNKNOWN:
                    dealt[index] = seat

    def card_word(self, at: int, index: int) -> int:
        """The number of the first word of the hand line at ``at`` that is card ``index``."""
        text = logical_line(self.data.text.split("\n"), (at >> WORD_BITS) - self.data.first_line)
        return next(k for k, token in enumerate(words(text)) if k > 1 and CARD_WORDS.get(token) == index)

    def turned_line(self, tokens: list[str]) -> None:
        """``turned <card>`` (or ``??``) and comments."""
        data = self.data
        for k in range(1, len(tokens)):
            token = tokens[k]
            if token[0] == "{" or token[0] == ";":
                data.turned_comments.append(comment_text(token))
            elif data.turned is not None:
                raise self.problem(k, token, END_OF_LINE)
            else:
                found = card(token)
                if found is None or found[1] is not None:
                    raise self.problem(k, token, A_CARD)
                data.turned, data.turned_place = found[0], place(self.line, k)
        if data.turned is None:
            raise self.at_end("unexpected end of the line", A_CARD)

    # --- the taking or the auction --------------------------------------------------------------

    def bidding_line(self, tokens: list[str]) -> None:
        self.data.bidding = tokens[0].lower()
        self.call_line(tokens, 1)

    def call_line(self, tokens: list[str], start: int) -> None:
        """Calls, each with its comments: the line of ``taking``/``auction``, or a line that goes on
        with its calls."""
        data = self.data
        auction = data.bidding == "auction"
        kinds = AUCTION_KINDS if auction else TAKING_KINDS
        calls = data.calls
        for k in range(start, len(tokens)):
            token = tokens[k]
            if token[0] == "{" or token[0] == ";":
                if calls:
                    data.call_comments.setdefault(len(calls) - 1, []).append(comment_text(token))
                else:
                    self.waiting.append(comment_text(token))
                continue
            found = call(token, kinds)
            if found is None:
                shift = 2 if len(token) > 2 and token[1] == ":" else 0
                raise self.problem(k, token[shift:], AUCTION_CALL if auction else TAKING_CALL, shift,
                                   call_out_of_range(token[shift:]))
            if self.waiting:
                data.call_comments[len(calls)] = self.waiting
                self.waiting = []
            calls.append((found[0], found[1], found[2], place(self.line, k)))

    # --- announcements --------------------------------------------------------------------------

    def announce_line(self, tokens: list[str]) -> None:
        """``announce <seat> <meld> <cards>[annotation]`` and comments."""
        comments: list[str] = []
        seat = kind = annotation = None
        at = 0
        cards: list[int] = []
        for k in range(1, len(tokens)):
            token = tokens[k]
            if token[0] == "{" or token[0] == ";":
                comments.append(comment_text(token))
            elif seat is None:
                seat = SEAT_WORDS.get(token)
                if seat is None:
                    raise self.problem(k, token, A_SEAT)
            elif kind is None:
                kind = MELD_WORDS.get(token.lower())
                if kind is None:
                    raise self.problem(k, token, MELD)
                at = place(self.line, k)
            elif annotation is not None:
                raise self.problem(k, token, END_OF_LINE)
            else:
                found = card(token)
                if found is None or found[0] == UNKNOWN:
                    raise self.problem(k, token, f"{A_CARD} or the end of the announcement")
                cards.append(found[0])
                annotation = found[1]
        if seat is None or kind is None or not cards:
            raise self.at_end("unexpected end of the line", A_SEAT if seat is None else MELD if kind is None else A_CARD)
        self.data.announcements.append((seat, kind, tuple(cards), annotation, at, comments))

    # --- the play -------------------------------------------------------------------------------

    def play_line(self, tokens: list[str]) -> None:
        self.trick_line(tokens, 1)

    def trick_line(self, tokens: list[str], start: int) -> None:
        """``[n.] [seat:]card[annotation] [belote|rebelote] {comment} ... [; comment]``: a trick (or
        several, each after its number); a comment before the first card of a line goes to the
        trick before."""
        data = self.data
        plays, tricks = data.plays, data.tricks
        line = self.line << WORD_BITS
        opened = False  # a trick is open on this line (after its number or its first card)
        cards = 0  # in the open trick
        for k in range(start, len(tokens)):
            token = tokens[k]
            if token[0] == "{" or token[0] == ";":
                text = comment_text(token)
                if not opened:
                    if tricks:
                        data.trick_comments.setdefault(len(tricks) - 1, []).append(text)
                    else:
                        self.waiting.append(text)
                elif token[0] == "{" and cards:
                    data.play_comments.setdefault(len(plays) - 1, []).append(text)
                else:
                    data.trick_comments.setdefault(len(tricks) - 1, []).append(text)
                continue
            found = KNOWN_PLAYS.get(token)
            if found is None:
                if token.lower() in DECLARATION_WORDS:
                    number = len(plays) - 1
                    if not cards or number in data.declarations or number in data.play_comments:
                        raise self.problem(k, token, A_CARD)
                    data.declarations[number] = token.lower()
                    continue
                label = trick_number(token)
                if label is not None:
                    after_label = opened and not cards  # a number right after a number
                    expected = len(tricks) if after_label else len(tricks) + 1
                    if after_label or label != expected:
                        raise self.problem(k, token, f"trick number {expected}. (or none)")
                    self.open_trick(line | k)
                    opened, cards = True, 0
                    continue
                found = played(token)
                if found is None:
                    shift = 2 if len(token) > 2 and token[1] == ":" and token[0] in SEAT_WORDS else 0
                    raise self.problem(k, token[shift:], f"{A_CARD} or the end of the trick", shift)
            if not opened:
                self.open_trick(line | k)
                opened = True
            elif cards == 4:
                raise self.problem(k, token, "at most 4 cards in a trick (one trick per line)",
                                   2 if found[1] else 0, what=f"a fifth card in trick {len(tricks)}")
            plays.append((found[0], found[1], found[2], line | k))
            cards += 1
        if opened and not cards:
            raise self.at_end("unexpected end of the trick", A_CARD)

    def open_trick(self, at: int) -> None:
        data = self.data
        if self.waiting:
            data.trick_comments[len(data.tricks)] = self.waiting
            self.waiting = []
        data.tricks.append((len(data.plays), at))

    def claim_line(self, tokens: list[str]) -> None:
        """``claim <seat>`` and comments."""
        comments: list[str] = []
        seat = None
        at = 0
        for k in range(1, len(tokens)):
            token = tokens[k]
            if token[0] == "{" or token[0] == ";":
                comments.append(comment_text(token))
            elif seat is not None:
                raise self.problem(k, token, END_OF_LINE)
            else:
                seat = SEAT_WORDS.get(token)
                if seat is None:
                    raise self.problem(k, token, A_SEAT)
                at = place(self.line, k)
        if seat is None:
            raise self.at_end("unexpected end of the line", A_SEAT)
        self.data.claim = (seat, at, comments)
