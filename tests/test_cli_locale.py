"""Terminals that cannot show the review app, and locales whose character set is not UTF-8."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import write_jsonl

ROOT = Path(__file__).resolve().parent.parent


def _set(tmp_path: Path) -> Path:
    items = (
        cg.EvalItem(id="é1", question="Quel pays est surnommé la « perle de l'Afrique » ?", answer="L'Ouganda"),
        cg.EvalItem(id="é2", question="Quel pays est surnommé la « perle de l'Afrique » ?", answer="Le Kenya"),
    )
    return write_jsonl(cg.EvalSet(id="fr", items=items), tmp_path / "fr.jsonl")


def test_a_report_in_a_locale_that_is_not_utf8_escapes_what_it_cannot_write(tmp_path):
    """In an ISO-8859-1 or ASCII locale, `audit` ended in a UnicodeEncodeError on its own "…"."""
    path = _set(tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(ROOT)}
    for extra in ([], ["--to", "json"]):
        done = subprocess.run(
            [sys.executable, "-m", "reviewtui", "audit", str(path), *extra], capture_output=True, env=env, timeout=120
        )
        assert b"Traceback" not in done.stderr and done.returncode == 1, done.stderr  # 1: the conflicting answers
        assert b"\\u00e9" in done.stdout  # the ids' "é", escaped, not dropped
    import json

    report = json.loads(done.stdout.decode("ascii"))  # JSON reads each escape as the character itself
    assert set(report["flags"]) == {"é1", "é2"}


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_the_app_refuses_a_terminal_it_cannot_draw_on(tmp_path, monkeypatch, capsys):
    """TERM=dumb got the full screen's escape codes; a Latin-1 terminal got frames drawn as "\\u2501" and "é" as a
    byte its UTF-8 window dropped."""
    path = _set(tmp_path)
    monkeypatch.setenv("TERM", "dumb")
    assert main([str(path)]) == 2
    assert "TERM=dumb" in capsys.readouterr().err
    monkeypatch.setenv("TERM", "xterm-256color")
    # Textual draws on standard error, so that is the stream read (`reviewtui set.jsonl | cat` opened the app anyway)
    screen = _Terminal(io.BytesIO(), encoding="iso8859-1")
    monkeypatch.setattr(sys, "stderr", screen)
    assert main([str(path)]) == 2
    screen.flush()
    assert "character set is iso8859-1" in screen.buffer.getvalue().decode("iso8859-1")
    assert not (tmp_path / "fr.jsonl.reviewtui-journal").exists()  # refused before the review was opened

