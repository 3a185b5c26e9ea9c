"""The cyclic garbage collector during bulk work: paused while many objects are built, frozen for good when they stay.

Reading a set, replaying a journal and scanning build hundreds of thousands of small
objects, none of them cyclic; the collector would only walk them again and again.
Every such function says so with ``@gc_paused()`` (or ``with gc_paused():``), beside
the work it speeds up.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterator

__all__ = ["freeze_for_good", "gc_paused", "map_large_blocks_apart", "return_freed_memory"]


@contextlib.contextmanager
def gc_paused(*, keep: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects at once.

    Loading 100k items allocates millions of containers and none of them form
    cycles; letting the collector scan them repeatedly triples the load time.

    On the way out the objects made meanwhile are moved straight to the oldest
    generation (``gc.freeze()`` then ``gc.unfreeze()``, two constant-time list
    moves). Otherwise the first young-generation pass after re-enabling would
    walk every one of them at once, which costs about as much as validating
    them, only to promote them there anyway. They are still examined by later
    full collections, so cyclic garbage made inside the block is collected
    then rather than at once. Skipped when the program froze objects itself, so
    its frozen ones stay frozen.

    ``keep=True`` is for objects that live as long as the program (the set under
    review): they are frozen instead, so no later collection walks them either
    (a full one over a 100k-item set stalls every thread for most of a second).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if keep:
                freeze_for_good()
            elif not _frozen_for_good:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


# Whether objects were frozen for the rest of the program (by freeze_for_good). Kept as a flag
# because gc.get_freeze_count() walks every frozen object: with a large set frozen, asking it
# on each exit from gc_paused would cost tens of milliseconds every time.
_frozen_for_good = False


def freeze_for_good(*, collect: bool = False) -> None:
    """Take every object alive now out of the collector's sight for the rest of the program.

    Later :func:`gc_paused` blocks then leave the frozen objects frozen instead of
    moving them back into the oldest generation. Frozen objects are still freed when
    nothing refers to them; only cyclic garbage among them would stay. ``collect``
    first collects what is garbage now, for a program that has been running a while
    (starting up, it has made little): that garbage would otherwise be frozen for good.
    """
    global _frozen_for_good
    if collect:
        gc.collect()
    gc.freeze()
    _frozen_for_good = True


@functools.cache
def _libc(name: str) -> Callable[..., int] | None:
    """The C library's function ``name`` (glibc's ``malloc_trim``, ``mallopt``), or None where it has none (macOS, musl)."""
    try:
        import ctypes

        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None


def _malloc_trim() -> Callable[..., int] | None:
    return _libc("malloc_trim")


def return_freed_memory() -> bool:
    """Hand memory freed since the last call back to the system; True where that could be done.

    glibc keeps freed memory in its heap for reuse, so a step that made and dropped large
    temporaries (numpy's arrays in a join, a pickle) leaves the process's resident size at
    that step's peak, and the next step's peak is built on top of it. Called between the
    steps of a long scan, this lowers the high-water mark of the whole command. A no-op
    where the C library has no ``malloc_trim``.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


#: glibc's ``mallopt`` parameter for the size from which a block gets a mapping of its own.
_M_MMAP_THRESHOLD = -3
#: That size: glibc's own starting value, which it otherwise raises as large blocks are freed.
LARGE_BLOCK = 128 * 1024


def _mallopt() -> Callable[..., int] | None:
    return _libc("mallopt")


def map_large_blocks_apart() -> bool:
    """Have every block of LARGE_BLOCK bytes or more mapped on its own, and unmapped as soon as it is freed.

    glibc starts out that way, but each time such a block is freed it raises the size
    from which blocks are mapped to that block's size, so the next ones of that size come
    out of the heap, where freed memory stays with the process. A scan of a large set
    makes and drops many arrays and lists of a few megabytes (numpy's temporaries in the
    similarity joins, the lists a step builds): with the moving threshold they piled up in
    the heap between two calls of :func:`return_freed_memory` and raised the command's
    peak (benchmarks/HISTORY.md has the figures). For a command's own process (the setting
    is global), called before it reads a large set; a no-op, returning False, where the C
    library has no ``mallopt``.
    """
    mallopt = _mallopt()
    if mallopt is None:
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, LARGE_BLOCK))
