"""The scoring sentences of the four seed pages (../shared/seeds/000, 002, 003, 004), each
expressed by an option and checked on deals worked out by hand."""

from __future__ import annotations

from notation.values import Card, Denomination, MeldKind, Seat, Team
from replayer.engine.contract import Contract
from replayer.engine.melds import Meld, check_announcement
from replayer.engine.rules import Rules
from replayer.engine.scoring import DealScore, FinishedDeal, MatchState, Outcome, score_deal

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
# The old `korean` and `korean-coinche` profiles spelt out (those names now alias the 000 profiles):
# classic with melds, team sums, clockwise, the dealer first, to 500; and their coinche.
KOREAN = ("ffb-annonces; direction=cw; first_speaker=dealer; first_leader=dealer; meld_compare=team_sum; "
          "target=500")
KOREAN_COINCHE = ("ffb-coinche; undertrump=must; ta_values=pagat; direction=cw; first_speaker=dealer; "
                  "first_leader=dealer; meld_compare=team_sum; ta_must_beat=false; must_beat_defence=false; "
                  "bid80_needs_82=true; failure_base=162; generale=500; decoincher=true; rounding=none")
NS, EW = Team.NS, Team.EW
SPLIT = (3, 2, 2, 1)


def contract(denomination: str = "H", value: int | None = None, doubling: int = 0, *, taker: Seat = N) -> Contract:
    return Contract(taker, Denomination.parse(denomination), value, doubling=doubling)


def deal(c: Contract, ns: int, ew: int, last: Team = NS, belote=(0, 0), melds=None) -> FinishedDeal:
    """NS took ``ns`` card points and EW ``ew`` (last trick not included)."""
    return FinishedDeal(c, (ns, ew), last, SPLIT, belote, melds or {}, N)


def meld(kind: MeldKind, text: str) -> Meld:
    cards = [Card.parse(word) for word in text.split()]
    result = check_announcement(cards, kind, cards, Rules.parse(KOREAN))
    assert isinstance(result, Meld)
    return result


TIERCE_H = meld(MeldKind.TIERCE, "KH QH JH")
TIERCE_S = meld(MeldKind.TIERCE, "KS QS JS")
QUARTE_C = meld(MeldKind.QUARTE, "AC KC QC JC")

# --- item 1: melds do not decide the contract -------------------------------------------------

NAMU = Rules.parse(KOREAN + "; melds_in_contract=false")  # 000 classic with melds: team sums, 500


def test_000_takers_need_a_majority_of_card_points_melds_aside():
    """000 (조합 블로트): "공격 팀의 승리 조건은 팀이 획득한 카드 점수가 과반인 82점 이상" — 64 card
    points against 98 fail, a tierce and a belote notwithstanding; the melds go to the defence
    ("카드 조합 점수도 모조리 수비 팀의 몫"), the belote stays ("승패 상관없이 선언한 팀의 몫")."""
    d = deal(contract(), 54, 98, belote=(20, 0), melds={N: (TIERCE_H,)})
    assert score_deal(d, Rules.parse(KOREAN)).scores == (104, 98)  # today: made thanks to the melds
    score = score_deal(d, NAMU)
    assert score.outcome is Outcome.FAILED
    assert score.scores == (20, 182)


def test_000_footnote_92_with_a_belote():
    """000 footnote [2]: "블로트-르블로트 선언이 있을 경우 92점 이상, 없을 경우 82점 이상" — with a
    belote, 92 (cards, last trick and belote) makes, 91 is the litige; melds count for nothing."""
    made = score_deal(deal(contract(), 62, 90, belote=(20, 0), melds={N: (TIERCE_H,)}), NAMU)
    assert made.outcome is Outcome.MADE and made.scores == (112, 90)
    tie = score_deal(deal(contract(), 61, 91, belote=(20, 0), melds={N: (TIERCE_H,)}), NAMU)
    assert tie.outcome is Outcome.LITIGE and tie.scores == (0, 91) and tie.litige_hold == 111
    plain = score_deal(deal(contract(), 72, 80), NAMU)  # 82 without a belote
    assert plain.outcome is Outcome.MADE and plain.scores == (82, 80)


