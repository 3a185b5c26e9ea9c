"""The one list of checks: what each is called, how bad its flag is, where it belongs, and what computes it.

Every check registers itself, in the module that holds its logic, with :func:`register`:

* ``kind`` says what part it plays. ``FILTER``: one of the spec's six filters, run in
  ``order`` by the documented chain (:func:`~reviewtui.evalset.checks.filters.default_filters`
  builds the chain from these entries) and on every item by the scan; ``make`` builds the
  filter. ``AUDIT``: one of the golden-set audit's checks (:mod:`.audit`). ``SCAN``: a flag
  the per-item scan makes from the others' findings (near-duplicates, the type hint, …).
  ``FLAG``: an extra per-item check that is not part of the spec's chain: ``flag(item, needs)``
  returns its reason, or None; the scan runs it on every item.
* ``severity`` is what its per-item flag weighs in the review pane, and ``note`` says why
  (how often it was right on real sets); the scan's severity table is read from here.
* ``profiles`` names the audiences that run it: ``review`` (this app) and, for the checks
  that mirror goldensetauditor, ``goldensetauditor``.
* ``needs`` names per-item values an extra check wants the scan to compute once for every
  check that asks (see :class:`Needs`), instead of each check working them out again.

A new extra check is one module in this package whose name starts with ``check_`` and that
calls :func:`register` when imported; :func:`checks` imports every such module the first
time it is called, so nothing else has to name it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import letter_runs, word_set

__all__ = [
    "AUDIT",
    "FILTER",
    "FLAG",
    "GOLDENSETAUDITOR",
    "REVIEW",
    "SCAN",
    "Check",
    "Needs",
    "PROFILES",
    "checks",
    "profile_severities",
    "register",
    "severity_table",
]

FILTER = "filter"  # one of the spec's six filters, in the documented chain
AUDIT = "audit"  # one of the golden-set audit's checks
SCAN = "scan"  # a flag the scan makes from other checks' findings
FLAG = "flag"  # an extra per-item check, outside the spec's chain

REVIEW = "review"
GOLDENSETAUDITOR = "goldensetauditor"


class Needs:
    """Per-item values that several checks may want, each worked out at most once per item.

    The scan makes one for each item an extra check looks at and hands the same one to every
    such check; a value nobody asks for is never computed.
    """

    __slots__ = ("_question_runs", "_question_words", "item")

    def __init__(self, item: EvalItem, question_runs: frozenset[str] | None = None) -> None:
        """``question_runs``: :attr:`question_runs`, when the caller has made it already."""
        self.item = item
        self._question_words: frozenset[str] | None = None
        self._question_runs = question_runs

    @property
    def question_words(self) -> frozenset[str]:
        """The question's lower-cased ASCII words, as the near-duplicate filter compares them."""
        if self._question_words is None:
            self._question_words = word_set(self.item.question)
        return self._question_words

    @property
    def question_runs(self) -> frozenset[str]:
        """The question's runs of ASCII letters, lower-cased (``letter_runs``), as a set: what the wording checks
        of the scan read, so a check that reads them too is given them rather than splitting the question again."""
        if self._question_runs is None:
            self._question_runs = frozenset(letter_runs(self.item.question))
        return self._question_runs


@dataclass(frozen=True)
class Check:
    """One check: see the module notes for each field."""

    name: str
    kind: str
    severity: Severity
    note: str = ""
    profiles: frozenset[str] = frozenset({REVIEW})
    order: int = 0  # a filter's place in the documented chain
    make: Callable[..., Any] | None = field(default=None, repr=False)  # FILTER: options -> the filter
    flag: Callable[[EvalItem, Needs], str | None] | None = field(default=None, repr=False)  # FLAG: the reason, or None
    needs: frozenset[str] = frozenset()
    module: str = ""  # where the logic and the reason text are
    #: what its flag weighs in the ``review`` profile (the app's and the commands' default) when that
    #: differs from ``severity``: a check not precise enough on the labelled real items (tests/devset)
    #: shows as a hint there. The ``goldensetauditor`` profile weighs it by ``gsa_severity`` (below).
    review_severity: Severity | None = None
    #: what its flag weighs in the ``goldensetauditor`` profile when that differs from ``severity``:
    #: the tool's own weight for the finding the flag comes from, so the profile's flags and its
    #: findings agree (the tool calls a weak answer medium and an over-easy one low).
    gsa_severity: Severity | None = None


_CHECKS: dict[str, Check] = {}
_discovered = False


def register(check: Check) -> Check:
    """Add ``check`` to the registry; a name is registered once (importing a module twice is harmless)."""
    known = _CHECKS.get(check.name)
    if known is not None and known.module != check.module:
        raise ValueError(f"two checks are called {check.name!r}: in {known.module} and {check.module}")
    _CHECKS[check.name] = check
    return check


def _discover() -> None:
    """Import the modules that hold checks, so that each has registered itself."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    package = __name__.rpartition(".")[0]
    for name in ("filters", "audit", "policy", "same_evidence"):
        importlib.import_module(f"{package}.{name}")
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda info: info.name):
        if info.name.startswith("check_"):
            importlib.import_module(f"{package}.{info.name}")


def checks(kind: str | None = None, profile: str | None = None) -> list[Check]:
    """The registered checks of ``kind`` for ``profile`` (None: any); filters in chain order, others by name."""
    _discover()
    found = [c for c in _CHECKS.values() if (kind is None or c.kind == kind) and (profile is None or profile in c.profiles)]
    return sorted(found, key=lambda c: (c.order, c.name))


def severity_table() -> dict[str, Severity]:
    """Check name -> the severity its flags are raised at, for every registered check (each profile reweighs
    some of them: :func:`profile_severities`)."""
    return {c.name: c.severity for c in checks()}


PROFILES = (REVIEW, GOLDENSETAUDITOR)


def profile_severities(profile: str) -> dict[str, tuple[Severity, Severity]]:
    """Check name -> (its ``severity``, what a flag of that severity weighs in ``profile``), where the two differ.

    Only a flag at the check's own severity is reweighed: a check that raises some of its flags
    for a stronger reason (a near-duplicate that also shares its answer) keeps those as they are.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    weights = {c.name: (c.severity, c.review_severity if profile == REVIEW else c.gsa_severity) for c in checks()}
    return {name: (own, shown) for name, (own, shown) in weights.items() if shown is not None and shown != own}


def flag_checks(profile: str = REVIEW) -> Iterator[Check]:
    """The extra per-item checks the scan runs for ``profile``."""
    return iter(checks(FLAG, profile))
