"""The review engine: the queue of decisions, its journal replay, the session that owns a review, export.

``reviewtui.evalset.review.X`` keeps the names the reference pages give the review
module (``Verdict``, ``pending``, ``review_summary``, ``ReviewQueue``).
"""

from reviewtui.evalset.review.queue import (
    Decision,
    RejectReason,
    ReviewQueue,
    Verdict,
    pending,
    review_summary,
)

__all__ = ["Decision", "RejectReason", "ReviewQueue", "Verdict", "pending", "review_summary"]
