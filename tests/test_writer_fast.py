"""The writer's look-up tables are only a short cut: values they miss are written the same way."""

from __future__ import annotations

from notation import Call, CallEntry, CallKind, Card, CardEntry, Hand, Record, Seat, Trick, parse_record, write_record
from notation.values import Denomination, Rank, Suit
from notation.record import Announcement, MeldKind
from notation_samples import CLASSIC, COINCHE


def fresh(card: Card) -> Card:
    """An equal Card that is not one of the interned 32."""
    return Card(card.rank, card.suit)


def test_cards_built_outside_the_interned_ones_are_written_the_same():
    jack, ten = Card.parse("JH"), Card.parse("TS")
    assert fresh(jack) is not jack and fresh(jack) == jack
    def record(make):
        return Record(hands=(Hand(Seat.NORTH, (make(jack), None, make(ten))),), turned=make(jack),
                      announcements=(Announcement(Seat.SOUTH, MeldKind.TIERCE, (make(ten), make(jack))),),
                      tricks=(Trick((CardEntry(make(jack), Seat.WEST), CardEntry(make(ten), None, "belote", "!"))),))
    expected = "hand N TS JH ??\nturned JH\nannounce S tierce TS JH\nplay\n1. W:JH TS! belote\n"
    assert write_record(record(lambda card: card)) == expected == write_record(record(fresh))


def test_every_sample_record_is_written_the_same_with_fresh_cards_and_calls():
    for text in (CLASSIC, COINCHE):
        record = parse_record(text)
        def entries(calls):
            return calls and tuple(CallEntry(Call(e.call.kind, e.call.denomination, e.call.value), e.seat, e.annotation,
                                             e.comments) for e in calls)
        rebuilt = Record(
            tags=record.tags, comments=record.comments, turned=record.turned and fresh(record.turned),
            hands=tuple(Hand(h.seat, h.cards and tuple(c and fresh(c) for c in h.cards), h.comments) for h in record.hands),
            taking=entries(record.taking), auction=entries(record.auction), announcements=record.announcements,
            tricks=tuple(Trick(tuple(CardEntry(e.card and fresh(e.card), e.seat, e.declaration, e.annotation, e.comments)
                                     for e in t.plays), t.comments) for t in record.tricks),
            claim=record.claim, stopped=record.stopped, turned_comments=record.turned_comments)
        assert rebuilt == record and write_record(rebuilt) == write_record(record) == text


def test_many_distinct_calls_and_tricks_past_32_are_written_in_full():
    calls = tuple(CallEntry(Call(CallKind.BID, Denomination.HEARTS, value), Seat.NORTH) for value in range(1500))
    text = write_record(Record(auction=calls))
    assert text == "auction " + " ".join(f"N:{value}H" for value in range(1500)) + "\n"
    tricks = tuple(Trick((CardEntry(Card.of(Rank.ACE, Suit.SPADES), Seat.EAST),)) for _ in range(34))
    lines = write_record(Record(tricks=tricks)).split("\n")
    assert lines[33:35] == ["33. E:AS", "34. E:AS"]
