"""The ``belote`` command line: exit codes, outputs, bad inputs, and one real subprocess run."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.parser import parse
from replayer.check.validator import fill_seats
from replayer.cli import belote, generated_records
from replayer.engine.rules import PROFILES, Rules

ROOT = Path(__file__).resolve().parents[2]

# A coinche deal (ffb-coinche): East makes 90SA with a capot; South's tierce scores for NS.
COINCHE = """\
% belote-notation 1.0

[Event "Club"]
[Round "1"]
[Deal "1"]
[Dealer "N"]
[Variant "coinche"]
[Rules "ffb-coinche"]
[Score "0-0"]
[Result "20-340"]

hand N 7S QH 8H 7H JD TD 9C 7C
hand E TS TH AD 7D AC KC TC 8C
hand S KS QS JS AH KH QD QC JC
hand W AS 9S 8S JH 9H KD 9D 8D
auction W:80TA S:pass E:90SA N:pass W:pass S:pass
announce S tierce KS QS JS
play
1. W:8S S:JS E:TS N:7S
2. E:7D N:JD W:KD S:QD
3. W:9H S:KH E:TH N:QH
4. E:TC N:7C W:JH S:JC
5. E:AD N:TD W:9D S:AH
6. E:KC N:9C W:AS S:QC
7. E:AC N:8H W:8D S:QS
8. E:8C N:7H W:9S S:KS
"""

# The same deal with North's 7S (trick 1) and 7C (trick 4) swapped: two revokes.
FAULTY = COINCHE.replace("1. W:8S S:JS E:TS N:7S", "1. W:8S S:JS E:TS N:7C").replace(
    "4. E:TC N:7C W:JH S:JC", "4. E:TC N:7S W:JH S:JC")

# A classic deal (ffb-annonces) with belote and rebelote by South and East's tierce.
CLASSIC = """\
% belote-notation 1.0

[Event "Club"]
[Round "2"]
[Deal "1"]
[Dealer "E"]
[Variant "belote"]
[Rules "ffb-annonces"]
[Score "0-0"]
[Result "116-86"]

hand N QS AH TH 9H AD 9D AC 9C
hand E KS JS 9S 8S 7S 8H 7H QC
hand S TS KH QH KD JD TD TC 7C
hand W AS JH QD 8D 7D KC JC 8C
turned TH
taking N:take
announce E tierce 9S 8S 7S
play
1. N:9C W:JC S:TC E:QC
2. S:JD E:7H N:9D W:QD
3. E:8H N:TH W:JH S:QH belote
4. W:KC S:7C E:8S N:AC
5. N:AD W:7D S:KD E:9S
6. N:QS W:AS S:TS E:KS
7. W:8C S:KH rebelote E:JS N:AH
8. N:9H W:8D S:TD E:7S
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name, text in (("coinche", COINCHE), ("faulty", FAULTY), ("classic", CLASSIC)):
        made[name] = tmp_path / f"{name}.belote"
        made[name].write_text(text, encoding="utf-8")
    return made


def run(runner: CliRunner, *args: object, stdin: str | bytes | None = None):
    return runner.invoke(belote, [str(a) for a in args], input=stdin, catch_exceptions=False)


# --- validate -------------------------------------------------------------------

