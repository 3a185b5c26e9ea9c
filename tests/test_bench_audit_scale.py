"""benchmarks/bench_audit_scale.py: its two generated sets are deterministic, well formed and what they claim to be."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_audit_scale as bench

ANCHOR_FIELDS = {"source_id", "quote", "grade", "page_hint", "occurrence"}
ITEM_FIELDS = {"id", "question", "gold", "anchors", "qtype", "answer", "meta"}


def _lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def _check_shape(rows: list[dict], n: int) -> None:
    header, items = rows[0], rows[1:]
    assert set(header) == {"_evalset"} and header["_evalset"]["version"] == 1
    assert len(items) == n and len({item["id"] for item in items}) == n
    for item in items:
        assert set(item) == ITEM_FIELDS
        assert item["question"].endswith("?") and item["answer"].strip()
        assert item["anchors"] and all(set(anchor) == ANCHOR_FIELDS and anchor["quote"] for anchor in item["anchors"])


def test_same_seed_same_bytes_and_other_seed_other_bytes(tmp_path):
    for kind in bench.KINDS:
        one = bench.write_set(kind, tmp_path / f"{kind}-a.jsonl", 200, seed=3).read_bytes()
        two = bench.write_set(kind, tmp_path / f"{kind}-b.jsonl", 200, seed=3).read_bytes()
        other = bench.write_set(kind, tmp_path / f"{kind}-c.jsonl", 200, seed=4).read_bytes()
        assert one == two and one != other


def test_every_line_parses_and_has_the_fields(tmp_path):
    for kind in bench.KINDS:
        _check_shape(_lines(bench.write_set(kind, tmp_path / f"{kind}.jsonl", 200)), 200)


def test_the_small_set_asks_with_exactly_twenty_words(tmp_path):
    items = _lines(bench.write_set(bench.SMALL, tmp_path / "small.jsonl", 2000))[1:]
    words = set()
    for item in items:
        question = item["question"]
        assert question[0].isupper() and question.endswith("?")
        tokens = question.rstrip("?").lower().split()
        assert 4 <= len(tokens) <= 7
        words.update(tokens)
    assert words == set(bench.SMALL_WORDS) and len(words) == 20 and all(word.islower() for word in words)


def test_the_pair_estimate_counts_identical_sets_and_one_word_supersets():
    from collections import Counter

    a, b = frozenset({"harbor", "lantern", "orchard", "copper"}), frozenset({"harbor", "lantern", "orchard", "copper", "meadow"})
    c = frozenset({"harbor", "lantern", "orchard", "signal"})  # a swap: 3/5, never a near-duplicate
    assert bench.near_duplicate_pairs(Counter({a: 3, b: 2, c: 1}), 0.8) == (3 + 1, 3 * 2)
    assert bench.near_duplicate_pairs(Counter({a: 3, b: 2, c: 1}), 0.82) == (4, 0)  # 4/5 falls short of 0.82


def test_the_real_vocabulary_set_falls_back_to_the_demo_corpus(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bench, "REALDATA", tmp_path / "no-realdata-here")
    path = bench.write_set(bench.REAL, tmp_path / "real.jsonl", 200)
    assert "is absent" in capsys.readouterr().out
    rows = _lines(path)
    _check_shape(rows, 200)
    documents = {p.name: " ".join(p.read_text(encoding="utf-8").split()) for p in bench.DEMO_CORPUS.iterdir()}
    demo_openers = {row["question"].split()[0] for row in _lines(bench.DEMO_SET)[1:]}
    openers = [item["question"].split()[0] in demo_openers for item in rows[1:]]
    assert sum(openers) >= 0.9 * len(openers)  # all but the near-duplicates, which may swap the first word
    for item in rows[1:]:
        for anchor in item["anchors"]:
            assert anchor["quote"] in documents[anchor["source_id"]]  # a sentence of the demo document it names


def test_a_measured_peak_is_the_commands_own_not_the_measuring_processs(tmp_path):
    """Linux carries the starting process's high-water mark into a command's ru_maxrss: a benchmark
    that has held 300 MB must still measure a 40 MB command as about 40 MB (plus the interpreter)."""
    import subprocess

    script = f"""
import sys
sys.path.insert(0, {str(Path(bench.__file__).parent)!r})
import bench_audit_scale as bench
from pathlib import Path
held = bytearray(300 * 1024 * 1024)
for i in range(0, len(held), 4096):
    held[i] = 1
