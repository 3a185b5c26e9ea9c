"""Checking a remapping of keys from the settings file before the app uses it.

A remap that silently takes a key from another action is worse than none: with
``"review.reject" = "n,x"`` Note and Whole document stop working and nothing says
why. So every entry is checked against every binding the app has:

* an id that names no binding is dropped and named (a typo would otherwise do nothing);
* a key another action keeps is not taken from it: the entry loses that key, and if
  it is left with none, the action keeps its own default key;
* a key two entries both ask for goes to neither;
* a key name no key press can produce (``ctrl-y`` for ``ctrl+y``, a typo, a stray escape
  sequence) is dropped and named: bound as given, it would quietly leave the action with no key.

Each problem is one line naming the settings file, the entry and the key.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path

from textual.binding import Binding
from textual.keys import KEY_NAME_REPLACEMENTS, Keys, _character_to_key

__all__ = ["canonical", "check_keymap", "is_key_name"]

_MODIFIERS = frozenset(("ctrl", "shift", "alt", "meta", "super", "hyper"))


def _key_names() -> frozenset[str]:
    """The names Textual gives the keys it reads, without their modifiers (``ctrl+y`` is ``y`` with ctrl)."""
    names = {key.value.rsplit("+", 1)[-1] for key in Keys}
    names.update(_character_to_key(chr(code)) for code in range(33, 127))  # "?" is question_mark
    names.update(KEY_NAME_REPLACEMENTS.values())
    names.update(("space", "enter", "tab", "backspace", "escape", "delete", "insert"))
    names.update(f"f{number}" for number in range(1, 25))
    return frozenset(names)


_NAMES = _key_names()


_SCROLLS = "scrolls the pane that has the focus"

#: Keys a remap may not take, and why: keys Textual binds without an id (a remap would win over them and
#: leave the pane, the palette or the focus without its key, unsaid), and keys a terminal sends as another.
RESERVED = {
    # the app reads a line feed as Enter (keys typed before the terminal is in raw mode bring Enter as one)
    "ctrl+j": "is Enter as some terminals send it, and the app takes it as Enter",
    "ctrl+m": "is Enter to a terminal: pressed, it arrives as Enter",
    "ctrl+i": "is Tab to a terminal: pressed, it arrives as Tab",
    "ctrl+h": "is Backspace to many terminals: pressed, it arrives as Backspace",
    "ctrl+left_square_bracket": "is Escape to a terminal: pressed, it arrives as Escape",
    "escape": "closes dialogs and panels, and terminals send it at the start of Alt keys",
    "tab": "moves to the next pane",
    "shift+tab": "moves to the previous pane",
    "ctrl+p": "opens the command palette",
    "ctrl+c": "copies the selected text",
    **{key: _SCROLLS for key in ("up", "down", "pageup", "pagedown", "home", "end", "ctrl+pageup", "ctrl+pagedown")},
}


def is_key_name(key: str) -> bool:
    """Whether ``key`` names a key a terminal can send: modifiers joined by ``+`` to one key's name or character."""
    *modifiers, base = key.split("+")
    if any(modifier not in _MODIFIERS for modifier in modifiers) or len(set(modifiers)) != len(modifiers):
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    return base in _NAMES or _names_a_character(base)


def _names_a_character(name: str) -> bool:
    """Whether ``name`` is the name Textual gives a printable character's key (``pound_sign`` for £)."""
    try:
        character = unicodedata.lookup(name.replace("_", " "))
    except KeyError:
        return False
    return len(character) == 1 and character.isprintable() and not character.isspace() and _character_to_key(character) == name


def _shift_with_a_character(key: str) -> bool:
    """``shift+a``: a terminal sends Shift with a character as the character itself ("A"), never as this name."""
    *modifiers, base = key.split("+")
    return modifiers == ["shift"] and (len(base) == 1 or _names_a_character(base) or base in _PRINTABLE_NAMES)


#: Names Textual gives the keys of printable characters ("question_mark"), which typing into a field needs.
_PRINTABLE_NAMES = frozenset(_character_to_key(chr(code)) for code in range(33, 127)) | {"space"}


