"""Turning questions and answers into words, the same way everywhere.

Two tokenisations live here, on purpose:

* :func:`word_set` — every word of any script, case-folded. The filters compare
  questions with it (near-duplicates, closed-book answers), so a French, Hindi
  or Arabic set is compared on its real words.
* :func:`content_tokens` — the golden-set audit's tokens: ASCII letters and
  digits only, lower-cased, without a short list of function words and without
  one-character tokens. It reproduces goldensetauditor 0.2.0 exactly, so an audit
  here finds what that tool finds. Text in other scripts yields no content
  tokens at all; the audit and the per-item flags say so instead of hiding it.

Both have an ASCII fast path: when ``text.isascii()``, one ``bytes.translate``
lower-cases the text and blanks every character that cannot be in a word, and
``split()`` then yields the words. That is about twice as fast as a regex over a
lower-cased copy and gives the same tokens (tests/test_text.py compares the two
on arbitrary text). Any other text goes through the regex, because lower-casing
outside ASCII can change lengths and even produce ASCII letters (``"K"`` → ``"k"``).

Words leave out what is not a word, and some of that changes what a question asks
("B+" and "B-", "$5" and "5%"): :func:`symbols` gives those characters, so that the
review profile does not take two such questions for one asked twice.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import filterfalse
from typing import cast

from reviewtui.evalset.text.safe import escaped

__all__ = [
    "AUDIT_STOPWORDS",
    "TokenRows",
    "content_tokens",
    "has_any_word",
    "has_control_chars",
    "letter_runs",
    "normalise_question",
    "in_quotes",
    "runs_and_content_tokens",
    "script_tokens",
    "symbols",
    "symbols_apart",
    "unspaced",
    "unspaced_runs",
    "visible",
    "visible_id",
    "word_count",
    "written_words",
    "word_set",
    "words",
    "words_and_content_tokens",
]

# Function words the audit ignores. Same membership as goldensetauditor 0.2.0's list,
# so its overlap figures carry over; ordered here alphabetically.
AUDIT_STOPWORDS: frozenset[str] = frozenset(
    (
        "a about an and are can do does explain for how in is it me of on or please "
        "should tell that the this to was were what when where why with"
    ).split()
)

# Whole runs of two or more: the same tokens as splitting on [a-z0-9]+ and dropping one-character runs.
_ASCII_WORD = re.compile(r"[a-z0-9]{2,}")

# A word: letters or digits of any script, with the combining marks that Indic and
# Arabic scripts write inside words (``\w`` alone would split "हिंदी" at each vowel sign).
_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0900-\u0dff\u0e31-\u0e4e"
)
_WORD = re.compile(rf"[\w{_MARKS}]+")  # one character class: several times faster than an alternation
_HAS_WORD_CHAR = re.compile(rf"[\w{_MARKS}]")


def _ascii_table(is_word_char: Callable[[str], bool]) -> bytes:
    """A ``bytes.translate`` table: ASCII word characters lower-cased, every other ASCII byte a space.

    Bytes above 127 never occur (the fast paths only take ASCII text).
    """
    table = bytearray(range(256))
    for code in range(128):
        char = chr(code)
        table[code] = ord(char.lower()) if is_word_char(char) else 0x20
    return bytes(table)


# For the regexes' \w on ASCII: letters, digits and the underscore (casefold and lower agree on ASCII).
_WORD_BYTES = _ascii_table(lambda char: char.isalnum() or char == "_")
# For the audit's [a-z0-9] after lower(): letters and digits only, so "snake_case" is two tokens.
_CONTENT_BYTES = _ascii_table(str.isalnum)
# What the audit drops: its function words and every one-character token.
_CONTENT_DROP: frozenset[str] = AUDIT_STOPWORDS | frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
# For letter_runs: ASCII letters only.
_LETTER_BYTES = _ascii_table(str.isalpha)
_LOWER_LETTERS = re.compile(r"[a-z]+")


def content_tokens(text: object) -> frozenset[str]:
    """The audit's token set: ASCII alphanumeric runs of 2+ characters, minus function words."""
    if type(text) is not str:
        text = str(text)
    if text.isascii():
        return frozenset(
            filterfalse(_CONTENT_DROP.__contains__, text.encode().translate(_CONTENT_BYTES).decode().split())
        )
    return frozenset(_ASCII_WORD.findall(text.lower())) - AUDIT_STOPWORDS


