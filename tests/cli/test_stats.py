"""``belote stats`` on the samples archive (figures counted by hand: tests/archive/test_stats.py)."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from replayer.cli import belote


def _run(tmp_path, samples_archive, *args):
    db = tmp_path / "belote.sqlite"
    shutil.copyfile(samples_archive, db)
    return CliRunner().invoke(belote, ["stats", "--db", str(db), *args])


def test_player_text_and_json(tmp_path, samples_archive):
    result = _run(tmp_path, samples_archive, "--player", "Anne Martin")
    assert result.exit_code == 0, result.output
    assert "deals played 7, taken 4 (57.1%), made 4" in result.output
    assert "with Claire Dubois: 7 deals, side took 5, made 4" in result.output
    data = json.loads(_run(tmp_path, samples_archive, "--pair", "Anne Martin", "Claire Dubois",
                           "--format", "json").output)
    assert data["figures"]["failed"] == 1


def test_players_table_and_errors(tmp_path, samples_archive):
    result = _run(tmp_path, samples_archive, "--sort", "player", "--limit", "100")
    assert result.exit_code == 0 and "Anne Martin" in result.output
    bad = _run(tmp_path, samples_archive, "--date-from", "2026-13-01")
    assert bad.exit_code == 2 and "there is no month 13" in bad.output
    assert _run(tmp_path, samples_archive, "--player", "Nobody").exit_code == 1
    missing = CliRunner().invoke(belote, ["stats", "--db", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 2 and "no archive" in missing.output
