"""The development set's label files are well-formed, and every label names an item that exists.

``labels.jsonl`` holds the labels the checks were tuned with; ``heldout.jsonl`` the items labelled
blind afterwards, drawn by ``draw_heldout.py``; ``unseen.jsonl`` items labelled blind from sets no
other label touches, drawn by ``draw_unseen.py`` (see README.md here). No item may be in two files,
or the held-out figures would measure the checks on labels they were tuned with.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels.jsonl"
HELDOUT = HERE / "heldout.jsonl"
CANDIDATES = HERE / "heldout_candidates.jsonl"
UNSEEN = HERE / "unseen.jsonl"
UNSEEN_CANDIDATES = HERE / "unseen_candidates.jsonl"
LABEL_FILES = [LABELS, HELDOUT, UNSEEN]

_spec = importlib.util.spec_from_file_location("devset_precision", HERE / "precision.py")
assert _spec is not None and _spec.loader is not None
precision = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = precision  # dataclasses look their module up there
_spec.loader.exec_module(precision)

_spec = importlib.util.spec_from_file_location("devset_draw_unseen", HERE / "draw_unseen.py")
assert _spec is not None and _spec.loader is not None
draw_unseen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(draw_unseen)


def _rows(path: Path = LABELS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _item(row: dict) -> tuple[str, str | None, str]:
    """What names one item of one set: the set, its split and the item's id."""
    return (row["set"], row.get("split"), row["id"])


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda path: path.name)
def test_every_line_parses_into_a_label_with_the_schema(path: Path) -> None:
    rows = _rows(path)
    for n, row in enumerate(rows, 1):
        assert isinstance(row, dict), n
        assert precision.REQUIRED_KEYS <= set(row) <= precision.LABEL_KEYS, (n, sorted(row))
        assert isinstance(row["set"], str) and row["set"], n
        assert isinstance(row["id"], str) and row["id"], n
        assert isinstance(row["should_flag"], list), n
        assert isinstance(row.get("tolerated", []), list), n
        assert isinstance(row["clean"], bool), n
        assert isinstance(row["note"], str) and 0 < len(row["note"]) <= 200, n  # a short note, never copied text
        for key in ("format", "split"):
            assert row.get(key) is None or isinstance(row[key], str), (n, key)
        # A clean item has no defect, so nothing should flag it; an item with a defect says why.
        if row["clean"]:
            assert row["should_flag"] == [], n
        assert not set(row["should_flag"]) & set(row.get("tolerated", [])), n
    assert len(precision.read_labels(path)) == len(rows)


def test_at_least_300_items_each_labelled_once_across_many_sets() -> None:
    rows = _rows()
    assert len(rows) >= 300
    keys = Counter((row["set"], row.get("split"), row["id"]) for row in rows)
    assert [key for key, count in keys.items() if count > 1] == []
    per_set = Counter(row["set"] for row in rows)
    assert max(per_set.values()) <= len(rows) // 4  # a spread, not one set
    assert any(row["clean"] for row in rows) and any(not row["clean"] for row in rows)


def test_the_held_out_labels_are_the_drawn_items_each_once_from_the_labelled_sets() -> None:
    rows = _rows(HELDOUT)
    assert len(rows) >= 150
    items = Counter(_item(row) for row in rows)
    assert [item for item, count in items.items() if count > 1] == []
    # Every drawn candidate is labelled and nothing else is: no item was left out after a check was run.
    assert set(items) == {_item(row) for row in _rows(CANDIDATES)}
    assert {(row["set"], row.get("split")) for row in rows} <= {(row["set"], row.get("split")) for row in _rows(LABELS)}


def test_the_unseen_labels_are_the_drawn_items_each_once_from_sets_no_other_file_labels() -> None:
    rows = _rows(UNSEEN)
    assert len(rows) >= 50
    items = Counter(_item(row) for row in rows)
    assert [item for item, count in items.items() if count > 1] == []
    # Every drawn candidate is labelled and nothing else is: no item was left out after a check was run.
    assert set(items) == {_item(row) for row in _rows(UNSEEN_CANDIDATES)}
    sets = {row["set"] for row in rows}
    assert sets == {key[0] for key in draw_unseen.UNSEEN}  # every set the draw names has items labelled
    assert sets & {row["set"] for path in (LABELS, HELDOUT) for row in _rows(path)} == set()


def test_the_unseen_leaderboard_scifact_claims_are_not_labelled_under_beir_scifact() -> None:
    # The leaderboard's SciFact subset reuses BEIR SciFact's ids: the same claim must not be labelled twice.
    done = {row["id"] for path in (LABELS, HELDOUT) for row in _rows(path) if row["set"] == "beir-scifact"}
    lb = {row["id"] for row in _rows(UNSEEN) if row["set"] == "beir-agentset-leaderboard/scifact"}
    assert lb and lb & done == set()


@pytest.mark.parametrize(("one", "other"), [(LABELS, HELDOUT), (LABELS, UNSEEN), (HELDOUT, UNSEEN)], ids=lambda p: p.stem)
def test_no_item_is_labelled_in_two_files(one: Path, other: Path) -> None:
    assert {_item(row) for row in _rows(one)} & {_item(row) for row in _rows(other)} == set()


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda path: path.name)
def test_only_known_check_names(path: Path) -> None:
    known = precision.known_checks()
    used = {check for row in _rows(path) for check in row["should_flag"] + row.get("tolerated", [])}
    assert used <= known, sorted(used - known)


def test_sets_with_a_corpus_are_labelled_or_drawn_sets() -> None:
    names = {row["set"] for path in LABEL_FILES + [UNSEEN_CANDIDATES] for row in _rows(path)}
    assert set(precision.CORPORA) <= names


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda path: path.name)
def test_every_labelled_item_exists_in_its_set(path: Path, realdata: Path) -> None:
    by_set: dict[tuple, set[str]] = {}
    for label in precision.read_labels(path):
        by_set.setdefault(label.key, set()).add(label.id)
    for key, ids in by_set.items():
        assert precision.resolve(key[0], realdata).exists(), key
        present = {item.id for item in precision.open_set(key, realdata).items}
        assert ids <= present, (key, sorted(ids - present))
    for corpus in precision.CORPORA.values():
        assert precision.resolve(corpus, realdata).is_dir(), corpus


@pytest.mark.parametrize("name", ["repo:sample_sets/wrenfield_tools/wrenfield_tools.jsonl"])
def test_repo_sets_resolve_inside_the_repository(name: str, tmp_path: Path) -> None:
    # Sets marked repo: are read from this repository whatever the real-data folder is.
    assert precision.resolve(name, tmp_path).is_file()
