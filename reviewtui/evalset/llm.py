"""The documented home of the model interface (``reviewtui.evalset.llm.X``); it lives in :mod:`.checks.llm`."""

from reviewtui.evalset.checks.llm import CLOSED_BOOK_PROMPT, LLMError, RecordingLLM, answerer_from

__all__ = ["CLOSED_BOOK_PROMPT", "LLMError", "RecordingLLM", "answerer_from"]
