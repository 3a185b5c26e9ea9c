"""The user's settings file: key remapping for the review app, its theme, and the reviewer's name.

The file is TOML: ``$REVIEWTUI_CONFIG`` if set, else ``config.toml`` in the
platform's config folder (platformdirs; ``~/.config/reviewtui/`` on Linux). The
help screen (``?``) shows the path:

    reviewer = "ana"
    theme = "textual-light"        # any theme of the command palette's "Change theme"

    [keys]
    "review.accept" = "y"          # binding id = key, or several keys: "y,enter"
    "review.reject" = "n"

Binding ids are listed on the help screen (``?``). A broken file never stops a
review: the app starts with the default keys and says what was wrong. Reading the
file is storage, so it lives here; what a key name means is the app's business.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_config_path

from reviewtui.evalset.io.files import read_once_kind

__all__ = ["AppConfig", "config_path", "load_config"]

CONFIG_ENV = "REVIEWTUI_CONFIG"


def config_path() -> Path:
    """Where the settings file lives: ``$REVIEWTUI_CONFIG`` or the platform's config folder."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return user_config_path("reviewtui", appauthor=False) / "config.toml"


@dataclass
class AppConfig:
    keymap: dict[str, str] = field(default_factory=dict)
    reviewer: str | None = None
    #: the app's theme by name, checked by the app against the themes it has
    theme: str | None = None
    problems: list[str] = field(default_factory=list)
    path: Path | None = None


#: What the file may hold at its top level; anything else is most likely a misspelling of one of these.
KNOWN_SETTINGS = ("reviewer", "theme", "keys")
#: A settings file is a few lines; anything this large was named by mistake (a data file, a disk image).
MAX_SETTINGS_BYTES = 1 << 20
#: How many of the file's problems the review command prints as it closes (the app shows a few as it opens, then
#: a count); the rest are counted. One number for both, so that what the app says will be printed is.
PROBLEMS_PRINTED = 20
#: What a file that cannot be read as settings leaves unused. "using the default keys" left out the reviewer name: a
#: review went on signed by the login name, the name the file gave unused and unsaid.
UNUSED = "nothing in it is used (the default keys and theme; the reviewer from --reviewer, $REVIEWTUI_REVIEWER or the login name)"


def load_config(path: Path | None = None) -> AppConfig:
    """Read the settings file; a missing file is fine, a broken one is reported, not raised."""
    named_by_env = path is None and bool(os.environ.get(CONFIG_ENV))
    path = config_path() if path is None else path
    config = AppConfig(path=path)
    raw = _read(path, config.problems, named_by_env)
    if raw is None:
        return config
    try:
        # utf-8-sig: an editor that saves a byte-order mark should not make the whole file unreadable
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        # Saved in another encoding (Latin-1, "José"): it was "not valid TOML ('utf-8' codec can't decode byte 0xe9 in
        # position 15...)", a byte offset into a file edited by lines, and TOML was not what was wrong.
        line = raw.count(b"\n", 0, exc.start) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        config.problems.append(f"{path}:{line}: not UTF-8 (byte 0x{bad}); save the file as UTF-8; {UNUSED}")
        return config
    except tomllib.TOMLDecodeError as exc:
        config.problems.append(f"{_where(path, str(exc))}: not valid TOML ({exc}); {UNUSED}")
        return config
    except RecursionError:  # tomllib recurses once per nested array or table: a few hundred brackets end it
        config.problems.append(f"{path}: not valid TOML (nested too deeply); {UNUSED}")
        return config
    for name in data:
        if name not in KNOWN_SETTINGS:
            close = difflib.get_close_matches(name, KNOWN_SETTINGS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(KNOWN_SETTINGS)})"
            if ("." in name or isinstance(data[name], dict)) and not (close and close[0] == "keys"):
                # review.accept = "y" above [keys] is a table "review" to TOML: "did you mean 'reviewer'?" misled.
                hint = ' (a key binding? those go under [keys], as in [keys] "review.accept" = "y")'
            config.problems.append(f"{path}: unknown setting {name!r}, ignored{hint}")
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        config.problems.append(f"{path}: [keys] must be a table of binding id = key")
        keys = {}
    for binding_id, value in _binding_ids(keys):
        if binding_id in config.keymap:  # "review.accept" and review.accept are one id to the app, two keys to TOML
            config.problems.append(f"{path}: keys.{binding_id} is given twice; the first is kept")
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not value.strip():
            config.problems.append(f"{path}: keys.{binding_id} must be a key name such as \"y\" or \"ctrl+y\"")
            continue
        config.keymap[binding_id] = value.strip()
    theme = data.get("theme")
    if isinstance(theme, str) and theme.strip():
        config.theme = theme.strip()
    elif theme is not None:
        config.problems.append(f"{path}: theme must be a theme's name, such as \"textual-light\"")
    reviewer = data.get("reviewer")
    if isinstance(reviewer, str) and reviewer.strip():
        config.reviewer = reviewer.strip()
    elif reviewer is not None:
        config.problems.append(f"{path}: reviewer must be a non-empty string")
    return config


def _where(path: Path, error: str) -> str:
    """``path:line`` for a TOML error that names its line ("... (at line 3, column 9)"), else the path."""
    found = re.search(r"\(at line (\d+), column \d+\)$", error)
    return f"{path}:{found.group(1)}" if found else str(path)


def _binding_ids(keys: dict[str, object]) -> list[tuple[str, object]]:
    """Each binding id in ``[keys]`` with its value. An id written without quotes, ``review.accept = "y"``,
    is a dotted key to TOML, read as a table ``review`` holding ``accept``: joined back into the id it spells.
    A loop, not a recursion: TOML reads "a.a.a...." of any length without recursing, and so must this. In the
    file's order (a table's ids where the table was first written), so that of an id given twice the one kept is the
    one the message says is: the first."""
    found: list[tuple[str, object]] = []
    walking: list[tuple[str, Iterator[tuple[str, object]]]] = [("", iter(keys.items()))]
    while walking:
        prefix, entries = walking[-1]
        for name, value in entries:
            if isinstance(value, dict):
                walking.append((f"{prefix}{name}.", iter(value.items())))
                break
            found.append((f"{prefix}{name}", value))
        else:
            walking.pop()
    return found


def _read(path: Path, problems: list[str], named_by_env: bool) -> bytes | None:
    """The file's bytes, or None with the reason in ``problems`` (nothing at all for a missing file nobody named)."""
    once = read_once_kind(path)
    if once is not None:  # opening a pipe waits for a writer; a device may never end
        problems.append(f"{path}: is {once}, not a settings file; {UNUSED}")
        return None
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        if named_by_env:  # asked for by name: a typo in it should not go unnoticed
            problems.append(f"{path}: no such file (named by ${CONFIG_ENV}); {UNUSED}")
        return None
    except OSError as exc:
        problems.append(f"{path}: cannot read ({exc.strerror or exc}); {UNUSED}")
        return None
    if len(raw) > MAX_SETTINGS_BYTES:
        problems.append(f"{path}: larger than {MAX_SETTINGS_BYTES >> 20} MB, not a settings file; {UNUSED}")
        return None
    return raw
