"""The smallest possible interface to a language model: a function from prompt to reply.

:class:`RecordingLLM` replays canned replies and remembers what it was asked, so
tests and examples run without an API key. :func:`answerer_from` turns a model
into the closed-book answerer :class:`~reviewtui.evalset.checks.filters.GeneralKnowledgeFilter` uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["CLOSED_BOOK_PROMPT", "LLMError", "RecordingLLM", "answerer_from"]

CLOSED_BOOK_PROMPT = (
    "Answer the question from your own knowledge, in a few words. "
    "If you cannot answer without a document, reply: unknown.\n\nQuestion: {question}"
)


class LLMError(RuntimeError):
    """A model could not be used as asked (no reply left, no way to call it)."""


class RecordingLLM:
    """A stand-in model: returns ``replies`` in order and records every prompt.

    Running out of replies raises :class:`LLMError` rather than inventing one, so a
    test that asks more often than it expected fails loudly.
    """

    def __init__(self, replies: Iterable[str] = ()) -> None:
        self.replies: list[str] = list(replies)
        self.prompts: list[str] = []

    def complete(self, prompt: str) -> str:
        if len(self.prompts) >= len(self.replies):
            raise LLMError(
                f"RecordingLLM was asked {len(self.prompts) + 1} times but holds {len(self.replies)} replies"
            )
        self.prompts.append(prompt)
        return self.replies[len(self.prompts) - 1]

    __call__ = complete

    def __repr__(self) -> str:
        return f"RecordingLLM(replies={len(self.replies)}, asked={len(self.prompts)})"


def _as_function(llm: Any) -> Callable[[str], str]:
    for method in ("complete", "generate", "invoke"):
        call = getattr(llm, method, None)
        if callable(call):
            return call
    if callable(llm):
        return llm
    raise LLMError(f"cannot ask {type(llm).__name__}: it is not callable and has no complete()/generate()/invoke()")


def answerer_from(llm: Any, *, prompt: str = CLOSED_BOOK_PROMPT) -> Callable[[str], str]:
    """A question → answer function that asks ``llm`` without giving it any document.

    ``llm`` may be a plain function or an object with ``complete``, ``generate`` or
    ``invoke``. ``prompt`` must contain ``{question}``.
    """
    if "{question}" not in prompt:
        raise ValueError("the closed-book prompt needs a {question} placeholder")
    ask = _as_function(llm)

    def answer(question: str) -> str:
        reply = ask(prompt.replace("{question}", question))
        return reply if isinstance(reply, str) else str(getattr(reply, "content", reply))

    return answer
