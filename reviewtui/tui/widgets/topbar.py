"""The one-line bar on top: which set, how far along, how fast.

One widget that draws the whole line. A bar made of three widgets (title, progress,
counts) had to be laid out again whenever the counts' width changed, which a decision
does every few keys; this one only repaints its single row.
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from reviewtui.evalset.review.queue import format_duration
from reviewtui.tui.render import VERDICT_MARK, VERDICT_STYLE
from reviewtui.tui.safe import join, safe
from reviewtui.tui.widgets.linebar import bar_cells

__all__ = ["TopBar"]

#: The set's name takes at most this share of the row, the progress bar at least MIN_BAR cells, and the rate
#: and ETA only the room left once the name has MIN_TITLE.
TITLE_SHARE = 0.4
MIN_BAR = 12
MIN_TITLE = 16
#: A set's name is cut no shorter than this to keep whose share it is whole beside it.
MIN_NAME = 6
_ROLE_SEPARATOR = Content.styled("  · ", "dim")


class TopBar(Widget, can_focus=False):
    """Set id and version, a progress bar, counts per verdict, rate and ETA."""

    DEFAULT_CSS = """
    TopBar {
        height: 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:  # Textual's own argument name
        super().__init__(id=id)
        self._set_shown: tuple[str, int, str | None] | None = None
        self._title = Content("")
        self._name = Content("")  # the set's name and version, the title's first part
        self._role: Content | None = None  # whose part of a team's work, the title's last part
        self._fraction: float | None = None
        self._stats = Content("")  # the counts: always shown whole
        self._stat_parts: tuple[Content, ...] = ()  # the same, piece by piece: decided/total, then each verdict's
        self._extras: tuple[Content, ...] = ()  # rate, then ETA: left out, last first, where the row is short

    def show_set(self, set_id: str, version: int, role: str | None = None) -> None:
        """The set's name and version, and whose part of a team's work this is (``role``), if any."""
        if self._set_shown == (set_id, version, role):
            return  # every key redraws the top bar: an unchanged title costs nothing
        self._set_shown = (set_id, version, role)
        title = join(safe(set_id, one_line=True, limit=120, style="bold"), Content.styled(f"  v{version}", "dim"))
        self._name, self._role = title, None
        if role:
            self._role = safe(role, one_line=True, limit=60, style="bold $text-accent")
            title = join(title, _ROLE_SEPARATOR, self._role)
        self._title = title
        self.refresh()

    def show_name(self, name: str) -> None:
        """Only a name (a file's, while its set is still being opened): no version is known yet."""
        self._set_shown = None
        self._title = self._name = safe(name, one_line=True, limit=120, style="bold")
        self._role = None
        self.refresh()

    def show_progress(
        self,
        decided: int,
        total: int,
        counts: dict[str, int],
        per_hour: float | None,
        eta_seconds: float | None,
        *,
        partial: bool = False,
    ) -> None:
        """``partial``: the set is still being read, so ``total`` is only what has been read so far.

        The total is then marked (``1,000/1,200+``) and neither a share done nor an ETA is drawn: both would be
        of the part read, and a resumed review whose read part is all decided would show a full, finished bar.
        """
        mark = "+" if partial else ""
        parts: list[Content | str] = [Content.styled(f"{decided:,}/{total:,}{mark} ", "bold")]
        for verdict in ("accepted", "rejected", "edited", "skipped"):
            parts.append(Content.styled(f" {VERDICT_MARK[verdict]}{counts.get(verdict, 0):,}", VERDICT_STYLE[verdict]))
        extras: list[Content] = []
        if per_hour:
            extras.append(Content.styled(f"  {per_hour:,.0f}/h", "dim"))
        if eta_seconds is not None and decided < total and not partial:
            extras.append(Content.styled(f"  ETA {format_duration(eta_seconds, compact=True)}", "dim"))
        fraction = None if partial else min(max(decided / max(total, 1), 0.0), 1.0)
        stats = join(*parts)
        shown = (fraction, stats.plain, tuple(extra.plain for extra in extras))
        if shown != (self._fraction, self._stats.plain, tuple(extra.plain for extra in self._extras)):
            self._fraction, self._stats, self._extras = fraction, stats, tuple(extras)
            self._stat_parts = tuple(Content(part) if isinstance(part, str) else part for part in parts)
            self.refresh()

    @property
    def text(self) -> str:
        """The row as plain text (for tests and screen readers of the app's state)."""
        return self.render().plain

    def render(self) -> Content:
        width = self.size.width
        extras = list(self._extras)
        # The rate and the ETA give way (the ETA first) before the bar gets shorter than MIN_BAR
        # or the set's name shorter than MIN_TITLE.
        room = MIN_BAR + min(self._title.cell_length, MIN_TITLE) + 1
        while extras and width - sum(extra.cell_length for extra in extras) - self._stats.cell_length - 2 < room:
            extras.pop()
        stats = join(self._stats, *extras)
        title_room = min(self._title.cell_length, int(width * TITLE_SHARE))
        bar_room = width - title_room - stats.cell_length - 2  # a space after the title and before the counts
        if bar_room < MIN_BAR:  # a narrow terminal: the title gives way to the bar first
            title_room = max(title_room - (MIN_BAR - bar_room), 0)
            bar_room = max(width - title_room - stats.cell_length - 2, 0)
        title = self._title
        if title_room < title.cell_length:
            # Whose share it is says more than the end of a long set name: the name gives way first.
            role = self._role
            name_room = title_room - (role.cell_length + _ROLE_SEPARATOR.cell_length if role is not None else 0)
            if role is not None and name_room >= MIN_NAME:
                title = join(self._name.truncate(name_room, ellipsis=True), _ROLE_SEPARATOR, role)
            elif role is not None and role.cell_length <= title_room:
                title = role  # no room for both: the set is the same all along, the share is what this review is
            else:
                title = title.truncate(title_room, ellipsis=True)
        done, todo, label = bar_cells(self._fraction, bar_room)
        finished = self._fraction is not None and self._fraction >= 1
        bar = join(
            Content.styled(done, "$success" if finished else "$primary"),
            Content.styled(todo, "$surface"),
            " ",
            label,
        )
        line = join(title, " ", bar, " ", stats)
        if line.cell_length > width:
            # Too narrow for the counts beside the bar: cut at the edge, a count read as another number
            # (5,000 skipped as "↷5"). The bar gives way, then whole counts from the end.
            line = self._whole_counts(width)
        return line.truncate(width)

    def _whole_counts(self, width: int) -> Content:
        """As many of the counts as fit ``width`` whole, the ones left out said by an ellipsis."""
        parts = list(self._stat_parts)
        more = Content.styled(" …", "dim")
        while parts:
            shown = join(*parts, more) if len(parts) < len(self._stat_parts) else join(*parts)
            if shown.cell_length <= width:
                return shown
            parts.pop()
        return Content("")
