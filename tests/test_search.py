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


def test_an_accent_is_found_however_it_is_encoded_and_invisible_characters_do_not_part_a_word():
    """A question holding "cafe" and a combining accent is drawn as "café"; typed with one character
    (as a keyboard gives it), the search found nothing. Nor did "zerowidth" find "zero\u200bwidth"."""
    items = [
        cg.EvalItem(id="nfd", question="Is cafe\u0301 open?"),
        cg.EvalItem(id="nfc", question="Is CAF\u00c9 open?"),
        cg.EvalItem(id="zw", question="What is zero\u200bwidth?"),
    ]
    assert [h.item_id for h in search_items(items, "caf\u00e9")] == ["nfd", "nfc"]
    assert [h.item_id for h in search_items(items, "cafe\u0301")] == ["nfd", "nfc"]
    assert [h.item_id for h in search_items(items, "zerowidth")] == ["zw"]


def test_a_hit_s_snippet_shows_the_words_found_when_folding_changes_lengths_before_them():
    """Case folding makes "ß" "ss": the place found in the folded text was used in the text itself, so after
    forty "Straße" the snippet began 40 characters late and did not hold the word searched for."""
    question = "Straße " * 40 + "Wo liegt Hamburg? " + "mehr Text hier " * 10
    (hit,) = search_items([cg.EvalItem(id="de", question=question)], "hamburg")
    assert "Hamburg" in hit.snippet
    (hit,) = search_items([cg.EvalItem(id="i", question="İ" * 60 + " target word " + "x " * 60)], "target")
    assert "target" in hit.snippet


def test_a_hit_s_snippet_shows_the_words_found_in_decomposed_text():
    """In text whose accents are written apart (NFD), each letter and its accent were counted as two where the
    composed, folded text has one: the snippet began one character early for each accent before the hit, and a
    hit after a paragraph of French or Korean showed none of the words searched for."""
    import unicodedata

    french = unicodedata.normalize("NFD", "Le café était à côté de l'école. " * 30 + "Où est Hamburg ? fin")
    (hit,) = search_items([cg.EvalItem(id="fr", question=french)], "hamburg")
    assert "Hamburg" in hit.snippet
    korean = unicodedata.normalize("NFD", "한국어 문장입니다 " * 40 + "찾는말 끝")
    (hit,) = search_items([cg.EvalItem(id="ko", question=korean)], unicodedata.normalize("NFC", "찾는말"))
    assert unicodedata.normalize("NFD", "찾는말") in hit.snippet


def test_the_turkish_capital_i_with_a_dot_is_found_by_its_lower_case():
    """Case folding makes "İ" an "i" and a combining dot above: "istanbul" did not find "İstanbul" or "İSTANBUL"."""
    items = [
        cg.EvalItem(id="cap", question="Where is İstanbul?"),
        cg.EvalItem(id="upper", question="WHERE IS İSTANBUL?"),
        cg.EvalItem(id="low", question="where is istanbul?"),
    ]
    assert [h.item_id for h in search_items(items, "istanbul")] == ["cap", "upper", "low"]
    assert [h.item_id for h in search_items(items, "İstanbul")] == ["cap", "upper", "low"]
    (hit,) = search_items([cg.EvalItem(id="t", question="İ" * 60 + " İzmir target " + "x " * 60)], "izmir")
    assert "İzmir" in hit.snippet
