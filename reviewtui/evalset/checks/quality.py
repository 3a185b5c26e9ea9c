"""How far an eval set can be trusted: its size against the noise floor, review coverage, and balance.

:func:`assess` counts; :class:`EvalSetQuality` turns the counts into a one-line
summary and a list of cautions a person should read before believing a
leaderboard built on the set.
"""

from __future__ import annotations

import math
import warnings as _warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

from reviewtui.evalset.checks.warninglog import WarningLog
from reviewtui.evalset.model.items import EvalSet, QuestionType, is_marked_reviewed
from reviewtui.evalset.text.counts import count, plural

__all__ = ["EvalSetQuality", "assess", "is_marked_reviewed", "minimum_detectable_difference", "round_up"]

TOPIC = "evalset"

# Below this many questions with evidence, the size caution is raised (same bar as FilterChain's).
SMALL_SET = 30
# Under this share of human-checked questions, review coverage counts as low.
LOW_REVIEW_SHARE = 0.5
# One type above this share of a set of at least DOMINANT_MIN_SIZE questions skews every average.
DOMINANT_SHARE = 0.7
DOMINANT_MIN_SIZE = 10

# Two buckets each, not an inverse normal: the documented behaviour, with the reference library's constants
# (alpha=0.10 takes the looser bucket's 1.645; an alpha of 0.01 was given 2.576, a figure of its own). A value
# other than the two each bucket is named for is computed with its bucket's constant, and a warning says so.
_Z_ALPHA = (0.05, 1.96, 0.10, 1.645)  # up to 0.05, its constant; above, the other's
_Z_POWER = (0.8, 0.84, 0.9, 1.28)


def _z(buckets: tuple[float, float, float, float], value: float, name: str) -> float:
    limit, at_most_z, above, above_z = buckets
    z, named = (at_most_z, limit) if value <= limit else (above_z, above)
    if not math.isclose(value, named):
        which = f"{name} up to {limit}" if value <= limit else f"{name} above {limit}"
        _warnings.warn(
            f"minimum_detectable_difference uses one constant for {which}: {name}={value} is computed as "
            f"{name}={named}",
            UserWarning,
            stacklevel=3,
        )
    return z


def minimum_detectable_difference(n: int, *, power: float = 0.8, alpha: float = 0.05) -> float:
    """The smallest gap between two configurations that ``n`` questions can tell from noise.

    ``(z_alpha + z_power) * sqrt(2 * 0.25 / n)``: two independent proportions at
    p = 0.5. A floor, not a guarantee: a paired comparison of per-question scores
    can need a larger gap. Fewer than two questions gives 1.0; the result never
    exceeds 1.0.
    """
    for name, value in (("alpha", alpha), ("power", power)):
        if not 0 < value < 1:  # nan too: it was computed as "above 0.05", and -1 as 0.05, each with a warning
            raise ValueError(f"{name} must be above 0 and below 1, not {value!r}")
    if n < 2:
        return 1.0
    z = _z(_Z_ALPHA, alpha, "alpha") + _z(_Z_POWER, power, "power")
    return min(1.0, z * math.sqrt(2 * 0.25 / n))


def round_up(value: float, places: int = 2) -> float:
    """Round up to ``places`` decimals, so the printed floor is never below the exact one."""
    scale = 10**places
    scaled = value * scale
    nearest = round(scaled)
    if math.isclose(scaled, nearest, rel_tol=0.0, abs_tol=1e-9):
        return nearest / scale
    return math.ceil(scaled) / scale