def test_002_failed_takers_keep_their_melds_but_lose_the_belote():
    """002: "선언 점수는 최종 계산과 무관하다. 그러므로 공격팀이 상대팀보다 점수가 낮아도 빼앗기지
    않는다", and rule 6: "모든 점수(카드+마지막+블로트+완승)를 상대팀에게 빼앗긴다"."""
    rules = Rules.parse(KOREAN + "; melds_in_contract=false; melds_lost_on_failure=false; belote_kept_on_failure=false")
    d = deal(contract(), 50, 102, belote=(20, 0), melds={N: (QUARTE_C,)})
    assert score_deal(d, Rules.parse(KOREAN)).scores == (130, 102)
    score = score_deal(d, rules)
    assert score.outcome is Outcome.FAILED and score.scores == (50, 182)


def test_003_melds_stay_out_of_a_litige():
    """003 (5.2 선언): "이 점수는 라운드의 점수와 무관하며, 공격 성공 여부에는 영향을 미치지 않는다" —
    at a tie the takers' melds are scored at once; only their card points are held."""
    rules = Rules.parse(KOREAN + "; melds_in_contract=false; melds_lost_on_failure=false")
    score = score_deal(deal(contract(), 71, 81, melds={N: (TIERCE_H,)}), rules)
    assert score.outcome is Outcome.LITIGE
    assert score.scores == (20, 81) and score.litige_hold == 81
    failed = score_deal(deal(contract(), 50, 102, belote=(20, 0), melds={N: (QUARTE_C,)}), rules)
    assert failed.scores == (70, 162)  # melds and belote kept, 162 to the defence


def test_000_coinche_melds_still_count_toward_the_contract():
    """000 (쿠앙슈 공약 점수): "카드 점수에 블로트-르블로트 20점과 카드 조합 점수를 모두 더한 점수가
    선언한 점수 이상이어야 한다" — the default, melds_in_contract=true; false is 002/003's reading."""
    d = deal(contract("H", 110), 80, 62, melds={N: (TIERCE_H,)})  # 90 + 20 melds = 110
    assert score_deal(d, Rules.parse(KOREAN_COINCHE)).outcome is Outcome.MADE
    assert score_deal(d, Rules.parse(KOREAN_COINCHE + "; melds_in_contract=false")).outcome is Outcome.FAILED


def test_000_made_takers_score_the_deals_melds():
    """000 (조합 블로트): "양팀 중 더 점수가 높은 카드 조합으로 얻는 점수만 그 게임의 카드 조합 점수로
    인정된다 ... 승리하면 획득한 카드 점수 ... 에 카드 조합 점수를 추가로 얻는다" — made_melds=takers."""
    d = deal(contract(), 90, 62, melds={E: (TIERCE_S,)})
    assert score_deal(d, Rules.parse(KOREAN)).scores == (100, 82)
    score = score_deal(d, Rules.parse(KOREAN + "; made_melds=takers"))
    assert score.scores == (120, 62)
    assert score.formula == "each side scores its total (100 - 82), the defence's melds 20 to the takers"


# --- item 2: equal melds ----------------------------------------------------------------------

def test_000_equal_melds_the_trump_run_wins():
    """000: "같은 점수의 카드 조합이라면, 으뜸패로 이루어진 연속된 카드의 조합이 더 우선된다"."""
    melds = {N: (TIERCE_H,), E: (TIERCE_S,)}
    d = deal(contract("H"), 90, 62, melds=melds)
    assert score_deal(d, Rules.parse(KOREAN)).meld_team is None  # meld_tie=none: nobody
    trump = Rules.parse(KOREAN + "; meld_tie=trump")
    score = score_deal(d, trump)
    assert score.meld_team is NS and score.scores == (120, 62)
    assert score_deal(deal(contract("S"), 90, 62, melds=melds), trump).meld_team is EW
    assert score_deal(deal(contract("D"), 90, 62, melds=melds), trump).meld_team is None  # no trump run


