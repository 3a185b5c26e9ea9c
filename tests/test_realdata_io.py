"""The real public sets in ../shared/realdata load with the counts SOURCES.md records.

Counts come from SOURCES.md (written from scripts over the saved files), not from
running our readers, so a reader that drops or invents items fails here.
"""

from __future__ import annotations

import collections
import json
import warnings
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io import describe_skipped, open_evalset


def _quiet(reader, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return reader(*args, **kwargs)


# --- BEIR ---------------------------------------------------------------------------------


def test_scifact_test_qrels(realdata):
    root = realdata / "beir-scifact"
    es = cg.read_beir(root / "queries.jsonl", root / "qrels" / "test.tsv", evalset_id="scifact")
    assert len(es) == 300
    assert sum(len(item.meta["gold_documents"]) for item in es) == 339
    assert len({doc for item in es for doc, _ in item.meta["gold_documents"]}) == 283
    assert es.meta["queries_dropped"] == 1109 - 300
    assert "unknown_query_ids" not in es.meta
    assert {grade for item in es for _, grade in item.meta["gold_documents"]} == {1}
    assert es.meta["granularity"] == "document"
    # SciFact's evidence labels live in `metadata`; none may reach an item.
    assert not any("SUPPORT" in repr(item) or "CONTRADICT" in repr(item) for item in es)
    assert all(set(item.meta) == {"gold_documents"} for item in es)


def test_scifact_crlf_variant_gives_the_same_set(realdata):
    root = realdata / "beir-scifact"
    clean = cg.read_beir(root / "queries.jsonl", root / "qrels" / "test.tsv")
    crlf = cg.read_beir(root / "queries.jsonl", root / "variants" / "test.crlf.moorateeahtashil.tsv")
    assert crlf == clean


def test_scifact_train_and_its_crlf_variant(realdata):
    root = realdata / "beir-scifact"
    train = cg.read_beir(root / "queries.jsonl", root / "qrels" / "train.tsv")
    assert len(train) == 809
    assert sum(len(item.meta["gold_documents"]) for item in train) == 919
    assert cg.read_beir(root / "queries.jsonl", root / "variants" / "train.crlf.moorateeahtashil.tsv") == train


def test_scifact_malformed_variant_is_refused_at_its_first_line(realdata):
    root = realdata / "beir-scifact"
    bad = root / "variants" / "test.malformed.kirloxious.tsv"
    with pytest.raises(cg.EvalSetError) as info:
        cg.read_beir(root / "queries.jsonl", bad)
    error = info.value
    assert (error.path, error.line, error.field) == (str(bad), 1, "corpus-id")
    assert "' 0 31715818'" in str(error)


def test_scifact_folder_opens_with_test_qrels(realdata):
    es = open_evalset(realdata / "beir-scifact")
    assert len(es) == 300 and es.id == "beir-scifact"


@pytest.mark.parametrize(
    "subset, items, dropped, extra",
    [
        ("arcd", 50, 0, {"unknown_query_ids": 652}),
        ("business-reports", 11, 39, {}),
        ("dbpedia", 40, 10, {"judgements_not_positive": 2829}),
        ("msmarco", 43, 7, {}),
        ("pg", 0, 50, {}),
        ("scifact", 50, 0, {}),
        ("fiqa", 50, 0, {}),
    ],
)
def test_agentset_leaderboard_subsets(realdata, subset, items, dropped, extra):
    es = open_evalset(realdata / "beir-agentset-leaderboard" / subset)
    assert len(es) == items
    assert es.meta.get("queries_dropped", 0) == dropped
    for key, value in extra.items():
        assert es.meta[key] == value


def test_graded_qrels_keep_their_grades(realdata):
    msmarco = open_evalset(realdata / "beir-agentset-leaderboard" / "msmarco")
    grades = collections.Counter(g for item in msmarco for _, g in item.meta["gold_documents"])
    assert grades == {1: 1601, 2: 1804, 3: 697}
    dbpedia = open_evalset(realdata / "beir-agentset-leaderboard" / "dbpedia")
    assert {g for item in dbpedia for _, g in item.meta["gold_documents"]} == {1, 2}
    assert sum(len(item.meta["gold_documents"]) for item in dbpedia) == 3709 - 2829


# --- LegalBench-RAG ------------------------------------------------------------------------


def test_privacy_qa(realdata):
    root = realdata / "legalbenchrag-privacyqa"
    es = cg.read_legalbench_rag(root / "benchmarks" / "privacy_qa.json")
    assert len(es) == 194
    assert sum(len(item.gold) for item in es) == 453
    assert (es.meta["tests_in_file"], es.meta["tests_skipped"], es.meta["snippets_skipped"]) == (194, 0, {})
    assert describe_skipped(es) == ""
    spans_per_test = collections.Counter(len(item.gold) for item in es)
    assert (spans_per_test[1], spans_per_test[2], max(spans_per_test)) == (69, 76, 14)
    # Every snippet's answer is exactly the text its span covers in the corpus.
    corpus_root = root / "corpus"
    checked = 0
    for item in es:
        for gold, anchor in zip(item.gold, item.anchors):
            text = (corpus_root / gold.span.doc_id).read_text(encoding="utf-8")
            assert text[gold.span.start : gold.span.end] == anchor.quote
            checked += 1
    assert checked == 453


def test_privacy_qa_windows_rename_variant(realdata):
    es = cg.read_legalbench_rag(realdata / "legalbenchrag-privacyqa" / "variant_windows_rename" / "privacy_qa.json")
    assert len(es) == 194 and sum(len(item.gold) for item in es) == 453
    renamed = sum(1 for item in es for g in item.gold if g.span.doc_id.startswith("privacy_qa/TickTick - "))
    assert renamed == 25


# --- CSV golden sets -----------------------------------------------------------------------


def test_goldensetauditor_demo(realdata):
    es = cg.read_csv(realdata / "goldenset-demo" / "demo_golden_set.csv")
    assert len(es) == 10
    assert [item.id for item in es] == [f"Q{n:03d}" for n in range(1, 11)]
    assert len(set(es.types())) == 6
    assert es.get("Q009").answer == "Report the lost laptop to IT and Security immediately, then file an incident ticket."
    assert es.get("Q006").question == "What about this?"
    assert dict(es.meta) == {}


@pytest.mark.parametrize(
    "name, rows",
    [
        ("testset.csv", 19),
        ("langchain_blog_test_data.csv", 23),
        ("student_loan_rag_test_data.csv", 23),
        ("mlops_world_conference/groundtruth_eval_dataset.csv", 5),
        ("mlops_world_conference/basic_qa_ragas_dataset.csv", 5),
        ("mlops_world_conference/ensemble_qa_ragas_dataset.csv", 5),
        ("mlops_world_conference/pdr_qa_ragas_dataset.csv", 5),
    ],
)
def test_aimakerspace_ragas_csvs(realdata, name, rows):
    es = _quiet(cg.read_csv, realdata / "goldenset-aimakerspace" / name)
    assert len(es) == rows
    assert all(item.answer for item in es)
    # Evidence text is never lost: it is an anchor or it is in meta["contexts"].
    assert all(item.anchors or item.meta.get("contexts") for item in es)
    assert es.meta["ids_numbered"] == rows


def test_ragas_testset_details(realdata):
    es = _quiet(cg.read_csv, realdata / "goldenset-aimakerspace" / "testset.csv")
    assert collections.Counter(item.qtype for item in es) == {"simple": 10, "multi_context": 7, "reasoning": 2}
    assert sum(1 for item in es if "not present in context" in item.answer) == 4
    # The metadata column names the source PDF of each context, so every context is an anchor.
    assert all(item.is_portable for item in es)
    assert {a.source_id for item in es for a in item.anchors} <= {m["source"] for item in es for m in item.meta["metadata"]}
    assert "" not in {str(k) for item in es for k in item.meta}  # the pandas index column is gone


def test_ragas_eval_dataset_prefers_ground_truths(realdata):
    path = realdata / "goldenset-aimakerspace" / "mlops_world_conference" / "basic_qa_ragas_dataset.csv"
    es = _quiet(cg.read_csv, path)
    for item in es:
        assert not item.answer.startswith(" ")  # the pipeline's answers start with a space; the key does not
        assert item.meta["answer"].startswith(" ")
        assert len(item.meta["contexts"]) == 3  # numpy-style list cells split into their texts


@pytest.mark.parametrize("name, rows", [("golden_dataset.csv", 5), ("candidate_questions.csv", 20)])
def test_hinglish_video_csvs(realdata, name, rows):
    es = _quiet(cg.read_csv, realdata / "goldenset-hinglish-videos" / name)
    assert len(es) == rows
    assert all({"Video", "Timestamp", "Difficulty", "Topic"} <= set(item.meta) for item in es)
    assert sum(1 for item in es if any("\u0900" <= ch <= "\u097f" for ch in item.question + item.answer)) > 0


@pytest.mark.parametrize(
    "name, rows",
    [
        ("contractnli.csv", 50),
        ("cuad.csv", 50),
        ("maud.csv", 50),
        ("privacy_qa.csv", 50),
        ("doc-qa/qa_doc.csv", 236),
        ("older_commit_9a78131/legalbench-rag/privacyqa.csv", 5),
        ("older_commit_9a78131/doc-qa/doc_qa.csv", 10),
    ],
)
def test_datasaur_csvs(realdata, name, rows):
    es = _quiet(cg.read_csv, realdata / "qa-csv-datasaur-legalbenchrag" / name)
    assert len(es) == rows
    assert all(item.answer for item in es)


def test_datasaur_source_files_resolve_to_the_knowledge_base(realdata):
    root = realdata / "qa-csv-datasaur-legalbenchrag"
    for name in ("contractnli.csv", "cuad.csv", "maud.csv", "privacy_qa.csv"):
        es = _quiet(cg.read_csv, root / name)
        for item in es:
            assert (root / "knowledge-base" / item.meta["source_file"]).is_file(), item.meta["source_file"]
    first = _quiet(cg.read_csv, root / "privacy_qa.csv").items[0]
    assert first.question.startswith('Consider "Fiverr"\'s privacy policy')


# --- conversions ---------------------------------------------------------------------------


def test_hotpotqa(realdata):
    es = open_evalset(realdata / "qa-hotpotqa-megagon" / "dev.jsonl")
    assert len(es) == 300
    assert collections.Counter(item.qtype for item in es) == {"multi_hop": 230, "comparative": 70}
    assert all(2 <= len(item.anchors) <= 5 for item in es)
    assert "supporting_facts_skipped" not in es.meta
    assert sum(1 for item in es if item.answer in ("yes", "no")) == 19
    assert not any(a.quote != a.quote.strip() for item in es for a in item.anchors)
    # Each anchor is a sentence of the paragraph it names.
    rows = [json.loads(line) for line in (realdata / "qa-hotpotqa-megagon" / "dev.jsonl").read_text().splitlines()]
    for row, item in zip(rows, es):
        paragraphs = dict(zip(row["context"]["title"], row["context"]["sentences"]))
        assert all(a.quote in "".join(paragraphs[a.source_id]) for a in item.anchors)


def test_squad_v2_haystack_small(realdata):
    path = realdata / "qa-squad2-haystack" / "small.json"
    es = open_evalset(path)
    assert len(es) == 626
    assert sum(1 for item in es if item.qtype == "unanswerable") == 333
    answerable = [item for item in es if item.qtype != "unanswerable"]
    assert len(answerable) == 293 and all(item.is_resolved and item.is_portable for item in answerable)
    assert not any(item.is_answerable for item in es if item.qtype == "unanswerable")
    assert "answers_skipped" not in es.meta and "questions_skipped" not in es.meta
    assert "impossible_with_answers" not in es.meta  # real unanswerable questions list no answers
    from reviewtui.evalset.io import squad_corpus

    corpus = squad_corpus(path)
    assert len(corpus) == 87
    for item in answerable:
        for anchor, gold in zip(item.anchors, item.gold):
            assert corpus[gold.span.doc_id][gold.span.start : gold.span.end] == anchor.quote
        assert any(a["text"] in " ".join(x.quote for x in item.anchors) for a in item.meta["answers"])


@pytest.mark.parametrize(
    "name, in_file, items, impossible",
    [("small.json", 51, 51, 0), ("tiny.json", 17, 16, 1), ("faq.json", 9, 9, 0), ("duplicate_answers.json", 7, 7, 0)],
)
def test_piaf_french_squad(realdata, name, in_file, items, impossible):
    es = open_evalset(realdata / "qa-piaf-french" / name)
    assert es.meta["questions_in_file"] == in_file
    assert len(es) == items
    assert sum(1 for item in es if item.qtype == "unanswerable") == impossible
    if in_file != items:
        assert es.meta["questions_skipped"] == {"empty question": in_file - items}
    assert all(item.is_answerable for item in es if item.qtype != "unanswerable")


def test_piaf_categories_stay_in_meta_as_the_file_has_them(realdata):
    small = open_evalset(realdata / "qa-piaf-french" / "small.json")
    assert {item.meta["categorie"] for item in small} == {"Géographie", "Sport", "Religion", "Sciences", "Société"}
    assert all(item.qtype is None for item in small)
    dup = open_evalset(realdata / "qa-piaf-french" / "duplicate_answers.json")
    # The file spells one theme two ways; trimming made them one without a word, so both stay as written.
    assert {item.meta["theme"] for item in dup} == {"Internet", " Internet", "Autres"}
    assert len({item.id for item in open_evalset(realdata / "qa-piaf-french" / "faq.json")}) == 9


def test_unsupported_real_formats_fail_clearly(realdata, tmp_path):
    # DPR's retriever file is read now (tests/test_io_dpr.py); JSON of no known shape is refused as such.
    assert len(_quiet(open_evalset, realdata / "qa-squad2-haystack" / "dpr" / "sample.json")) == 5
    other = tmp_path / "other.json"
    other.write_text('[{"query_text": "which?", "documents": []}]', encoding="utf-8")
    with pytest.raises(cg.EvalSetError, match="not a format"):
        open_evalset(other)
    # Read as native JSONL (no sniffing), a Natural Questions line is refused at its line.
    with pytest.raises(cg.EvalSetError, match="not an eval item") as info:
        cg.read_jsonl(realdata / "qa-nq-farm" / "dev_sample.jsonl")
    assert info.value.line == 1


def test_every_real_set_round_trips_through_native_jsonl(realdata, tmp_path):
    paths: list[Path] = [
        realdata / "beir-scifact",
        realdata / "legalbenchrag-privacyqa" / "benchmarks" / "privacy_qa.json",
        realdata / "goldenset-aimakerspace" / "testset.csv",
        realdata / "goldenset-hinglish-videos" / "candidate_questions.csv",
        realdata / "qa-hotpotqa-megagon" / "dev.jsonl",
        realdata / "qa-squad2-haystack" / "small.json",
        realdata / "qa-piaf-french" / "tiny.json",
        realdata / "qa-nq-farm" / "dev_sample.jsonl",
    ]
    for number, path in enumerate(paths):
        es = _quiet(open_evalset, path)
        back = cg.read_jsonl(cg.write_jsonl(es, tmp_path / f"{number}.jsonl"))
        if es.source == "beir":  # JSON turns the (doc_id, grade) tuples into lists
            assert [[list(pair) for pair in i.meta["gold_documents"]] for i in es] == [
                i.meta["gold_documents"] for i in back
            ]
            assert [i.replace(meta={}) for i in back] == [i.replace(meta={}) for i in es]
        else:
            assert back == es, path
