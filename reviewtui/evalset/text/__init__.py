"""Text the same way everywhere: the words and tokens of a question, and the one list of characters
that must never reach a screen as themselves."""
