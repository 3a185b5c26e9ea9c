"""Keys that reach the app together are handled as if typed one at a time.

Over SSH, from a fast typist or from ``tmux send-keys r 2 Enter``, several keys
arrive in one read. Textual gives each key to the focused widget as soon as it is
read and runs a key's binding only once the key has bubbled back to the app, so
without the app's own ordering the keys after ``r`` went to the review pane before
the reject dialog existed: the reason digit was dropped and Enter rejected with no
reason. Each test types the same keys twice, one at a time (as ``pilot.press``
does, waiting for the app between keys) and in one burst (posted together, as the
terminal driver posts the keys of one read), and expects the same journal and the
same screen.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest
from textual import events
from textual.message import Message

import reviewtui as cg
from reviewtui.evalset.io.settings import AppConfig
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, settle

CHARACTERS = {"enter": "\r", "escape": "\x1b", "space": " ", "slash": "/"}


@asynccontextmanager
async def _running(folder, items: int):
    """The app on a set of ``items`` questions in ``folder``, its checks done: (app, pilot, session)."""
    session = open_session(folder, cg.EvalSet(id="keys", items=make_items(items)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            yield app, pilot, session
    finally:
        session.close()


def _event(key: str | events.Paste) -> events.Event:
    if isinstance(key, events.Paste):
        return events.Paste(key.text)
    plain = key.removeprefix("alt+")  # an Alt key carries the character of its key, as Textual's parser gives it
    if plain.startswith("shift+") and len(plain) == 7:  # Esc and U read together: alt+shift+u, character "U"
        return events.Key(key, plain[-1].upper())
    return events.Key(key, CHARACTERS.get(plain, plain if len(plain) == 1 else None))


def _where(app) -> str:
    """The screen on top by its class name, and whether the review screen shows the reason picker."""
    screen = app.screen
    name = type(screen).__name__
    if name == "ReviewScreen" and screen.reason_picker.is_open:
        name += " with the reason picker"
    return name


def _outcome(app, session) -> dict:
    queue = session.queue
    decisions = {}
    for item in queue.items:
        decision = queue.decision_for(item.id)
        if decision is not None:
            after = decision.after if decision.after is not None else item
            decisions[item.id] = (decision.verdict.value, decision.reason, decision.note, after.qtype)
    return {
        "decisions": decisions,
        "notes": {item.id: queue.note_for(item.id) for item in queue.items if queue.note_for(item.id)},
        "position": queue.position,
        "screen": _where(app),
        "journal": session.journal_path.read_text(encoding="utf-8").count("\n"),
    }


async def _type(tmp_path, keys, *, burst: bool) -> dict:
    folder = tmp_path / ("burst" if burst else "one-by-one")
    folder.mkdir(parents=True)
    async with _running(folder, 5) as (app, pilot, session):
        if burst:
            for key in keys:  # no await between them: one read's worth of keys
                app.post_message(_event(key))
        else:
            for key in keys:
                if isinstance(key, events.Paste):
                    app.post_message(_event(key))
                else:
                    await pilot.press(key)
                await pilot.pause()
        for _ in range(10):
            await pilot.pause()
        return _outcome(app, session)


async def _journal_lines_untouched(tmp_path) -> int:
    return (await _type(tmp_path / "none", [], burst=False))["journal"]


BURSTS = {
    "reject with a reason": ["r", "2", "enter"],
    "reject with a reason and a note, then skip": ["r", "3", *"hello", "enter", "s"],
    "a reject cancelled, then an accept": ["r", "escape", "a"],
    "accept, reject, accept": ["a", "r", "1", "enter", "a"],
    "reject then undo": ["r", "2", "enter", "u"],
    "mark the type": ["m", "2", "a"],
    "go to an item and accept it": ["g", "4", "enter", "a"],
    "a note, then a decision": ["n", *"later", "enter", "s"],
    "a pasted note": ["r", "2", events.Paste("pasted words"), "enter", "a"],
    "plain decisions": ["a", "s", "a", "r", "enter"],
    # the search's hits come from a worker: Down and Enter choose among them once they are there
    "search, choose the hit, accept it": ["slash", *"number 3", "enter", "down", "enter", "a"],
    "search with one hit, Enter twice": ["slash", *"number 4", "enter", "enter", "a"],
    # the palette's Enter picks the command (a message to its list), which runs once the palette has closed
    "a command from the palette, then a decision": ["ctrl+p", *"skip", "enter", "a"],
}


@pytest.mark.parametrize("keys", BURSTS.values(), ids=BURSTS.keys())
async def test_a_burst_does_what_the_same_keys_typed_slowly_do(tmp_path, keys):
    slowly = await _type(tmp_path, keys, burst=False)
    together = await _type(tmp_path, keys, burst=True)
    assert together == slowly
    assert slowly["journal"] > await _journal_lines_untouched(tmp_path)  # else the comparison proves nothing


async def test_a_reason_typed_in_the_same_read_as_the_reject_is_recorded(tmp_path):
    outcome = await _type(tmp_path, ["r", "2", "enter"], burst=True)
    verdict, reason, _note, _qtype = outcome["decisions"]["q1"]
    assert verdict == "rejected"
    assert reason is not None


async def test_the_note_and_the_next_decision_stay_apart(tmp_path):
    outcome = await _type(tmp_path, ["r", "3", *"hello", "enter", "s", "a"], burst=True)
    assert outcome["decisions"]["q1"][2] == "hello"
    assert outcome["decisions"]["q2"][0] == "skipped"
    assert outcome["decisions"]["q3"][0] == "accepted"
    assert outcome["screen"] == "ReviewScreen"


class _Batch(Message):
    """Stands for what the app's queue carries besides keys: the loader's batches, the scan's progress."""


