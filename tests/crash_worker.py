"""A reviewer that can be killed: makes a fixed, seeded series of review steps and says when each returned.

Run as a script (``python tests/crash_worker.py SET JOURNAL SEED STEPS [DURABILITY [PAUSE]]``) it opens
a ReviewSession and prints ``k`` on stdout, flushed, after step ``k`` returns.
The crash tests kill it with SIGKILL at random moments and check that the journal
holds exactly the steps that returned (and at most the one in flight).

The same steps run on a bare ReviewQueue give the reference state; a step that is
refused (accepting on a finished queue, say) is refused in both alike.
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Any

from reviewtui.evalset.model.items import EvalItem, EvalSet, EvalSetError, GoldAnchor

STEP_KINDS = (
    ("accept", 20),
    ("reject", 12),
    ("skip", 6),
    ("edit", 6),
    ("mark", 4),
    ("note", 5),
    ("undo", 12),
    ("redo", 6),
    ("next", 5),
    ("previous", 6),
    ("goto", 6),
    ("order", 1),
)


def small_set(n: int = 40) -> EvalSet:
    return EvalSet(
        id="crash-quiz",
        items=tuple(
            EvalItem(
                id=f"c{i}",
                question=f"What does rule {i} say?",
                anchors=(GoldAnchor(source_id="r.pdf", quote=f"Rule {i} says {i}."),),
            )
            for i in range(n)
        ),
    )


def make_steps(seed: int, count: int, size: int) -> list[tuple[Any, ...]]:
    rng = random.Random(seed)
    kinds = [k for k, _ in STEP_KINDS]
    weights = [w for _, w in STEP_KINDS]
    steps: list[tuple[Any, ...]] = []
    for number in range(count):
        kind = rng.choices(kinds, weights)[0]
        if kind in ("accept", "skip", "note"):
            steps.append((kind, f"n{number}" if rng.random() < 0.3 else ""))
        elif kind == "reject":
            steps.append((kind, f"r{number}", rng.choice([None, "duplicate", "ambiguous", "off-topic"])))
        elif kind == "edit":
            steps.append((kind, f"Rewritten question number {number}?"))
        elif kind == "mark":
            steps.append((kind, rng.choice(["numeric", "factoid", "multi_hop"])))
        elif kind == "goto":
            steps.append((kind, rng.randrange(size)))
        elif kind == "order":
            steps.append((kind, rng.sample(range(size), rng.randint(0, 5)) if rng.random() < 0.8 else None))
        else:
            steps.append((kind,))
    return steps


def run_step(target: Any, step: tuple[Any, ...]) -> None:
    """Make one step on a ReviewSession or a ReviewQueue (they share these method names)."""
    kind, *args = step
    try:
        if kind == "accept":
            target.accept(note=args[0])
        elif kind == "skip":
            target.skip(note=args[0])
        elif kind == "note":
            target.note(args[0] or "empty")
        elif kind == "reject":
            target.reject(note=args[0], reason=args[1])
        elif kind == "edit":
            target.edit(question=args[0])
        elif kind == "mark":
            target.mark(args[0])
        elif kind == "goto":
            target.goto(args[0])
        elif kind == "order":
            target.set_order(args[0])
        else:
            getattr(target, kind)()
    except EvalSetError:
        pass  # refused in this state; refused the same way in the reference


def _decision(d: Any) -> Any:
    if d is None:
        return None
    return (d.item_id, d.verdict.value, d.note, d.reason, d.after)


def normalized(queue: Any) -> tuple[Any, ...]:
    """The state of a queue without its clock readings (a reference run has other times)."""
    changes = lambda stack: [  # noqa: E731
        (c.item_id, _decision(c.before), _decision(c.after), c.note_before, c.note_after, c.advances) for c in stack
    ]
    return (
        queue.position,
        {k: _decision(v) for k, v in queue.decisions.items()},
        queue.notes,
        changes(queue.history),
        changes(queue.future),
        queue.order,
    )


def main(argv: list[str]) -> int:
    from reviewtui.evalset.review.session import ReviewSession

    set_path, journal_path, seed, count = argv[0], argv[1], int(argv[2]), int(argv[3])
    durability = argv[4] if len(argv) > 4 else "batched"
    pause = float(argv[5]) if len(argv) > 5 else 0.0  # seconds between steps, like a person reading
    session = ReviewSession.open(set_path, journal_path=journal_path, reviewer="crash", durability=durability)
    steps = make_steps(seed, count, len(session.queue))
    out = sys.stdout.fileno()
    for number, step in enumerate(steps, 1):
        run_step(session, step)
        os.write(out, b"%d\n" % number)
        if pause:
            time.sleep(pause)
    session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