@dataclass(frozen=True)
class EvalSetQuality:
    """Counts describing a set, and what they imply."""

    size: int
    answerable: int
    reviewed: int
    portable: int
    types: dict[str, int] = field(default_factory=dict)
    mean_discriminating_power: float | None = None
    non_discriminating: int = 0
    resolved: int = field(default=0, repr=False)
    scored: int = field(default=0, repr=False)
    # Questions whose only gold is a list of relevant documents (BEIR's meta["gold_documents"]).
    document_level: int = field(default=0, repr=False)

    @property
    def reviewed_fraction(self) -> float:
        return self.reviewed / self.size if self.size else 0.0

    @property
    def unanswerable(self) -> int:
        return self.size - self.answerable

    @property
    def detectable_difference(self) -> float:
        """The exact noise floor for the questions that have evidence."""
        return minimum_detectable_difference(self.answerable)

    @property
    def reported_detectable_difference(self) -> float:
        """The floor rounded up to 2 decimals: the figure printed, and one ``can_support`` accepts."""
        return round_up(self.detectable_difference)

    @property
    def is_portable(self) -> bool:
        return self.portable == self.answerable

    def can_support(self, difference: float) -> bool:
        """False: this gap is too small for the set, reliably. True: only *not obviously* too small."""
        return difference >= self.detectable_difference

    def _evidence_words(self) -> str:
        if self.answerable == 0 and self.document_level:
            return f"none with a quote or span, {self.document_level} with document-level gold"
        if self.answerable == 0:
            return "none with evidence"
        if self.resolved == 0:
            return f"{self.answerable} with evidence, none of it located in a corpus yet"
        return f"{self.answerable} with evidence, {self.resolved} located in a corpus"

    def _none_has(self) -> str:
        """"none of the 12 questions has", or for a set of one, "the set's one question lacks"."""
        return "the set's one question lacks" if self.size == 1 else f"none of the {self.size} questions has"

    def summary(self) -> str:
        """The one-line summary, with :attr:`reported_detectable_difference` as the noise floor whatever the set (as
        the reference page documents it; the commands print :meth:`command_summary`)."""
        return (
            f"{count(self.size, 'question')} ({self._evidence_words()}); {self.reviewed_fraction:.0%} checked by a person; "
            f"gaps under {self.reported_detectable_difference:.2f} are within noise"
        )

    def command_summary(self) -> str:
        """:meth:`summary` with the noise floor the cautions give: of a set without quotes or spans the summary said
        "gaps under 1.00 are within noise" beside a caution that no retrieval score can be computed on it (or, with
        document-level gold, that the floor for its scores is another figure)."""
        return (
            f"{count(self.size, 'question')} ({self._evidence_words()}); {self.reviewed_fraction:.0%} checked by a person; "
            f"{self._noise_words()}"
        )

    def _noise_words(self) -> str:
        if self.answerable == 0 and self.document_level:
            floor = round_up(minimum_detectable_difference(self.document_level))
            return f"gaps under {floor:.2f} are within noise for document-level scores"
        if self.answerable == 0:
            return "no retrieval score can be computed"
        return f"gaps under {self.reported_detectable_difference:.2f} are within noise"

    def warnings(self, *, say_skipped: bool = False) -> WarningLog:
        """The cautions (and notes) about this set. ``say_skipped`` adds a note that no baseline scores were
        given: the reference page documents that part as skipped silently, so the library keeps it silent,
        and the app and the commands, which ask, say it."""
        log = WarningLog()
        if self.size == 0:  # "none of the 0 questions has evidence", "0% of the questions are checked": say it once
            log.caution(TOPIC, "the set holds no questions: there is nothing to score or to review")
            return log
        floor = f"{self.reported_detectable_difference:.2f}"
        located = "" if self.resolved else ", not yet located in any corpus,"
        if self.answerable == 0 and self.document_level:
            doc_floor = round_up(minimum_detectable_difference(self.document_level))
            log.caution(
                TOPIC,
                f"{self._none_has()} a quote or a span; {self.document_level} name relevant "
                f"documents instead (document-level gold, as in BEIR). That ranks retrievers but cannot compare "
                f"chunkers: every chunk of a relevant document counts as a hit. For document-level scores on these "
                f"questions gaps under about {doc_floor:.2f} are within noise",
            )
        elif self.answerable == 0:
            log.caution(
                TOPIC,
                f"{self._none_has()} evidence (a quote or a span), so no retrieval score can be "
                f"computed on this set",
            )
        elif self.answerable < SMALL_SET:
            log.caution(
                TOPIC,
                f"only {self.answerable} {plural(self.answerable, 'question has', 'questions have')} evidence{located} "
                f"and on so few a gap under about {floor} "
                f"between two configurations cannot be told apart from noise. Treat a larger gap as a lead to test "
                f"with a paired comparison, not as a result",
            )
        else:
            with_evidence = f"{self.answerable} {plural(self.answerable, 'question')} with evidence"
            log.info(TOPIC, f"{with_evidence}: gaps under about {floor} are within noise")
        if self.reviewed_fraction < LOW_REVIEW_SHARE:
            log.caution(
                TOPIC,
                f"{self.reviewed_fraction:.0%} of the questions are marked as checked by a person. Answers and "
                f"evidence nobody has read are the weakest part of any retrieval comparison. Questions you wrote "
                f'yourself can say so with "meta": {{"reviewed": true}}; review the others in the app',
            )
        if self.mean_discriminating_power is None:
            if say_skipped:
                log.info(TOPIC, "no baseline scores were given, so how well questions separate configurations was not measured")
        elif self.non_discriminating:
            log.caution(
                TOPIC,
                f"{self.non_discriminating} of {self.scored} questions with a baseline score got a perfect 1.0; "
                f"questions every configuration gets right cannot rank configurations "
                f"(mean discriminating power {self.mean_discriminating_power:.2f})",
            )
        if not self.is_portable:
            spans_only = self.answerable - self.portable
            log.caution(
                TOPIC,
                f"{spans_only} of {self.answerable} questions hold their evidence only as character spans of one "
                f"parse of the corpus; a new parser or chunker invalidates them. Keep the quotes (anchors) as well",
            )
        if self.unanswerable and self.answerable:
            # A question naming relevant documents (DPR's positive passages where none holds the answer) has gold a
            # retriever can be scored on: "no evidence at all" said of it was untrue, and its flag in the app and
            # the audit says "only relevant documents".
            bare = self.unanswerable - self.document_level
            if bare:
                log.info(TOPIC, f"{bare} {plural(bare, 'question carries', 'questions carry')} no evidence at all")
            if self.document_level:
                log.info(
                    TOPIC,
                    f"{self.document_level} {plural(self.document_level, 'question names', 'questions name')} only "
                    f"relevant documents, no quote or span (document-level gold): only whole-document retrieval can "
                    f"be scored on {'it' if self.document_level == 1 else 'them'}",
                )
        if self.size >= DOMINANT_MIN_SIZE and self.types:
            qtype, count = max(self.types.items(), key=lambda kv: kv[1])
            if count / self.size > DOMINANT_SHARE:
                log.caution(
                    TOPIC,
                    f"{count} of {self.size} questions ({count / self.size:.0%}) are of type {qtype!r}; "
                    f"an average over this set mostly measures that one kind of question",
                )
        return log



