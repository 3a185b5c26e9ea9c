"""When the corpus lookup of the whole set fails, the quality warnings stay and each shown item's quotes
are looked up on their own: a failed lookup used to wipe every quality warning off the screen."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.tui import stages
from tests.tui_helpers import fixed_scan, review_app, screen_text

DOC = "The north office opens at eight. Visitors sign in at the front desk."


def _set() -> cg.EvalSet:
    return cg.EvalSet(
        id="lookup",
        items=(
            cg.EvalItem(
                id="a",
                question="When does the north office open in the morning?",
                answer="at eight",
                anchors=(cg.GoldAnchor("office.txt", "The office opens at noon on Sundays."),),
            ),
            cg.EvalItem(id="b", question="Where do visitors sign in?", anchors=(cg.GoldAnchor("office.txt", "Visitors sign in at the front desk."),)),
        ),
    )


async def test_a_failed_corpus_lookup_keeps_the_quality_warnings(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("the corpus folder went away")

    monkeypatch.setattr(stages, "evidence_stage", broken)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "office.txt").write_text(DOC)
    found = {"a": [Flag("made-up-check", Severity.MEDIUM, "a warning from the quality scan", ())]}
    async with review_app(tmp_path, "lookup", evalset=_set(), scan=fixed_scan(found), corpus=Corpus(folder)) as (app, pilot, session):
        for _ in range(100):
            if app.view.flags is not None and app.view.evidence_error is not None:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        assert "the corpus folder went away" in (app.view.evidence_error or "")
        assert app.view.scan_error is None and app.view.flags == found
        item = session.queue.item_at(session.queue.index_of("a"))
        checks = {flag.check for flag in app.item_flags(item) or ()}
        # the quality scan's warning, and the item's own lookup's: its quote is not in the document
        assert "made-up-check" in checks and any(check.startswith("evidence") for check in checks), checks
        text = screen_text(app)
        assert "made-up-check" in text and "could not run" not in text
