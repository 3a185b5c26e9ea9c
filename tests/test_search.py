"""Search finds items as the reviewer sees them (edited ones as edited), in the order on screen,
numbered as the status line and ``g`` number them."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.review.queue import ReviewQueue
from reviewtui.evalset.review.search import search_items, search_queue


def _queue() -> ReviewQueue:
    items = tuple(
        cg.EvalItem(id=f"q{i}", question=f"What does rule {i} of the members' handbook say?", answer=f"rule {i}")
        for i in range(1, 7)
    )
    return ReviewQueue.from_evalset(cg.EvalSet(id="s", items=items))


def test_an_edit_is_searched_as_edited_and_its_old_words_are_not_found():
    queue = _queue()
    queue.goto("q2")
    queue.edit(question="Where is the ZZUNIQUE form kept?")
    assert [h.item_id for h in search_queue(queue, "zzunique")] == ["q2"]
    assert [h.item_id for h in search_queue(queue, "rule 2 of")] == []
    assert [h.item_id for h in search_items(queue.items, "rule 2 of")] == ["q2"]  # the set itself is unchanged


def test_hits_come_in_the_order_on_screen_numbered_as_the_status_line_numbers_them():
    queue = _queue()
    queue.set_order([4, 5])  # "flagged first": q5 and q6, then the rest in the set's order
    hits = search_queue(queue, "handbook")
    assert [h.item_id for h in hits] == ["q5", "q6", "q1", "q2", "q3", "q4"]
    assert [h.number for h in hits] == [1, 2, 3, 4, 5, 6]
    for hit in hits:
        assert queue.rank_of(hit.position) + 1 == hit.number  # what the status line shows once it is opened
        assert queue.index_at_rank(hit.number - 1) == hit.position  # and what `g #N` goes to


def test_a_search_of_the_part_read_searches_as_many_items_as_it_says():
    """The dialog counts the items read when the search starts and says "in the N read so far": a batch read
    while the search ran was searched too, and the count said fewer than were searched."""
    queue = _queue()
    assert [h.item_id for h in search_queue(queue, "handbook", upto=4)] == ["q1", "q2", "q3", "q4"]
    assert len(search_queue(queue, "handbook", upto=60)) == 6  # never past the end
