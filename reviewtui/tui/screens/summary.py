"""The summary shown when every item has a decision: counts, time, reasons; export offered."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.widgets import Static

from reviewtui.evalset.review.queue import format_duration
from reviewtui.evalset.text.counts import count as counted
from reviewtui.tui.render import VERDICT_MARK, VERDICT_STYLE
from reviewtui.tui.safe import join, safe
from reviewtui.tui.screens.base import Dialog

#: What a team member is told in place of an export of their share.
#: Checks the summary lists the reviewer's word on; the rest are counted (status and the export list every one).
CHECKS_SHOWN = 10
TEAM_EXPORT = (
    "This review holds only part of a team's set, so it has no export of its own; the team's result is one "
    "export of every journal: reviewtui export FILE --consensus majority (or unanimous, adjudicated)."
)
#: ... and an adjudicator, whose decisions only the adjudicated rule takes.
ADJUDICATED_EXPORT = (
    "An adjudication holds only the items the team's reviewers did not settle, so it has no export of its own; "
    "the team's result with these decisions is: reviewtui export FILE --consensus adjudicated."
)


class SummaryScreen(Dialog[str | None]):
    """Dismisses with ``"export"``, ``"back"``, ``"undo"`` or ``None`` (quit is the app's ctrl+q).

    ``reasons`` are the rejections per reason, most frequent first (``ReviewQueue.reason_counts``).
    """

    BINDINGS = [
        Binding("e,ctrl+e", "choose('export')", "Export", id="summary.export"),
        Binding("escape,b", "choose('back')", "Back to the items", id="summary.back"),
        # The key that takes the last decision back on the review screen does it here too (the same id, so a
        # remap in the settings moves both): the summary comes up the moment the last item is decided, and
        # that decision may be the mistake.
        Binding("u", "choose('undo')", "Undo the last decision", id="review.undo"),
    ]

    def __init__(
        self,
        *,
        set_id: str,
        counts: Mapping[str, int],
        total: int,
        seconds: float,
        reasons: Mapping[str, int],
        past_warnings: Mapping[str, tuple[str, ...]] | None = None,
        tally: Mapping[str, Mapping[str, int]] | None = None,
        exported_to: str | None = None,
        share: bool = False,
        outside: int = 0,
        adjudicating: bool = False,
        unchecked: int = 0,
    ) -> None:
        """``share``: the review holds part of a team's set (a share, an adjudication), which has no export of its own;
        ``outside``: the set's items this review left out (marked reviewed in the file), which an export keeps as they are."""
        super().__init__()
        self._outside = outside
        self._share = share
        self._team_export = ADJUDICATED_EXPORT if adjudicating else TEAM_EXPORT
        self._set_id = set_id
        self._counts = dict(counts)
        self._total = total
        self._seconds = seconds
        self._reasons = dict(reasons)
        self._past_warnings = dict(past_warnings or {})
        self._tally = dict(tally or {})
        self._exported_to = exported_to
        self._unchecked = unchecked  # decisions made before the quality checks had finished

    def compose(self) -> ComposeResult:
        parts: list[Content | str] = [
            Content.styled("The only item has a decision" if self._total == 1 else f"All {self._total:,} items have a decision", "bold"),
            "\n\n",
        ]
        for verdict in ("accepted", "edited", "rejected", "skipped"):
            count = self._counts.get(verdict, 0)
            parts.append(Content.styled(f"{VERDICT_MARK[verdict]} {verdict:<9}", VERDICT_STYLE[verdict]))
            parts.append(f"{count:>7,}\n")
        decided = sum(self._counts.get(v, 0) for v in ("accepted", "edited", "rejected", "skipped"))
        per_item = self._seconds / decided if decided else 0
        parts.append(
            f"\ntime on items {format_duration(self._seconds, compact=True)}"
            f" · {_per_item(per_item)} per item on average\n"
        )
        if self._reasons:
            parts.append(Content.styled("\nwhy items were rejected\n", "bold"))
            for reason, count in self._reasons.items():  # most frequent first, as the queue counts them
                parts.append(f"  {count:>5,}  ")
                parts.append(safe(reason, one_line=True, limit=80))
                parts.append("\n")
        if self._past_warnings:
            count = len(self._past_warnings)
            noun = "item was" if count == 1 else "items were"
            said = f"\n{count:,} {noun} accepted or edited while a high-severity warning was open\n"
            parts.append(Content.styled(said, "bold $text-warning"))
            for item_id, checks in list(self._past_warnings.items())[:8]:
                parts.append("  ")
                parts.append(safe(item_id, one_line=True, limit=40))
                parts.append("  ")
                parts.append(safe(", ".join(checks), style="dim", one_line=True, limit=200))  # from the journals: data
                parts.append("\n")
            if count > 8:
                parts.append(Content.styled(f"  and {count - 8:,} more (all of them are named in the export)\n", "dim"))
        if self._unchecked:
            # The tally and the list above leave these out: nothing was known of their warnings when they were decided.
            said = counted(self._unchecked, "decision was", "decisions were")
            parts.append(
                Content.styled(f"\n{said} made before the quality checks had finished: no warning was recorded with "
                               f"{'it' if self._unchecked == 1 else 'them'}\n", "$text-warning")
            )
        if self._tally:
            parts.append(Content.styled("\nwarnings as you judged them", "bold"))
            parts.append(Content.styled("  (confirmed / not a problem / accepted past)\n", "dim"))
            for check, counts in list(self._tally.items())[:CHECKS_SHOWN]:
                parts.append("  ")
                parts.append(safe(check, one_line=True, limit=40))
                parts.append(f"  {counts['confirmed']:,} / {counts['dismissed']:,} / {counts['accepted']:,}\n")
            if len(self._tally) > CHECKS_SHOWN:  # said, as the list of items above says it: status and the export list all
                more = counted(len(self._tally) - CHECKS_SHOWN, "more check", "more checks")
                parts.append(Content.styled(f"  and {more} (reviewtui status)\n", "dim"))
        kept = self._counts.get("accepted", 0) + self._counts.get("edited", 0)
        if self._share:
            parts.append(f"\n{self._team_export}")
        else:
            also = ""
            if self._outside:
                also = f", and the {self._outside:,} {'item' if self._outside == 1 else 'items'} the file marks reviewed, as they are"
            parts.append(f"\nThe export keeps {counted(kept, 'item')} (accepted and edited) as the next version of the set{also}.")
        if self._exported_to:
            parts.append(Content.styled("\nexported to ", "$text-success"))
            parts.append(safe(self._exported_to, one_line=True, limit=400))
        with Vertical(classes="box"):
            yield Static(join("Review of ", safe(self._set_id, one_line=True, limit=120), " finished"), classes="box-title")
            with VerticalScroll(id="summary-scroll"):
                yield Static(join(*parts), id="summary-body")
            export = "" if self._share else "e: export · "
            # Undo and quit as the settings map them (undo's id is the review screen's, so a remap moves both).
            name = getattr(self.app, "key_name", None)
            undo, leave = (name("review.undo"), name("app.quit")) if name is not None else ("u", "ctrl+q")
            yield Static(
                f"{export}{undo}: undo the last decision · b or Esc: back to the items · ↑↓ PgUp PgDn: scroll · {leave}: quit",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#summary-scroll").focus()  # so the arrows and page keys scroll a summary taller than the terminal

    def _fit(self, size: Size) -> None:
        super()._fit(size)
        # The box grows with its text up to its maximum height; past that, only the body may shrink (and
        # scroll), so the title and the line of keys stay in view. CSS cannot say "the box's height less
        # its other rows", so the body's limit is worked out once those rows have their sizes.
        self.call_after_refresh(self._limit_body, size)

    def _limit_body(self, size: Size) -> None:
        if not self.is_attached:
            return
        box = self.query_one(".box")
        tallest = box.styles.max_height
        limit = size.height if tallest is None else int(tallest.resolve(size, size, None))
        others = box.styles.gutter.height
        for widget in box.query_children().exclude("#summary-scroll"):
            others += widget.outer_size.height + widget.styles.margin.height
        self.query_one("#summary-scroll").styles.max_height = max(limit - others, 3)

    def action_choose(self, choice: str) -> None:
        if choice == "export" and self._share:
            self.notify(self._team_export, title="export", markup=False, timeout=8)
            return
        self.dismiss(choice)


def _per_item(seconds: float) -> str:
    """An average time per item: tenths under ten seconds (a quick review's "0s per item" said nothing)."""
    return f"{seconds:.1f}s" if seconds < 10 else format_duration(seconds, compact=True)
