"""A record cut at one step of its replay: what had been said and played by then ("copy the
record up to this step", ``GET /r/<id>.belote?upto=N``).

The cut is a copy of the stored ``Record`` (``dataclasses.replace``), written by the
notation's writer (``str(record)``), so that it reads back as a record of its own: the
tags, the record's comments, the hands, the turned card, the calls made by the step, the
announcements made by then (each seat announces with its first card:
``AnnouncementView.step``) and the cards played, each with its annotation and comments.
Under ``meld_cards=after_trick1`` a meld is made from the cards won in trick 1: it is in
the cut once that trick is over. The claim and the ``Result`` tag belong to the end of the
deal: a cut before the claim has neither, the claim step has the claim, the end step is the
whole record.
"""

from __future__ import annotations

import dataclasses

from notation.record import CallEntry, Record, Trick
from replayer.engine.rules import Rules

from .steps import CLAIM, END, AnnouncementView, Timeline

RESULT_TAG = "Result"


def cut_record(record: Record, timeline: Timeline, index: int, rules: Rules | None = None) -> Record:
    """``record`` (the one ``timeline`` was built from, under ``rules``) as it stood after step
    ``index`` (clamped)."""
    step = timeline.step(index)
    if step.kind == END:
        return record
    calls = len(timeline.calls_until(step.index))
    cards = sum(1 for played in timeline.card_steps if played.index <= step.index)
    after_trick1 = rules is not None and rules.meld_cards == "after_trick1"
    kept = {id(view.announcement) for view in timeline.announcements if _made(view, step.index, after_trick1)}
    return dataclasses.replace(
        record,
        tags=tuple((name, value) for name, value in record.tags if name != RESULT_TAG),
        taking=_calls(record.taking, calls),
        auction=_calls(record.auction, calls),
        announcements=tuple(a for a in record.announcements if id(a) in kept),
        tricks=record.tricks if step.kind == CLAIM else _tricks(record.tricks, cards),
        claim=record.claim if step.kind == CLAIM else None,
        stopped=False,
    )


def cut_text(record: Record, timeline: Timeline, index: int, rules: Rules | None = None) -> str:
    """The canonical text of the record cut after step ``index``."""
    return str(cut_record(record, timeline, index, rules))


def _made(view: AnnouncementView, index: int, after_trick1: bool) -> bool:
    """Whether the announcement has been made by step ``index``: with its seat's first card, or
    when melds come from the cards won in trick 1, once that trick is over (the validator
    checks such a meld against those cards, which a trick still going does not have yet)."""
    return max(view.step, view.shown) <= index if after_trick1 else view.step <= index


def _calls(calls: tuple[CallEntry, ...] | None, count: int) -> tuple[CallEntry, ...] | None:
    return None if calls is None else calls[:count]


def _tricks(tricks: tuple[Trick, ...], cards: int) -> tuple[Trick, ...]:
    """The first ``cards`` cards of the play in their tricks (a trick's cards past its fourth,
    which the replay has no step for, stay out); a trick none of whose cards is kept goes."""
    kept: list[Trick] = []
    for trick in tricks:
        if cards <= 0:
            break
        plays = trick.plays[:min(cards, 4)]
        cards -= len(plays)
        kept.append(dataclasses.replace(trick, plays=plays) if plays != trick.plays else trick)
    return tuple(kept)
