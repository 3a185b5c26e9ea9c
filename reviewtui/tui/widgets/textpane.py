"""A scrollable pane of text that draws its own lines.

The review screen's panes used to be a ``Static`` inside a ``VerticalScroll``. New
content there changes the Static's height, so Textual lays the whole screen out,
then lays it out and repaints it a second time because the Static and its scroll
container each report their new size; a decision key paid for two full-screen
passes. A pane that is its own scroll view has a fixed place in the layout: new
content changes only its virtual size, one layout pass follows and only the pane is
repainted (or, for a pane whose height follows its text, the panes it pushes).

The text is wrapped once per content and width, and each line is cut from that.

A pane whose height follows its text can be told to ``hold`` its height: it then grows at
once for a longer text but shrinks only when the last few texts all fit in fewer rows, so
that questions of five, six and seven lines in turn do not move every pane below them (and
cost the whole screen a layout pass) on each key.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from textual.content import Content
from textual.geometry import Offset, Region, Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.visual import Visual

__all__ = ["ListPane", "TextPane", "Wrapped"]


@dataclass(frozen=True, slots=True, eq=False)
class Wrapped:
    """Text already wrapped for a pane (see :meth:`TextPane.wrap`), to be shown later without wrapping."""

    content: Content
    width: int
    style: object  # the pane's visual style the lines were drawn with
    selection: object  # the pane's text selection then: its highlight is drawn into the lines
    lines: list[Strip]


class TextPane(ScrollView, can_focus=True):
    """Wrapped, scrollable text; ``update`` replaces it, as ``Static.update`` does.

    Text given as ``str`` is shown as it is (never parsed as markup); callers pass
    ``Content`` built from safe text for anything styled.
    """

    ALLOW_SELECT = True
    # Not offered as the palette's "Maximize": a pane filling the screen hid the key bar, the status line and the
    # warnings while the decision keys still acted, and nothing said how to get back (x shows a quote's document).
    ALLOW_MAXIMIZE = False
    DEFAULT_CSS = """
    TextPane {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        /* The track in the pane's own colour: only the thumb shows, so a pane whose scrollbar is always
           there (overflow-y: scroll, see the review screen's small-terminal rules) looks like any other. */
        scrollbar-background: transparent;
        scrollbar-background-hover: transparent;
        scrollbar-gutter: stable;
        scrollbar-size-horizontal: 0;  /* lines are wrapped, never scrolled sideways: no row kept for a bar */
    }
    """

    def __init__(
        self,
        content: Content | str = "",
        *,
        id: str | None = None,  # Textual's own argument name
        classes: str | None = None,
        hold: int = 0,
    ) -> None:
        """``hold``: with an auto height, be as tall as the tallest of the last ``hold`` texts (0: this one)."""
        super().__init__(id=id, classes=classes)
        self._content = _as_content(content)
        self._strips: list[Strip] | None = None  # the content wrapped at _wrapped_at columns
        self._wrapped_at = -1
        self._sized: tuple[Size, Size, Size] | None = None  # see _size_updated
        # Line counts of the last texts at _held_width columns (see _held_rows); None when nothing is held.
        self._held: deque[int] | None = deque(maxlen=hold) if hold > 1 else None
        self._held_width = -1

    @property
    def content(self) -> Content:
        """What the pane shows."""
        return self._content

    def update(self, content: Content | str | Wrapped = "") -> None:
        """Show ``content`` instead; the pane keeps its place in the layout.

        Text the pane wrapped earlier (:meth:`wrap`) is shown without wrapping it again,
        unless the pane's width, style or text selection has changed since.
        """
        width = self.scrollable_content_region.width
        before = self._strips if self._wrapped_at == width else None
        scrolled_to = self.scroll_offset
        held = self._held if width > 0 else None
        rows_before = self._held_rows(width) if held is not None else None  # (and the counts now at this width)
        if isinstance(content, Wrapped):
            self._content = content.content
            fits = (
                content.width == self.scrollable_content_region.width
                and content.style is self.visual_style
                and content.selection == self.text_selection
            )
            self._strips, self._wrapped_at = (content.lines, content.width) if fits else (None, -1)
        else:
            self._content = _as_content(content)
            self._strips = None
        if held is not None:
            held.append(len(self._lines(width)))
        self._fit_scroll_range(rows_before)
        rows = self._changed_rows(before, scrolled_to)
        if rows is None:
            self.refresh()
        elif rows:
            self.refresh(*rows)

    def _changed_rows(self, before: list[Strip] | None, scrolled_to: Offset) -> list[Region] | None:
        """The rows of the pane whose line differs from what it showed with the lines ``before``, as regions
        of the content area; None (draw every row) when the rows cannot be compared.

        New text mostly changes some rows and leaves others as they were (the blank rows under a short
        text, a line two items share): Textual then draws only the rows given, not the whole pane.
        A line is the same when its segments are, their styles included, and so the offsets a text
        selection reads from them.
        """
        width, height = self.scrollable_content_region.size
        if before is None or self.scroll_offset != scrolled_to or not width or not height:
            return None  # another width or scroll position: every row moved
        after = self._lines(width)
        top = scrolled_to.y
        changed: list[Region] = []
        start = -1  # the first row of a run of changed rows, drawn as one region
        for row in range(height + 1):
            at = top + row
            same = row == height or (
                (before[at] if at < len(before) else None) == (after[at] if at < len(after) else None)
            )
            if not same and start < 0:
                start = row
            elif same and start >= 0:
                changed.append(Region(0, start, width, row - start))
                start = -1
        return changed

    def wrap(self, content: Content | str) -> Wrapped | None:
        """``content`` wrapped at the pane's width now, for a later :meth:`update`; None before the pane has a width.

        Wrapping is most of the cost of new text: the screen wraps the next item's text
        while the reviewer reads the current one, so the key that moves on only draws it.
        """
        width = self.scrollable_content_region.width
        if width <= 0:
            return None
        content = _as_content(content)
        return Wrapped(content, width, self.visual_style, self.text_selection, self._wrap(content, width))

    def row_of(self, offset: int) -> int:
        """The row of the wrapped text on which a line beginning at character ``offset`` of the content stands.

        0 before the pane has a width. Lines wrap each on their own, so the text up to ``offset`` wraps
        as it does in the whole; a character put after it marks the row the line at ``offset`` starts.
        """
        width = self.scrollable_content_region.width
        if width <= 0 or offset <= 0:
            return 0
        return len(self._wrap(self._content[:offset] + "x", width)) - 1

    def _fit_scroll_range(self, rows_before: int | None = None) -> None:
        """Make the scrollable height the number of lines the text wraps to at the pane's width now.

        Called on new text and on every resize, whatever wrapped the text last: the layout wraps
        it too (``get_content_height``), so "the width changed" cannot be read from the wrap.
        A pane with no width yet (hidden, not laid out) is fitted on the resize that gives it one.
        ``rows_before``: the rows a held height asked for before the new text (see ``hold``).
        """
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        size = Size(width, len(self._lines(width)))
        old = self.virtual_size
        rows_after = self._held_rows(width) if rows_before is not None else size.height
        rows_before = old.height if rows_before is None else rows_before
        if size == old and rows_after == rows_before:
            return
        if self._sized is None or self._resizes_for(rows_before, rows_after):
            # Not laid out yet, or a height that follows the text and will change: the screen's layout
            # pass sizes the pane (and the panes it pushes) and moves the scrollbar.
            self.virtual_size = size
            if size == old:
                self.refresh(layout=True)  # a held height let go: the same length, another height
            return
        if size == old:
            return
        # The pane keeps its place and size, so nothing else on the screen moves: set the new length
        # without the layout pass that assigning ``virtual_size`` asks for (a pass lays out and repaints
        # the whole screen), and bring the scrollbar to it now, so that it is drawn in the same frame
        # as the text; left to a layout pass, it was drawn a frame later (30 ms on screen).
        self.set_reactive(TextPane.virtual_size, size)
        self._scroll_update(size)
        laid_out, _, container = self._sized
        self._sized = (laid_out, size, container)

    def _resizes_for(self, old_lines: int, new_lines: int) -> bool:
        """Whether text of ``new_lines`` lines changes the pane's height (its text had ``old_lines``).

        A fixed or fractional height never follows the text. An auto height is the line count
        held between the pane's minimum and maximum, as Textual resolved them in the last layout
        (``_extrema``, in rows of text); they depend only on the container, which a layout sizes.
        """
        height = self.styles.height
        if height is None or not height.is_auto:
            return False
        extrema = self._extrema
        return extrema.apply_height(Fraction(old_lines)) != extrema.apply_height(Fraction(new_lines))

    def _held_rows(self, width: int) -> int:
        """The rows an auto height asks for at ``width`` columns: the text's lines, or more while held."""
        held = self._held
        if held is None:
            return len(self._lines(width))
        if self._held_width != width:  # counts taken at another width say nothing about this one
            held.clear()
            self._held_width = width
        # Every text since is counted here, the one shown last: no need to wrap it again (after a new
        # style, say) to count its lines. Before any, the pane's first text is not counted yet.
        return max(held) if held else len(self._lines(width))

    # ---- wrapping ----

    def _lines(self, width: int) -> list[Strip]:
        if self._strips is None or self._wrapped_at != width:
            self._strips = self._wrap(self._content, width)
            self._wrapped_at = width
        return self._strips

    def _wrap(self, content: Content, width: int) -> list[Strip]:
        """``content`` as lines ``width`` columns wide, in the pane's style (and selection) now."""
        return Visual.to_strips(self, content, width, None, self.visual_style)

    def _text_width(self, width: int) -> int:
        """Columns left for text in a content area ``width`` wide, the scrollbar's column kept free."""
        return max(width - self.styles.scrollbar_size_vertical, 1)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # For `height: auto`: as many rows as the text wraps to (the scrollbar's column is not text),
        # or as a held height asks.
        return self._held_rows(self._text_width(width))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # Textual calls this on every layout pass of the screen, with the pane's visible area as
        # ``virtual_size``. A scroll view with more text than rows always differs from that, so the
        # base class took each pass for a change and repainted the scrollbar one frame after the
        # rest of a key's update. Only a change of the pane's size or of its text's length needs it.
        seen = (size, self.virtual_size, container_size)
        if seen == self._sized:
            if self.scroll_y > self.max_scroll_y:
                # Scrolled down before a resize that rewrapped the text into fewer lines or made the pane
                # taller: clamped earlier in the pass against the old text's length, it was left past the
                # new end (the first lines out of sight, blank rows below the text, nothing to scroll).
                self.scroll_y = self.max_scroll_y
            self._clamp_scroll_target()
            return False
        self._sized = seen
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        self._clamp_scroll_target()
        return changed

    def _clamp_scroll_target(self) -> None:
        # Textual clamps the scroll position to a shorter range but not the target the next scroll key
        # starts from: after a resize, the first scroll up did nothing (it went from the old place).
        if self.scroll_target_y > self.max_scroll_y:
            self.scroll_target_y = self.max_scroll_y

    def on_resize(self) -> None:
        self._fit_scroll_range()

    def _scroll_update(self, virtual_size: Size) -> None:
        # Where the scrollbar is always there (overflow-y: scroll), Textual repaints it whenever the text's
        # length changes, which costs more than drawing the text. Between two texts that both fit, it shows no thumb
        # either time: nothing about it changes, so leave it be (it is told its sizes again once a text is
        # longer than the pane, before it has a thumb to draw).
        bar = self._vertical_scrollbar
        if bar is not None and bar.display and self.show_vertical_scrollbar:
            window = self.container_size.height - self.scrollbar_size_horizontal
            if bar.window_size == window and bar.window_virtual_size <= window and virtual_size.height <= window:
                self.scroll_y = self.validate_scroll_y(self.scroll_y)
                return
        super()._scroll_update(virtual_size)
        bar = self._vertical_scrollbar
        if bar is not None and self.show_vertical_scrollbar and bar.position != self.scroll_y:
            # Textual moves the thumb with the scroll position only while the bar is shown: a pane scrolled
            # back to its top meanwhile (a short text, then a long one) drew its thumb where it had been.
            bar.position = self.scroll_y

    # ---- drawing ----

    def render(self) -> Content:
        # What Textual reads for a text selection (drawing goes through render_line).
        return self._content

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        style = self.visual_style.rich_style
        lines = self._lines(width)
        row = scroll_y + y
        if row >= len(lines):
            return Strip.blank(width, style)
        return lines[row].crop_extend(scroll_x, scroll_x + width, style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips = None  # the wrapped lines carry the old colours (a new theme, a focus style)

    def selection_updated(self, selection: Selection | None) -> None:
        self._strips = None  # the highlight is drawn into the wrapped lines
        self.refresh()


class ListPane(TextPane):
    """A TextPane of entries one under another, each wrapped on its own and kept while it is shown.

    The history gains an entry at the top on each decision and drops one at the bottom: only the
    new entry is wrapped, not the twenty under it. The lines of an entry count their text offsets
    from the entry's own start, which a mouse selection would misread, so this pane takes none.
    """

    ALLOW_SELECT = False

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:  # Textual's own argument name
        super().__init__(id=id, classes=classes)
        self._entries: dict[int, tuple[object, Content, list[Strip]]] = {}  # id(owner) -> (owner, text, lines)
        self._entries_drawn: tuple[int, object] | None = None  # (width, style) the kept lines were drawn at

    def update_entries(self, entries: Sequence[tuple[object, Callable[[], Content | str]]]) -> None:
        """Show one entry per ``(owner, make)``, in order, each on lines of its own.

        ``make()`` builds the entry's text; it is called only for an ``owner`` object (compared by
        identity) that the last update did not show, and its lines are kept with that object.
        """
        width = self.scrollable_content_region.width
        drawn = (width, self.visual_style)
        kept = self._entries if self._entries_drawn is not None and _same(self._entries_drawn, drawn) else {}
        shown: dict[int, tuple[object, Content, list[Strip]]] = {}
        texts: list[Content] = []
        lines: list[Strip] = []
        for owner, make in entries:
            entry = kept.get(id(owner))
            if entry is None or entry[0] is not owner:
                text = _as_content(make())
                entry = (owner, text, self._wrap(text, width) if width > 0 else [])
            shown[id(owner)] = entry
            texts.append(entry[1])
            lines.extend(entry[2])
        # The kept entries hold their owners, so no id above can be a dead object's, reused.
        self._entries, self._entries_drawn = shown, drawn
        content = Content("\n").join(texts)
        if width <= 0:
            self.update(content)  # not laid out yet: wrapped once it has a width
        else:
            self.update(Wrapped(content, width, drawn[1], self.text_selection, lines))


def _same(drawn: tuple[int, object], now: tuple[int, object]) -> bool:
    return drawn[0] == now[0] and drawn[1] is now[1]  # a style is a new object whenever it changes


def _as_content(content: Content | str) -> Content:
    return content if isinstance(content, Content) else Content(content)
