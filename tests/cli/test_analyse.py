"""``belote analyse``: text, JSON and annotated outputs, exit codes, and the same analyses
whether they ran here, in worker processes or on a Dask cluster (docs/analysis.md).

The records are cheap to analyse: a deal whose whole search is small, and records that stop
before any search (hands unknown, everybody passed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.parser import parse
from replayer.check.analysis import analyse_record, annotate
from replayer.cli import belote

# Every hand two cards of each suit, by rank: a small search from the first card. W takes at
# 90C; N's AD in trick 7 costs 10 card points (TH keeps the last trick): an inaccuracy.
DEAL = """\
[Event "Club"]
[Dealer "E"]
[Variant "coinche"]
[Rules "ffb-coinche"]

hand N AS TS AH TH AD TD AC TC
hand E KS QS KH QH KD QD KC QC
hand S JS 9S JH 9H JD 9D 7H 9C
hand W 8S 7S 8H JC 8D 7D 8C 7C
auction N:80D W:90C S:pass E:pass N:pass
play
1. N:TC W:JC S:9C E:QC
2. W:8C S:9H E:KC N:AC
3. N:TS W:8S S:JS E:QS
4. N:TD W:7D S:JD E:KD
5. N:AH W:8H S:JH E:QH
6. N:AS W:7S S:9S E:KS
7. N:AD W:8D S:9D E:QD
8. N:TH W:7C S:7H E:KH
"""

# W's hand not known and not rebuilt (the play stops after trick 1): nothing to analyse.
HIDDEN = DEAL.replace("hand W 8S 7S 8H JC 8D 7D 8C 7C", "hand W -").split("2. W:8C")[0] + "*\n"

VOID = """\
[Dealer "N"]
[Variant "coinche"]

auction W:pass S:pass E:pass N:pass
"""


def run(*args: object):
    return CliRunner().invoke(belote, ["analyse", *map(str, args)], catch_exceptions=False)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {"deal": tmp_path / "deal.belote", "all": tmp_path / "all.belote", "hidden": tmp_path / "hidden.belote"}
    made["deal"].write_text(DEAL, encoding="utf-8")
    made["all"].write_text(f"{DEAL}\n{HIDDEN}\n{VOID}", encoding="utf-8")
    made["hidden"].write_text(HIDDEN, encoding="utf-8")
    return made


def test_text_output(files):
    result = run(files["deal"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{files['deal']}: record 1 (lines 1-19) [ffb-coinche]"
    assert lines[1:6] == ["  trick 1", "     1. N TC  NS 100", "     2. W JC  EW  62", "     3. S 9C  NS 100",
                          "     4. E QC  EW  61   best KC 62 (-1)"]
    assert "  trick 7" in lines
    assert "    25. N AD  NS  91   best TH 101 (-10)   ?! inaccuracy" in lines
    assert "    26. W 8D  EW  71" in lines
    at = lines.index("  totals   cards  cost  ?!   ?  ??")
    assert lines[at + 1:at + 7] == ["  N            8    10   1   0   0", "  E            8     1   0   0   0",
                                    "  S            8     0   0   0   0", "  W            8     0   0   0   0",
                                    "  NS          16    10   1   0   0", "  EW          16     1   0   0   0"]
    assert lines[-1] == "1 record(s) analysed, 1 to the end"


def test_json_output_is_the_analysis(files):
    result = run(files["all"], "--format", "json")
    assert result.exit_code == 1  # the hidden record stops early
    document = json.loads(result.stdout)
    records = [next(iter(parse(text))) for text in (DEAL, HIDDEN, VOID)]
    assert [item["analysis"] for item in document["records"]] == [analyse_record(r).as_dict() for r in records]
    assert [(item["record"], item["lines"]) for item in document["records"]] == [
        (0, [1, 19]), (1, [21, 33]), (2, [35, 38])]
    assert document["records"][1]["analysis"]["stopped"]["reason"] == "hands-unknown"
    assert document["files"] == [{"file": str(files["all"]), "records": 3,
                                  "totals": document["records"][0]["analysis"]["totals"]}]
    assert document["totals"] == document["records"][0]["analysis"]["totals"]
    assert document["summary"] == {"records": 3, "complete": 2, "stopped": {"hands-unknown": 1}, "ok": False}


def test_annotate_writes_the_records_back_with_the_marks(files):
    result = run(files["all"], "--annotate")
    assert result.exit_code == 1
    assert "N:AD?! {best: TH (+10)} W:8D" in result.stdout
    written = [r.record for r in parse(result.stdout)]
    originals = [r.record for r in parse(f"{DEAL}\n{HIDDEN}\n{VOID}")]
    assert written == [annotate(record, analyse_record(record)) for record in originals]
    assert written[1:] == originals[1:]  # nothing analysed, nothing marked
    assert [r.record for r in parse("".join(str(record) + "\n" for record in written))] == written  # round trip
    assert result.stderr.strip() == "3 record(s) analysed, 2 to the end, 1 stopped early (1 hands-unknown)"


def test_jobs_give_the_same_output(files):
    one = run(files["all"], files["deal"], "--format", "json")
    two = run(files["all"], files["deal"], "--format", "json", "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout


def test_exit_codes(files, tmp_path):
    assert run(files["deal"]).exit_code == 0
    hidden = run(files["hidden"])
    assert hidden.exit_code == 1
    assert "  stopped (hands-unknown): the hands as dealt are not all known" in hidden.stdout
    assert run(tmp_path / "missing.belote").exit_code == 2
    assert run(files["deal"], "--rules", "no-such-profile").exit_code == 2
    assert run().exit_code == 2  # no FILE
    assert run(files["deal"], "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1").exit_code == 2
    assert run(files["deal"], "--max-seconds", "-1").exit_code == 2
    stopped = run(files["deal"], "--max-seconds", "0")
    assert stopped.exit_code == 1
    assert "  stopped at step 1 (time-limit): the time limit passed at step 1: nothing analysed" in stopped.stdout


def test_a_dask_cluster_gives_the_same_output(files):
    distributed = pytest.importorskip("distributed")
    here = run(files["all"], "--format", "json")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        there = run(files["all"], "--format", "json", "--scheduler", cluster.scheduler_address)
    assert there.exit_code == here.exit_code == 1
    assert there.stdout == here.stdout
