"""Naming things after an input path, with nothing heavier than ``os`` and ``re`` (which argparse imports) imported.

The command line turns its ``FILE`` argument into a name while it parses the arguments,
before it knows whether the command line is even valid: importing the file helpers
(and through them the data model) there made a mistyped option take ten times as long
to refuse as ``reviewtui --help`` takes to answer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["LEGALBENCH", "PLAN_NAME", "TEAM_SUFFIX", "VERSION_TAIL", "file_name_text", "named", "version_in_name"]

#: A team's folder beside its set (``<set>.reviews``) and the plan in it (see review/team.py): named here, where
#: io/outputs.py can refuse to write over the plan as it refuses a journal.
TEAM_SUFFIX = ".reviews"
PLAN_NAME = "plan.json"
#: The version an export's name carries (``quiz.v2.jsonl``: 2), kept there for a CSV file, which has no header.
VERSION_TAIL = re.compile(r"\.v([0-9]+)$")
#: A LegalBench-RAG set's source, and the id ``read_legalbench_rag`` gives when given no ``evalset_id`` (the reference
#: page's default). The app and the commands name such a set after its file, as every other format's; before, every file
#: was set ``legalbench-rag``, and the journals begun then name that (see review/session.py, ``_journal_set``).
LEGALBENCH = "legalbench-rag"
#: The largest version a name may carry: one more is still a whole number every writer can write (64 bits).
MAX_NAMED_VERSION = 2**63 - 2


def version_in_name(path: str | os.PathLike[str]) -> int | None:
    """The version ``path``'s name carries as an export names it (``quiz.v2.csv``: 2), or None; a number beyond what a
    version can be (``q.v99999999999999999999999.csv``) is part of a name, not a version."""
    found = VERSION_TAIL.search(Path(path).stem)
    if found is None or len(found.group(1)) > 19:
        return None
    number = int(found.group(1))
    return number if number <= MAX_NAMED_VERSION else None


def named(path: str | os.PathLike[str]) -> Path:
    """``path`` with a real last component to name things after.

    ``.``, ``./`` and ``..`` name a folder (a BEIR set, say) whose name is only known
    once the path is made absolute; a journal, a lock or an export named after them
    would otherwise have no name at all.
    """
    p = Path(path)
    return Path(os.path.abspath(p)) if p.name in ("", "..") else p


def file_name_text(name: str | os.PathLike[str]) -> str:
    """A file name as text a JSON header or report can hold: bytes that are not UTF-8 (kept by Python as lone
    surrogates, which no JSON encoder writes) shown as ``\\xff``. "bad\\xffname.jsonl" made every export of such a
    file fail, since its header names the file it came from."""
    return os.fspath(name).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
