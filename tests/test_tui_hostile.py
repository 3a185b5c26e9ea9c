"""Hostile strings in a set reach the screen literally, crash nothing and run nothing."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList, Select, Static

import reviewtui as cg
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.io.settings import load_config
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.review.session import ReviewSession
from reviewtui.evalset.text.safe import has_unsafe
from reviewtui.tui.safe import one_cell, safe_plain
from tests.tui_helpers import (
    FakeClock,
    fixed_scan,
    make_app,
    open_session,
    screen_text,
    settle,
)

HOSTILE = [
    ("[/]", "[/]"),
    ("[@click=app.quit]x[/]", "[@click=app.quit]x[/]"),
    ("[link='https://x']y[/link]", "[link='https://x']y[/link]"),
    ("[b]", "[b]"),
    ("\x1b[2J", "␛[2J"),
    ("\x1b]8;;https://x\x1b\\", "␛]8;;https://x␛\\"),
    ("\x1b]0;t\x07", "␛]0;t␇"),
    ("[", "["),
    ("שלום עולם", "שלום עולם"),
    ("漢字テスト", "漢字テスト"),
    ("🎉 party", "🎉 party"),
]


def hostile_set() -> cg.EvalSet:
    items = []
    for n, (raw, _shown) in enumerate(HOSTILE):
        items.append(
            cg.EvalItem(
                id=f"id{n}{raw}",
                question=f"Q {raw} end?",
                answer=f"A {raw}",
                anchors=(cg.GoldAnchor(source_id=f"doc{raw}.md", quote=f"quote {raw} here"),),
                qtype=f"type{raw}",
                meta={"note": raw},
            )
        )
    items.append(cg.EvalItem(id="huge", question="H" * 1_048_576 + "?"))
    return cg.EvalSet(id="hostile[/]set", items=tuple(items))


def no_ansi(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text


async def test_every_hostile_string_is_drawn_literally(tmp_path):
    evalset = hostile_set()
    flags = {
        item.id: [Flag("near-duplicate", Severity.MEDIUM, f"same as {item.question}", (item.id,))]
        for item in evalset
    }
    session = open_session(tmp_path, evalset)
    app = make_app(session, scan=fixed_scan(flags))
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(pilot, app)
            for n, (_raw, shown) in enumerate(HOSTILE):
                text = screen_text(app)
                no_ansi(text)
                assert f"Q {shown} end?" in text, (n, text)
                assert f"A {shown}" in text
                assert f"quote {shown} here" in text
                assert f"id{n}{shown}" in text
                assert f"same as Q {shown} end?" in text
                # a note with the same string goes through the note dialog and the journal
                await pilot.press("n")
                app.screen.query_one("#note").value = f"note {_raw}"
                await pilot.press("enter")
                await pilot.pause()
                assert f"note {shown}" in screen_text(app)
                await pilot.click("#question-pane")  # a click where [@click=app.quit] would be
                await pilot.press("a")
                await pilot.pause()
                assert app.is_running and app.return_code is None
            # the 1 MB question is shown cut, with its length, and nothing crashed
            text = screen_text(app)
            assert "1,048,577 characters" in text
            assert "HHHHHHHH" in text
    finally:
        session.close()
    assert session.queue.decided == len(HOSTILE)  # the huge item is left undecided
    assert session.queue.decision_for(0).note == f"note {HOSTILE[0][0]}"


# ---- every place data reaches a widget: dialogs, titles, notifications, settings ----------------------

#: Markup that would crash, bold or run an action; escape sequences that would write the
#: clipboard or clear the screen; characters that reorder, break or hide text.
HOSTILE_STRINGS = [
    "[/]",
    "[@click=app.quit]boom[/]",
    "[b]x",
    "\x1b]52;c;aGk=\x07",
    "\x1b[2J",
    "\u202e",
    "\u2028",
    "\u200b",
    "\ufeff",
    "\U000e0041",
]
#: All of them in one value, each between angle brackets so a lost one would show.
EVIL = " ".join(f"<{raw}>" for raw in HOSTILE_STRINGS)
#: How a label shows it (safe, on one line) and how an editor draws it (one cell per character).
EVIL_SHOWN = safe_plain(EVIL, one_line=True)
EVIL_DRAWN = one_cell(EVIL, one_line=True)[0]


def plain(widget) -> str:
    """The text a Static (or a Select's label) holds, as it will be drawn."""
    visual = widget.visual
    return visual.plain if isinstance(visual, Content) else str(visual)


def assert_inert(app) -> str:
    """The app still runs, nothing unsafe is on the terminal, no widget carries a tooltip of data."""
    assert app.is_running and app.return_code is None
    text = screen_text(app)
    assert not has_unsafe(text), [line for line in text.splitlines() if has_unsafe(line)]
    for widget in app.screen.query("*"):
        tooltip = widget.tooltip
        assert tooltip is None or not has_unsafe(str(tooltip)), widget
    return text


def evil_set() -> cg.EvalSet:
    item = cg.EvalItem(
        id=f"id {EVIL}",
        question=f"Q {EVIL}?",
        answer=f"A {EVIL}",
        anchors=(cg.GoldAnchor(source_id=f"doc {EVIL}", quote=f"quote {EVIL} here"),),
        qtype=f"type {EVIL}",
        meta={"gold_documents": [[f"gold {EVIL}", EVIL]], "contexts": [f"context {EVIL}"]},
    )
    return cg.EvalSet(id=f"set {EVIL}", items=(item, cg.EvalItem(id="plain", question="Plain?")))


def evil_session(tmp_path) -> ReviewSession:
    # the set id holds "/" (in "[/]"), so the file is named by hand rather than after the id
    path = write_jsonl(evil_set(), tmp_path / "evil\x1b[2J\u202e.jsonl")
    session = ReviewSession.open(path, reviewer="tester", clock=FakeClock())
    session.note(f"note {EVIL}")
    return session


async def test_every_dialog_shows_hostile_data_literally(tmp_path):
    session = evil_session(tmp_path)
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(200, 60), notifications=True) as pilot:
            await settle(pilot, app)
            text = assert_inert(app)
            assert f"id {EVIL_SHOWN}" in text and "A <[/]> <[@click=app.quit]boom[/]>" in text

            # reject: the title; a click where [@click=app.quit] would be
            await pilot.press("r")
            await pilot.pause()
            assert f"Reject id {EVIL_SHOWN}" in plain(app.screen.query_one(".box-title", Static))
            await pilot.click(".box-title")
            assert_inert(app)
            await pilot.press("escape")

            # note: the title, and the note itself in the editor, drawn but not rewritten
            await pilot.press("n")
            await pilot.pause()
            assert f"Note on id {EVIL_SHOWN}" in plain(app.screen.query_one(".box-title", Static))
            note = app.screen.query_one("#note")
            assert note.value == f"note {EVIL}" and note._value.plain == f"note {EVIL_DRAWN}"
            assert_inert(app)
            await pilot.press("escape")

            # go to: a hostile id typed in; the dialog's "no such item" line quotes it, drawn as text
            await pilot.press("g")
            await pilot.pause()
            app.screen.query_one("#target").value = EVIL
            assert_inert(app)
            await pilot.press("enter")
            await pilot.pause()
            said = plain(app.screen.query_one("#goto-problem", Static))
            assert "no item with id" in said and not has_unsafe(said) and "[@click=app.quit]boom[/]" in said
            assert_inert(app)
            await pilot.press("escape")
            await pilot.pause()

            # mark type: the item's own type is one of the options
            await pilot.press("m")
            await pilot.pause()
            options = app.screen.query_one("#types", OptionList)
            prompts = [options.get_option_at_index(n).prompt for n in range(options.option_count)]
            type_shown = safe_plain(f"type {EVIL}"[:80], one_line=True)  # types are cut at 80 characters
            assert any(type_shown in prompt.plain for prompt in prompts)
            assert_inert(app)
            await pilot.press("escape")

            # edit: title, quote label, the type Select (closed and open), the editors
            await pilot.press("e")
            await pilot.pause()
            assert f"Edit id {EVIL_SHOWN}" in plain(app.screen.query_one(".box-title", Static))
            assert f"Quote from doc {EVIL_SHOWN}" in plain(app.screen.query_one("#quote-label", Static))
            select = app.screen.query_one("#edit-type", Select)
            assert type_shown in plain(select.query_one("#label"))
            assert app.screen.query_one("#edit-question").text == f"Q {EVIL}?"
            assert_inert(app)
            select.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert "type <[/]> <[@click=app.quit]boom[/]>" in assert_inert(app)  # the list wraps long types
            overlay = select.query_one(OptionList)
            assert any(type_shown in str(overlay.get_option_at_index(n).prompt) for n in range(overlay.option_count))
            await pilot.press("escape", "escape")
            await pilot.pause()

            # search: the query is drawn safely, and so is every hit
            await pilot.press("slash")
            await pilot.pause()
            app.screen.query_one("#query").value = "boom"
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            hits = app.screen.query_one("#hits", OptionList)
            assert hits.option_count >= 1
            assert any("[@click=app.quit]boom[/]" in hits.get_option_at_index(n).prompt.plain for n in range(hits.option_count))
            assert_inert(app)
            app.screen.query_one("#query").value = EVIL
            assert_inert(app)
            await pilot.press("escape")
            await pilot.pause()
            assert_inert(app)
    finally:
        session.close()
    assert session.queue.decided == 0


