"""Deterministic synthetic eval sets for benchmarks.

The same ``(n, seed)`` always gives the same set, on any machine, so timings from
different runs and different benchmarks describe the same data. Items look like
real ones in size and shape: a question of 10-15 words, 1-3 evidence quotes of
20-40 words each, an answer, a question type and a little meta. About one item
in twenty repeats an earlier question with a word or two changed, so duplicate
and similarity checks have real work to do; about one in ten also carries a gold
span, so readers and writers exercise both kinds of evidence.

Usage from another benchmark::

    sys.path.insert(0, str(Path(__file__).parent))
    from synth import generate_evalset, write_synthetic_jsonl
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import atomic_write
from reviewtui.evalset.model.items import EvalItem, EvalSet

__all__ = ["generate_evalset", "item_dicts", "write_synthetic_jsonl"]

_WORDS = (
    "policy employee leave contract clause notice payment invoice supplier audit record retention "
    "period annual monthly approval manager request access account password device laptop travel "
    "expense receipt limit budget report quarter revenue margin customer refund warranty delivery "
    "shipment region office remote schedule meeting training safety incident review committee board "
    "member vote term renewal termination liability insurance claim coverage premium deductible "
    "benefit pension salary bonus overtime holiday sick parental onboarding probation promotion "
    "transfer security breach encryption backup server network vendor license software update "
    "version release support ticket priority escalation response resolution agreement party "
    "obligation consent data processing storage deletion request regulator fine penalty"
).split()

_STARTS = (
    "What is the", "How many days of", "Who approves the", "When does the", "Which team handles the",
    "How long is the", "What happens to the", "Where should staff file the", "Why was the",
    "How much does the",
)
_QTYPES = (
    ("factoid", 45), ("numeric", 15), ("multi_hop", 12), ("comparative", 8),
    ("summarisation", 7), ("tabular", 5), ("unanswerable", 3), (None, 5),
)
_REVIEWERS = ("ana", "bo", "chen", "dara", "eli")


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choices(_WORDS, k=rng.randint(low, high)))


def _question(rng: random.Random) -> str:
    start = rng.choice(_STARTS)
    rest = _words(rng, 10 - len(start.split()), 15 - len(start.split()))
    return f"{start} {rest}?"


def _near_duplicate(rng: random.Random, question: str) -> str:
    """The same question with one word swapped and sometimes a filler added."""
    words = question.rstrip("?").split()
    position = rng.randrange(len(words))
    words[position] = rng.choice(_WORDS)
    if rng.random() < 0.5:
        words.insert(rng.randrange(1, len(words)), "exactly")
    return " ".join(words) + "?"


def item_dicts(n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """The items of the synthetic set as plain dicts, in the native JSONL field order."""
    rng = random.Random(seed)
    qtypes = [q for q, _ in _QTYPES]
    weights = [w for _, w in _QTYPES]
    recent: list[str] = []
    for index in range(n):
        if recent and rng.random() < 0.05:
            question = _near_duplicate(rng, rng.choice(recent))
        else:
            question = _question(rng)
        recent.append(question)
        if len(recent) > 200:
            recent.pop(0)
        anchors = []
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            anchors.append(
                {
                    "source_id": f"doc-{rng.randrange(500):03d}.pdf",
                    "quote": _words(rng, 20, 40).capitalize() + ".",
                    "grade": 2 if rng.random() < 0.8 else 1,
                    "page_hint": rng.randrange(1, 60) if rng.random() < 0.3 else None,
                    "occurrence": 0 if rng.random() < 0.95 else 1,
                }
            )
        gold = []
        if rng.random() < 0.1:
            start = rng.randrange(0, 50_000)
            gold.append(
                {
                    "span": {"doc_id": anchors[0]["source_id"], "start": start, "end": start + rng.randint(80, 400)},
                    "grade": 2,
                }
            )
        meta: dict[str, Any] = {"batch": index // 1000}
        if rng.random() < 0.3:
            meta["reviewed"] = True
            meta["reviewer"] = rng.choice(_REVIEWERS)
        yield {
            "id": f"syn-{index:07d}",
            "question": question,
            "gold": gold,
            "anchors": anchors,
            "qtype": rng.choices(qtypes, weights)[0],
            "answer": _words(rng, 6, 20).capitalize() + ".",
            "meta": meta,
        }


def generate_evalset(n: int, seed: int = 0) -> EvalSet:
    """A synthetic set of ``n`` items, identical for equal ``(n, seed)``."""
    validate = EvalItem.__pydantic_validator__.validate_python
    items = tuple(validate(d) for d in item_dicts(n, seed))
    return EvalSet(id=f"synthetic-{n}-s{seed}", items=items, source="synthetic", meta={"seed": seed})


def write_synthetic_jsonl(path: str | Path, n: int, seed: int = 0) -> Path:
    """Write the same set as :func:`generate_evalset` as native JSONL, streaming.

    The items are never held in memory together, so a 1M-item file can be made
    without building 1M models first.
    """
    header = {"_evalset": {"id": f"synthetic-{n}-s{seed}", "version": 1, "source": "synthetic", "meta": {"seed": seed}}}

    def lines() -> Iterator[bytes]:
        yield orjson.dumps(header) + b"\n"
        batch: list[bytes] = []
        for item in item_dicts(n, seed):
            batch.append(orjson.dumps(item))
            if len(batch) == 4096:
                yield b"\n".join(batch) + b"\n"
                batch.clear()
        if batch:
            yield b"\n".join(batch) + b"\n"

    return atomic_write(path, lines())


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys

    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    print(write_synthetic_jsonl(sys.argv[1], count))
