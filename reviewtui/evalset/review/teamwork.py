"""What a team's journals say together: every reviewer's labels per item, read without locking or writing."""

from __future__ import annotations

import os
from typing import Any

from reviewtui.evalset.model.items import EvalSet
from reviewtui.evalset.review.session import load_review
from reviewtui.evalset.review.team import TeamPlan

__all__ = ["team_ratings"]


def team_ratings(
    plan: TeamPlan, evalset: EvalSet, input_path: str | os.PathLike[str], *, what: str = "verdict"
) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """Every reviewer's labels, item id -> {reviewer: label}, from their journals (read only); and decisions per reviewer.

    ``what``: ``verdict`` (accepted, rejected, edited; a skip is no judgement and left out),
    ``reason`` (the reject reason of rejected items) or ``qtype`` (the type the reviewer left
    the item with, of the items they accepted or edited).
    """
    ratings: dict[str, dict[str, str]] = {}
    decided: dict[str, int] = {}
    for reviewer in plan.reviewers:
        journal = plan.journal_for(reviewer)
        if not journal.exists():
            decided[reviewer] = 0
            continue
        mine = evalset.replace(items=tuple(plan.items_for(reviewer, evalset.items)))
        loaded = load_review(input_path, journal_path=journal, evalset=mine)
        decisions = loaded.queue.decisions
        decided[reviewer] = len(decisions)
        for item_id, decision in decisions.items():
            label = _label(decision, what)
            if label is not None:
                ratings.setdefault(item_id, {})[reviewer] = label
    return ratings, decided


def _label(decision: Any, what: str) -> str | None:
    verdict = decision.verdict.value
    if verdict == "skipped":
        return None
    if what == "verdict":
        return str(verdict)
    if what == "reason":
        return decision.reason.value if verdict == "rejected" and decision.reason is not None else None
    if what == "qtype":
        item = decision.after or decision.before
        return item.qtype if verdict in ("accepted", "edited") and item is not None and item.qtype else None
    raise ValueError(f"unknown label kind {what!r}")
