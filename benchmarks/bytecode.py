"""The timed commands run with their bytecode compiled, as an installed package runs.

`pip install` of a wheel compiles every module as it installs, and an editable install writes each
module's cache on its first import. A machine that sets PYTHONDONTWRITEBYTECODE (this one does) never
writes them, so every launch of the command would compile every module it imports again: a cost a
user's installed command does not pay, timed as if it were the command's.
"""

from __future__ import annotations

import compileall
from pathlib import Path


def compile_package() -> None:
    """Bring reviewtui's bytecode caches up to date (a stale cache, too, makes each launch recompile the
    modules changed since)."""
    import reviewtui

    compileall.compile_dir(Path(reviewtui.__file__).parent, quiet=1)
