"""Scoring: one deal (rules.md §1, §7, §9) and a match, as pure functions of data.

``finished_deal(state, melds)`` turns a finished ``PlayState`` into a
``FinishedDeal`` value; ``score_deal(deal, rules)`` gives a ``DealScore`` with the
whole breakdown; ``MatchState`` keeps the running totals, the litige hold and the
winner.
"""

from __future__ import annotations

import enum
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Protocol, Sequence

from notation.values import Denomination, Seat, Team

from .contract import Contract
from .melds import NO_MELDS, Meld, MeldOutcome, score_melds
from .play import PlayState
from .rules import Rules

TEAMS = (Team.NS, Team.EW)  # index = seat index & 1
_NORTH_SOUTH = (Seat.NORTH, Seat.SOUTH)  # Seat.team is a Python-level property
_NO_MELDS_BY_SEAT: Mapping[Seat, tuple[Meld, ...]] = MappingProxyType({})


def _team_index(team: Team) -> int:
    return 0 if team is Team.NS else 1


class Outcome(enum.Enum):
    MADE = "made"
    FAILED = "failed"  # "dedans"
    LITIGE = "litige"  # classic tie: the takers' points are held
    VOID = "void"  # nobody took: no score (§9.12)

    def __str__(self) -> str:
        return self.value


class FinishedDeal(NamedTuple):
    """What scoring needs to know about a deal that has been played out.

    ``card_points`` and ``belote`` are (NS, EW); ``belote`` holds only the belotes the
    sides are entitled to; ``tricks`` is per seat N E S W; ``melds`` the declared
    (valid) melds per seat; ``first_player`` led trick 1 (for ``meld_tie=first``).
    """

    contract: Contract | None
    card_points: tuple[int, int] = (0, 0)
    last_trick: Team | None = None
    tricks: tuple[int, int, int, int] = (0, 0, 0, 0)
    belote: tuple[int, int] = (0, 0)
    melds: Mapping[Seat, Sequence[Meld]] = _NO_MELDS_BY_SEAT
    first_player: Seat | None = None

    @property
    def capot(self) -> Team | None:
        """The side that took all 8 tricks, if any."""
        if self.tricks[0] + self.tricks[2] == 8:
            return Team.NS
        if self.tricks[1] + self.tricks[3] == 8:
            return Team.EW
        return None


def finished_deal(state: PlayState, melds_by_seat: Mapping[Seat, Sequence[Meld]] | None = None) -> FinishedDeal:
    """The scoring input of a finished (or claimed) play."""
    if not state.is_over:
        raise ValueError("the deal is not over: it cannot be scored yet")
    return FinishedDeal(state.contract, state.card_points(), state.last_trick_team, state.trick_counts(),
                        state.belote_points(), melds_by_seat or _NO_MELDS_BY_SEAT, state.first_leader)


class SideScore(NamedTuple):
    """One side's breakdown. ``points`` is P of §7 (cards + last trick, after the capot
    rule and TA scaling); ``total`` is Tot = P + belote + melds; ``score`` the deal score."""

    team: Team
    role: str  # "takers" or "defenders"
    card_points: int
    last_trick: int
    points: int
    belote: int
    melds: int
    total: int
    score: int
    rounding: int = 0  # what rounding added (may be negative)

    def as_dict(self) -> dict[str, Any]:
        return {"team": str(self.team), "role": self.role, "card_points": self.card_points,
                "last_trick": self.last_trick, "points": self.points, "belote": self.belote,
                "melds": self.melds, "total": self.total, "rounding": self.rounding, "score": self.score}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SideScore:
        """The side ``as_dict`` gave."""
        return cls(Team.parse(data["team"]), data["role"], data["card_points"], data["last_trick"], data["points"],
                   data["belote"], data["melds"], data["total"], data["score"], data["rounding"])


