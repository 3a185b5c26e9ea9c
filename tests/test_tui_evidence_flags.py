"""With a corpus open, the app's own lookup speaks for every quote: the scan's "not located in the
corpus" (unresolved-evidence, HIGH) is not shown over a quote the lookup finds word for word.

The scan reads the set as the file has it: once any item has a gold span, a quote without one counts
as not located. A helper found quotes flagged so while the evidence pane showed them found exactly.
"""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks import filters
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.tui import checks as app_module
from reviewtui.tui.stages import quality_scan
from tests.tui_helpers import review_app

DOC = "The north office opens at eight. Visitors sign in at the front desk. Parking is free after six."


def _set() -> cg.EvalSet:
    return cg.EvalSet(
        id="mixed",
        items=(
            cg.EvalItem(
                id="a",
                question="When does the north office open in the morning?",
                answer="at eight",
                gold=(cg.GoldSpan(cg.Span("office.txt", 0, 32)),),
                anchors=(cg.GoldAnchor("office.txt", "The north office opens at eight."),),
            ),
            cg.EvalItem(
                id="b",
                question="Where do visitors to the office sign in?",
                answer="at the front desk",
                anchors=(cg.GoldAnchor("office.txt", "Visitors sign in at the front desk."),),
            ),
        ),
    )


def _checks(flags) -> set[str]:
    return {flag.check for flag in flags or ()}


async def _flags_of_b(tmp_path, corpus: Corpus | None):
    async with review_app(tmp_path, "mixed", evalset=_set(), scan=quality_scan, corpus=corpus) as (app, pilot, session):
        for _ in range(300):
            if app.view.flags is not None and (corpus is None or app.view.evidence is not None):
                break
            await pilot.pause(0.05)
        item = session.queue.item_at(session.queue.index_of("b"))
        return _checks(app.view.flags.get("b")), _checks(app.item_flags(item))


async def test_a_quote_the_lookup_finds_is_not_flagged_as_not_located(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "office.txt").write_text(DOC)
    scanned, shown = await _flags_of_b(tmp_path, Corpus(folder))
    assert filters.UNRESOLVED_EVIDENCE not in scanned | shown


async def test_without_a_corpus_the_scan_still_says_the_quote_is_not_located(tmp_path):
    scanned, _shown = await _flags_of_b(tmp_path, None)
    assert filters.UNRESOLVED_EVIDENCE in scanned  # the documented filter, as audit reports it


def test_the_app_names_the_check_as_the_filters_do():
    from reviewtui.evalset.checks import looked_up

    assert looked_up.UNRESOLVED_EVIDENCE == filters.UNRESOLVED_EVIDENCE


async def test_the_lookup_says_nothing_of_a_set_without_quotes_and_tells_of_one_with_them(tmp_path):
    # A BEIR folder opened with its corpus said "Resolved 0 anchors of 0 items against 255 documents".
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "office.txt").write_text(DOC)
    bare = cg.EvalSet(id="bare", items=(cg.EvalItem(id="q", question="When does the north office open in the morning?"),))
    for evalset, told in ((bare, False), (_set(), True)):
        async with review_app(tmp_path / evalset.id, evalset.id, evalset=evalset, scan=quality_scan, corpus=Corpus(folder)) as (app, pilot, _):
            for _ in range(300):
                if app.view.evidence is not None:
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            assert app.view.evidence is not None
            assert any(n.title == "evidence" for n in app._notifications) is told


def test_with_a_corpus_open_the_scans_word_on_unlocated_quotes_leaves_the_set_cautions_too():
    """The cautions said "unresolved-evidence: no evidence ... located in a corpus yet" while the evidence pane said
    40 of 41 quotes were found: the lookup speaks for the quotes there too. Without a corpus it stays."""
    from reviewtui.evalset.checks.warninglog import CAUTION, INFO, LogEntry
    from reviewtui.tui.messages import ScanFinished
    from reviewtui.tui.stages import CautionList, StageDone

    stood_down = LogEntry(INFO, "evalset", f"{filters.UNRESOLVED_EVIDENCE}: no evidence in this batch has been located")
    other = LogEntry(CAUTION, "evalset", "only 3 questions are left, a small eval set")
    for looked_up, expected in ((True, [other]), (False, [stood_down, other])):
        posted = []
        receiver = app_module.StageReceiver(posted.append, quotes_looked_up=looked_up)
        receiver(CautionList([stood_down, other]))
        receiver(StageDone("quality"))
        (finished,) = posted
        assert isinstance(finished, ScanFinished) and finished.cautions == expected


async def test_the_lookups_note_says_it_counted_the_quotes_of_the_file_when_the_review_holds_edits(tmp_path):
    """Resumed with an edited quote, the note counted the file's quotes ("0 approximate") beside an edited item the
    warnings pane showed approximate, as if they were one count."""
    from reviewtui.tui.messages import EvidenceFinished

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "office.txt").write_text(DOC)
    async with review_app(tmp_path, "mixed", evalset=_set(), scan=quality_scan, corpus=Corpus(folder)) as (app, pilot, session):
        for _ in range(300):
            if app.view.evidence is not None:
                break
            await pilot.pause(0.05)
        notes = [str(n.message) for n in app._notifications if n.title == "evidence"]
        assert notes and "as the set file has them" not in notes[-1]
        session.edit(answer="eight in the morning")
        app._evidence_finished(EvidenceFinished(app.view.evidence, app.view.evidence_flags, "Resolved 2 anchors"))
        await pilot.pause()
        notes = [str(n.message) for n in app._notifications if n.title == "evidence"]
        assert notes[-1].startswith("Resolved 2 anchors (the quotes as the set file has them")


def test_audit_with_the_corpus_shows_what_the_app_shows(tmp_path, capsys):
    """`audit --corpus` checks the set as read, as the app does, and the lookup speaks for the quotes there too:
    b's quote, found word for word, carries no unresolved-evidence flag, nor the set that filter's note. The app's
    lists and the audit's are the same."""
    import json

    from reviewtui.cli import main
    from reviewtui.evalset.checks.scan import scan_flags
    from reviewtui.evalset.io import write_jsonl

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "office.txt").write_text(DOC)
    path = write_jsonl(_set(), tmp_path / "mixed.jsonl")
    assert main(["audit", str(path), "--corpus", str(folder), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert not [f for found in report["flags"].values() for f in found if f["check"] == filters.UNRESOLVED_EVIDENCE]
    assert not [c for c in report["cautions"] if c["message"].startswith(f"{filters.UNRESOLVED_EVIDENCE}:")]
    # The app's flags: its scan of the set as read, as its receiver keeps them with a corpus open.
    scanned = scan_flags(_set())
    app_flags = app_module._lookup_speaks_for_quotes(dict(scanned.flags))
    assert {k: [f.to_dict() for f in v] for k, v in app_flags.items()} == report["flags"]