del held
grow = "x = bytearray(40 * 1024 * 1024)\\nfor i in range(0, len(x), 4096): x[i] = 1\\nraise SystemExit(3)"
run = bench.measure([sys.executable, "-c", grow], Path({str(tmp_path)!r}), tree=False)
print(run.peak_kb, run.code)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    peak_kb, code = map(int, done.stdout.split())
    assert code == 3
    assert 40 * 1024 <= peak_kb < 120 * 1024, peak_kb


def test_the_templates_set_makes_the_pairs_it_counts_and_no_others(tmp_path):
    """Every two questions of one template are near-duplicates to the audit, none of two templates, however
    many numbers they share: the count the benchmark holds the report to."""
    from reviewtui.evalset.checks.audit import audit
    from reviewtui.evalset.io.jsonl import read_jsonl

    n = 400
    evalset = read_jsonl(bench.write_set(bench.TEMPLATES, tmp_path / "templates.jsonl", n))
    findings = audit(evalset, every_script=True).of_check("near-duplicates")
    assert len(findings) == len(bench.TEMPLATE_QUESTIONS)  # one cluster per template
    assert sum(f.evidence["pairs"] for f in findings) == bench.template_pairs(n) == 5 * (80 * 79 // 2)
    numbers = {item.question.split()[0]: set() for item in evalset}
    for item in evalset:
        numbers[item.question.split()[0]].add(item.answer)
    assert all(len(held) == n // 5 for held in numbers.values())  # each template fills in every number


def test_the_timed_runs_are_not_watched_by_the_tree_sampler(tmp_path, monkeypatch):
    """The sampler reads every process's smaps_rollup every 50 ms, a large share of a core: the wall times come
    from runs without it, and the tree's PSS from one run of its own, whose wall time is not used."""
    calls: list[bool] = []
    walls = iter([5.3, 5.1, 5.2, 9.9])

    def measure(argv, workdir, *, tree=True):
        calls.append(tree)
        return bench.Measured(next(walls), 200_000 + 1000 * len(calls), 350_000 if tree else 0, 0, "")

    monkeypatch.setattr(bench, "measure", measure)
    run = bench.run_audit("reviewtui", tmp_path / "set.jsonl", tmp_path / "r.json", tmp_path, 3, True)
    assert calls == [False, False, False, True]
    assert run.wall == 5.1 and run.tree_pss_kb == 350_000 and run.peak_kb == 204_000
    calls.clear()
    walls = iter([5.3, 5.1])
    assert bench.run_audit("reviewtui", tmp_path / "set.jsonl", tmp_path / "r.json", tmp_path, 2, False).tree_pss_kb == 0
    assert calls == [False, False]


def test_a_failed_timed_run_stops_before_the_sampled_one(tmp_path, monkeypatch):
    calls: list[bool] = []

    def measure(argv, workdir, *, tree=True):
        calls.append(tree)
        return bench.Measured(5.0, 200_000, 0, 2, "usage error")

    monkeypatch.setattr(bench, "measure", measure)
    with pytest.raises(SystemExit, match="exited with 2"):
        bench.run_audit("reviewtui", tmp_path / "set.jsonl", tmp_path / "r.json", tmp_path, 2, True)
    assert calls == [False, False]


def _report(path: Path, flag_counts: dict, near_findings: int) -> Path:
    path.write_bytes(
        orjson.dumps(
            {
                "set": {"id": "s"},
                "summary": {"items": 100},
                "flags": {},
                "flag_counts": flag_counts,
                "checks": [{"check": "near-duplicates", "findings": near_findings}],
                "findings": [],
            }
        )
    )
    return path


def test_a_real_text_report_without_its_repeats_found_stops_the_benchmark(tmp_path):
    """The real-text set's exact repeats and near-duplicates must be in the report: a scan that found none of them
    did not do the work its time is reported for."""
    found = _report(tmp_path / "found.json", {"exact-duplicate": 4, "near-duplicate": 6}, 3)
    assert bench.check_report(found, bench.REAL, 100, set_id="s", repeated=4).items == 100
    for flag_counts, near in (({"near-duplicate": 6}, 3), ({"exact-duplicate": 4}, 0)):
        missed = _report(tmp_path / "missed.json", flag_counts, near)
        with pytest.raises(SystemExit, match="did not do its work"):
            bench.check_report(missed, bench.REAL, 100, set_id="s", repeated=4)