def _typed(key: str) -> bool:
    """Whether ``key`` is one a person types text with: a character, Shift and a character, space, Enter,
    Backspace or Delete."""
    *modifiers, base = canonical(key).split("+")
    if set(modifiers) - {"shift"}:
        return False
    return base in _PRINTABLE_NAMES or len(base) == 1 or _names_a_character(base) or base in (
        "enter", "backspace", "delete"
    )


def _editing_keys(extra: Iterable[Binding]) -> dict[str, str]:
    """The keys a text field or an editor dialog uses, each with what it does there (its description or action)."""
    from textual.widgets import Input, TextArea

    found: dict[str, str] = {}
    for binding in (*TextArea.BINDINGS, *Input.BINDINGS, *extra):
        if not isinstance(binding, Binding):
            continue
        for key in _keys(binding.key):
            found.setdefault(canonical(key), binding.description or binding.action.replace("_", " "))
    return found


def canonical(key: str) -> str:
    """``key`` as Textual names it in a key press: a character by its name (``?`` is ``question_mark``).

    Textual does this for the keys an app declares, not for a keymap: remapped as ``?``, an action
    never fired, and a clash with a key declared by its name went unseen.

    Modifiers are put in the order Textual names them in (sorted: ``ctrl+alt+y`` arrives as ``alt+ctrl+y``, so the
    first never fired and the two spellings of one key could go to two actions), and a capital letter with a
    modifier is Shift and the letter, as a terminal sends it (``alt+A`` arrives as ``alt+shift+a``).
    """
    *modifiers, base = key.split("+")
    if not modifiers:
        return _character_to_key(base) if len(base) == 1 else key
    if len(base) == 1 and base.isalpha() and base.isupper() and base.lower() != base:
        modifiers.append("shift")
        base = base.lower()
    return "+".join((*sorted(set(modifiers)), _character_to_key(base) if len(base) == 1 else base))


def _keys(spec: str) -> list[str]:
    return [key.strip() for key in spec.split(",") if key.strip()]


def _keys_elsewhere(elsewhere: Mapping[str, Iterable[Binding]]) -> dict[tuple[str, str], str]:
    """(binding id, key) -> what the key does on a screen where a binding with that id is beside it."""
    taken: dict[tuple[str, str], str] = {}
    for screen, bindings in elsewhere.items():
        listed = list(bindings)
        for binding in listed:
            if not binding.id:
                continue
            for other in listed:
                if other.id == binding.id:
                    continue
                for key in _keys(other.key):
                    taken[binding.id, canonical(key)] = f"the key of {(other.description or other.action).lower()} on {screen}"
    return taken


