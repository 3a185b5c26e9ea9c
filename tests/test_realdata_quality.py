"""The quality tools on every real public set under shared/realdata: they run, and what they say holds up."""

from __future__ import annotations

import json
import warnings

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.audit import CHECKS, Status
from reviewtui.evalset.checks.report import to_html, to_json, to_markdown, to_text
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.io import open_evalset
from reviewtui.evalset.model.flag import Severity

# Every set in the folder that the readers accept (the NQ samples are not eval items, and are left out).
REAL_SETS = [
    "beir-agentset-leaderboard/arcd",
    "beir-agentset-leaderboard/business-reports",
    "beir-agentset-leaderboard/dbpedia",
    "beir-agentset-leaderboard/fiqa",
    "beir-agentset-leaderboard/msmarco",
    "beir-agentset-leaderboard/pg",
    "beir-agentset-leaderboard/scifact",
    "beir-scifact",
    "goldenset-aimakerspace/langchain_blog_test_data.csv",
    "goldenset-aimakerspace/student_loan_rag_test_data.csv",
    "goldenset-aimakerspace/testset.csv",
    "goldenset-aimakerspace/mlops_world_conference/basic_qa_ragas_dataset.csv",
    "goldenset-aimakerspace/mlops_world_conference/ensemble_qa_ragas_dataset.csv",
    "goldenset-aimakerspace/mlops_world_conference/groundtruth_eval_dataset.csv",
    "goldenset-aimakerspace/mlops_world_conference/pdr_qa_ragas_dataset.csv",
    "goldenset-demo/demo_golden_set.csv",
    "goldenset-hinglish-videos/candidate_questions.csv",
    "goldenset-hinglish-videos/golden_dataset.csv",
    "legalbenchrag-privacyqa/benchmarks/privacy_qa.json",
    "qa-csv-datasaur-legalbenchrag/contractnli.csv",
    "qa-csv-datasaur-legalbenchrag/cuad.csv",
    "qa-csv-datasaur-legalbenchrag/maud.csv",
    "qa-csv-datasaur-legalbenchrag/privacy_qa.csv",
    "qa-csv-datasaur-legalbenchrag/doc-qa/qa_doc.csv",
    "qa-hotpotqa-megagon/dev.jsonl",
    "qa-piaf-french/duplicate_answers.json",
    "qa-piaf-french/faq.json",
    "qa-piaf-french/small.json",
    "qa-piaf-french/tiny.json",
    "qa-squad2-haystack/small.json",
]


def load(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' notes about numbered rows and the like
        return open_evalset(path)


@pytest.mark.parametrize("name", REAL_SETS)
def test_audit_filters_and_reports_run_on_real_set(realdata, name):
    path = realdata / name
    if not path.exists():
        pytest.skip(f"{name} is not in the real data folder")
    evalset = load(path)
    scan = scan_flags(evalset)
    report = scan.audit
    assert [c.check for c in report.checks] == list(CHECKS)
    assert report.summary["items"] == len(evalset)
    assert set(scan.flags) <= {item.id for item in evalset}
    assert all(flags == sorted(flags, key=lambda f: -f.severity) for flags in scan.flags.values())
    # the chain's result is consistent with the set
    assert scan.chain.kept_count + scan.chain.rejected_count == len(evalset)
    # reports render; JSON round-trips
    for render in (to_text, to_markdown, to_html):
        assert render(report, scan)
    assert json.loads(to_json(report, scan))["summary"]["items"] == len(evalset)
    assert cg.assess(evalset).size == len(evalset)


def test_demo_golden_set_findings(realdata):
    evalset = load(realdata / "goldenset-demo" / "demo_golden_set.csv")
    scan = scan_flags(evalset)
    assert scan.audit.status is Status.FAIL
    assert scan.for_item("Q001")[0].check == "conflicting-answers"
    assert "over-easy" in {f.check for f in scan.for_item("Q008")}


def test_arabic_queries_are_compared_on_their_own_words(realdata):
    """The review profile reads Arabic words; the tool's own profile reads ASCII only, says so, and keeps it LOW."""
    evalset = load(realdata / "beir-agentset-leaderboard" / "arcd")
    scan = scan_flags(evalset)
    assert not any("no ASCII content word" in e.message for e in scan.cautions)
    assert not [f for flags in scan.flags.values() for f in flags if f.check == "near-duplicate"]
    assert not scan.audit.of_check("near-duplicates")  # 50 different questions: no pair, let alone 1,080
    assert [f.item_ids for f in scan.audit.of_check("exact-duplicates")] == [("arcd-q27", "arcd-q30")]

    tool = scan_flags(evalset, profile="goldensetauditor")
    assert any("no ASCII content word" in e.message for e in tool.cautions)
    near = [f for flags in tool.flags.values() for f in flags if f.check == "near-duplicate"]
    assert near and all(f.severity <= Severity.LOW for f in near)
    assert len(tool.audit.of_check("near-duplicates")) == 1080  # as goldensetauditor counts them


def test_sample_set_seeded_problems():
    """The demo set's seeded problems (sample_sets/wrenfield_tools/README.md) get the flags they should."""
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "sample_sets" / "wrenfield_tools" / "wrenfield_tools.jsonl"
    if not path.is_file():
        pytest.skip("the sample set is not there")
    scan = scan_flags(load(path))
    expect = {
        "q05": "dangling-reference",
        "q34": "conflicting-answers",
        "q06": "conflicting-answers",
        "q24": "near-duplicate",
        "q13": "suggested-type",
        "q16": "over-easy",
        "q21": "too-short",
        "q22": "weak-answer",
        "q37": "no-evidence",
    }
    for item_id, check in expect.items():
        assert check in {f.check for f in scan.for_item(item_id)}, (item_id, check)
    assert "q38" not in scan.flags or "no-evidence" not in {f.check for f in scan.for_item("q38")}
