"""An item without a quote is given one in the edit dialog: its document, its words, its grade.

The document is first said to be the one the item's located evidence is in, else the one the
nearest item before it quotes; whatever the reviewer types is saved as typed, and a dialog
left untouched adds nothing.
"""

from __future__ import annotations

import orjson

import reviewtui as cg
from reviewtui.evalset.review.queue import Verdict
from reviewtui.tui.screens.edit import EditScreen
from reviewtui.tui.widgets.editors import SafeInput, SafeTextArea
from tests.tui_helpers import review_app, screen_text

HOSTILE_SOURCE = "[bold]manual[/] \x1b[31mred.md"


def _set(first_source: str = "handbook.md") -> cg.EvalSet:
    return cg.EvalSet(
        id="bare",
        items=(
            cg.EvalItem(id="q1", question="How long is parental leave?", anchors=(cg.GoldAnchor(first_source, "Sixteen weeks."),)),
            cg.EvalItem(id="q2", question="Who approves overtime?", answer="the team lead"),
            cg.EvalItem(id="q3", question="Where is the policy kept?", gold=(cg.GoldSpan(cg.Span("intranet.html", 0, 40)),)),
            cg.EvalItem(id="q4", question="Who signs the lease?", qtype="unanswerable", meta={"context_document": "Lease#2"}),
        ),
    )


def _errors(app) -> list[str]:
    return [str(n.message) for n in app._notifications if n.severity == "error"]


async def _open_edit_on(pilot, app, item_id: str) -> EditScreen:
    await pilot.press("g", *item_id, "enter")
    await pilot.pause()
    assert app.screen.session.queue.current.id == item_id
    await pilot.press("e")
    await pilot.pause()
    assert isinstance(app.screen, EditScreen)
    return app.screen


async def test_a_quote_typed_for_an_item_without_one_is_saved_as_its_evidence(tmp_path):
    async with review_app(tmp_path, "bare", evalset=_set()) as (app, pilot, session):
        dialog = await _open_edit_on(pilot, app, "q2")
        # the item before it quotes the handbook: the new quote is first said to come from there
        assert dialog.query_one("#edit-source", SafeInput).value == "handbook.md"
        dialog.query_one("#edit-quote", SafeTextArea).focus()
        await pilot.press(*"Overtime needs the team lead's approval.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditScreen)
    decision = session.queue.decision_for("q2")
    assert decision.verdict is Verdict.EDITED
    assert decision.after.anchors == (cg.GoldAnchor("handbook.md", "Overtime needs the team lead's approval.", grade=2),)
    assert decision.after.answer == "the team lead"  # nothing else changed
    records = [orjson.loads(line)["r"] for line in session.journal_path.read_bytes().splitlines()]
    edits = [r for r in records if r.get("op") == "decide" and r.get("id") == "q2"]
    assert edits and edits[-1]["item"]["anchors"][0]["quote"] == "Overtime needs the team lead's approval."


async def test_the_document_of_an_item_with_located_evidence_is_its_own(tmp_path):
    async with review_app(tmp_path, "bare", evalset=_set()) as (app, pilot, session):
        dialog = await _open_edit_on(pilot, app, "q3")
        assert dialog.query_one("#edit-source", SafeInput).value == "intranet.html"
        source = dialog.query_one("#edit-source", SafeInput)
        source.value = ""
        source.focus()
        await pilot.press(*"rules.md")
        dialog.query_one("#edit-quote", SafeTextArea).focus()
        await pilot.press(*"Kept on the intranet.")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert session.queue.decision_for("q3").after.anchors[0].source_id == "rules.md"


async def test_the_document_an_unanswerable_question_was_written_for_is_its_own(tmp_path):
    async with review_app(tmp_path, "bare", evalset=_set()) as (app, pilot, session):
        dialog = await _open_edit_on(pilot, app, "q4")
        assert dialog.query_one("#edit-source", SafeInput).value == "Lease#2"  # not the item before it's


async def test_an_untouched_dialog_adds_no_quote_and_no_step(tmp_path):
    async with review_app(tmp_path, "bare", evalset=_set()) as (app, pilot, session):
        await _open_edit_on(pilot, app, "q2")
        size = session.journal_path.stat().st_size
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditScreen)
        assert session.queue.decision_for("q2") is None
        assert session.journal_path.stat().st_size == size


async def test_a_new_quote_needs_its_words_and_its_document(tmp_path):
    async with review_app(tmp_path, "bare", evalset=_set()) as (app, pilot, session):
        dialog = await _open_edit_on(pilot, app, "q2")
        source = dialog.query_one("#edit-source", SafeInput)
        source.focus()
        await pilot.press("end", *"-2024")  # a document named, no quote typed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, EditScreen), "a named document with no quote was dropped on save"
        assert any("blank" in text for text in _errors(app)), _errors(app)
        # one Esc keeps what was typed (and says so)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EditScreen)
        source.value = ""
        dialog.query_one("#edit-quote", SafeTextArea).focus()
        await pilot.press(*"Overtime is approved weekly.", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, EditScreen), "a quote from no document was saved"
        assert any("Name the document" in text for text in _errors(app)), _errors(app)
        assert session.queue.decision_for("q2") is None


async def test_a_document_name_from_the_file_is_shown_safely_and_saved_as_it_is(tmp_path):
    async with review_app(tmp_path, "bare", evalset=_set(first_source=HOSTILE_SOURCE)) as (app, pilot, session):
        dialog = await _open_edit_on(pilot, app, "q2")
        assert dialog.query_one("#edit-source", SafeInput).value == HOSTILE_SOURCE
        drawn = screen_text(app)
        assert "[bold]manual[/]" in drawn and "\x1b" not in drawn  # markup shown as text, the escape as a stand-in
        dialog.query_one("#edit-quote", SafeTextArea).focus()
        await pilot.press(*"Approved by the lead.", "ctrl+s")
        await pilot.pause()
    assert session.queue.decision_for("q2").after.anchors[0].source_id == HOSTILE_SOURCE


async def test_a_beir_question_is_said_to_quote_its_most_relevant_document(tmp_path):
    """A BEIR item lists its relevant documents in the evidence pane; the dialog's document field was blank."""
    items = (
        cg.EvalItem(id="q1", question="How long is parental leave?", anchors=(cg.GoldAnchor("handbook.md", "Sixteen weeks."),)),
        cg.EvalItem(id="q2", question="Who approves overtime?", meta={"gold_documents": [["doc-2", 1], ["doc-7", 2]]}),
    )
    async with review_app(tmp_path, "beir", evalset=cg.EvalSet(id="beir", items=items)) as (app, pilot, session):
        dialog = await _open_edit_on(pilot, app, "q2")
        assert dialog.query_one("#edit-source", SafeInput).value == "doc-7"  # its highest grade, not the item before's
