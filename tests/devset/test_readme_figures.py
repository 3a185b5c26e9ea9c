"""The README's precision table, hint counts, held-out and unseen-sets figures are what ``precision.py`` prints: they drifted once, unseen."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests.conftest import REALDATA
from tests.devset.test_labels import precision

README = Path(__file__).resolve().parents[2] / "README.md"
_ROW = re.compile(r"^  (\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s")


@pytest.fixture(scope="module")
def printed() -> dict[str, dict[str, tuple[int, int]]]:
    """The script's two tables: section -> check -> (flags, right); run once for the module."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder not found at {REALDATA} (set REVIEWTUI_REALDATA to run these tests)")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert precision.main([]) == 0
    tables: dict[str, dict[str, tuple[int, int]]] = {"warnings": {}, "hints": {}}
    section = None
    for line in out.getvalue().splitlines():
        if line.startswith("Flags at LOW or above"):
            section = "warnings"
        elif line.startswith("Hints"):
            section = "hints"
        elif not line.startswith("  "):
            section = None if line.strip() else section
        elif section is not None and (found := _ROW.match(line)):
            tables[section][found[1]] = (int(found[2]), int(found[3]))
    assert tables["warnings"] and tables["hints"], out.getvalue()[:2000]
    return tables


def test_the_readme_table_of_warnings_is_the_scripts(printed):
    text = README.read_text(encoding="utf-8")
    start = text.index("| warning (low or above) | flags on labelled items |")
    rows = []
    for line in text[start:].splitlines()[2:]:  # the rows under the header and its rule, up to the table's end
        if not line.startswith("|"):
            break
        rows.append(line)
    assert len(rows) >= 5
    warnings = printed["warnings"]
    covered = set()
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        names = []
        for part in re.split(r"[,:(]", cells[0]):
            name = part.strip().split(" ")[0]
            if name in warnings:
                names.append(name)
            elif names:
                break
        assert names, f"a README row names no check the script counts: {row}"
        flags = sum(warnings[name][0] for name in names)
        right = sum(warnings[name][1] for name in names)
        assert (int(cells[1]), int(cells[2])) == (flags, right), (names, cells[1:3], (flags, right))
        covered.update(names)
    fired = {name for name, (flags, _) in warnings.items() if flags}
    assert fired <= covered, f"checks that warn on labelled items but have no README row: {fired - covered}"


@pytest.mark.parametrize(
    ("check", "said"),
    [
        ("ambiguous-question", "ambiguous-question ({right} of {flags} right)"),
        ("weak-answer", "weak-answer ({right} of {flags};"),
        ("dangling-reference", "dangling-reference rule ({right} of {flags};"),
        ("category-coverage", "category-coverage ({right} of {flags})"),
        ("too-short", "keyword-query set ({right} of {flags})"),
        ("suggested-type", "suggested-type ({right} of {flags};"),
    ],
)
def test_the_readme_hint_counts_are_the_scripts(printed, check, said):
    flags, right = printed["hints"][check]
    assert said.format(right=right, flags=flags) in README.read_text(encoding="utf-8")


_ITEMS = re.compile(r"^  clean items with a warning at LOW or above: (\d+)/(\d+) ")
_DEFECTS = re.compile(r"^  items with a defect that carry any warning: +(\d+)/(\d+) ")


_NAMED = re.compile(r"^  \.\.\. a warning naming a labelled defect: +(\d+)/(\d+) ")
_TOLERATED = re.compile(r"\(counting tolerated flags too: (\d+)/(\d+) ")
_ANY_FLAG = re.compile(r"^  clean items with any flag, hints counted too: +(\d+)/(\d+) ")