# Scripts written without spaces between words: a run of them is one \w+ match, a whole clause. They are
# compared as overlapping pairs of characters, the usual unit for Chinese and Japanese text: kana, CJK
# ideographs (with 々), halfwidth katakana, and Thai, Lao, Myanmar and Khmer.
_UNSPACED = (
    "\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u31f0-\u31ff\uff66-\uff9f"
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
)
_SCRIPT_PIECE = re.compile(rf"[{_UNSPACED}]+|[^\W_{_UNSPACED}]+(?:[{_MARKS}]+[^\W_{_UNSPACED}]*)*")
_IS_UNSPACED = re.compile(rf"[{_UNSPACED}]")


def unspaced(token: str) -> bool:
    """Whether a token comes from a script written without spaces (a pair of Chinese characters, say)."""
    return _IS_UNSPACED.match(token) is not None


def unspaced_runs(word: str) -> list[str]:
    """The pairs of characters (a lone character itself) of each run of a script written without spaces in
    ``word``, as :func:`script_tokens` makes them; none for a word of spaced scripts."""
    found: list[str] = []
    for run in _UNSPACED_RUN.findall(word):
        found.extend([run] if len(run) == 1 else [run[k : k + 2] for k in range(len(run) - 1)])
    return found


_UNSPACED_RUN = re.compile(rf"[{_UNSPACED}]+")


def script_tokens(text: object) -> frozenset[str]:
    """Content tokens for text in any script: :func:`content_tokens`' rule, read on real words.

    On ASCII text it is :func:`content_tokens` exactly. Elsewhere a token is a run of letters
    and digits of any script (with the marks Indic and Arabic scripts write inside words),
    case-folded, two characters or more and not one of the audit's function words; a run of
    Chinese or Japanese characters gives its overlapping pairs of characters (a lone
    character itself). So "Qu'est-ce que la photosynthèse ?" gives "photosynthèse", not "photosynth",
    and an Arabic question gives its words instead of nothing.
    """
    if type(text) is not str:
        text = str(text)
    if text.isascii():
        return content_tokens(text)
    found: set[str] = set()
    # NFC first: an "é" typed as e + combining accent is the same word as the precomposed one.
    for piece in _SCRIPT_PIECE.findall(unicodedata.normalize("NFC", text).casefold()):
        if _IS_UNSPACED.match(piece):
            if len(piece) == 1:
                found.add(piece)
            else:
                found.update(piece[k : k + 2] for k in range(len(piece) - 1))
        elif len(piece) > 1 and piece not in AUDIT_STOPWORDS:
            found.add(piece)
    return frozenset(found)


def words(text: str) -> list[str]:
    """Case-folded words of any script, in order."""
    if text.isascii():
        return text.encode().translate(_WORD_BYTES).decode().split()
    return _WORD.findall(text.casefold())


#: The ASCII characters that change what a question asks, dashes aside (those are judged by where they stand).
_ASCII_SYMBOLS = frozenset("+#%$/*^=<>&@~|\\")
_SYMBOL = re.compile(f"[-{re.escape(''.join(sorted(_ASCII_SYMBOLS)))}]")  # ASCII text: one regex pass, most have none
_NOT_WORD = re.compile(r"[^\w\s]")  # elsewhere: the few characters neither word nor space, judged one by one
# Markup a question may carry ("<b>deductible</b>", "**GDP**") is formatting, not a symbol: HTML's inline tags after
# a space or at the start (not "a<b and c>d", a comparison; not "List<T>"), and Markdown's emphasis around words.
_INLINE = "a|abbr|b|br|cite|code|del|em|i|ins|kbd|mark|p|q|s|small|span|strong|sub|sup|u|var"
_TAG = re.compile(
    rf"(?<![\w<])<(?:{_INLINE})(?:\s+[\w-]+=(?:\"[^\"<>]*\"|'[^'<>]*'))*\s*/?>|</(?:{_INLINE})\s*>",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"(?<!\w)(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)")
