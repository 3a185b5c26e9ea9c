"""Counts in messages: "1 question", "2 questions"."""

from __future__ import annotations

__all__ = ["count", "plural"]


def plural(n: int, one: str, many: str | None = None) -> str:
    """``one`` when ``n`` is 1, else ``many`` (by default ``one`` + "s")."""
    return one if n == 1 else (many if many is not None else one + "s")


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun that agrees with it, with thousands separated: "1 question", "12,000 questions"."""
    return f"{n:,} {plural(n, one, many)}"
