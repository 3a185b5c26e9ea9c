"""Large blocks get mappings of their own in the commands that scan whole sets (jobs.collector.map_large_blocks_apart)."""

from __future__ import annotations

import ctypes
import subprocess
import sys
import textwrap

import pytest

from reviewtui.cli import main
from reviewtui.evalset.jobs import collector


def _has_mallopt() -> bool:
    try:
        return hasattr(ctypes.CDLL(None), "mallopt")
    except OSError:
        return False


needs_glibc = pytest.mark.skipif(not _has_mallopt(), reason="this C library has no mallopt (glibc only)")

# Run in a fresh interpreter: the allocator's state (its moving threshold) is the process's own.
# glibc marks a chunk it mapped on its own with the bit 0x2 in the size word just before the block.
_PROBE = textwrap.dedent(
    """
    import ctypes, sys
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    if sys.argv[1] == "set":
        from reviewtui.evalset.jobs.collector import map_large_blocks_apart
        assert map_large_blocks_apart()

    def mapped(size):
        block = libc.malloc(size)
        header = ctypes.c_size_t.from_address(block - ctypes.sizeof(ctypes.c_size_t)).value
        return block, bool(header & 2)

    size = 4 << 20
    first, first_mapped = mapped(size)
    libc.free(first)  # glibc's moving threshold rises to this block's size here
    second, second_mapped = mapped(size)
    libc.free(second)
    print(first_mapped, second_mapped)
    """
)


def _probe(mode: str) -> str:
    done = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip()


@needs_glibc
def test_a_large_block_freed_does_not_move_the_next_one_into_the_heap():
    # Without the setting, glibc maps the first 4 MB block but takes the next from its heap, where it stays once freed.
    assert _probe("leave") == "True False"
    assert _probe("set") == "True True"


def test_without_mallopt_it_says_so(monkeypatch):
    monkeypatch.setattr(collector, "_mallopt", lambda: None)
    assert collector.map_large_blocks_apart() is False


@pytest.mark.parametrize("command", ["audit", "filter"])
def test_the_scanning_commands_set_it_before_reading(command, tmp_path, monkeypatch):
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "a", "question": "What is the capital of France?", "answer": "Paris"}\n')
    calls = []

    def called() -> bool:
        calls.append(True)
        return True

    monkeypatch.setattr(collector, "map_large_blocks_apart", called)
    out = tmp_path / ("report.json" if command == "audit" else "kept.jsonl")
    main([command, str(path), "-o", str(out)])
    assert calls == [True]
    assert out.exists()
