"""The one-line bar on top: which set, how far along, how fast."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from reviewtui.evalset.review.queue import format_duration
from reviewtui.tui.render import VERDICT_MARK, VERDICT_STYLE
from reviewtui.tui.safe import join, safe
from reviewtui.tui.widgets.linebar import LineBar


class TopBar(Horizontal):
    """Set id and version, a progress bar, counts per verdict, rate and ETA."""

    def compose(self) -> ComposeResult:
        yield Static(id="set-title")
        yield LineBar(id="progress")
        yield Static(id="stats")

    def show_set(self, set_id: str, version: int, role: str | None = None) -> None:
        """The set's name and version, and whose part of a team's work this is (``role``), if any."""
        if getattr(self, "_set_shown", None) == (set_id, version, role):
            return  # every key redraws the top bar: an unchanged title costs nothing
        self._set_shown = (set_id, version, role)
        title = join(safe(set_id, one_line=True, limit=120), Content.styled(f"  v{version}", "dim"))
        if role:
            title = join(title, Content.styled("  · ", "dim"), safe(role, one_line=True, limit=60, style="bold $accent"))
        self.query_one("#set-title", Static).update(title)

    def show_progress(
        self,
        decided: int,
        total: int,
        counts: dict[str, int],
        per_hour: float | None,
        eta_seconds: float | None,
    ) -> None:
        self.query_one("#progress", LineBar).update(total=max(total, 1), progress=decided)
        parts: list[Content | str] = [Content.styled(f"{decided:,}/{total:,} ", "bold")]
        for verdict in ("accepted", "rejected", "edited", "skipped"):
            parts.append(Content.styled(f" {VERDICT_MARK[verdict]}{counts.get(verdict, 0):,}", VERDICT_STYLE[verdict]))
        if per_hour:
            parts.append(Content.styled(f"  {per_hour:,.0f}/h", "dim"))
        if eta_seconds is not None and decided < total:
            parts.append(Content.styled(f"  ETA {format_duration(eta_seconds, compact=True)}", "dim"))
        stats = join(*parts)
        # The counts' width sets the progress bar's: lay the bar out again only when it changes.
        width = stats.cell_length
        self.query_one("#stats", Static).update(stats, layout=width != getattr(self, "_stats_width", None))
        self._stats_width = width
