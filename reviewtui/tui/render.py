"""Pure functions that turn core objects into display Content.

They hold no state and touch no widget, so the panes can be tested as plain unit
tests. Every string that comes from the data passes through :func:`safe`; labels
we write ourselves are joined to it literally, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from datetime import datetime

from textual.content import Content
from textual.style import Style

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.evidence.resolution import score_text
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import CONTEXT_DOCUMENT, EvalItem, GoldAnchor, is_marked_reviewed
from reviewtui.evalset.model.review import ReviewRecord
from reviewtui.evalset.review.queue import Change, Decision, Verdict, format_duration
from reviewtui.evalset.text.counts import count
from reviewtui.tui.safe import join, safe, safe_ends

__all__ = [
    "SEVERITY_STYLE",
    "VERDICT_STYLE",
    "evidence_view",
    "history_entry",
    "history_head",
    "history_view",
    "flags_view",
    "question_view",
]

LABEL = "bold $text-muted"
QUESTION_LIMIT = 4_000
SEVERITY_STYLE = {
    Severity.HIGH: "bold $text-error",
    Severity.MEDIUM: "bold $text-warning",
    Severity.LOW: "$text-accent",
    Severity.HINT: "dim",
}
SEVERITY_MARK = {Severity.HIGH: "▲", Severity.MEDIUM: "●", Severity.LOW: "○", Severity.HINT: "·"}
VERDICT_STYLE = {
    "accepted": "bold $text-success",
    "rejected": "bold $text-error",
    "edited": "bold $text-accent",
    "skipped": "bold $text-warning",
    "pending": "dim",
}
VERDICT_MARK = {"accepted": "✓", "rejected": "✗", "edited": "✎", "skipped": "↷", "pending": "…"}


def reading_bar(fraction: float, width: int = 12) -> Content:
    """How much of a set file has been read, as a short bar of line characters and a percentage."""
    fraction = min(max(fraction, 0.0), 1.0)
    filled = round(fraction * width)
    return join(
        Content.styled("reading ", "dim"),
        Content.styled("━" * filled, "$accent"),
        Content.styled("━" * (width - filled), "dim"),
        Content.styled(f" {fraction:.0%}", "dim"),
    )


def format_time(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return datetime.fromtimestamp(timestamp).strftime("%H:%M:%S")


def _field(label: str, value: Content | str) -> Content:
    return join(Content.styled(f"{label} ", LABEL), value)


def question_view(item: EvalItem, *, verdict: str | None = None, note: str = "", compact: bool = False) -> Content:
    """The question pane: id, type, verdict so far, the question itself and the answer.

    ``compact`` (a short terminal): no blank lines between the three, so that the answer of a two-line
    question still shows in the few rows the pane has there.
    """
    gap = "\n" if compact else "\n\n"
    parts: list[Content | str] = [safe(item.id, style="bold", one_line=True, limit=200)]
    parts.append(Content.styled("  ·  ", "dim"))
    parts.append(
        safe(item.qtype, style="$text-secondary", one_line=True, limit=80)
        if item.qtype
        else Content.styled("no type", "dim italic")
    )
    if is_marked_reviewed(item.meta.get("reviewed")):
        parts.append(Content.styled("  ·  reviewed before", "dim italic"))
    if verdict and verdict != "pending":
        parts.append(Content.styled("  ·  ", "dim"))
        parts.append(Content.styled(f"{VERDICT_MARK.get(verdict, '')} {verdict}", VERDICT_STYLE.get(verdict, "")))
    parts.append(gap)
    if len(item.question) > QUESTION_LIMIT:
        parts.append(
            Content.styled(
                f"this question is {len(item.question):,} characters long; the first {QUESTION_LIMIT:,} are shown\n",
                "italic $text-warning",
            )
        )
    parts.append(safe(item.question, style="bold $text", limit=QUESTION_LIMIT))
    parts.append(gap)
    parts.append(_field("Answer", safe(item.answer) if item.answer is not None else Content.styled("none given", "dim italic")))
    if note:
        parts.append("\n")
        parts.append(_field("Note", safe(note, style="italic")))
    return join(*parts)


MATCH_STYLE = {
    "exact": "$text-success",
    "normalised": "$text-success",
    "approximate": "$text-warning",
    "not_found": "bold $text-error",
    "unknown_document": "bold $text-error",
    "unreadable": "bold $text-error",
}
CONTEXT_CHARS = 400
CONTEXT_LINES = 3
HIGHLIGHT = "bold $foreground on $accent-muted"


def _context_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """A few lines either side of ``[start, end)``, never more than CONTEXT_CHARS each way."""
    left = start
    for _ in range(CONTEXT_LINES):
        found = text.rfind("\n", max(0, start - CONTEXT_CHARS), max(0, left - 1))
        if found < 0:
            left = max(0, start - CONTEXT_CHARS)
            break
        left = found + 1
    right = end
    for _ in range(CONTEXT_LINES):
        found = text.find("\n", right + 1, min(len(text), end + CONTEXT_CHARS))
        if found < 0:
            right = min(len(text), end + CONTEXT_CHARS)
            break
        right = found
    if right > end and right < len(text) and text[right - 1] == "\r" and text[right] == "\n":
        right -= 1  # a line of a CR LF document ends before its CR: cut from its LF, it showed as a stray ␍
    return left, right


def match_badge(resolution: object) -> Content:
    """How a quote was found in its document: kind, score, page."""
    kind = getattr(getattr(resolution, "kind", None), "value", "unknown")
    words = {
        "exact": "found exactly",
        "normalised": "found after normalising",
        "approximate": "found approximately",
        "not_found": "NOT FOUND in the document",
        "unknown_document": "UNKNOWN DOCUMENT",
        "unreadable": "document UNREADABLE",
    }.get(kind, kind)
    parts: list[Content | str] = [Content.styled(words, MATCH_STYLE.get(kind, "bold"))]
    score = getattr(resolution, "score", None)
    if kind == "approximate" and score is not None:
        parts.append(Content.styled(f" (score {score_text(score)})", MATCH_STYLE["approximate"]))
    page = getattr(resolution, "page", None)
    if page is not None:
        parts.append(Content.styled(f" · page {page}", "dim"))
    span = getattr(resolution, "span", None)
    if span is not None:
        parts.append(Content.styled(f" · chars {span.start:,}–{span.end:,}", "dim"))
    note = getattr(resolution, "note", "") or getattr(resolution, "page_note", "")
    if note:
        parts.append(Content.styled(" · ", "dim"))
        parts.append(safe(note, style="dim italic", one_line=True, limit=300))
    return join(*parts)


def context_view(text: str, start: int, end: int) -> Content:
    """The quote highlighted where it stands in its document, with a few lines either side.

    Each piece is made safe on its own, so the highlight stays on the quote even
    when stand-ins for control characters change the length of the text.
    """
    left, right = _context_bounds(text, start, end)
    return join(
        Content.styled("…" if left > 0 else "", "dim"),
        safe(text[left:start], style="$text-muted", limit=CONTEXT_CHARS * 2),
        safe(text[start:end], style=HIGHLIGHT, limit=QUESTION_LIMIT),
        safe(text[end:right], style="$text-muted", limit=CONTEXT_CHARS * 2),
        Content.styled("…" if right < len(text) else "", "dim"),
    )


#: Document-level gold (BEIR): how many documents the evidence pane shows text of, and how much of each.
GOLD_DOCUMENTS_SHOWN = 3
GOLD_DOCUMENT_CHARS = 1200

#: From this many quotes on, only the selected one is shown whole; the others take one line each.
COMPACT_QUOTES_FROM = 4
#: The most quotes (and gold spans) the evidence pane lists: the selected quote, a few before it and
#: the rest after, the others counted. The pane wraps what it is given, all of it, on every key that
#: changes it, and an item of 10,000 quotes took 8 s to show and 8 s more for each ] or [.
QUOTES_LISTED = 50
QUOTES_BEFORE = 10


def _anchor_view(anchor: GoldAnchor, number: int, total: int, selected: bool, compact: bool = False) -> Content:
    if compact:  # one line: where it is from and how it starts
        return join(
            Content.styled(f"  quote {number}/{total}  ", LABEL),
            safe(anchor.source_id, style="$text-secondary", one_line=True, limit=40),
            Content.styled("  “", "dim"),
            safe(anchor.quote, one_line=True, limit=60),
            Content.styled("”", "dim"),
        )
    head: list[Content | str] = [
        Content.styled(f"{'▶' if selected else ' '} quote {number}/{total}  ", "bold" if selected else LABEL),
        safe(anchor.source_id, style="$text-secondary", one_line=True, limit=300),
        Content.styled(f"  · grade {anchor.grade}", "dim"),
    ]
    if anchor.page_hint is not None:
        head.append(Content.styled(f" · page {anchor.page_hint}", "dim"))
    if anchor.occurrence:
        head.append(Content.styled(f" · occurrence {anchor.occurrence}", "dim"))
    quote = safe_ends(anchor.quote, whole=f"{HINT_KEYS['review.edit']} shows the whole quote")
    return join(*head, "\n", Content.styled("  “", "dim"), quote, Content.styled("”", "dim"))


def selected_quote_start(evidence: Content, selected_anchor: int, total: int) -> int:
    """Where the selected quote's heading line begins in the evidence pane's text (0 for the first, or not found).

    The heading of a quote after the first begins a line (see evidence_view). The first line that reads
    as its heading is taken: an earlier quote whose own text held such a line would be taken for it,
    and the pane would only scroll to the wrong place.
    """
    if selected_anchor <= 0:
        return 0
    # An item without quotes selects among its gold documents (see evidence_view): the one marked ▸.
    found = evidence.plain.find("\n▸ " if total == 0 else f"\n▶ quote {selected_anchor + 1}/{total}  ")
    return found + 1 if found >= 0 else 0


#: The most document-level gold documents the evidence pane lists (and ] and [ go through).
GOLD_DOCUMENTS_LISTED = 50


def gold_documents_listed(item: EvalItem) -> list[tuple[object, object]]:
    """The item's document-level gold (BEIR's ``meta["gold_documents"]``) as (document id, grade), the highest grade
    first (ties, and grades that are not numbers, after, in the file's order), as many as the pane lists."""
    documents = item.meta.get("gold_documents")
    if not isinstance(documents, (list, tuple)) or not documents:
        return []
    pairs = [
        (entry[0], entry[1]) if isinstance(entry, (list, tuple)) and len(entry) >= 2 else (entry, "?") for entry in documents
    ]

    def rank(pair: tuple[object, object]) -> float:
        grade = pair[1]
        return -float(grade) if isinstance(grade, (int, float)) and not isinstance(grade, bool) and grade == grade else float("inf")

    return sorted(pairs, key=rank)[:GOLD_DOCUMENTS_LISTED]


#: The keys the panes name in their hints (binding id -> the key as the key bar shows it): the declared keys
#: until the app puts in the settings' remaps as it starts (ReviewApp.on_mount). A hint naming a key the
#: settings had moved sent the reviewer to the wrong one.
HINT_KEYS: dict[str, str] = {
    "review.dismiss": "w", "review.document": "x", "review.next_anchor": "]", "review.previous_anchor": "[", "review.edit": "e",
    # an adjudication's votes are listed by the key that takes each (the digits, unless the settings moved them)
    **{f"review.adopt_{number}": str(number) for number in range(1, 10)},
}


def adopt_key(number: int) -> str | None:
    """The key that takes the decision of the reviewer listed ``number``-th (1-9), as mapped now; None past 9."""
    return HINT_KEYS.get(f"review.adopt_{number}")


def adopt_keys_are_digits() -> bool:
    """Whether the keys that take the reviewers' decisions are still the digits 1-9."""
    return all(adopt_key(number) == str(number) for number in range(1, 10))


def evidence_view(
    item: EvalItem,
    *,
    selected_anchor: int = 0,
    resolutions: Sequence[object] | None = None,
    document_text: Callable[[str], str | None] | None = None,
    document_missing: Callable[[str], str] | None = None,
) -> Content:
    """The evidence pane: every anchor, every gold span, and document-level gold (BEIR).

    With ``resolutions`` (one per anchor, from a corpus), each quote says how it
    was found, and the selected one is shown inside its document context.
    ``document_missing`` says in a few words why ``document_text`` had no text for a
    document (absent, ambiguous, unreadable); without it, the pane says it is not in the corpus.
    """
    parts: list[Content | str] = []
    anchors = item.anchors
    many = len(anchors) >= COMPACT_QUOTES_FROM
    previous_whole = True
    first = max(0, min(selected_anchor - QUOTES_BEFORE, len(anchors) - QUOTES_LISTED))
    last = min(len(anchors), first + QUOTES_LISTED)
    if first:
        parts.append(Content.styled(f"… {count(first, 'quote')} before ({HINT_KEYS['review.previous_anchor']} goes back)", "dim italic"))
        previous_whole = False  # the compact lines go on under it
    for number, anchor in enumerate(anchors[first:last], start=first + 1):
        selected = number - 1 == selected_anchor
        compact = many and not selected
        if parts:
            parts.append("\n" if compact and not previous_whole else "\n\n")
        previous_whole = not compact
        parts.append(_anchor_view(anchor, number, len(anchors), selected, compact))
        resolution = resolutions[number - 1] if resolutions and number - 1 < len(resolutions) else None
        if resolution is None:
            continue
        parts.append("  " if compact else "\n  ")
        parts.append(match_badge(resolution))
        span = getattr(resolution, "span", None)
        if selected and span is not None and document_text is not None:
            text = document_text(span.doc_id)
            if text is not None:
                parts.append(Content.styled(f"\n  in context ({HINT_KEYS['review.document']}: whole document)\n", LABEL))
                parts.append(context_view(text, span.start, span.end))
    if last < len(anchors):
        more = count(len(anchors) - last, "more quote")
        parts.append(Content.styled(f"\n… and {more} ({HINT_KEYS['review.next_anchor']} goes on)", "dim italic"))
    if item.gold:
        if parts:
            parts.append("\n\n")
        parts.append(Content.styled(f"gold spans ({len(item.gold)})", LABEL))
        for gold in item.gold[:QUOTES_LISTED]:
            span = gold.span
            parts.append("\n  ")
            parts.append(safe(span.doc_id, style="$text-secondary", one_line=True, limit=300))
            parts.append(Content.styled(f"  [{span.start:,}–{span.end:,})  {len(span):,} chars · grade {gold.grade}", "dim"))
        if len(item.gold) > QUOTES_LISTED:
            parts.append(Content.styled(f"\n  … and {len(item.gold) - QUOTES_LISTED:,} more", "dim italic"))
    documents = gold_documents_listed(item)
    if documents:
        if parts:
            parts.append("\n\n")
        total = len(item.meta["gold_documents"])
        parts.append(Content.styled(f"gold documents ({total}, document-level, highest grade first)", LABEL))
        # With a corpus (a BEIR corpus.jsonl), a few documents are shown, from the one selected on (] and [ move it,
        # x opens it whole): on an item of 20, the top grades were bare ids past the first three in the file's order.
        # An item with quotes: ] [ and x are the quotes' (the first documents are shown, none chosen).
        choosing = not anchors and document_text is not None
        chosen = selected_anchor if choosing and 0 <= selected_anchor < len(documents) else 0
        chosen_found = False
        for number, (doc_id, grade) in enumerate(documents):
            shown_whole = document_text is not None and chosen <= number < chosen + GOLD_DOCUMENTS_SHOWN
            parts.append("\n▸ " if choosing and number == chosen and len(documents) > 1 else "\n  ")
            parts.append(safe(doc_id, style="$text-secondary", one_line=True, limit=300))
            parts.append(Content.styled("  · grade ", "dim"))
            parts.append(safe(grade, style="dim", one_line=True, limit=40))  # from the set's meta: any value
            text = document_text(str(doc_id)) if shown_whole and document_text is not None else None
            if text is not None:
                parts.append("\n    ")
                parts.append(safe(text, limit=GOLD_DOCUMENT_CHARS))
            elif shown_whole:
                why = document_missing(str(doc_id)) if document_missing is not None else "not in the corpus"
                parts.append(safe(f"  · {why}", style="dim", one_line=True))  # it may quote the corpus file's words
            if number == chosen:
                chosen_found = text is not None
        if choosing:
            x, ahead, back = (HINT_KEYS[k] for k in ("review.document", "review.next_anchor", "review.previous_anchor"))
            whole = f"{x}: the ▸ document whole" if len(documents) > 1 else f"{x}: the document whole"
            keys = [*([whole] if chosen_found else []), *([f"{ahead} {back}: the next or previous"] if len(documents) > 1 else [])]
            if keys:  # x on a document the corpus lacks only said so
                parts.append(Content.styled("\n  " + " · ".join(keys), "dim"))
        if total > len(documents):
            parts.append(Content.styled(f"\n  … and {total - len(documents):,} more", "dim italic"))
    contexts = item.meta.get("contexts")
    if isinstance(contexts, (list, tuple)) and contexts:
        if parts:
            parts.append("\n\n")
        parts.append(Content.styled(f"contexts without a source ({len(contexts)})", LABEL))
        for context in contexts[:20]:
            parts.append("\n  “")
            parts.append(safe(context, limit=4000))
            parts.append("”")
    if not parts:
        return _no_evidence(item, document_text)
    return join(*parts)


def _no_evidence(item: EvalItem, document_text: Callable[[str], str | None] | None) -> Content:
    """An item without evidence; for one written against a document (SQuAD 2.0 unanswerable), that document."""
    written_for = item.meta.get(CONTEXT_DOCUMENT)
    if not isinstance(written_for, str) or not written_for:
        return Content.styled("No evidence: this item has no quote, span or gold document.", "italic $text-warning")
    head = join(
        Content.styled("No evidence by design; it was asked of ", "italic"),
        safe(written_for, style="$text-secondary", one_line=True, limit=300),
    )
    text = document_text(written_for) if document_text is not None else None
    if text is None:
        hint = " (open the review with --corpus to read it here)" if document_text is None else " (not in the corpus)"
        return join(head, Content.styled(hint, "dim"))
    return join(head, Content.styled(":\n", "italic"), safe(text, limit=6000))


def flags_view(
    flags: Sequence[Flag] | None,
    *,
    scanning: bool = False,
    failed: str | None = None,
    dismissed: Set[str] | Mapping[str, str] = frozenset(),
) -> Content:
    """The item's own problems, most severe first; a hint that the scan is still running.

    A warning a reviewer said is not a problem (``dismissed``) stays, dimmed, and says so, naming who
    when ``dismissed`` maps each such warning to its reviewer.
    """
    if failed:
        return join(Content.styled("quality checks could not run: ", "$text-error"), safe(failed, limit=500))
    if flags is None:
        return Content.styled("checking this set…" if scanning else "not checked", "dim italic")
    # Flags while the scan still runs are the corpus lookup's alone: "no problems found" then said of the quotes
    # what only the whole scan can say of the item.
    if not flags:
        if scanning:
            return Content.styled("no problem found with its quotes; checking the rest of this set…", "dim italic")
        return Content.styled("no problems found on this item", "dim italic")
    parts: list[Content | str] = []
    for flag in sorted(flags, key=lambda f: -f.severity):
        if parts:
            parts.append("\n")
        waived = flag.check in dismissed
        style = "dim strike" if waived else SEVERITY_STYLE[flag.severity]
        parts.append(Content.styled(f"{SEVERITY_MARK[flag.severity]} {flag.severity.label:<6} ", style))
        parts.append(safe(flag.check, style="dim" if waived else "bold", one_line=True, limit=80))
        if waived:
            by = dismissed.get(flag.check, "") if isinstance(dismissed, Mapping) else ""
            parts.append(Content.styled("  not a problem (", "dim italic"))
            parts.append(safe(by, style="dim italic", one_line=True, limit=60) if by else Content.styled("a reviewer", "dim italic"))
            parts.append(Content.styled(f" said so; {HINT_KEYS['review.dismiss']} takes it back)", "dim italic"))
        parts.append("\n  ")
        parts.append(safe(flag.reason, style="dim" if waived else "", limit=2000))
        if flag.related_ids:
            parts.append(Content.styled("  → ", "dim"))
            shown = ", ".join(flag.related_ids[:5]) + (" …" if len(flag.related_ids) > 5 else "")
            parts.append(safe(shown, style="$text-secondary", one_line=True, limit=300))
    if scanning:
        parts.append(Content.styled("\nchecking the rest of this set…", "dim italic"))
    return join(*parts)


#: What clicking the set cautions' title line does (the same as the `c` key).
CAUTIONS_ACTION = "screen.toggle_cautions"


def cautions_section(entries: Sequence[LogEntry], *, opened: bool) -> Content:
    """The set cautions under an item's warnings: a title line (click or `c` to open) and, opened, the cautions."""
    title = Content.styled(f"{'▼' if opened else '▶'} set cautions ({len(entries)})", "$warning")
    title = title.stylize(Style.from_meta({"@click": CAUTIONS_ACTION}))
    parts: list[Content | str] = ["\n\n", title]
    if opened:
        parts += ["\n", cautions_view(entries)]
    return join(*parts)


def cautions_view(entries: Iterable[LogEntry]) -> Content:
    """Set-level cautions (size, review coverage, type balance …)."""
    parts: list[Content | str] = []
    for entry in entries:
        if parts:
            parts.append("\n")
        style = "bold $text-warning" if entry.level == "CAUTION" else "dim"
        parts.append(Content.styled(f"{entry.level.lower()} ", style))
        parts.append(safe(entry.message, limit=2000))
    return join(*parts) if parts else Content.styled("no set-level cautions", "dim italic")


#: How many reviewers' decisions the digit keys take (1-9).
ADOPT_KEYS = 9


def votes_view(votes: Mapping[str, Decision], dismissed: Mapping[str, Sequence[str]] | None = None) -> Content:
    """An adjudication's view of one item: each reviewer's verdict, reason, note and edit, numbered for the digit keys,
    and the warnings each one said are not a problem on it (``dismissed``: reviewer -> checks)."""
    # The settings may have moved the keys that take a decision off the digits: "a digit takes one" over "1 ana" then
    # sent the adjudicator to keys that did nothing.
    digits = adopt_keys_are_digits()
    taken = "a digit takes one" if digits else "its key takes one"
    parts: list[Content | str] = [Content.styled(f"the reviewers decided ({taken}):", "bold")]
    for number, (reviewer, decision) in enumerate(votes.items(), start=1):
        verdict = decision.verdict.value
        # Only 1-9 are keys: numbered "10", a reviewer's decision was taken as reviewer 1's when "1" was typed.
        key = adopt_key(number) if number <= ADOPT_KEYS else None
        parts.append(Content.styled(f"\n{key} " if key is not None else "\n· ", "bold $text-accent"))
        parts.append(safe(reviewer, one_line=True, limit=40))
        parts.append(Content.styled(f"  {VERDICT_MARK.get(verdict, '?')} {verdict}", VERDICT_STYLE.get(verdict, "")))
        if decision.reason is not None:
            parts.append(Content.styled(f" {decision.reason.value}", "$text-error"))
        if decision.note:
            parts.append("\n    ")
            parts.append(safe(decision.note, style="italic", one_line=True, limit=200))
        for field, (old, new) in decision.changes().items():
            parts.append(Content.styled(f"\n    {field}: ", "dim"))
            parts.append(safe(_short(old), style="strike dim", one_line=True, limit=120))
            parts.append(Content.styled(" → ", "dim"))
            parts.append(safe(_short(new), one_line=True, limit=120))
        said = (dismissed or {}).get(reviewer)
        if said:
            parts.append(Content.styled("\n    not a problem: ", "dim"))
            parts.append(safe(", ".join(said), style="dim", one_line=True, limit=200))
    if len(votes) > ADOPT_KEYS:
        parts.append(
            Content.styled(
                f"\n({'a digit takes' if digits else 'their keys take'} the first {ADOPT_KEYS} reviewers' decisions; "
                "decide as another did with the usual keys)",
                "dim",
            )
        )
    return join(*parts)


def _short(value: object) -> str:
    if isinstance(value, (list, tuple)):  # anchors: their quotes are what an edit changes
        return " | ".join(str(v.get("quote", v)) if isinstance(v, dict) else str(v) for v in value)
    return "" if value is None else str(value)


def history_view(
    decisions: Sequence[Decision], earlier: ReviewRecord | None = None, votes: Mapping[str, Decision] | None = None
) -> Content:
    """Recent decisions, newest first: verdict, item, reason, note, when and how long it took.

    ``earlier`` is the current item's review from an earlier export of the set, shown first;
    ``votes`` (an adjudication) each reviewer's decision on it, first of all. The review screen
    shows the same lines built in parts (:func:`history_head`, :func:`history_entry`), so that a
    decision wraps only the entry it adds.
    """
    head = history_head(earlier, votes)
    parts: list[Content | str] = [head, "\n\n"] if head is not None else []
    if not decisions:
        parts.append(HISTORY_EMPTY)
    for n, decision in enumerate(decisions):
        if n:
            parts.append("\n")
        parts.append(history_entry(decision))
    return join(*parts)


#: The history pane before the first decision.
HISTORY_EMPTY = Content.styled("no decisions yet", "dim italic")


def history_head(
    earlier: ReviewRecord | None = None,
    votes: Mapping[str, Decision] | None = None,
    dismissed: Mapping[str, Sequence[str]] | None = None,
) -> Content | None:
    """What the history pane shows above the decisions about the current item (see :func:`history_view`); None: nothing.
    ``dismissed``: with ``votes``, the warnings each reviewer said are not a problem on it."""
    parts: list[Content | str] = []
    if votes:
        parts.append(votes_view(votes, dismissed))
    if earlier is not None:
        if parts:
            parts.append("\n\n")
        parts.append(Content.styled("this item, earlier: ", "bold"))
        parts.append(Content.styled(f"{VERDICT_MARK.get(earlier.verdict, '?')} ", VERDICT_STYLE.get(earlier.verdict, "")))
        parts.append(safe(earlier.verdict, one_line=True, limit=20))
        if earlier.reason:
            parts.append(" ")
            parts.append(safe(earlier.reason, style="$text-error", one_line=True, limit=40))
        if earlier.reviewer:
            parts.append(" by ")
            parts.append(safe(earlier.reviewer, one_line=True, limit=40))
        if earlier.decided_at:
            parts.append(Content.styled("  ", "dim"))
            parts.append(safe(earlier.decided_at, style="dim", one_line=True, limit=40))
        if earlier.original:  # the keys come from the file: data, made safe like any other
            parts.append(Content.styled("\n  changed: ", "dim"))
            parts.append(safe(", ".join(sorted(str(k) for k in earlier.original)), style="dim", one_line=True, limit=200))
        if earlier.rule:  # a team's merged record: how its verdict was chosen
            parts.append(Content.styled("\n  rule: ", "dim"))
            parts.append(safe(earlier.rule, style="dim", one_line=True, limit=200))
        if earlier.open_warnings:
            parts.append(Content.styled("\n  accepted past: ", "$text-warning"))
            parts.append(safe(", ".join(earlier.open_warnings), one_line=True, limit=200))
        if earlier.note:
            parts.append("\n  ")
            if earlier.note_by:  # another reviewer's note on the decision: said whose
                parts.append(safe(earlier.note_by, style="dim", one_line=True, limit=40))
                parts.append(Content.styled(": ", "dim"))
            parts.append(safe(earlier.note, style="italic", one_line=True, limit=200))
    return join(*parts) if parts else None


def history_entry(decision: Decision) -> Content:
    """One decision in the history pane: verdict, item, reason, when, how long; its note on a line of its own."""
    verdict = decision.verdict.value
    parts: list[Content | str] = [
        Content.styled(f"{VERDICT_MARK.get(verdict, '?')} ", VERDICT_STYLE.get(verdict, "")),
        safe(decision.item_id, style="bold", one_line=True, limit=40),
    ]
    if decision.reason is not None:
        parts.append(" ")
        parts.append(Content.styled(decision.reason.value, "$text-error"))
    when = format_time(decision.decided_at)
    parts.append(Content.styled(f"  {when} · {format_duration(decision.seconds, compact=True)}", "dim"))
    if decision.taken_from:  # an adjudicator took a reviewer's decision
        parts.append(Content.styled("  as ", "dim"))
        parts.append(safe(decision.taken_from, style="dim", one_line=True, limit=40))
        parts.append(Content.styled(" decided", "dim"))
    if decision.note:
        parts.append("\n  ")
        parts.append(safe(decision.note, style="italic", one_line=True, limit=200))
        if decision.note_by:  # another reviewer's note on this decision
            parts.append(Content.styled(" — ", "dim"))
            parts.append(safe(decision.note_by, style="dim", one_line=True, limit=40))
    return join(*parts)


#: A meta value longer than this is folded: its start is shown, and how long it really is.
META_VALUE_LIMIT = 400


def meta_view(item: EvalItem) -> Content:
    """An item's ``meta``, one key per line; lists and objects as compact JSON; long values folded."""
    if not item.meta:
        return Content.styled("This item has no meta.", "dim italic")
    import orjson

    parts: list[Content | str] = []
    for key, value in item.meta.items():
        if parts:
            parts.append("\n")
        parts.append(safe(key, style="bold", one_line=True, limit=80))
        parts.append(Content.styled(": ", "dim"))
        if isinstance(value, str):
            parts.append(safe(value, limit=META_VALUE_LIMIT))
            continue
        try:
            text = orjson.dumps(value, default=str).decode("utf-8")
        except (TypeError, orjson.JSONEncodeError):
            text = repr(value)
        parts.append(safe(text, style="$text-secondary", limit=META_VALUE_LIMIT))
    return join(*parts)


def related_view(related: Sequence[tuple[str, EvalItem | None, str | None]]) -> Content:
    """The items a warning names: (id, the item as shown or None when not in the review, its verdict)."""
    parts: list[Content | str] = []
    for item_id, item, verdict in related:
        if parts:
            parts.append("\n\n")
        parts.append(safe(item_id, style="bold", one_line=True, limit=80))
        if verdict:
            parts.append(Content.styled(f"  {VERDICT_MARK.get(verdict, '')} {verdict}", VERDICT_STYLE.get(verdict, "dim")))
        if item is None:
            parts.append(Content.styled("\n  not in this review (not read yet, or left out)", "dim italic"))
            continue
        parts.append("\n")
        parts.append(_field("Q", safe(item.question, limit=1000)))
        if item.answer is not None:
            parts.append("\n")
            parts.append(_field("A", safe(item.answer, limit=1000)))
        for number, anchor in enumerate(item.anchors[:3], start=1):
            parts.append("\n")
            parts.append(_field(f"quote {number}", join("“", safe(anchor.quote, limit=400), "”")))
        if len(item.anchors) > 3:
            parts.append(Content.styled(f"\n  … and {len(item.anchors) - 3} more quotes", "dim"))
    if not parts:
        return Content.styled("No warning on this item names another item.", "dim italic")
    return join(*parts)


def change_summary(change: Change, *, undone: bool) -> str:
    """One line for the notification after an undo or a redo: which item, and what it is now."""

    def state(decision: Decision | None, note: str) -> str:
        if decision is not None:
            why = f" ({decision.reason.value})" if decision.reason else ""
            return f"{decision.verdict.value}{why}"
        return "undecided, with a note" if note else "undecided"

    was, now = (change.after, change.before) if undone else (change.before, change.after)
    note_was, note_now = (change.note_after, change.note_before) if undone else (change.note_before, change.note_after)
    verb = "Undone" if undone else "Redone"
    if change.dismissed_before is not None and change.dismissed_after is not None:  # the reviewer's word on a warning
        before, after = (change.dismissed_after, change.dismissed_before) if undone else (change.dismissed_before, change.dismissed_after)
        moved = sorted(before ^ after)
        now_said = "not a problem" if set(moved) <= set(after) else "a problem again"
        return f"{verb}: {', '.join(moved)} on {change.item_id} is {now_said}"
    if was is None and now is None:  # a draft note
        return f"{verb}: the note on {change.item_id}"
    if not change.advances and was is not None and now is not None:  # a note on a decided item; the verdict stays
        return f"{verb}: the note on {change.item_id} ({state(now, note_now)})"
    if was is not None and now is not None and state(was, note_was) == state(now, note_now):
        # The item decided again the same way (a second edit, an accept of an accepted item): "was edited, now
        # edited" did not say that anything had changed, nor what.
        if now.verdict is Verdict.EDITED:
            if undone:
                return f"Undone: the last edit of {change.item_id}; it keeps the edit made before it"
            return f"Redone: the last edit of {change.item_id}, over the edit made before it"
        return f"{verb}: {change.item_id} decided again; it stays {state(now, note_now)}"
    return f"{verb}: {change.item_id} was {state(was, note_was)}, now {state(now, note_now)}"
