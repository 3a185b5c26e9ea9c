"""``python -m reviewtui.cli`` works like the ``reviewtui`` command."""

from reviewtui.cli import entry

entry()