_DASHES = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212")
_OTHER_SYMBOLS = frozenset("٪‰‱′″‴")  # punctuation by Unicode's categories, symbols in a question


def symbols(text: str) -> str:
    """The characters of ``text`` that words() leaves out but that change what it asks, in order, as NFKC has them
    (every dash as "-"): "+" in "B+", "#" in "C#", "$" and "%", "/" in "1/5". A dash joining two words or
    numbers ("well-known", "2019-2020") or standing between spaces ("2019 - 2020") is spelling, not one of them;
    so is a tag of markup ("<b>")."""
    plain = text.isascii()
    if not plain:
        text = unicodedata.normalize("NFKC", text)  # "B＋" is "B+"
    if "<" in text:
        text = _TAG.sub(" ", text)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(r"\2", text)
    found = _SYMBOL.finditer(text) if plain else _NOT_WORD.finditer(text)
    marks = []
    last = len(text) - 1
    for match in found:
        char, at = match.group(), match.start()
        if char in _DASHES:
            before = at > 0 and text[at - 1].isalnum()
            after = at < last and text[at + 1].isalnum()
            if before == after:  # joining two words, or between spaces
                continue
            char = "-"
        elif char.isascii():
            if char not in _ASCII_SYMBOLS:
                continue  # punctuation: a comma, a question mark, quotation marks
        elif char not in _OTHER_SYMBOLS and unicodedata.category(char)[0] != "S":
            continue  # likewise, in another script
        marks.append(char)
    return "".join(marks)



def symbols_apart(a: str, b: str) -> str:
    """"here '+', there '-'" when two texts differ in :func:`symbols`; "" when they do not."""
    mine, theirs = symbols(a), symbols(b)
    if mine == theirs:
        return ""
    return f"here {in_quotes(mine) if mine else 'no symbol'}, there {in_quotes(theirs) if theirs else 'no symbol'}"


def has_any_word(text: str, wanted: Iterable[str]) -> bool:
    """Whether one of ``wanted`` is among ``words(text)``: ``not set(wanted).isdisjoint(words(text))``.

    Each of ``wanted`` must be a word as :func:`words` gives them (word characters only, at least one).
    Where a few words are looked for in a long text, this costs less than making every word of the text:
    on ASCII text one ``bytes.translate`` leaves each word between the spaces the other characters
    become, so a word is one of them where it is found with a space on either side; elsewhere a word is
    one of them where it is found in the case-folded text with no word character on either side (a
    word is a longest run of word characters).
    """
    if text.isascii():
        spaced = f" {text} ".encode().translate(_WORD_BYTES).decode()
        return any(f" {word} " in spaced for word in wanted)
    folded = text.casefold()
    is_word_char = _HAS_WORD_CHAR.match
    for word in wanted:
        at = folded.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or is_word_char(folded, at - 1) is None) and (end == len(folded) or is_word_char(folded, end) is None):
                return True
            at = folded.find(word, at + 1)
    return False


def word_set(text: str) -> frozenset[str]:
    """Case-folded words of any script, as a set (for Jaccard overlap)."""
    if text.isascii():
        return frozenset(text.encode().translate(_WORD_BYTES).decode().split())
    return frozenset(_WORD.findall(text.casefold()))


def letter_runs(text: str) -> list[str]:
    """Runs of ASCII letters in the lower-cased text, in order: ``re.findall("[a-z]+", text.lower())``."""
    if text.isascii():
        return text.encode().translate(_LETTER_BYTES).decode().split()
    return _LOWER_LETTERS.findall(text.lower())


