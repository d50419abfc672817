"""``belote score FILE --compare A B``: each deal under two or more rule sets side by side, the
rows that differ marked, the findings that appear or vanish, each match's totals; the ways of
writing --compare, and its usage errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.check import compare
from replayer.cli import belote, render
from replayer.cli.score_compare import spread_compare

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CAPOT = str(SAMPLES / "10-capot-bid.belote")
MATCH = str(SAMPLES / "12-match.belote")
ROUNDING = "ffb-coinche; rounding=none"

# record 1 of 10-capot-bid.belote: West's capot, 0-520 rounded under ffb-coinche, 0-522 without rounding
CAPOT_UNDER_BOTH = [
    "record 1, lines 3-35: Coinche-club de Montpellier, championnat d'hiver / 2 / 1",
    "  A: ffb-coinche",
    "  B: ffb-coinche; rounding=none",
    "                                           A                     B",
    "                               NS         EW         NS         EW",
    "  contract                       capotS by W           capotS by W",
    "  contract value                         250                   250",
    "  capot                                   EW                    EW",
    "  outcome                               made                  made",
    "  formula",
    "      A  takers 272 + 250x1, defenders 0",
    "      B  takers 272 + 250x1, defenders 0",
    "  card points                   0        152          0        152",
    "  last trick                    0        100          0        100",
    "  cards + last trick            0        252          0        252",
    "  belote                        0          0          0          0",
    "  melds                         0         20          0         20",
    "  total                         0        272          0        272",
    "* rounding                      0         -2          0          0",
    "* deal score                    0        520          0        522",
    "* final score                          0-520                 0-522",
    "* Result tag 0-520                   matches               differs",
    "  (*: differs between the rule sets)",
    "  findings that appear under B (1):",
    "    17:1: error [result-mismatch] Result 0-520 but the deal rescores to 0-522 (NS +0, EW -2): NS defenders "
    "cards 0 + last trick 0 = 0, belote 0, melds 0, total 0, score 0; EW takers cards 152 + last trick 100 = 252, "
    "belote 0, melds 20, total 272, score 522; capot by EW; contract 250; made: takers 272 + 250x1, defenders 0; "
    "the recorded result matches the deal scored rounded to the nearest 10 or with capot_score=flat250 or under "
    "the pagat-coinche profile",
    "  findings that vanish under B: none",
    "  findings under both A and B: 0",
    "",
    "Coinche-club de Montpellier, championnat d'hiver / 2: the match under each rule set",
    "* A: 1 deals to 2000, totals 0-520, no winner yet",
    "* B: 1 deals to 2000, totals 0-522, no winner yet",
    "",
]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, stdin: str | None = None, color: bool = False):
    return runner.invoke(belote, list(args), input=stdin, catch_exceptions=False, color=color)


def test_each_deal_side_by_side_with_the_rows_that_differ_marked(runner):
    result = run(runner, "score", CAPOT, "--compare", "ffb-coinche", ROUNDING)
    assert result.exit_code == 1  # the Result tag is an error under B
    lines = result.stdout.splitlines()
    assert lines[:len(CAPOT_UNDER_BOTH)] == CAPOT_UNDER_BOTH
    # record 2: a failed capot, the same under both
    assert "record 2, lines 37-67: Coinche-club de Montpellier, championnat d'hiver / 3 / 1" in lines
    assert "  multiplier                               2                     2" in lines
    assert "  deal score                    0        820          0        820" in lines
    assert "  the breakdown is the same under every rule set" in lines
    assert "\x1b[" not in result.stdout


@pytest.mark.parametrize("args", [
    ("score", CAPOT, "--compare", "ffb-coinche", "--compare", ROUNDING),
    ("score", "--compare", "ffb-coinche", ROUNDING, CAPOT),  # FILE last: the word left for it
    ("score", "--compare=ffb-coinche", ROUNDING, CAPOT),
    ("score", "--compare", "ffb-coinche", CAPOT, "--compare", ROUNDING),
])
def test_every_way_of_writing_compare_reads_the_same(runner, args):
    result = run(runner, *args)
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[:len(CAPOT_UNDER_BOTH)] == CAPOT_UNDER_BOTH


def test_standard_input_and_exit_0_when_no_rule_set_finds_an_error(runner):
    text = (SAMPLES / "10-capot-bid.belote").read_text(encoding="utf-8")
    result = run(runner, "score", "-", "--compare", "ffb-coinche", "ffb-coinche; undertrump=must", stdin=text)
    assert result.exit_code == 0, result.output
    assert "  B: ffb-coinche; undertrump=must" in result.stdout
    assert result.stdout.count("  the breakdown is the same under every rule set") == 2
    assert result.stdout.count("  findings under both A and B: 0") == 2


def test_findings_that_vanish(runner):
    path = str(SAMPLES / "invalid" / "follow-or-trump-undertrump.belote")
    result = run(runner, "score", path, "--compare", "club-classic", "club-classic; must_overtrump=false")
    assert result.exit_code == 1  # an error under A
    lines = result.stdout.splitlines()
    at = lines.index("  findings that vanish under B (1):")
    assert lines[at - 1:at + 3] == [
        "  findings that appear under B: none",
        "  findings that vanish under B (1):",
        "    31:21: error [must-overtrump] trick 2: East trumped with 7♥ instead of following clubs while North "
        "(an opponent) was winning with A♥: East had to follow or overtrump (9♥ A♣)",
        "  findings under both A and B: 0"]
    assert "  the breakdown is the same under every rule set" in lines


def test_three_rule_sets(runner):
    result = run(runner, "score", CAPOT, "--compare", "ffb-coinche", ROUNDING, "ffb-contree")
    lines = result.stdout.splitlines()
    assert lines[1:6] == [
        "  A: ffb-coinche", "  B: ffb-coinche; rounding=none", "  C: ffb-contree",
        "                                           A                     B                     C",
        "                               NS         EW         NS         EW         NS         EW"]
    assert "* deal score                    0        520          0        522          0        500" in lines
    assert "  findings that appear under C (3):" in lines
    assert "  findings under both A and C: 0" in lines


def test_each_match_under_each_rule_set(runner):
    result = run(runner, "score", MATCH, "--compare", "ffb", "ffb; rounding=nearest10_5down")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    at = lines.index("Championnat du Rhône, phase de poules / Poule B, table 4: the match under each rule set")
    assert lines[at + 1:at + 4] == [
        "* A: 11 deals to 1000, totals 738-1012, won by EW",
        "* B: 11 deals to 1000, totals 730-1000, won by EW",
        "      72:1: error [score-tag-mismatch] deal 3: Score 35-127 but the match stands at 30-130 before this deal"]
    # a void deal is said once
    assert lines[1:4] == ["  A: ffb", "  B: ffb; rounding=nearest10_5down",
                          "  void deal under every rule set: nobody took, no score (0-0)"]


def test_a_record_that_does_not_read(runner):
    result = run(runner, "score", "-", "--compare", "ffb", "ffb-annonces", stdin="hello\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "record 1, lines 1-1", "  A: ffb", "  B: ffb-annonces", "  not scored under any rule set:",
        '    1:1: error [syntax-error] unexpected "hello": expected a tag pair, a hand, the turned card, taking, '
        "auction, an announcement or play",
        "  findings that appear under B: none", "  findings that vanish under B: none",
        "  findings under both A and B: 1", ""]


def test_rules_that_cannot_score_a_deal_say_why(runner):
    result = run(runner, "score", CAPOT, "--compare", "ffb-coinche", "ffb")
    lines = result.stdout.splitlines()
    assert lines[2] == "  B: ffb  (not scored: the Result tag cannot be checked: the deal could not be rescored)"
    assert "* deal score                    0        520          -          -" in lines


def test_differing_rows_are_bold_on_a_terminal(runner):
    result = run(runner, "score", CAPOT, "--compare", "ffb-coinche", ROUNDING, color=True)
    assert "\x1b[1m* rounding                      0         -2          0          0\x1b[0m" in result.stdout
    assert "\n  total                         0        272          0        272\n" in result.stdout


@pytest.mark.parametrize("args, message", [
    (("--compare", "ffb-coinche", "nonsense"), "belote: --compare 'nonsense': unknown rules profile 'nonsense'; "
                                                "valid profiles: ffb, "),
    (("--compare", "ffb-coinche", "ffb-coinche; undertrump=never"),
     "belote: --compare 'ffb-coinche; undertrump=never': invalid value 'never' for undertrump; "
     "valid values: must, may_discard"),
])
def test_a_bad_rules_text_is_a_usage_error(runner, args, message):
    result = run(runner, "score", CAPOT, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message) and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    ((CAPOT, "--compare", "ffb-coinche"), "Invalid value for '--compare': give two or more rules texts, "
                                          "e.g. --compare ffb-coinche ffb-contree"),
    ((CAPOT, "--rules", "ffb", "--compare", "ffb", "ffb-annonces"),
     "--rules and --compare do not go together: --compare names every rule set"),
    ((CAPOT, "extra", "--compare", "ffb", "ffb-annonces"), "Got unexpected extra argument (extra)"),
])
def test_usage_errors(runner, args, message):
    result = run(runner, "score", *args)
    assert result.exit_code == 2
    assert message in result.stderr and result.stdout == ""


def test_no_record_found(runner, tmp_path):
    empty = tmp_path / "empty.belote"
    empty.write_text("\n", encoding="utf-8")
    result = run(runner, "score", str(empty), "--compare", "ffb", "ffb-annonces")
    assert (result.exit_code, result.stderr) == (2, f"belote: {empty}: no record found\n")


def test_score_without_compare_is_unchanged(runner):
    result = run(runner, "score", CAPOT)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:4] == [
        "record 1, lines 3-35: Coinche-club de Montpellier, championnat d'hiver / 2 / 1 [ffb-coinche]",
        "  contract capotS by W (takers EW), contract value 250, multiplier x1", "  capot by EW",
        "  made: takers 272 + 250x1, defenders 0"]
    assert render.SCORE_ROWS is compare.SCORE_ROWS  # one list of the breakdown's rows


@pytest.mark.parametrize("args, spread", [
    (["f", "--compare", "A", "B"], ["f", "--compare", "A", "--compare", "B"]),
    (["--compare", "A", "B", "C", "f"], ["--compare", "A", "--compare", "B", "--compare", "C", "f"]),
    (["--compare", "A", "B", "-"], ["--compare", "A", "--compare", "B", "-"]),
    (["f", "--compare", "A", "B", "--rules", "x"], ["f", "--compare", "A", "--compare", "B", "--rules", "x"]),
    (["f", "--rules", "--compare", "A"], ["f", "--rules", "--compare", "A"]),  # the value of --rules
    (["f", "--compare", "A", "--", "B"], ["f", "--compare", "A", "--", "B"]),
    (["f", "--compare", "-x"], ["f", "--compare", "-x"]),  # an option's value, whatever it looks like
])
def test_spread_compare(args, spread):
    assert spread_compare(args) == spread