# --- item 5: coinche scoring ------------------------------------------------------------------

NAMU_COINCHE = Rules.parse(KOREAN_COINCHE + "; multiplier_scope=points_made")


def test_000_coinche_made_doubles_the_points_made_plus_defence_melds():
    """000 (공약 달성 성공 시): "쿠앙슈 선언이 유효할 경우 : 얻는 점수의 2배 (+ 수비 팀의 카드 조합
    점수)", defence "0점 (+ '블로트-르블로트')"; not coinched, the defence keeps its card points."""
    d = deal(contract("H", 100, 1), 110, 42, belote=(20, 0), melds={E: (QUARTE_C,)})
    score = score_deal(d, NAMU_COINCHE)
    assert score.outcome is Outcome.MADE
    assert score.scores == ((120 + 20 + 100) * 2 + 50, 0)
    plain = score_deal(deal(contract("H", 100), 110, 42, belote=(0, 20), melds={E: (QUARTE_C,)}), NAMU_COINCHE)
    assert plain.scores == (120 + 100 + 50, 42 + 20)


def test_000_coinche_failed_doubles_everything_the_defence_gets():
    """000 (공약 달성 실패 시): attack "0점 (+ '블로트-르블로트')", defence "162점 + 공약 점수 (+ '카드
    조합 점수' + '블로트-르블로트')", "쿠앙슈 선언이 유효할 경우 : 얻는 점수의 2배"."""
    d = deal(contract("S", 120, 1, taker=E), 92, 60, last=EW, belote=(20, 20), melds={N: (TIERCE_H,)})
    score = score_deal(d, NAMU_COINCHE)
    assert score.outcome is Outcome.FAILED
    assert score.scores == ((162 + 120 + 20 + 20) * 2, 20)


CLUB = Rules.parse("ffb-coinche; melds=false; rounding=none; must_beat_defence=false; multiplier_scope=deal_scores")


def test_004_page_examples_and_the_doubled_deal():
    """004: "125 ♠를 선언했고 140점을 획득했다면, 125 + 140 = 265점", "125 + 160 = 285점", and on a
    coinche "그 게임은 점수가 두 배가 된다" — both sides' scores doubled."""
    made = score_deal(deal(contract("S", 125), 130, 22), CLUB)
    assert made.scores == (265, 22)
    failed = score_deal(deal(contract("S", 125), 100, 52), CLUB)
    assert failed.outcome is Outcome.FAILED and failed.scores == (0, 285)
    assert score_deal(deal(contract("S", 125, 1), 130, 22), CLUB).scores == (530, 44)
    assert score_deal(deal(contract("S", 125, 1), 100, 52), CLUB).scores == (0, 570)


def test_004_failure_gives_contract_plus_160_and_the_defence_belote():
    """004: "상대 팀은 실패한 팀의 선언 숫자와 160을 더한만큼 점수를 얻는다" and "게임 도중 블로트를
    선언한 팀은 20점을 추가로 얻는다" (the defence's belote is its own)."""
    failed = score_deal(deal(contract("S", 125), 80, 72, belote=(0, 20)), CLUB)
    assert failed.scores == (0, 125 + 160 + 20)


# --- item 12 (scoring): 003 rounding and failure ---------------------------------------------

SATA = Rules.parse("ffb-coinche; multiplier_scope=contract_only; must_beat_defence=false; failure_base=162")


def test_003_scores_rounded_at_the_units_half_up():
    """003: "점수계산 첫자리에서 반올림하며" — 85 -> 90, 77 -> 80 (rounding=nearest10_5up), and
    "이때 점수는 공약만 2배가 된다" (contract_only)."""
    score = score_deal(deal(contract("H", 80), 75, 77), SATA)
    assert score.scores == (90 + 80, 80)
    assert score_deal(deal(contract("H", 80, 1), 75, 77), SATA).scores == (90 + 160, 80)