def runs_and_content_tokens(text: str, *, every_script: bool = False) -> tuple[frozenset[str], frozenset[str]]:
    """``frozenset(letter_runs(text))`` and ``content_tokens(text)`` from one split of the text.

    Where the text holds no ASCII digit, the audit's alphanumeric runs are exactly
    the letter runs, so its tokens are those runs minus the dropped words: a set
    difference on strings already hashed, instead of a second split. With
    ``every_script`` the tokens are :func:`script_tokens` (the same on ASCII text).
    """
    if every_script and not text.isascii():
        return frozenset(_LOWER_LETTERS.findall(text.lower())), script_tokens(text)
    if text.isascii():
        raw = text.encode()
        letters = raw.translate(_LETTER_BYTES)
        runs = frozenset(letters.decode().split())
        if raw.translate(_CONTENT_BYTES) == letters:  # no digit: both tables blank the same bytes
            return runs, runs - _CONTENT_DROP
        return runs, content_tokens(text)
    lower = text.lower()
    runs = frozenset(_LOWER_LETTERS.findall(lower))
    if _ASCII_DIGIT.search(lower) is None:
        return runs, runs - _CONTENT_DROP
    return runs, content_tokens(text)


_ASCII_DIGIT = re.compile(r"[0-9]")


class TokenRows(list[tuple[int, ...]]):
    """Many questions' token sets, each kept as a sorted tuple of word numbers.

    A scan keeps the tokens of every question while it compares them. As frozensets of
    strings they cost about a kilobyte a question (a frozenset of five to eighteen members
    takes 728 bytes, and every question splits into its own copies of its words); as a
    tuple of small ints, each word stored once in :attr:`numbers`, about a hundred bytes.
    A row answers ``len`` and truth as the set did, and its members are distinct and in
    order, so the row itself is the set's one spelling: two questions with the same tokens
    have equal rows, usable as a dict key. Overlaps between rows, or with other words
    through :meth:`number`, count the same members the sets would.
    """

    __slots__ = ("numbers",)

    def __init__(self, numbers: dict[str, int] | None = None) -> None:
        """``numbers``: another TokenRows' numbers, to share them (rows of both then compare)."""
        super().__init__()
        self.numbers: dict[str, int] = {} if numbers is None else numbers

    def row(self, tokens: Iterable[str]) -> tuple[int, ...]:
        """The row for ``tokens`` (words never seen before get the next numbers), not appended."""
        numbers = self.numbers
        if type(tokens) is frozenset or type(tokens) is set:
            # Distinct words, most of them numbered already (all of them, once a large set's vocabulary has
            # been met): looked up in one call, without a set of their numbers to build.
            found: list[int | None] = list(map(numbers.get, tokens))
            if None in found:  # new words, numbered in the order the set gives them, as below
                setdefault = numbers.setdefault
                known = [setdefault(token, len(numbers)) if n is None else n for token, n in zip(tokens, found)]
            else:
                known = cast("list[int]", found)
            known.sort()
            return tuple(known)
        setdefault = numbers.setdefault
        # len() is read before each call, so a new word takes the next free number
        return tuple(sorted({setdefault(token, len(numbers)) for token in tokens}))

    def add(self, tokens: Iterable[str]) -> None:
        """Append the row for ``tokens``."""
        self.append(self.row(tokens))

    def number_dropped_first(self) -> int:
        """Give the words content tokens leave out the first numbers of an empty table; returns how many.

        Then a row's content tokens, where they are its words without those (see
        :func:`word_and_content_rows`), are the row's tail from the first number past them.
        """
        if self.numbers:
            raise ValueError("only an empty table can number the dropped words first")
        for word in sorted(_CONTENT_DROP):  # sorted: a set's order would change with the hash seed
            self.numbers[word] = len(self.numbers)
        return len(self.numbers)

    def number(self, token: str) -> int:
        """The number of a word some row holds; -1 for a word none does."""
        return self.numbers.get(token, -1)

    def extend_packed(self, flat: Sequence[int], ends: Iterable[int]) -> None:
        """Append rows given end to end in ``flat`` (numbers from :meth:`row`), row k ending at ``ends[k]``.

        A caller that makes these rows alongside many short-lived objects keeps them packed
        until those are gone, then makes the rows: made among the others, the rows would hold
        on to memory scattered through all of theirs. The rows share the table's own number
        objects, as rows made by :meth:`row` do.
        """
        own = list(self.numbers.values())  # a word's number is its place in the table (see row)
        # Equal rows are one tuple: where a small vocabulary makes the same question again and again, a tuple per
        # question held several times what the distinct ones do, through the whole audit.
        made: dict[tuple[int, ...], tuple[int, ...]] = {}
        at = 0
        for end in ends:
            row = tuple(map(own.__getitem__, flat[at:end]))
            self.append(made.setdefault(row, row))
            at = end