def test_validate_clean_file_exits_0(runner, files):
    result = run(runner, "validate", files["coinche"], files["classic"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "2 record(s), 0 with errors: 0 error(s), 0 warning(s)\n"


def test_validate_faulty_file_exits_1_with_positions(runner, files):
    result = run(runner, "validate", files["faulty"])
    assert result.exit_code == 1
    heads = [line for line in result.stdout.splitlines() if line.startswith(str(files["faulty"]))]
    assert heads == [
        f"{files['faulty']}:19:21: error [must-follow] trick 1: North played 7♣ but held 7♠ and had to "
        "follow spades (legal: 7S)",
        f"{files['faulty']}:22:11: error [must-follow] trick 4: North played 7♠ but held 9♣ and had to "
        "follow clubs (legal: 9C)",
    ]
    assert result.stdout.endswith("1 record(s), 1 with errors: 2 error(s), 0 warning(s)\n")


def test_validate_json_document(runner, files):
    result = run(runner, "validate", "--format", "json", files["coinche"], files["faulty"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    clean, faulty = document["records"]
    assert (clean["file"], clean["ok"], clean["findings"], clean["score"]["score"]) == (
        str(files["coinche"]), True, [], [20, 340])
    assert [(f["rule"], f["line"], f["column"], f["trick"], f["card"]) for f in faulty["findings"]] == [
        ("must-follow", 19, 21, 1, "7C"), ("must-follow", 22, 11, 4, "7S")]
    assert faulty["lines"] == [3, 26]
    assert [(m["file"], m["totals"]) for m in document["matches"]] == [
        (str(files["coinche"]), [20, 340]), (str(files["faulty"]), [20, 340])]
    assert document["summary"] == {"records": 2, "faulty": 1, "errors": 2, "warnings": 0, "ok": False}


def test_validate_reads_stdin(runner):
    result = run(runner, "validate", "-", stdin=FAULTY.encode())
    assert result.exit_code == 1
    assert result.stdout.startswith("-:19:21: error [must-follow]")


def test_validate_reports_match_findings(runner, tmp_path):
    second = CLASSIC.replace('[Round "2"]', '[Round "1"]').replace('[Score "0-0"]', '[Score "0-0"]')
    path = tmp_path / "match.belote"
    path.write_text(COINCHE + "\n" + second.split("\n", 2)[2], encoding="utf-8")
    result = run(runner, "validate", path)
    assert result.exit_code == 1
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[34 - 1] == '[Score "0-0"]'  # the finding points at the tag it is about
    assert f"{path}:34:1: error [score-tag-mismatch] deal 2: Score 0-0 but the match stands at 20-340" \
        in result.stdout


def test_validate_directory_walks_record_files(runner, tmp_path, files):
    (tmp_path / "notes.txt").write_text("not a record file")
    result = run(runner, "validate", tmp_path)
    assert result.exit_code == 1
    assert result.stdout.count("error [must-follow]") == 2
    assert result.stdout.endswith("3 record(s), 1 with errors: 2 error(s), 0 warning(s)\n")


def test_validate_jobs_2_output_identical_to_jobs_1(runner, tmp_path):
    records = "".join(str(record) + "\n" for record in generated_records(random.Random(5), Rules.parse("ffb-coinche"), 270))
    path = tmp_path / "many.belote"
    path.write_text(records + FAULTY.split("\n", 2)[2], encoding="utf-8")
    for output in ("text", "json"):
        one = run(runner, "validate", "--format", output, "--jobs", "1", path)
        two = run(runner, "validate", "--format", output, "--jobs", "2", path)
        assert one.exit_code == two.exit_code == 1
        assert one.stdout == two.stdout
    assert json.loads(two.stdout)["summary"]["records"] == 271


# --- bad input -------------------------------------------------------------------

def test_missing_file_exits_2_with_one_line(runner, tmp_path, files):
    result = run(runner, "validate", files["coinche"], tmp_path / "nope.belote")
    assert result.exit_code == 2
    assert result.stderr == f"belote: {tmp_path / 'nope.belote'}: no such file\n"
    assert result.stdout.endswith("1 record(s), 0 with errors: 0 error(s), 0 warning(s)\n")


@pytest.mark.parametrize("content, message", [
    (b"", "empty input, no record"),
    (b"\n\n   \n", "no record found"),
    (b"[Event \"x\"]\x00\x01\x02binary", "binary data (NUL bytes), not Belote records"),
])
def test_empty_blank_and_binary_files_exit_2(runner, tmp_path, content, message):
    path = tmp_path / "bad.belote"
    path.write_bytes(content)
    for command in ("validate", "score", "show", "fmt"):
        result = run(runner, command, path)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.splitlines() == [f"belote: {path}: {message}"] or command == "fmt"
        assert f"belote: {path}: " in result.stderr


def test_directory_without_records_exits_2(runner, tmp_path):
    for command in ("validate", "score", "show"):
        result = run(runner, command, tmp_path)
        assert result.exit_code == 2
        assert result.stderr == f"belote: {tmp_path}: is a directory\n"


def test_unreadable_file_exits_2(runner, files, monkeypatch):
    def refuse(name, mode="r", *args, **kwargs):
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr("replayer.cli.inputs.open", refuse, raising=False)
    result = run(runner, "validate", files["coinche"])
    assert (result.exit_code, result.stderr) == (2, f"belote: {files['coinche']}: permission denied\n")


def test_unknown_rules_exit_2_with_the_rules_error(runner, files):
    result = run(runner, "validate", "--rules", "nonsense", files["coinche"])
    assert result.exit_code == 2
    assert result.stderr.startswith("belote: --rules 'nonsense': unknown rules profile 'nonsense'; valid profiles: ffb,")
    result = run(runner, "score", "--rules", "ffb; undertrump=sometimes", files["coinche"])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    result = run(runner, "generate", "1", "--profile", "nope")
    assert result.exit_code == 2 and result.stderr.startswith("belote: --profile 'nope': unknown rules profile")


def test_huge_line_is_a_syntax_error_of_its_record(runner, tmp_path):
    path = tmp_path / "huge.belote"
    with path.open("w", encoding="utf-8") as out:
        out.write(COINCHE + "\n")
        out.write('[Event "' + "x" * 300_000 + '"]\n[Dealer "N"]\n\n')
        out.write(CLASSIC.split("\n", 2)[2])
    result = run(runner, "validate", "--format", "json", path)
    assert result.exit_code == 1
    records = json.loads(result.stdout)["records"]
    assert len(records) == 3 and records[2]["ok"] and records[2]["score"]["score"] == [116, 86]
    too_long = [f for r in records for f in r["findings"] if "longer than 100000" in f["message"]]
    assert [(f["rule"], f["line"]) for f in too_long] == [("syntax-error", 28)]


def test_the_cli_never_prints_a_traceback_for_bad_input(runner, tmp_path):
    result = subprocess.run([sys.executable, "-m", "replayer.cli", "validate", str(tmp_path / "missing.belote"),
                             str(tmp_path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"belote: {tmp_path / 'missing.belote'}: no such file",
                                          f"belote: {tmp_path}: is a directory"]


def test_real_subprocess_validates_generated_records(tmp_path):
    generated = subprocess.run([sys.executable, "-m", "replayer.cli", "generate", "12", "--profile", "ffb-annonces",
                                "--seed", "4"], capture_output=True, cwd=ROOT, timeout=60, check=True)
    checked = subprocess.run([sys.executable, "-m", "replayer.cli", "validate", "-"], input=generated.stdout,
                             capture_output=True, cwd=ROOT, timeout=60)
    assert (checked.returncode, checked.stderr) == (0, b"")
    assert checked.stdout == b"12 record(s), 0 with errors: 0 error(s), 0 warning(s)\n"


# --- fmt ---------------------------------------------------------------------------

SLOPPY = COINCHE.replace("% belote-notation 1.0\n\n", "").replace(
    "hand N 7S QH 8H 7H JD TD 9C 7C", "hand N 7c 9C TD JD 7H 8H QH 7S").replace(
    "auction W:80TA S:pass E:90SA N:pass W:pass S:pass", "auction  W:80TA pass E:90SA   passe pass p").replace(
    "2. E:7D N:JD W:KD S:QD", "2.  7D JD KD QD").replace("[Dealer \"N\"]", "[Dealer \"N\"]  ")


def test_fmt_check_on_canonical_and_non_canonical_files(runner, files, tmp_path):
    result = run(runner, "fmt", "--check", files["coinche"], files["classic"])
    assert (result.exit_code, result.stdout) == (0, "")
    sloppy = tmp_path / "sloppy.belote"
    sloppy.write_text(SLOPPY, encoding="utf-8")
    result = run(runner, "fmt", "--check", files["coinche"], sloppy)
    assert result.exit_code == 1
    assert f"would reformat {sloppy}\n" in result.stderr
    assert str(files["coinche"]) not in result.stderr
    assert sloppy.read_text(encoding="utf-8") == SLOPPY


def test_fmt_rewrites_in_place_canonically_and_fills_seats(runner, tmp_path):
    sloppy = tmp_path / "sloppy.belote"
    sloppy.write_text(SLOPPY, encoding="utf-8")
    result = run(runner, "fmt", sloppy)
    assert result.exit_code == 0
    assert f"reformatted {sloppy}\n" in result.stderr
    assert sloppy.read_text(encoding="utf-8") == COINCHE  # seats filled from the replay
    assert run(runner, "fmt", "--check", sloppy).exit_code == 0
    run(runner, "fmt", sloppy)
    assert sloppy.read_text(encoding="utf-8") == COINCHE


def test_fmt_stdin_to_stdout(runner):
    result = run(runner, "fmt", "-", stdin=SLOPPY.encode())
    assert (result.exit_code, result.stdout) == (0, COINCHE)
    result = run(runner, "fmt", "--check", "-", stdin=SLOPPY.encode())
    assert (result.exit_code, result.stdout) == (1, "")


def test_fmt_leaves_a_file_with_syntax_errors_untouched(runner, tmp_path):
    broken = tmp_path / "broken.belote"
    text = COINCHE.replace("3. W:9H", "3. W:9X")
    broken.write_text(text, encoding="utf-8")
    result = run(runner, "fmt", broken)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{broken}:21:6: cannot format: ")
    assert broken.read_text(encoding="utf-8") == text
    result = run(runner, "fmt", "-", stdin=text.encode())
    assert (result.exit_code, result.stdout) == (1, text)  # a pipe gets its input back


def test_fill_missing_seats_only_when_the_record_replays():
    bare = next(parse(SLOPPY)).record
    assert bare.auction[1].seat is None and bare.tricks[1].plays[0].seat is None
    filled = fill_seats(bare)
    assert [str(e.seat) for e in filled.auction] == ["W", "S", "E", "N", "W", "S"]
    assert [str(e.seat) for e in filled.tricks[1].plays] == ["E", "N", "W", "S"]
    wrong = next(parse(SLOPPY.replace("2.  7D JD KD QD", "2.  7D KD JD QD"))).record
    assert fill_seats(wrong) is wrong


# --- generate ---------------------------------------------------------------------

@pytest.mark.parametrize("profile", list(PROFILES))
def test_generated_records_of_every_profile_validate_clean(runner, tmp_path, profile):
    result = run(runner, "generate", "60", "--profile", profile, "--seed", "2")
    path = tmp_path / "generated.belote"
    path.write_text(result.stdout, encoding="utf-8")
    checked = run(runner, "validate", "--format", "json", path)
    assert checked.exit_code == 0, checked.stdout[:2000]
    records = json.loads(checked.stdout)["records"]
    assert len(records) == 60 and all(r["ok"] for r in records)
    if not Rules.parse(profile).is_coinche:  # void classic deals are written without their 5-card hands
        assert any(r["score"]["outcome"] == "void" for r in records)


def test_generate_is_deterministic_and_validates_clean(runner, tmp_path):
    first = run(runner, "generate", "25", "--profile", "ffb-coinche", "--seed", "11")
    again = run(runner, "generate", "25", "--profile", "ffb-coinche", "--seed", "11")
    other = run(runner, "generate", "25", "--profile", "ffb-coinche", "--seed", "12")
    fewer = run(runner, "generate", "10", "--profile", "ffb-coinche", "--seed", "11")
    assert first.exit_code == 0 and first.stdout == again.stdout != other.stdout
    assert first.stdout.startswith("% belote-notation 1.0\n\n[Event \"Random deals, seed 11\"]")
    assert first.stdout.count("[Event ") == 25
    assert first.stdout.startswith(fewer.stdout) and len(fewer.stdout) < len(first.stdout)
    path = tmp_path / "generated.belote"
    path.write_text(first.stdout, encoding="utf-8")
    checked = run(runner, "validate", path)
    assert (checked.exit_code, checked.stdout) == (0, "25 record(s), 0 with errors: 0 error(s), 0 warning(s)\n")
    assert run(runner, "fmt", "--check", path).exit_code == 0


# --- score and show ---------------------------------------------------------------

def test_score_prints_the_breakdown_and_match_totals(runner, files):
    result = run(runner, "score", files["coinche"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:14] == [
        "record 1, lines 3-26: Club / 1 / 1 [ffb-coinche]",
        "  contract 90SA by E (takers EW), contract value 90, multiplier x1",
        "  capot by EW",
        "  made: takers 252 + 90x1, defenders 20",
        "                               NS         EW",
        "                        defenders     takers",
        "  card points                   0        152",
        "  last trick                    0        100",
        "  cards + last trick            0        252",
        "  belote                        0          0",
        "  melds                        20          0",
        "  total                        20        252",
        "  rounding                      0         -2",
        "  deal score                   20        340",
    ]
    assert "  recorded Result 20-340: matches" in result.stdout
    assert "Club / 1: 1 deals to 2000, totals 20-340, no winner yet" in result.stdout


def test_score_of_a_classic_deal_with_belote(runner, files):
    result = run(runner, "score", files["classic"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "  belote                       20          0" in lines
    assert "  deal score                  116         86" in lines


def test_score_says_why_a_deal_is_not_scored(runner, tmp_path):
    broken = tmp_path / "broken.belote"
    broken.write_text(COINCHE.replace("3. W:9H", "3. W:9X"), encoding="utf-8")
    result = run(runner, "score", broken)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == [
        "record 1, lines 3-26: Club / 1 / 1 [?]", "  not scored:",  # its tags, read from its head
        '    21:6: error [syntax-error] unexpected "9X": expected a card (e.g. JH, 10S) or the end of the trick']


def test_show_replays_trick_by_trick(runner, files):
    result = run(runner, "show", files["classic"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "  S  South  ♠ 10   ♥ K Q   ♦ K J 10   ♣ 10 7" in lines
    assert "Taking (turned 10♥)" in lines and "  contract H by N" in lines
    assert "  E tierce 9♠ 8♠ 7♠" in lines
    assert "  1. N:9♣  W:J♣  S:10♣  E:Q♣   led by N, won by S (15)   NS 15  EW 0" in lines
    assert "  3. E:8♥  N:10♥  W:J♥  S:Q♥ belote   led by E, won by W (33)   NS 15  EW 38" in lines
    assert "  8. N:9♥  W:8♦  S:10♦  E:7♠   led by N, won by N (24 + 10 last trick)   NS 96  EW 66" in lines
    assert "  score NS 116, EW 86" in lines
    assert "\x1b[" not in result.stdout  # no colour off a terminal
    coloured = runner.invoke(belote, ["show", str(files["classic"])], color=True)
    assert "S:\x1b[31mQ♥\x1b[0m belote" in coloured.stdout


def test_show_one_record_and_out_of_range(runner, files, tmp_path):
    both = tmp_path / "both.belote"
    both.write_text(COINCHE + "\n" + CLASSIC.split("\n", 2)[2], encoding="utf-8")
    result = run(runner, "show", both, "--record", "2")
    assert result.exit_code == 0
    assert result.stdout.startswith("record 2, lines 28-52: Club / 2 / 1 [ffb-annonces]\n")
    assert "90SA" not in result.stdout
    result = run(runner, "show", both, "--record", "3")
    assert (result.exit_code, result.stderr) == (2, f"belote: {both}: no record 3, the file has 2\n")
    faulty = run(runner, "show", str(both).replace("both", "both"), "--record", "1")
    assert faulty.exit_code == 0


def test_fmt_turns_the_lenient_sample_into_the_canonical_records(runner, tmp_path):
    samples = ROOT / "samples"
    lenient = tmp_path / "lenient.belote"
    lenient.write_bytes((samples / "16-lenient-import.belote").read_bytes())
    assert run(runner, "fmt", lenient).exit_code == 0
    sources = ("05-belote-rebelote", "09-coinche-surcoinche", "04-announcements")
    expected = [str(next(parse((samples / f"{name}.belote").read_bytes())).record) for name in sources]
    assert lenient.read_text(encoding="utf-8") == "% belote-notation 1.0\n" + "".join("\n" + r for r in expected)


# --- convert ------------------------------------------------------------------------

def test_convert_round_trip_is_byte_identical(runner, tmp_path):
    both = tmp_path / "both.belote"
    both.write_text(COINCHE + "\n" + CLASSIC.split("\n", 2)[2], encoding="utf-8")
    to_json = run(runner, "convert", "--to", "json", both)
    assert to_json.exit_code == 0
    objects = [json.loads(line) for line in to_json.stdout.splitlines()]
    assert [o["tags"][0] for o in objects] == [["Event", "Club"], ["Event", "Club"]]
    assert objects[1]["tricks"][2]["plays"][3] == {"seat": "S", "card": "QH", "declaration": "belote"}
    jsonl = tmp_path / "both.jsonl"
    jsonl.write_text(to_json.stdout, encoding="utf-8")
    back = tmp_path / "back.belote"
    result = run(runner, "convert", "--to", "notation", jsonl, "-o", back)
    assert result.exit_code == 0
    assert back.read_bytes() == both.read_bytes()
    array = tmp_path / "both.json"
    array.write_text(json.dumps(objects, indent=2), encoding="utf-8")
    assert run(runner, "convert", "--to", "notation", array).stdout == both.read_text(encoding="utf-8")


def test_convert_positions_and_bad_records(runner, tmp_path, files):
    with_positions = run(runner, "convert", "--to", "json", "--positions", files["coinche"])
    assert json.loads(with_positions.stdout)["tricks"][0]["plays"][3]["pos"] == [19, 21]
    good = json.dumps({"hands": [{"seat": "N", "cards": None}]})
    bad = json.dumps({"tricks": [{"plays": [{"card": "ZZ"}]}]})
    jsonl = tmp_path / "mixed.jsonl"
    jsonl.write_text(f"{good}\n{{oops\n{bad}\n", encoding="utf-8")
    result = run(runner, "convert", "--to", "notation", jsonl)
    assert result.exit_code == 1
    assert result.stdout == "% belote-notation 1.0\n\nhand N -\n"
    messages = result.stderr.splitlines()
    assert messages[0].startswith(f"{jsonl}:2: not JSON: ")
    assert messages[1].startswith(f"{jsonl}:3: tricks[0].plays[0].card: not a card: 'ZZ'")
    broken = tmp_path / "broken.belote"
    broken.write_text(COINCHE.replace("3. W:9H", "3. W:9X"), encoding="utf-8")
    result = run(runner, "convert", "--to", "json", broken)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"{broken}:21:6: cannot convert: unexpected \"9X\"")
    result = run(runner, "convert", "--to", "json", files["coinche"], "-o", tmp_path)
    assert (result.exit_code, result.stderr) == (2, f"belote: {tmp_path}: is a directory\n")


# --- no record lost (issue 15 A; tests/notation/test_records_kept.py) ---------------------

def test_the_command_line_reports_the_long_record_and_fmt_refuses_to_rewrite(tmp_path, long_line_file,
                                                                             long_event_file):
    path = tmp_path / "f.belote"
    data = long_line_file
    path.write_bytes(data)
    runner = CliRunner()
    for jobs in ("1", "2"):
        result = runner.invoke(belote, ["validate", "-j", jobs, str(path)])
        assert result.exit_code == 1, result.output
        assert "3 record(s), 1 with errors" in result.output
        assert f"{path}:36:" in result.output
    result = runner.invoke(belote, ["fmt", str(path)])
    assert result.exit_code == 1 and path.read_bytes() == data  # not written: it could not be read whole
    long_event = tmp_path / "g.belote"
    long_event.write_bytes(long_event_file)
    result = runner.invoke(belote, ["validate", str(long_event)])
    assert result.exit_code == 1 and "1 record(s), 1 with errors" in result.output


def test_the_archive_and_the_site_load_only_for_their_commands():
    """``belote validate`` starts without Flask, sqlite-utils or the archive; ``import`` and
    ``serve`` are listed and load theirs when run."""
    probe = ("import sys; from replayer.cli import belote; "
             "print(sorted(m for m in ('flask', 'sqlite_utils', 'replayer.archive', 'replayer.web') if m in sys.modules)); "
             "from click import Context; ctx = Context(belote); "
             "print(belote.list_commands(ctx)); print(belote.get_command(ctx, 'serve').name, "
             "'flask' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "[]", "['analyse', 'convert', 'fmt', 'generate', 'import', 'score', 'serve', 'show', 'stats', 'validate']", "serve True"]
