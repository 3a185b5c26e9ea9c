"""Go to (g): a position means what the screen shows, in the order on screen."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.tui.screens.dialogs import GotoScreen
from reviewtui.tui.screens.review import resolve_target
from tests.tui_helpers import fixed_scan, make_app, make_items, open_session, screen_text, settle


def test_a_position_counts_in_the_order_on_screen():
    queue = ReviewQueue(make_items(5), reviewer="ana")
    assert resolve_target(queue, "#1") == 0
    queue.set_order([3, 1])  # as "flagged first" does: these first, then the rest in set order
    assert [resolve_target(queue, f"#{n}") for n in range(1, 6)] == [3, 1, 0, 2, 4]
    assert resolve_target(queue, "q3") == "q3"  # an id is an id, whatever the order


def test_a_bare_number_is_only_an_id_where_the_ids_are_numbers():
    """BEIR query ids are numbers: "86", a query of another split, went to the 86th item without a word."""
    import pytest

    from reviewtui.evalset.model.errors import ReviewError

    numbered = ReviewQueue(tuple(cg.EvalItem(str(n), f"Question {n}?") for n in (3, 410, 86_000, 7)), reviewer="ana")
    assert resolve_target(numbered, "410") == "410"
    with pytest.raises(ReviewError, match=r"no item with id '2'; some ids here are numbers, so a position is typed #2"):
        resolve_target(numbered, "2")
    assert resolve_target(numbered, "#2") == 1
    named = ReviewQueue(make_items(5), reviewer="ana")
    assert resolve_target(named, "2") == 1  # ids that are not numbers: a bare number is a position, as before
    # Judged on the set, not on where the reviewer stands: the same answer on every item.
    mixed = ReviewQueue(tuple(cg.EvalItem(item_id, f"Question {item_id}?") for item_id in ("a", "b", "3", "7", "9")), reviewer="ana")
    answers = set()
    for position in range(5):
        mixed.goto(position)
        try:
            answers.add(resolve_target(mixed, "4"))
        except ReviewError as refused:
            answers.add(str(refused))
    assert answers == {"no item with id '4'; some ids here are numbers, so a position is typed #4"}


async def test_g_then_a_position_lands_where_the_status_line_says(tmp_path):
    session = open_session(tmp_path, cg.EvalSet(id="g", items=make_items(5)))
    app = make_app(session, scan=fixed_scan())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            session.set_order([4, 2])
            await pilot.press("g", "#", "2", "enter")
            await pilot.pause()
            assert session.queue.current.id == "q3"
            assert "item 2 of 5" in screen_text(app)
    finally:
        session.close()


def test_the_range_in_the_prompt_says_so_far_while_reading():
    assert "so far" in GotoScreen(300, still_reading=True)._placeholder_text()
    assert "so far" not in GotoScreen(300)._placeholder_text()


def test_an_id_outside_a_team_members_share_is_said_to_be_outside_it():
    """"no item with id 'Q005'" was said in ana's share of a set that holds Q005, given to another reviewer."""
    import tempfile
    from pathlib import Path

    import pytest

    from reviewtui.evalset.model.errors import ReviewError
    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.evalset.review.team import TeamPlan
    from reviewtui.tui.screens.review import _part_held
    from tests.tui_helpers import FakeClock

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.csv"
        path.write_text("id,question,answer\n" + "".join(f"Q{n:03d},Question {n}?,a{n}\n" for n in range(1, 21)), encoding="utf-8")
        plan = TeamPlan.create(path, ["ana", "bo"], 1)
        plan.save()
        with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
            held = {item.id for item in session.queue.items}
            elsewhere = next(f"Q{n:03d}" for n in range(1, 21) if f"Q{n:03d}" not in held)
            with pytest.raises(ReviewError, match=rf"^no item with id '{elsewhere}' in ana's share \(the rest of the set is others' to review\)$"):
                resolve_target(session.queue, elsewhere, part=_part_held(session))
    queue = ReviewQueue(make_items(3), reviewer="ana")
    with pytest.raises(ReviewError, match=r"^no item with id 'Q005'$"):  # a whole set: no part to name
        resolve_target(queue, "Q005")


def test_an_id_the_set_has_but_the_review_left_out_is_said_so():
    """A set whose file marks q1 reviewed: g q1 said "no item with id 'q1'" of a set that holds one."""
    import pytest

    from reviewtui.evalset.model.errors import ReviewError

    items = make_items(3)
    queue = ReviewQueue(items[1:], reviewer="ana")  # q1 left out, as a review without --all leaves it
    with pytest.raises(ReviewError, match=r"'q1' is not in this review: the set file marks it reviewed.*--all"):
        resolve_target(queue, "q1", in_set={item.id: n for n, item in enumerate(items)})
    with pytest.raises(ReviewError, match=r"^no item with id 'zz'$"):
        resolve_target(queue, "zz", in_set={item.id: n for n, item in enumerate(items)})
