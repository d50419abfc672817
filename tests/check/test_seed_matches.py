"""The end of a match as the seed pages say (../shared/seeds/000, 002, 004): a side must pass
the target; both over and level, the winner of the last deal wins (``match_end=exceed``)."""

from __future__ import annotations

from notation.values import Denomination, Seat, Team
from replayer.check.matches import check_match
from replayer.check.report import Report
from replayer.check.scoresheet import score_sheet
from replayer.engine.contract import Contract
from replayer.engine.rules import Rules
from replayer.engine.scoring import DealScore, FinishedDeal, score_deal

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
DEALERS = (N, E, S, W)  # clockwise
# The old `korean` and `korean-coinche` profiles spelt out (those names now alias the 000 profiles):
# classic with melds, team sums, clockwise, the dealer first, to 500; and their coinche.
KOREAN = ("ffb-annonces; direction=cw; first_speaker=dealer; first_leader=dealer; meld_compare=team_sum; "
          "target=500")


def made_by_north(card_points: int) -> DealScore:
    """North takes hearts and makes it: NS card points + 10, EW the rest of 152."""
    deal = FinishedDeal(Contract(N, Denomination.HEARTS), (card_points, 152 - card_points), Team.NS, (2, 2, 2, 2))
    return score_deal(deal, Rules.parse(KOREAN))


def report(index: int, number: int, score: DealScore, before: str, rules: str) -> Report:
    dealer = DEALERS[(number - 1) % 4]
    tags = (("Event", "Club"), ("Deal", str(number)), ("Dealer", str(dealer)), ("Score", before))
    return Report(index, (), Rules.parse(rules), tags, dealer, score, score.scores, (index * 20 + 1, index * 20 + 19))


def to_500(rules: str) -> list[Report]:
    """Five deals: NS stands at exactly 500 after the fourth."""
    points = (100, 100, 130, 130, 100)
    befores = ("0-0", "110-52", "220-104", "360-126", "500-148")
    return [report(i, i + 1, made_by_north(p), before, rules) for i, (p, before) in enumerate(zip(points, befores))]


def rules_of(match) -> list[tuple[str, int | None]]:
    return [(f.rule, f.location.record) for f in match.findings]


def test_000_500_is_not_over_500():
    """000: "게임이 끝난 뒤 500점을 넘은 팀이 있을 경우 모든 게임은 종료되고" (002, 004: "넘은") — at
    exactly the target the match goes on under match_end=exceed; the default ends it there."""
    reach = check_match(to_500(KOREAN))
    assert rules_of(reach) == [("match-over", 4)]
    assert reach.winner is Team.NS and reach.totals == (500, 148)
    exceed = check_match(to_500(KOREAN + "; match_end=exceed"))
    assert rules_of(exceed) == []
    assert exceed.winner is Team.NS and exceed.totals == (610, 200)
    sheet = score_sheet(to_500(KOREAN + "; match_end=exceed"))
    assert sheet.winning_deal == 5 and [row.outcome for row in sheet.rows] == ["made"] * 5


def level(rules: str) -> list[Report]:
    """Deals 7 and 8 of a match (the first six not in the file), North making both: 530-530 after deal 7."""
    return [report(0, 7, made_by_north(100), "420-478", rules), report(1, 8, made_by_north(100), "530-530", rules)]


def test_000_level_over_the_target_the_last_deals_winner_wins():
    """000: "만약 양팀이 정한 점수를 초과했고, 동점이라면, 마지막 게임에서 승리한 팀이 최종적으로
    승리한다" — 530-530 after a deal North made: NS wins, and a deal after it is reported; the
    default plays on at equal totals."""
    match = check_match(level(KOREAN + "; match_end=exceed"))
    assert match.deals[0].after == (530, 530)
    assert match.winner is Team.NS and rules_of(match) == [("match-over", 1)]
    assert match.findings[0].message == "deal 2 is played after NS won the match (530-530, target 500)"
    default = check_match(level(KOREAN))
    assert rules_of(default) == [] and default.winner is Team.NS and default.totals == (640, 582)
