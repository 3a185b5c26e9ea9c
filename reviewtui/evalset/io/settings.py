"""The user's settings file: key remapping for the review app and the reviewer's name.

The file is TOML: ``$REVIEWTUI_CONFIG`` if set, else ``config.toml`` in the
platform's config folder (platformdirs; ``~/.config/reviewtui/`` on Linux). The
help screen (``?``) shows the path:

    reviewer = "ana"

    [keys]
    "review.accept" = "y"          # binding id = key, or several keys: "y,enter"
    "review.reject" = "n"

Binding ids are listed on the help screen (``?``). A broken file never stops a
review: the app starts with the default keys and says what was wrong. Reading the
file is storage, so it lives here; what a key name means is the app's business.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_config_path

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
    problems: list[str] = field(default_factory=list)
    path: Path | None = None


def load_config(path: Path | None = None) -> AppConfig:
    """Read the settings file; a missing file is fine, a broken one is reported, not raised."""
    named_by_env = path is None and bool(os.environ.get(CONFIG_ENV))
    path = config_path() if path is None else path
    config = AppConfig(path=path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if named_by_env:  # asked for by name: a typo in it should not go unnoticed
            config.problems.append(f"{path}: no such file (named by ${CONFIG_ENV}); using the default keys")
        return config
    except OSError as exc:
        config.problems.append(f"{path}: cannot read ({exc.strerror or exc})")
        return config
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        config.problems.append(f"{path}: not valid TOML ({exc}); using the default keys")
        return config
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        config.problems.append(f"{path}: [keys] must be a table of binding id = key")
        keys = {}
    for binding_id, value in keys.items():
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not value.strip():
            config.problems.append(f"{path}: keys.{binding_id} must be a key name such as \"y\" or \"ctrl+y\"")
            continue
        config.keymap[str(binding_id)] = value.strip()
    reviewer = data.get("reviewer")
    if isinstance(reviewer, str) and reviewer.strip():
        config.reviewer = reviewer.strip()
    elif reviewer is not None:
        config.problems.append(f"{path}: reviewer must be a non-empty string")
    return config