def check_keymap(
    keymap: Mapping[str, str],
    bindings: Iterable[Binding],
    source: Path | str | None = None,
    editing: Iterable[Binding] = (),
    elsewhere: Mapping[str, Iterable[Binding]] | None = None,
) -> tuple[dict[str, str], list[str]]:
    """(the entries that can be used as given or trimmed, a line for each problem).

    ``editing``: the bindings of the editor dialogs (ctrl+s saves). A priority binding (quit) acts
    wherever the focus is, text fields included, so it may not take a key typing needs nor one of
    these: remapped to ``q`` it quit the app mid-word, and to ctrl+s it made an edit impossible to save.

    ``elsewhere``: other screens' bindings by the screen's name ("the summary"). A binding there with the id of one
    remapped here moves with it, so it may not take a key that screen gives another action: undo remapped to ``b``
    took the summary's key for going back, and pressing it undid the last decision.
    """
    where = f"{source}: " if source is not None else ""
    known = {b.id: b for b in bindings if b.id}
    problems: list[str] = []
    wanted: dict[str, list[str]] = {}
    editing_keys = _editing_keys(editing)
    other_screens = _keys_elsewhere(elsewhere or {})
    for binding_id, spec in keymap.items():
        if binding_id not in known:
            problems.append(f"{where}[keys] {binding_id!r} is not a key binding id (the help screen, ?, lists them); ignored")
            continue
        asked = _keys(spec)
        keys: list[str] = []
        if not asked and spec.strip():  # "," meant the comma key: as a separator, it left the entry with none, unsaid
            problems.append(
                f"{where}[keys] {binding_id!r}: {spec!r} names no key (a comma separates keys; the comma key is "
                "named comma); not used"
            )
        for key in asked:
            if is_key_name(key) and canonical(key) in RESERVED:
                problems.append(f"{where}[keys] {binding_id!r}: {key!r} {RESERVED[canonical(key)]}; not used")
            elif is_key_name(key) and _shift_with_a_character(key):
                problems.append(
                    f"{where}[keys] {binding_id!r}: {key!r} never arrives: a terminal sends Shift with a character "
                    "as the character itself (A, not shift+a); not used"
                )
            elif is_key_name(key) and known[binding_id].priority and _typed(key):
                problems.append(
                    f"{where}[keys] {binding_id!r}: {key!r} is typed into text fields, and this key acts wherever the "
                    "focus is (a note or an edit would end mid-word); not used"
                )
            elif is_key_name(key) and known[binding_id].priority and canonical(key) in editing_keys:
                problems.append(
                    f"{where}[keys] {binding_id!r}: {key!r} is the editors' key for "
                    f"{editing_keys[canonical(key)].lower()}, and this key acts wherever the focus is; not used"
                )
            elif is_key_name(key) and (binding_id, canonical(key)) in other_screens:
                problems.append(f"{where}[keys] {binding_id!r}: {key!r} is {other_screens[binding_id, canonical(key)]}; not used")
            elif is_key_name(key) and canonical(key) in keys:
                continue  # named twice in one entry ("H,H"): one key
            elif is_key_name(key):
                keys.append(canonical(key))
            elif key.endswith("+"):  # "+" or "ctrl++": a plus joins a modifier to a key, so the key itself has a name
                problems.append(
                    f"{where}[keys] {binding_id!r}: {key!r} is not the name of a key (a plus joins a modifier to a key; "
                    "the plus key is named plus, as in ctrl+plus); not used"
                )
            else:
                problems.append(
                    f"{where}[keys] {binding_id!r}: {key!r} is not the name of a key (names look like a, R, ctrl+y, "
                    "shift+tab, f5, question_mark); not used"
                )
        if keys or not asked:
            wanted[binding_id] = keys  # an empty entry keeps the default key, said below
        else:
            problems.append(f"{where}[keys] {binding_id!r} keeps its default key {known[binding_id].key!r}")

    def holders(key: str, keys_of: Mapping[str, list[str]]) -> list[str]:
        return [binding_id for binding_id, keys in keys_of.items() if key in keys]

    # Settle in rounds: an entry that gives up its keys falls back to its default key, which may
    # in turn collide with another entry; a few rounds always suffice (each round drops keys).
    defaults = {binding_id: [canonical(key) for key in _keys(binding.key)] for binding_id, binding in known.items()}
    asked_for = {binding_id: list(keys) for binding_id, keys in wanted.items()}  # before the rounds trim them
    for _ in range(len(known) + 1):
        final = {binding_id: wanted.get(binding_id, default) for binding_id, default in defaults.items()}
        changed = False
        for binding_id in list(wanted):
            keep: list[str] = []
            for key in wanted[binding_id]:
                others = [other for other in holders(key, final) if other != binding_id]
                if not others:
                    keep.append(key)
                    continue
                names = ", ".join(f"{known[other].description or other} ({other})" for other in others)
                if all(key in asked_for.get(other, ()) and key not in defaults[other] for other in others):
                    # Two entries asking for one key: neither gets it, so "already the key of" the other was untrue.
                    problems.append(f"{where}[keys] {binding_id!r}: {key!r} is asked for by {names} too; neither gets it")
                else:
                    problems.append(f"{where}[keys] {binding_id!r}: {key!r} is already the key of {names}; not remapped to it")
                changed = True
            if keep:
                wanted[binding_id] = keep
            else:
                del wanted[binding_id]
                default = known[binding_id].key
                problems.append(f"{where}[keys] {binding_id!r} keeps its default key {default!r}")
        if not changed:
            break
    return {binding_id: ",".join(keys) for binding_id, keys in wanted.items()}, problems
