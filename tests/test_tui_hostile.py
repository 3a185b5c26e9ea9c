"""Hostile strings in a set reach the screen literally, crash nothing and run nothing."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.flag import Flag, Severity
from tests.tui_helpers import fixed_scan, make_app, open_session, screen_text, settle

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
                await pilot.click("#question")  # a click where [@click=app.quit] would be
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