class DealScore(NamedTuple):
    """The score of one deal with its breakdown, per team and per role."""

    contract: Contract | None
    outcome: Outcome
    ns: SideScore | None
    ew: SideScore | None
    contract_value: int = 0
    multiplier: int = 1
    capot: Team | None = None
    litige_hold: int = 0  # the takers' points held after a classic tie
    meld_team: Team | None = None
    formula: str = ""

    @property
    def takers(self) -> Team | None:
        return self.contract.taker.team if self.contract else None

    @property
    def defenders(self) -> Team | None:
        return self.contract.taker.team.other if self.contract else None

    def side(self, team: Team) -> SideScore | None:
        return self.ns if team is Team.NS else self.ew

    def score(self, team: Team) -> int:
        side = self.side(team)
        return side.score if side else 0

    @property
    def scores(self) -> tuple[int, int]:
        """(NS, EW) deal scores."""
        ns, ew = self.ns, self.ew  # what score() says, without its two calls a side
        return ns.score if ns else 0, ew.score if ew else 0

    @property
    def takers_score(self) -> int:
        return self.score(self.takers) if self.takers else 0

    @property
    def defenders_score(self) -> int:
        return self.score(self.defenders) if self.defenders else 0

    def lines(self) -> list[str]:
        """A human breakdown, one line per fact."""
        if self.outcome is Outcome.VOID or self.contract is None:
            return ["void deal: nobody took, no score"]
        lines = [f"contract {self.contract} (takers {self.takers})"]
        for side in (self.ns, self.ew):
            assert side is not None
            lines.append(f"{side.team} ({side.role}): cards {side.card_points} + last trick {side.last_trick}"
                         f" -> {side.points}, belote {side.belote}, melds {side.melds}: total {side.total}")
        if self.capot:
            lines.append(f"capot by {self.capot}")
        lines.append(f"{self.outcome}: {self.formula}")
        if any(s.rounding for s in (self.ns, self.ew) if s):
            lines.append("rounding: " + ", ".join(f"{s.team} {s.rounding:+d}" for s in (self.ns, self.ew) if s))
        if self.litige_hold:
            lines.append(f"litige: {self.litige_hold} held for the winner of the next scored deal")
        lines.append(f"score NS {self.score(Team.NS)}, EW {self.score(Team.EW)}")
        return lines

    def as_dict(self) -> dict[str, Any]:
        return {"contract": str(self.contract) if self.contract else None, "outcome": str(self.outcome),
                "takers": str(self.takers) if self.takers else None,
                "contract_value": self.contract_value, "multiplier": self.multiplier,
                "capot": str(self.capot) if self.capot else None, "litige_hold": self.litige_hold,
                "meld_team": str(self.meld_team) if self.meld_team else None, "formula": self.formula,
                "sides": [s.as_dict() for s in (self.ns, self.ew) if s], "score": list(self.scores)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealScore:
        """The score ``as_dict`` gave."""
        sides = {side.team: side for side in map(SideScore.from_dict, data["sides"])}
        contract = Contract.parse(data["contract"]) if data["contract"] else None
        return cls(contract, Outcome(data["outcome"]), sides.get(Team.NS), sides.get(Team.EW), data["contract_value"],
                   data["multiplier"], _team_or_none(data["capot"]), data["litige_hold"],
                   _team_or_none(data["meld_team"]), data["formula"])


def _team_or_none(text: str | None) -> Team | None:
    return Team.parse(text) if text else None


def void_deal_score() -> DealScore:
    """A deal nobody took scores 0 (§9.12)."""
    return DealScore(None, Outcome.VOID, None, None)


# --- points of the cards -------------------------------------------------------

def round_points(points: int, rounding: str) -> int:
    """§7 rounding to the nearest 10: ``nearest10_5up`` 85 -> 90, ``nearest10_5down`` 85 -> 80."""
    if rounding == "nearest10_5up":
        return (points + 5) // 10 * 10
    if rounding == "nearest10_5down":
        return (points + 4) // 10 * 10
    return points


def _scale_ta(points: int) -> int:
    """raw_scaled TA: points x 162 / 258, rounded half up (never exactly half: 258 = 2 x 129)."""
    return (points * 162 * 2 + 258) // (2 * 258)


def trick_points(deal: FinishedDeal, rules: Rules) -> tuple[tuple[int, int], tuple[int, int]]:
    """(last-trick bonus, P) for NS and EW, per §1 (capot_score, raw_scaled)."""
    capot = deal.capot
    scaled = rules.ta_values == "raw_scaled" and deal.contract is not None and \
        deal.contract.denomination is Denomination.ALL_TRUMPS
    bonus, points = [0, 0], [0, 0]
    for i, team in enumerate(TEAMS):
        bonus[i] = 10 if deal.last_trick is team else 0
        cards = deal.card_points[i]
        if scaled:
            points[i] = _scale_ta(cards + bonus[i])
        else:
            if capot is team and rules.capot_score == "der100":
                bonus[i] = 100
            points[i] = cards + bonus[i]
        if capot is team:
            if rules.capot_score == "flat250":
                points[i] = 250  # §9.2: 250 in all, no extra 10
            elif scaled:
                points[i] += 90  # §1: a capot adds 90 after scaling
    return (bonus[0], bonus[1]), (points[0], points[1])


# --- one deal -------------------------------------------------------------------

class _Sheet:
    """Working values of one deal, indexed by role: 0 takers, 1 defenders."""

    __slots__ = ("points", "belote", "melds", "rounding", "adjust", "totals", "tests")

    def __init__(self, points: list[int], belote: list[int], melds: list[int], rounding: str,
                 melds_in_contract: bool = True) -> None:
        self.points, self.belote, self.melds, self.rounding = points, belote, melds, rounding
        self.adjust = [0, 0]  # what rounding added per role
        self.totals = (points[0] + belote[0] + melds[0], points[1] + belote[1] + melds[1])  # Tot per role
        # What decides the contract: Tot, or P + B where melds play no part (melds_in_contract=false:
        # 000 "카드 점수가 과반인 82점 이상", 92 with a belote; 002 "선언 점수는 최종 계산과 무관하다").
        self.tests = self.totals if melds_in_contract else (points[0] + belote[0], points[1] + belote[1])

    def failure_split(self, rules: Rules) -> tuple[int, int, int, int]:
        """Where a failed contract's belotes and melds go (§9.5): the takers' belote and melds
        they keep, then the melds and belotes the defence scores."""
        (b_t, b_d), (a_t, a_d) = self.belote, self.melds
        kept, lost = rules.belote_kept_on_failure, rules.melds_lost_on_failure
        return (b_t if kept else 0), (0 if lost else a_t), a_d + (a_t if lost else 0), b_d + (0 if kept else b_t)

    def rounded(self, role: int, value: int) -> int:
        if self.rounding == "none":
            return value
        result = round_points(value, self.rounding)
        self.adjust[role] += result - value
        return result


def score_deal(deal: FinishedDeal, rules: Rules) -> DealScore:
    """The deal score with its breakdown, per rules.md §7 under ``rules``."""
    contract = deal.contract
    if contract is None:
        return void_deal_score()
    t = 0 if contract.taker in _NORTH_SOUTH else 1  # team index of the takers; 1 - t: defenders
    d = 1 - t
    bonus, points = trick_points(deal, rules)
    melds = _meld_outcome(deal, rules) if deal.melds else NO_MELDS
    sheet = _Sheet([points[t], points[d]], [deal.belote[t], deal.belote[d]], [melds.points[t], melds.points[d]],
                   rules.rounding, rules.melds_in_contract)
    if rules.game == "coinche":
        value, multiplier, hold = contract.contract_value(rules), contract.multiplier(rules), 0
        outcome, scores, formula = _score_coinche(deal, contract, rules, sheet, TEAMS[t], value, multiplier)
    else:
        outcome, scores, hold, formula = _score_classic(deal, rules, sheet, TEAMS[t])
        value, multiplier = 0, 1
    cards, totals = deal.card_points, sheet.totals
    takers = SideScore(TEAMS[t], "takers", cards[t], bonus[t], points[t], sheet.belote[0], sheet.melds[0],
                       totals[0], scores[0], sheet.adjust[0])
    defenders = SideScore(TEAMS[d], "defenders", cards[d], bonus[d], points[d], sheet.belote[1], sheet.melds[1],
                          totals[1], scores[1], sheet.adjust[1])
    ns, ew = (takers, defenders) if t == 0 else (defenders, takers)
    return DealScore(contract, outcome, ns, ew, value, multiplier, deal.capot, hold, melds.team, formula)


def _meld_outcome(deal: FinishedDeal, rules: Rules) -> MeldOutcome:
    if not deal.melds or not rules.melds or deal.contract is None:
        return NO_MELDS
    first = deal.first_player or deal.contract.taker
    return score_melds(deal.melds, deal.contract.denomination, first, rules)


def _score_classic(deal: FinishedDeal, rules: Rules, sheet: _Sheet,
                   takers: Team) -> tuple[Outcome, tuple[int, int], int, str]:
    tot_t, tot_d = sheet.totals
    test_t, test_d = sheet.tests
    outcome = Outcome.MADE if test_t > test_d else Outcome.FAILED if test_t < test_d else Outcome.LITIGE
    if outcome is Outcome.LITIGE and rules.tie != "litige":
        outcome = Outcome(rules.tie)
    if outcome is Outcome.MADE:
        if rules.made_melds == "takers" and sheet.melds[1]:
            # 000: the winning takers score "카드 조합 점수", the deal's melds, whichever side showed them.
            moved = sheet.melds[1]
            return outcome, (sheet.rounded(0, tot_t + moved), sheet.rounded(1, tot_d - moved)), 0, \
                f"each side scores its total ({tot_t} - {tot_d}), the defence's melds {moved} to the takers"
        return outcome, (sheet.rounded(0, tot_t), sheet.rounded(1, tot_d)), 0, \
            f"each side scores its total ({tot_t} - {tot_d})"
    if outcome is Outcome.LITIGE:
        # Melds outside the contract and never lost (002, 003) are no part of the hold: scored now.
        aside = sheet.melds[0] if not rules.melds_in_contract and not rules.melds_lost_on_failure else 0
        # §9.7: the hold is rounded when it is created.
        hold = round_points(tot_t - aside, rules.rounding)
        kept = f", their melds {aside} scored now" if aside else ""
        return outcome, (sheet.rounded(0, aside), sheet.rounded(1, tot_d)), hold, \
            f"tie {test_t} - {test_d}: defenders score {tot_d}, the takers' {tot_t - aside} is held{kept}"
    defence_capot = deal.capot is takers.other
    base = rules.failure_base + (90 if defence_capot else 0)
    takers_score, defenders_score, formula = _failure_parts(rules, sheet, base)
    return outcome, (sheet.rounded(0, takers_score), sheet.rounded(1, defenders_score)), 0, formula


def _failure_parts(rules: Rules, sheet: _Sheet, base: int) -> tuple[int, int, str]:
    """Classic dedans: (takers, defenders, formula) before rounding."""
    belote_kept, melds_kept, melds_to_defence, belotes = sheet.failure_split(rules)
    takers = belote_kept + melds_kept
    defenders = base + belotes + melds_to_defence
    return takers, defenders, f"defenders {base} + belote + melds = {defenders}, takers {takers}"


def coinche_made(deal: FinishedDeal, contract: Contract, rules: Rules, tot_t: int, tot_d: int,
                 value: int | None = None) -> bool:
    """§7 coinche and §9.4: whether the contract is made (unrounded totals); ``value``:
    the contract value C, when the caller has it."""
    if contract.generale or contract.capot:
        # A capot belote or générale belote (003) also needs a belote of the takers: "Capot에 Belote도 선언".
        if contract.belote and not deal.belote[contract.taker.index & 1]:
            return False
        if contract.generale:
            return deal.tricks[contract.taker.index] == 8
        return deal.capot is contract.taker.team
    if value is None:
        value = contract.contract_value(rules)
    needed = 82 if rules.bid80_needs_82 and value == 80 else value
    return tot_t >= needed and (not rules.must_beat_defence or tot_t > tot_d)


def _score_coinche(deal: FinishedDeal, contract: Contract, rules: Rules, sheet: _Sheet, takers: Team,
                   c: int, m: int) -> tuple[Outcome, tuple[int, int], str]:
    """``c`` and ``m``: the contract value and the multiplier of §7."""
    # No litige at coinche (§7 gives `tie` to classic only): a tie fails where the takers must beat the defence.
    if rules.capot_contract_score == "value" and (contract.capot or contract.generale):
        return _capot_contract_value(coinche_made(deal, contract, rules, *sheet.tests, c), rules, sheet, c, m)
    if coinche_made(deal, contract, rules, *sheet.tests, c):
        return (Outcome.MADE, *_coinche_made(deal, rules, sheet, takers, c, m))
    # failure_contract=false (003: "방어측 점수=카드 점수 총합+선언"): the defence of a failed bid
    # scores no contract value (a capot or générale keeps it: "방어측은 500+선언").
    lost = c if rules.failure_contract or contract.capot or contract.generale else 0
    return (Outcome.FAILED, *_coinche_failed(rules, sheet, lost, m))


def _coinche_made(deal: FinishedDeal, rules: Rules, sheet: _Sheet, takers: Team,
                  c: int, m: int) -> tuple[tuple[int, int], str]:
    """A made coinche contract: (takers, defenders) and the formula, per ``multiplier_scope``."""
    tot_t, tot_d = sheet.totals
    b_t, b_d = sheet.belote
    a_t, a_d = sheet.melds
    scope = rules.multiplier_scope
    if scope == "points_made":
        # 000: "얻는 점수의 2배 (+ 수비 팀의 카드 조합 점수)": the takers' points and contract times M,
        # plus the defence's melds; the defence keeps its cards (M = 1) or nothing, and its belote.
        defenders = sheet.rounded(1, tot_d - a_d) if m == 1 else b_d
        return ((sheet.rounded(0, tot_t) + c) * m + a_d, defenders), \
            f"takers ({tot_t} + {c}) x {m} + defence melds {a_d}, defenders {defenders}"
    if scope == "deal_scores":
        # 004: "그 게임은 점수가 두 배가 된다": both scores of the deal, times M.
        return ((sheet.rounded(0, tot_t) + c) * m, sheet.rounded(1, tot_d) * m), \
            f"takers ({tot_t} + {c}) x {m}, defenders {tot_d} x {m}"
    if m == 1 or scope == "contract_only":
        return (sheet.rounded(0, tot_t) + c * m, sheet.rounded(1, tot_d)), \
            f"takers {tot_t} + {c}x{m}, defenders {tot_d}"
    base = rules.failure_base + (90 if deal.capot is takers else 0)
    made = sheet.rounded(0, base + a_t + a_d)
    if scope == "whole":
        return ((made + c) * m + b_t, b_d), \
            f"takers ({base} + melds {a_t + a_d} + {c}) x {m} + belote {b_t}, defenders belote {b_d}"
    return (made + c * m + b_t + b_d, 0), \
        f"takers {base} + {c} x {m} + melds {a_t + a_d} + belote {b_t + b_d}, defenders 0"


def _coinche_failed(rules: Rules, sheet: _Sheet, c: int, m: int) -> tuple[tuple[int, int], str]:
    """A failed coinche contract: (takers, defenders) and the formula, per ``multiplier_scope``."""
    scope = rules.multiplier_scope
    # melds_lost_on_failure=false (§9.5): the takers keep their own melds, unmultiplied (FFB practice).
    belote_kept, melds_kept, defence_melds, belotes = sheet.failure_split(rules)
    takers_score = belote_kept + sheet.rounded(0, melds_kept)
    made = sheet.rounded(1, rules.failure_base + defence_melds)
    if scope == "whole":
        defenders = (made + c) * m + belotes
        formula = f"defenders ({rules.failure_base} + melds {defence_melds} + {c}) x {m} + belote {belotes}"
    elif scope in ("points_made", "deal_scores"):
        # 000: "162점 + 공약 점수 (+ 카드 조합 점수 + 블로트-르블로트) ... 얻는 점수의 2배"; 004: the
        # deal's scores doubled (the takers' kept belote too).
        defenders = (made + c + belotes) * m
        formula = f"defenders ({rules.failure_base} + {c} + melds {defence_melds} + belote {belotes}) x {m}"
        if scope == "deal_scores":
            takers_score *= m
    else:
        defenders = made + c * m + belotes
        formula = f"defenders {rules.failure_base} + {c} x {m} + melds {defence_melds} + belote {belotes}"
    return (takers_score, defenders), f"{formula}, takers {takers_score}"


def _capot_contract_value(made: bool, rules: Rules, sheet: _Sheet, c: int,
                          m: int) -> tuple[Outcome, tuple[int, int], str]:
    """``capot_contract_score=value`` (003): a capot or générale contract, belote or not, scores
    its value C in place of the card points ("공격측에 500+선언, 방어측은 선언만"; failed: "공격측은
    보통 공약 실패했을때처럼, 방어측은 500+선언"); M multiplies C only (003: "공약만 2배"). Melds
    and belotes go as on any contract."""
    b_t, b_d = sheet.belote
    a_t, a_d = sheet.melds
    if made:
        return Outcome.MADE, (c * m + a_t + b_t, a_d + b_d), \
            f"takers {c} x {m} + melds {a_t} + belote {b_t}, defenders melds {a_d} + belote {b_d}"
    belote_kept, melds_kept, melds, belotes = sheet.failure_split(rules)
    takers = belote_kept + melds_kept
    return Outcome.FAILED, (takers, c * m + melds + belotes), \
        f"defenders {c} x {m} + melds {melds} + belote {belotes}, takers {takers}"


# --- a match --------------------------------------------------------------------

class MatchOverError(ValueError):
    """A deal added after the match was won."""


class CountedDeal(Protocol):
    """What a match counts of a deal: a ``DealScore``, or a recorded Result that could not be
    rescored (``check.matches``)."""

    @property
    def outcome(self) -> Outcome: ...

    @property
    def scores(self) -> tuple[int, int]: ...

    @property
    def litige_hold(self) -> int: ...

    @property
    def takers(self) -> Team | None: ...

    @property
    def defenders(self) -> Team | None: ...

    def score(self, team: Team) -> int: ...


class MatchState:
    """Running totals of a match (§7): litige holds carried on, the target, the winner."""

    def __init__(self, rules: Rules | None = None, *, target: int | None = None) -> None:
        if target is None:
            if rules is None:
                raise ValueError("MatchState needs rules or a target")
            target = rules.target
        self.target = target
        # match_end=exceed (000, 002, 004 "넘은"): a side must pass the target, not reach it.
        self.exceed = rules is not None and rules.match_end == "exceed"
        self._totals = [0, 0]
        self.pending_litige = 0  # held points waiting for the next scored deal
        self.deals: list[CountedDeal] = []
        self.winner: Team | None = None

    @property
    def totals(self) -> tuple[int, int]:
        """(NS, EW) match totals."""
        return self._totals[0], self._totals[1]

    def total(self, team: Team) -> int:
        return self._totals[_team_index(team)]

    def resume(self, totals: tuple[int, int]) -> None:
        """Go on from ``totals``: the deals that led there are not known (an excerpt of a match)."""
        self._totals = list(totals)

    def add(self, deal: CountedDeal) -> None:
        if self.winner is not None:
            raise MatchOverError(f"the match is over: {self.winner} won")
        self.deals.append(deal)
        if deal.outcome is Outcome.VOID:
            return  # a void deal carries a hold on
        self._totals[0] += deal.score(Team.NS)
        self._totals[1] += deal.score(Team.EW)
        if deal.outcome is Outcome.LITIGE:
            self.pending_litige += deal.litige_hold  # holds add up
        elif self.pending_litige:
            beneficiary = deal.takers if deal.outcome is Outcome.MADE else deal.defenders
            assert beneficiary is not None
            self._totals[_team_index(beneficiary)] += self.pending_litige
            self.pending_litige = 0
        self.winner = self._decide(deal)

    def _decide(self, deal: CountedDeal) -> Team | None:
        ns, ew = self._totals
        if self.exceed:
            if max(ns, ew) <= self.target:
                return None
            if ns == ew:  # 000: "양팀이 정한 점수를 초과했고, 동점이라면, 마지막 게임에서 승리한 팀이 ... 승리"
                return _deal_winner(deal)  # a litige has no winner: play on
        elif max(ns, ew) < self.target or ns == ew:
            return None  # equal totals at or over the target: play on
        return Team.NS if ns > ew else Team.EW


def _deal_winner(deal: CountedDeal) -> Team | None:
    """The side that won a deal: the takers of a made contract, the defence of a failed one."""
    if deal.outcome is Outcome.MADE:
        return deal.takers
    return deal.defenders if deal.outcome is Outcome.FAILED else None