@pytest.mark.parametrize("busy", [False, True], ids=["quiet app", "app busy reading the set"])
async def test_keys_typed_one_at_a_time_are_not_followed(tmp_path, monkeypatch, busy):
    """A key that finds the one before it handled goes straight through: nothing followed, no waiting.

    "Handled" is judged from the queues, and on a loaded machine something else may still sit in a
    widget's when the next key comes (then the key is followed: slower, not wrong), so the test lets
    them drain before each key, as a person's pause between keys does. The app's own messages behind
    the key (a large set's batches, many a second while it opens) are not waited for: following
    every key behind them made keys typed while a 100k set opened take up to three times as long.
    """
    from reviewtui.tui import keyorder

    followed = []
    original = keyorder.KeyOrder._follow

    def counted(self, flight):
        followed.append(flight.ticket)
        original(self, flight)

    monkeypatch.setattr(keyorder.KeyOrder, "_follow", counted)
    keys = ["a", "s", "a", "right", "left"]
    async with _running(tmp_path, 5) as (app, pilot, session):
        for key in keys:
            if busy:
                app.post_message(_event(key))
                app.post_message(_Batch())  # in the app's queue when the key is taken
                await asyncio.sleep(0.05)  # not pilot.pause: it queues a callback on every widget
            else:
                await pilot.press(key)
            for _ in range(100):
                flight = app._keys._in_flight
                if flight is None or keyorder._quiet(app._keys._pumps()):
                    break
                await pilot.pause()
            else:
                pytest.fail("the queues on a key's way never drained")
        outcome = _outcome(app, session)
    assert [d[0] for d in outcome["decisions"].values()] == ["accepted", "skipped", "accepted"]
    assert followed == []
    together = await _type(tmp_path, keys, burst=True)
    assert together["decisions"] == outcome["decisions"] and together["position"] == outcome["position"]
    assert followed  # the same keys in one read are followed


