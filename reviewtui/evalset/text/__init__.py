"""Text the same way everywhere: words and tokens of questions, and the one list of characters that must never reach a screen as themselves."""
