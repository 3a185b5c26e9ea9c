"""A review refused before the app opens still says what was wrong with the settings file.

The app shows the settings' problems as it opens, and the command prints them all as it closes; a review refused
before that (a reviewer the team's plan does not hold) printed none. A settings file named by $REVIEWTUI_CONFIG
that does not exist, or that is not valid TOML, left its reviewer unused: the login name was refused as "not one of
this set's reviewers", and nothing said why the reviewer written in the file had not been taken."""

from __future__ import annotations

from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl
from tests.test_team import _set


def test_a_team_review_refused_says_the_settings_file_was_not_read(tmp_path, capsys, monkeypatch):
    path = write_jsonl(_set(6), tmp_path / "team.jsonl")
    assert main(["assign", str(path), "--reviewers", "ana,bo"]) == 0
    monkeypatch.delenv("REVIEWTUI_REVIEWER", raising=False)
    missing = tmp_path / "no-such-folder" / "config.toml"
    monkeypatch.setenv("REVIEWTUI_CONFIG", str(missing))
    capsys.readouterr()
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "not one of this set's reviewers" in err
    assert f"settings: {missing}: no such file (named by $REVIEWTUI_CONFIG)" in err
    broken = tmp_path / "config.toml"
    broken.write_text('reviewer = "ana"\n[keys\n', encoding="utf-8")
    monkeypatch.setenv("REVIEWTUI_CONFIG", str(broken))
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "not one of this set's reviewers" in err and f"settings: {broken}:2: not valid TOML" in err
    assert err.count("settings:") == 1
