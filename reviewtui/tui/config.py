"""Where the review app takes its settings from: :mod:`reviewtui.evalset.io.settings` reads the file."""

from reviewtui.evalset.io.settings import AppConfig, config_path, load_config

__all__ = ["AppConfig", "config_path", "load_config"]