async def test_document_view_of_a_hostile_corpus(tmp_path):
    session = evil_session(tmp_path)
    corpus = Corpus.from_texts({f"doc {EVIL}": f"Before.\n\nquote {EVIL} here\n\nAfter {EVIL}."})
    app = make_app(session, scan=fixed_scan(), corpus=corpus)
    try:
        async with app.run_test(size=(200, 50), notifications=True) as pilot:
            await settle(pilot, app)
            assert "found exactly" in assert_inert(app)
            await pilot.press("x")
            await pilot.pause()
            assert f"doc {EVIL_SHOWN}" in plain(app.screen.query_one(".box-title", Static))
            area = app.screen.query_one("#document")
            assert "[@click=app.quit]boom[/]" in area.selected_text
            await pilot.click(".box-title")
            assert_inert(app)
            await pilot.press("escape")
            await pilot.pause()
            assert_inert(app)
    finally:
        session.close()


async def test_help_palette_and_settings_with_hostile_key_names(tmp_path):
    # Key names no key press makes, full of markup and escapes: each is named, inertly, in a settings
    # notification, and not bound (its action keeps its own key); nothing anywhere runs or styles them.
    path = tmp_path / "config.toml"
    path.write_text(
        "[keys]\n"
        '"review.accept" = "[b]x\\u001b]52;c;aGk=\\u0007"\n'
        '"review.skip" = "\\u202e[/]"\n'
        '"review.undo" = "[@click=app.quit]"\n'
        '"[/]\\u001b[2J\\u2028" = 7\n'
    )
    keys = {"Accept": "a", "Skip": "s", "Undo": "u"}
    session = evil_session(tmp_path)
    app = make_app(session, scan=fixed_scan(), config=load_config(path))
    try:
        async with app.run_test(size=(200, 50), notifications=True) as pilot:
            await settle(pilot, app)
            shown_problems = [n.message for n in app._notifications if n.title == "settings"]
            assert len(shown_problems) == 3 and not any(has_unsafe(problem) for problem in shown_problems)  # two, and a count
            # every problem, as a toast shows one (the command prints them all when it closes)
            problems = [safe_plain(problem, limit=500) for problem in app.config.problems]
            assert len(problems) == 1 + 3 * 2  # the bad entry; each remap named, and its action's own key kept
            assert "keys.[/]␛[2J<U+2028>" in problems[0]
            said = " ".join(problems)
            for shown in ("'[b]x\\x1b]52;c;aGk=\\x07'", "'\\u202e[/]'", "'[@click=app.quit]'"):
                assert f"{shown} is not the name of a key" in said, (shown, said)
            assert not any(has_unsafe(problem) for problem in problems)
            text = assert_inert(app)
            for title, key in keys.items():
                assert f" {key} {title}" in text  # the key bar
            commands = {command.title: command.help for command in app.get_system_commands(app.screen)}
            for title, key in keys.items():
                shown = Content.from_markup(commands[title]).plain  # the palette parses markup
                assert f"(key {key})" in shown and not has_unsafe(shown)
            await pilot.press("question_mark")
            await pilot.pause()
            assert_inert(app)
            await pilot.press("escape", "ctrl+p")
            await pilot.pause()
            assert_inert(app)
            await pilot.press("escape")
            assert session.queue.decided == 0
            assert app.is_running
    finally:
        session.close()


async def test_summary_and_export_of_a_hostile_set(tmp_path):
    session = evil_session(tmp_path)
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(200, 50), notifications=True) as pilot:
            await settle(pilot, app)
            await pilot.press("r", "3", *"bad", "enter")
            await pilot.press("a")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert type(app.screen).__name__ == "SummaryScreen"
            assert f"Review of set {EVIL_SHOWN} finished" in plain(app.screen.query_one(".box-title", Static))
            assert_inert(app)
            await pilot.click(".box-title")
            await pilot.press("e")  # export: the summary comes back naming the file
            await pilot.pause()
            await pilot.pause()
            text = assert_inert(app)
            assert "evil␛[2J<U+202E>" in plain(app.screen.query_one("#summary-body", Static))
            assert any("evil␛[2J<U+202E>" in n.message for n in app._notifications)
            assert "exported to" in text
    finally:
        session.close()
