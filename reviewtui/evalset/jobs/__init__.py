"""Running part of the work in another process that dies with its parent, stopping long work, and reporting its progress."""