def word_and_content_rows(
    text: str, rows: TokenRows, dropped: int, *, every_script: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``rows.row`` of each of :func:`words_and_content_tokens`, in a table whose first ``dropped``
    numbers are the dropped words (:meth:`TokenRows.number_dropped_first`).

    Where the tokens are the words without the dropped ones (ASCII text without an underscore),
    their row is the words' row from the first number past the dropped ones: a row is sorted,
    so no second row is made and sorted for them.
    """
    if text.isascii():
        raw = text.encode()
        if b"_" not in raw:
            words = rows.row(frozenset(raw.translate(_WORD_BYTES).decode().split()))
            return words, words[bisect_left(words, dropped) :]
    found, content = words_and_content_tokens(text, every_script=every_script)
    return rows.row(found), rows.row(content)


def words_and_content_tokens(text: str, *, every_script: bool = False) -> tuple[frozenset[str], frozenset[str]]:
    """``word_set(text)`` and ``content_tokens(text)`` from one split of the text, where it can.

    On ASCII text without an underscore both tables blank the same bytes, so the audit's
    runs are the words, and its tokens are the words minus the dropped ones. With
    ``every_script`` the tokens are :func:`script_tokens` (the same on ASCII text).
    """
    if every_script and not text.isascii():
        return word_set(text), script_tokens(text)
    if text.isascii():
        raw = text.encode()
        blanked = raw.translate(_WORD_BYTES)
        words = frozenset(blanked.decode().split())
        if b"_" not in raw:
            return words, words - _CONTENT_DROP
        return words, content_tokens(text)
    return word_set(text), content_tokens(text)


# For word_count on ASCII text: the ASCII whitespace that bytes.split() does not know becomes a space,
# and every byte that is neither whitespace nor a word character is deleted.
_SEPARATORS_AS_SPACE = bytes.maketrans(b"\x1c\x1d\x1e\x1f", b"    ")
_NOT_IN_A_PIECE = bytes(
    code for code in range(128) if not (chr(code).isspace() or chr(code).isalnum() or chr(code) == "_")
)


def word_count(text: str, *, stop_at: int | None = None) -> int:
    """How many whitespace-separated pieces hold at least one letter or digit.

    Whitespace splitting keeps "don't" and "1.5" as one word each; a lone "?" or
    "--" is not a word. With ``stop_at``, counting stops there (enough to know a
    question is long enough).

    ASCII text is counted in one pass: deleting every character that is neither
    whitespace nor part of a word leaves the pieces where they were and empties
    exactly those without a word character, which ``split()`` then drops.
    """
    if text.isascii():
        pieces = text.encode().translate(_SEPARATORS_AS_SPACE, _NOT_IN_A_PIECE)
        if stop_at is None or stop_at < 1:
            return len(pieces.split())
        return len(pieces.split(None, stop_at - 1))  # the pieces after the first stop_at - 1 stay one, uncut
    count = 0
    search = _HAS_WORD_CHAR.search
    for piece in text.split():
        if search(piece) is not None:
            count += 1
            if count == stop_at:
                break
    return count


_ARABIC = re.compile(r"[\u0620-\u064a\u066e-\u06d3]")


#: The endings English writes onto a word after an apostrophe ("it's", "can't", "we'll"), which are no word of their own.
_CONTRACTED = frozenset({"s", "t", "re", "ve", "ll", "d", "m"})
_APOSTROPHES = frozenset("'\u2019")


def written_words(text: str) -> int:
    """How many words ``text`` holds as its language writes them, for judging whether a question is short.

    :func:`word_count` counts what lies between spaces, which undercounts languages that write
    words together. French elides: "qu'un" is two words, "est-ce" two. Arabic writes its article,
    its one-letter prepositions and conjunctions and its object pronouns onto the word, and has
    no "is": three Arabic words ("من هم الدروز", who are the Druze) say what four English words
    say. Here a word is a run of letters or digits of any script (apostrophes and hyphens end
    one, but English's "'s", "n't", "'re", ... after a word are no word of their own), Arabic
    words count four for every three, and a run of a script written without spaces (Chinese,
    Japanese, Thai) counts a word for every two characters.
    """
    count = arabic = 0
    text = unicodedata.normalize("NFC", text)
    for found in _SCRIPT_PIECE.finditer(text):
        piece = found.group()
        at = found.start()
        before = text[at - 2] if at >= 2 else ""  # the character before the apostrophe
        if at and text[at - 1] in _APOSTROPHES and piece.lower() in _CONTRACTED and (not before or before.isalnum() or before == "."):
            continue  # English's "Who's", "don't", "the 1990's", "the U.S.'s": one word, where French "qu'un" is two
        if _IS_UNSPACED.match(piece):
            count += max(1, len(piece) // 2)
        elif _ARABIC.match(piece):
            arabic += 1
        else:
            count += 1
    return count + arabic * 4 // 3


def how_written_words_count(text: str) -> str:
    """What :func:`written_words` counts otherwise than the spaces in ``text``, in a few words, with an example of the
    text's own script (a French question was told how Arabic counts)."""
    if _ARABIC.search(text):
        return "Arabic writes its article and small words onto a word: three of its words say what four English ones do"
    if _IS_UNSPACED.search(text):
        return "a script written without spaces counts a word for every two characters"
    return "an elided \"qu'un\" or \"l'eau\" is two words"


def normalise_question(text: str | None, *, spacing: bool = False) -> str:
    """The form under which two questions count as the same: trimmed, lower-cased, as goldensetauditor compares
    them; with ``spacing`` (the review profile) also with each run of white space inside as one space. A
    spreadsheet's line break or a double space kept "What is the\\nVAT rate?" apart from "What is the VAT rate?"
    with another answer: no conflict, and only a hint."""
    if text is None:
        return ""
    return " ".join(text.split()).lower() if spacing else text.strip().lower()


def has_control_chars(text: str) -> bool:
    """Whether ``text`` holds a character that :func:`visible` would escape."""
    return escaped(text, keep_newlines=True) != text


def visible(text: str, *, keep_newlines: bool = False) -> str:
    """Text safe to print on a terminal or put in a report: unsafe characters shown as escapes.

    An escape sequence hidden in a question could otherwise recolour or rewrite the
    reader's terminal, and a bidi override could make a report say something else.
    The list of unsafe characters is :mod:`reviewtui.evalset.text.safe`'s.
    """
    return escaped(text, keep_newlines=keep_newlines)


def visible_id(text: str) -> str:
    """:func:`visible` text whose own backslashes are doubled where they could be read as the start of an escape
    (see :func:`_doubled_if_escape_like`): an id holding the characters
    ``\\u202e`` and one holding the right-to-left override were both shown ``q1\\u202e``, two items under one
    name in a warning and in the report's list. Any other backslash is shown once, as typed (``x\\y``)."""
    return visible(_BACKSLASH.sub(_doubled_if_escape_like, text)) if "\\" in text else visible(text)


_BACKSLASH = re.compile(r"\\(?=(.?))", re.DOTALL)  # what follows looked at, not taken: each backslash judged alone


def _doubled_if_escape_like(match: re.Match[str]) -> str:
    """A backslash doubled where what follows it would read as an escape: a letter that starts one, a quote, a
    backslash, the end, or a character that is itself shown escaped (a backslash then U+202E read as the text
    ``\\u202e`` would)."""
    after = match.group(1)
    # A tab is kept by visible but written \\t by in_quotes: a backslash before one is doubled too.
    return "\\\\" if not after or after in "xuUnt\\'\"\t" or escaped(after) != after else "\\"


def in_quotes(text: str) -> str:
    """:func:`visible_id` text in quotes, as ``repr`` quotes a string: ``'q1\\x1b[31m'`` shows its escape
    once. ``repr(visible(text))`` escaped the escape's backslash again (``'q1\\\\x1b[31m'``)."""
    shown = visible_id(text).replace("\t", "\\t")  # as repr shows it: a tab in a one-line message looks like spaces
    if "'" in shown and '"' not in shown:
        return f'"{shown}"'
    return "'" + shown.replace("'", "\\'") + "'"