async def test_keys_are_not_held_for_good_when_a_marker_is_lost(tmp_path, monkeypatch):
    """Whatever happened to the marker, the held keys go on in the end."""
    from reviewtui.tui import keyorder
    from reviewtui.tui.keyorder import GIVE_UP_SECONDS, KeyHandled

    monkeypatch.setattr(keyorder, "LAST_RESORT_SECONDS", 0.2)

    async with _running(tmp_path, 3) as (app, pilot, session):
        lost = []

        async def lose(message: KeyHandled) -> None:  # no marker ever comes back
            message.stop()
            lost.append(message.ticket)

        app._keys.handled = lose
        for key in ("a", "a"):
            app.post_message(_event(key))
        await pilot.pause()
        await pilot.pause()
        assert app._keys.held == 1 and lost  # the second key waits for the first one's marker
        await pilot.pause(GIVE_UP_SECONDS + 0.3)
        for _ in range(5):
            await pilot.pause()
        assert app._keys.held == 0
        assert [session.queue.verdict_for(i).value for i in ("q1", "q2", "q3")] == [
            "accepted",
            "accepted",
            "pending",
        ]


async def test_keys_waiting_for_a_widget_that_is_gone_go_on_at_the_next_look(tmp_path):
    from textual.widgets import Static

    from reviewtui.tui.keyorder import GIVE_UP_SECONDS, LAST_RESORT_SECONDS, _InFlight

    assert LAST_RESORT_SECONDS > 2 * GIVE_UP_SECONDS  # else this would test the last resort
    async with _running(tmp_path, 3) as (app, pilot, session):
        flight = _InFlight(-1, Static(), frozenset())  # a key handed to a widget no longer on screen
        flight.followed = True
        app._keys._in_flight = flight
        app.post_message(_event("a"))
        await pilot.pause()
        assert app._keys.held == 1
        await pilot.pause(GIVE_UP_SECONDS + 0.3)
        for _ in range(5):
            await pilot.pause()
        assert app._keys.held == 0
        assert session.queue.verdict_for("q1").value == "accepted"


async def test_a_key_read_just_before_the_one_before_has_run_its_binding_waits(tmp_path):
    """Two reads a moment apart: ``r`` has bubbled back to the app but its binding has not run yet.

    Judged only by the queues on ``r``'s way below the app, ``r`` looked done and the digit went to
    the review pane (in a real terminal about one reject in ten lost its reason at 2 ms between keys).
    """
    async with _running(tmp_path, 3) as (app, pilot, session):
        await asyncio.sleep(0.2)  # not pilot.pause: it posts a callback to every widget
        r = events.Key("r", "r")
        app.post_message(r)
        for _ in range(200):  # until r waits in the screen's queue, its last stop before the app
            if r in app.screen._message_queue.values:
                break
            await asyncio.sleep(0)
        else:
            pytest.fail("r never reached the review screen")
        app.post_message(events.Key("2", "2"))
        await asyncio.sleep(0.2)
        app.post_message(events.Key("enter", "\r"))
        await asyncio.sleep(0.2)
        decision = session.queue.decision_for("q1")
        assert decision is not None and decision.verdict.value == "rejected"
        assert decision.reason is not None


async def test_the_textual_internals_the_key_order_reads_are_there(tmp_path):
    """keyorder._quiet reads these with defaults (a rename makes keys wait, it does not crash them);
    this test says so when a Textual upgrade renames them."""
    async with _running(tmp_path, 2) as (app, pilot, session):
        for pump in (app, app.screen, app.focused):
            assert hasattr(pump, "_pending_message")
        assert isinstance(app._next_callbacks, list)
        assert hasattr(app._message_queue, "values")


