"""benchmarks/synth.py: deterministic, realistic, and the same whether generated or streamed."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

import reviewtui as cg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from synth import generate_evalset, write_synthetic_jsonl


def test_same_seed_same_set_other_seed_other_set():
    assert generate_evalset(300, seed=1) == generate_evalset(300, seed=1)
    assert generate_evalset(300, seed=1).items != generate_evalset(300, seed=2).items
    assert generate_evalset(50).items == generate_evalset(300).items[:50]  # a prefix of a longer run


def test_items_have_the_promised_shape():
    es = generate_evalset(2000)
    assert len(es) == 2000 and len({item.id for item in es}) == 2000
    words = [len(item.question.split()) for item in es]
    assert 10 <= statistics.mean(words) <= 15
    assert all(1 <= len(item.anchors) <= 3 for item in es)
    quote_words = [len(a.quote.split()) for item in es for a in item.anchors]
    assert min(quote_words) >= 20 and max(quote_words) <= 40
    assert all(item.answer and item.meta for item in es)
    assert len(es.types()) >= 6
    assert 0.05 < sum(1 for item in es if item.gold) / len(es) < 0.15


def test_some_questions_are_near_duplicates():
    es = generate_evalset(2000)
    sets = [set(item.question.lower().rstrip("?").split()) for item in es]
    near = 0
    for i, words in enumerate(sets):
        for other in sets[max(0, i - 200) : i]:
            if len(words & other) / len(words | other) >= 0.7:
                near += 1
                break
    assert 40 <= near <= 200  # about one in twenty


def test_streamed_file_reads_back_as_the_generated_set(tmp_path):
    path = write_synthetic_jsonl(tmp_path / "syn.jsonl", 5000, seed=3)
    assert cg.read_jsonl(path) == generate_evalset(5000, seed=3)


def test_io_benchmark_runs_and_prints_its_three_tables(capsys, tmp_path):
    import bench_io

    assert bench_io.main(["--sizes", "300", "--repeat", "1", "--workdir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("| 300 |") == 3
    for heading in ("Load (seconds", "Write (seconds", "Peak RSS (MB", "| pydantic floor |"):
        assert heading in out
    assert list(tmp_path.iterdir()) == []  # the synthetic file is removed


def test_io_benchmark_stops_when_the_floor_read_fewer_items_than_the_file_holds(tmp_path):
    import bench_io

    path = write_synthetic_jsonl(tmp_path / "syn.jsonl", 40, seed=1)
    floor = bench_io._pydantic_floor()
    read = floor(path)
    assert len(read) == 40 and read[0].id == cg.read_jsonl(path)[0].id  # every item line, the header left out
    bench_io._check_done("pydantic_floor", read, path, tmp_path / "out", 41)
    with pytest.raises(SystemExit, match="pydantic_floor handled 40 lines of 41"):
        bench_io._check_done("pydantic_floor", read[1:], path, tmp_path / "out", 41)