def _printed_on(label_file: str) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """The script on one label file: check -> (flags, right) of its warnings, and the items' counts."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder not found at {REALDATA} (set REVIEWTUI_REALDATA to run these tests)")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert precision.main(["--labels", str(Path(precision.HERE) / label_file)]) == 0
    warnings: dict[str, tuple[int, int]] = {}
    items: dict[str, tuple[int, int]] = {}
    in_warnings = False
    for line in out.getvalue().splitlines():
        if line.startswith("Flags at LOW or above"):
            in_warnings = True
        elif not line.startswith("  "):
            in_warnings = False
        elif in_warnings and (found := _ROW.match(line)):
            warnings[found[1]] = (int(found[2]), int(found[3]))
        elif found := _ITEMS.match(line):
            items["clean"] = (int(found[1]), int(found[2]))
            tolerated = _TOLERATED.search(line)
            assert tolerated is not None, line
            items["tolerated"] = (int(tolerated[1]), int(tolerated[2]))
        elif found := _ANY_FLAG.match(line):
            items["any flag"] = (int(found[1]), int(found[2]))
        elif found := _DEFECTS.match(line):
            items["defective"] = (int(found[1]), int(found[2]))
        elif found := _NAMED.match(line):
            items["named"] = (int(found[1]), int(found[2]))
    assert warnings and set(items) == {"clean", "tolerated", "any flag", "defective", "named"}, out.getvalue()[:2000]
    return warnings, items


@pytest.fixture(scope="module")
def printed_heldout() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """The script on the held-out labels."""
    return _printed_on("heldout.jsonl")


@pytest.fixture(scope="module")
def printed_unseen() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """The script on the unseen-sets labels."""
    return _printed_on("unseen.jsonl")


def test_the_readme_held_out_figures_are_the_scripts(printed_heldout):
    warnings, items = printed_heldout
    text = " ".join(README.read_text(encoding="utf-8").split())  # the paragraph wraps anywhere
    warned, clean = items["clean"]
    caught, defective = items["defective"]
    assert f"the script prints {warned + caught} of them carrying a warning" in text
    for name, (flags, right) in warnings.items():
        if flags:
            assert f"{name} ({right} of {flags} right" in text, name
    assert f"{warned} of the {clean} clean held-out items" in text
    assert f"{caught} of the {defective} with a defect does" in text or f"{caught} of the {defective} with a defect do " in text
    assert f"holds {clean + defective} items of the same sets" in text


def _paragraph(start: str) -> str:
    """The README paragraph that begins with ``start``, its lines joined (it wraps anywhere)."""
    text = README.read_text(encoding="utf-8")
    begin = text.index(start)
    end = text.find("\n\n", begin)
    return " ".join(text[begin : end if end != -1 else None].split())


def test_the_readme_unseen_sets_figures_are_the_scripts(printed_unseen):
    warnings, items = printed_unseen
    text = _paragraph("Measured on sets no label had touched:")
    warned, clean = items["clean"]
    caught, defective = items["defective"]
    named, _ = items["named"]
    assert f"holds {clean + defective} items of " in text
    assert f"The script prints {warned + caught} of them carrying a warning" in text
    fired = {name: counts for name, counts in warnings.items() if counts[0]}
    assert fired
    for name, (flags, right) in fired.items():
        assert f"{name} ({right} of {flags} right" in text, name
    # No other check is said to warn: every "name (n of m right" in the paragraph is one the script prints.
    said = set(re.findall(r"([a-z]+(?:-[a-z]+)+) \(\d+ of \d+ right", text))
    assert said == set(fired), (said, set(fired))
    assert f"{warned} of the {clean} clean unseen-set items carry a warning" in text
    assert f"{caught} of the {defective} with a defect do, {named} with" in text


def test_the_readme_figures_of_the_labelled_items_are_the_scripts():
    """The README said 243 clean items (71 %) would carry a warning with every check counted, a figure the script
    did not print and that no longer held."""
    _, items = _printed_on("labels.jsonl")
    warned, clean = items["clean"]
    tolerated, _ = items["tolerated"]
    flagged, _ = items["any flag"]
    caught, defective = items["defective"]
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert warned == 0 and f"none of the {clean} clean labelled items carries a warning ({tolerated}, " in text
    assert f"against {flagged} ({round(100 * flagged / clean)} %) that carry some flag when the hints are counted too" in text
    assert f"{caught} of the {defective} defective items carry a warning" in text