def test_003_failed_contract_gives_the_defence_the_card_points_and_melds():
    """003 (실패): "공격측 점수=0+Belote 선언을 한 경우 20점 (나머지는 방어측에게)", "방어측 점수=카드
    점수 총합+선언" — failure_contract=false: 162 (rounded 160) + melds, no contract value."""
    d = deal(contract("H", 100), 60, 92, belote=(20, 0), melds={E: (TIERCE_S,)})
    assert score_deal(d, SATA).scores == (20, 160 + 100 + 20)
    literal = score_deal(d, SATA.replace(failure_contract=False))
    assert literal.scores == (20, 180)


# --- item 11: carrés --------------------------------------------------------------------------

def test_003_no_carre_of_nines_and_minor_carres_at_50():
    """003 (5.2): "Quad Jacks: J 4장. 200점. Quad Aces: A 4장. 100점. Quad Tens/Kings/Queens: 50점" —
    no four nines (carre_nines=0); 002: "4장의 동일한 10, K, Q: 50점 / ... 4장의 9: 150점"."""
    nines = [Card.parse(word) for word in "9S 9H 9D 9C".split()]
    sata = Rules.parse(KOREAN + "; carre_minor=50; carre_nines=0")
    problem = check_announcement(nines, MeldKind.CARRE, nines, sata)
    assert not isinstance(problem, Meld) and problem.reason == "not-a-carre"
    assert problem.message == "9♠ 9♥ 9♦ 9♣: four nines are no meld under these rules (carre_nines=0)"
    club = check_announcement(nines, MeldKind.CARRE, nines, Rules.parse(KOREAN + "; carre_minor=50"))
    assert isinstance(club, Meld) and club.value == 150
    kings = [Card.parse(word) for word in "KS KH KD KC".split()]
    assert check_announcement(kings, MeldKind.CARRE, kings, sata).value == 50


# --- item 6: the end of a match ---------------------------------------------------------------

def _made_by_ns() -> DealScore:
    return score_deal(deal(contract(), 100, 52), Rules.parse(KOREAN))  # NS takers 110 - 52


def _failed_by_ns() -> DealScore:
    return score_deal(deal(contract(), 50, 102, last=EW), Rules.parse(KOREAN))  # 0 - 162


def test_000_a_side_must_exceed_the_target():
    """000: "게임이 끝난 뒤 500점을 넘은 팀이 있을 경우 모든 게임은 종료되고" — 500 exactly is not
    over 500 (match_end=exceed); reaching it is enough under the default."""
    reach, exceed = MatchState(Rules.parse(KOREAN)), MatchState(Rules.parse(KOREAN + "; match_end=exceed"))
    for state in (reach, exceed):
        state.resume((390, 0))
        state.add(_made_by_ns())
        assert state.totals == (500, 52)
    assert reach.winner is NS and exceed.winner is None
    exceed.add(_made_by_ns())
    assert exceed.winner is NS


def test_000_both_over_and_level_the_last_deals_winner_wins():
    """000: "만약 양팀이 정한 점수를 초과했고, 동점이라면, 마지막 게임에서 승리한 팀이 최종적으로
    승리한다" — the takers of a made contract, the defence of a failed one; the default plays on."""
    rules = Rules.parse(KOREAN + "; match_end=exceed")
    for before, score, winner in (((420, 478), _made_by_ns(), NS), ((530, 368), _failed_by_ns(), EW)):
        state = MatchState(rules)
        state.resume(before)
        state.add(score)
        assert state.totals == (530, 530) and state.winner is winner
        default = MatchState(Rules.parse(KOREAN))
        default.resume(before)
        default.add(score)
        assert default.winner is None
