"""Screens of the review app: the review screen and its dialogs."""
