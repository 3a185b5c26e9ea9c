"""``python -m reviewtui`` works like the ``reviewtui`` command."""

from reviewtui.cli import entry

entry()
