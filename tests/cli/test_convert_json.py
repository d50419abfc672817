"""``belote convert --to notation`` on JSON that is not a record (issue 15 G): one line on
stderr for each bad record, naming its line and the path of the bad value, the others
converted, exit 1, never a traceback."""

from __future__ import annotations

import json

from click.testing import CliRunner

from replayer.cli import belote

FULL = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
BAD = [
    ({"tags": [["Event", "a\nb"]]}, "tags[0][1]: a tag value cannot hold a line break: 'a\\nb'"),
    ({"tags": [["Event", "\ud800"]]}, "tags[0][1]: a lone surrogate is not text: '\\ud800'"),
    ({"tricks": [{"plays": [{"card": card} for card in FULL[:5]]}]}, "tricks[0].plays: 5 items, at most 4"),
    ({"hands": [{"seat": "N", "cards": FULL[:2]}, {"seat": "E", "cards": FULL[1:3]}]},
     "hands[1].cards[0]: KS is dealt twice (hands N and E)"),
    ({"hands": [{"seat": "N", "cards": FULL + ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"]}]},
     "hands[0].cards: 16 items, at most 8"),
    ({"hands": [{"seat": "N", "cards": FULL[:4]}, {"seat": "N", "cards": FULL[4:]}]},
     "hands[1]: 2 hands for seat N, at most 1"),
    ({"tags": [["Bad Name!", "x"]]}, "tags[0][0]: not a tag name (letters, digits and _): 'Bad Name!'"),
    ({"comments": ["a}b"]}, "comments[0]: a comment here cannot hold \"}\": 'a}b'"),
]


def test_bad_records_are_one_line_each_and_the_good_ones_converted(tmp_path):
    lines = [json.dumps({"tags": [["Event", "good"]]})] + [json.dumps(value) for value, _ in BAD]
    lines.append("[" * 100_000 + "]" * 100_000)  # deeper than Python decodes
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(belote, ["convert", "--to", "notation", str(path)], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stdout == '% belote-notation 1.0\n\n[Event "good"]\n\nplay\n'
    assert result.stderr.splitlines() == [f"{path}:{number}: {message}"
                                          for number, (_, message) in enumerate(BAD, 2)] + [
        f"{path}:{len(BAD) + 2}: not JSON: nested too deeply to decode"]


def test_a_deep_array_of_records_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    result = CliRunner().invoke(belote, ["convert", "--to", "notation", str(path)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (1, f"{path}:1: not JSON: nested too deeply to decode\n")
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps([{"tags": [[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]}]), encoding="utf-8")
    result = CliRunner().invoke(belote, ["convert", "--to", "notation", str(nested)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (
        1, f"{nested}: record 1: tags{'[0]' * 15}: nested deeper than 16 levels\n")
