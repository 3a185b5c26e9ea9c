"""The adjudicator's view of a reviewer's edit names the fields the reviewer changed, and only those: an edit read
back from a journal holds its meta as JSON gave it (lists where the set's reader made tuples, as a BEIR query's gold
documents), which is the same meta, not a change of it."""

from __future__ import annotations

import orjson

from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.review.queue import Decision, Verdict


def test_an_edit_read_back_from_a_journal_changes_only_what_the_reviewer_changed():
    before = EvalItem(id="19", question="Some claim about cells.", meta={"gold_documents": [("3202143", 1)]})
    written = orjson.loads(orjson.dumps(before.model_copy(update={"qtype": "comparative"}).model_dump(mode="json")))
    after = EvalItem.model_validate(written)  # as the journal's replay builds it: lists, not tuples
    decision = Decision(item_id="19", verdict=Verdict.EDITED, before=before, after=after)
    assert set(decision.changes()) == {"qtype"}
    assert set(decision.record_meta()["original"]) == {"qtype"}  # as the export has always said it
