"""The reference pages' running example: a three-question handbook quiz (a repeat, and a one-word question)."""

from __future__ import annotations

import reviewtui as cg

QUOTE = "Employees accrue 1.5 days of leave per month."


def with_anchor(id, question, quote=QUOTE, **extra):
    """An item quoting the handbook, typed factoid unless ``qtype`` says otherwise."""
    extra.setdefault("qtype", cg.QuestionType.FACTOID)
    return cg.EvalItem(id=id, question=question, anchors=(cg.GoldAnchor(source_id="handbook.pdf", quote=quote),), **extra)


def handbook_quiz() -> cg.EvalSet:
    return cg.EvalSet(
        id="handbook-quiz",
        items=(
            with_anchor("q1", "How much leave do employees accrue per month?"),
            with_anchor("q2", "How much leave do employees accrue per month?"),
            with_anchor("q3", "it"),
        ),
    )