def assess(
    evalset: EvalSet,
    *,
    baseline_scores: Mapping[str, float] | None = None,
    reviewed_key: str = "reviewed",
    text_markers: bool = False,
) -> EvalSetQuality:
    """Count what the set holds; score how discriminating its questions were on a baseline run, if given.

    Discriminating power per question is ``1 - 2·|score - 0.5|`` (1 in the middle,
    0 at either end); a question counts as non-discriminating when its baseline
    score is exactly 1.0. Scores for ids not in the set are ignored.

    An item counts as reviewed by the truth of ``meta[reviewed_key]``, as the reference page
    documents, so a spreadsheet's text "false" counts as reviewed; ``text_markers`` reads the
    marker as the app and the commands do (:func:`is_marked_reviewed`: "false", "no", "0" are not).
    """
    marked = is_marked_reviewed if text_markers else bool
    answerable = reviewed = portable = resolved = document_level = 0
    types: dict[str, int] = {}
    for item in evalset.items:
        gold, anchors, meta, qtype = item.gold, item.anchors, item.meta, item.qtype
        if gold or anchors:
            answerable += 1
        elif meta and meta.get("gold_documents"):
            document_level += 1
        if anchors:
            portable += 1
        if gold:
            resolved += 1
        if meta and marked(meta.get(reviewed_key)):
            reviewed += 1
        if qtype is not None:
            types[qtype] = types.get(qtype, 0) + 1

    mean_power: float | None = None
    non_discriminating = scored = 0
    if baseline_scores:
        powers = []
        for item in evalset.items:
            score = baseline_scores.get(item.id)
            if score is None:
                continue
            powers.append(1.0 - abs(score - 0.5) * 2)
            if score == 1.0:
                non_discriminating += 1
        scored = len(powers)
        if powers:
            mean_power = sum(powers) / len(powers)

    # The order of evalset.types() (known types first, then the others sorted), without another pass over the items.
    order = [t for t in QuestionType.ALL if t in types] + sorted(set(types).difference(QuestionType.ALL))
    ordered_types = {t: types[t] for t in order}
    return EvalSetQuality(
        size=len(evalset),
        answerable=answerable,
        reviewed=reviewed,
        portable=portable,
        types=ordered_types,
        mean_discriminating_power=mean_power,
        non_discriminating=non_discriminating,
        resolved=resolved,
        scored=scored,
        document_level=document_level,
    )