# A terminal sends Esc and the key after it as the bytes of an Alt key ("\x1ba" is Alt+a), and Textual
# reads them as one key when they arrive in one read: a reviewer who closes the reject dialog with Esc
# and accepts at once, or whose two keys share a packet over SSH.
ESCAPE_THEN = {
    "Esc closes the reject dialog, then an accept": (["r", "escape", "a"], ["r", "alt+a"]),
    "Esc closes the go-to prompt, then a skip": (["g", "escape", "s"], ["g", "alt+s"]),
    "Esc closes the type picker, then an accept": (["m", "escape", "a"], ["m", "alt+a"]),
    "Esc on the review screen, then a reject with a reason": (["escape", "r", "2", "enter"], ["alt+r", "2", "enter"]),
    # Textual reads Esc and U as alt+shift+u: the second key is U (redo), as U typed alone is
    "an accept undone, then Esc and a redo": (["a", "u", "escape", "U"], ["a", "u", "alt+shift+u"]),
}


@pytest.mark.parametrize(("typed", "read"), ESCAPE_THEN.values(), ids=ESCAPE_THEN.keys())
async def test_an_escape_read_with_the_next_key_as_an_alt_key_is_both_keys(tmp_path, typed, read):
    slowly = await _type(tmp_path / "typed", typed, burst=False)
    together = await _type(tmp_path / "read", read, burst=True)
    assert together == slowly
    assert together["screen"] == "ReviewScreen"
    assert together["decisions"]  # the key after the Esc did decide
    assert not any(note for _verdict, _reason, note, _qtype in together["decisions"].values())  # nothing typed into a note


async def test_an_alt_key_the_settings_bind_is_not_split(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="keys", items=make_items(3)))
    app = make_app(session, scan=fixed_scan(), config=AppConfig(keymap={"review.accept": "alt+a"}))
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            app.post_message(_event("alt+a"))
            for _ in range(5):
                await pilot.pause()
            decided = session.queue.decision_for("q1")
            assert decided is not None and decided.verdict.value == "accepted"
            assert type(app.screen).__name__ == "ReviewScreen"
    finally:
        session.close()


async def test_an_alt_key_in_a_field_with_text_is_not_taken_for_an_escape(tmp_path):
    # Alt+b is a word back to a readline user; taken as Esc it would close the dialog and lose the text typed.
    outcome = await _type(tmp_path, ["r", *"why", "alt+b"], burst=True)
    assert outcome["screen"] == "ReviewScreen with the reason picker"
    assert outcome["decisions"] == {}


async def test_esc_read_with_a_key_is_split_again_after_a_reject_with_a_note(tmp_path):
    # The reason picker stays on the review screen when hidden: a note left in its field made the
    # whole screen count as holding text, and Esc with "a" read together then did nothing.
    async with _running(tmp_path, 5) as (app, pilot, session):
        await pilot.press("r", "3", *"bad", "enter")
        await pilot.pause()
        app.post_message(_event("alt+a"))  # Esc and a, read together
        for _ in range(10):
            await pilot.pause()
        outcome = _outcome(app, session)
    assert outcome["screen"] == "ReviewScreen"
    assert outcome["decisions"]["q1"][:3] == ("rejected", "wrong-evidence", "bad")
    assert outcome["decisions"]["q2"][0] == "accepted"


async def test_esc_read_with_a_key_in_an_untouched_editor_closes_it_and_then_acts(tmp_path):
    # The editor's fields are filled from the item, so it counted as holding text: Esc and "a" read together
    # stayed an Alt key, which the question's field took as a typed "a" (one ctrl+s from saving it).
    # Nothing changed in it, nothing is lost by closing it: the two keys are an Esc and an accept.
    outcome = await _type(tmp_path, ["e", "alt+a"], burst=True)
    assert outcome["screen"] == "ReviewScreen"
    assert outcome["decisions"] == {"q1": ("accepted", None, "", "factoid")}


async def test_an_alt_key_on_a_field_without_text_in_the_editor_keeps_the_edit(tmp_path):
    # The focus on the type picker or on an empty answer field: the question's field still holds the draft.
    outcome = await _type(tmp_path, ["e", *"XYZ", "tab", "tab", "alt+x"], burst=True)
    assert outcome["screen"] == "EditScreen"
