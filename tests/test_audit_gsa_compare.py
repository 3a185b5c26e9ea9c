"""Every finding goldensetauditor 0.2.0 reports is also reported by our audit.

Both run on the same data: goldensetauditor on a pandas DataFrame (read by
pandas, as its own demo does), ours on the EvalSet our CSV reader makes of the
same file, or both on the same randomly generated rows. A finding is compared as
(check, the set of row ids it names). goldensetauditor's near-duplicate pair cap
is lifted, since ours has none.
"""

from __future__ import annotations

import random
import warnings

import pytest

gsa = pytest.importorskip("goldensetauditor", reason="goldensetauditor is in the test extras")
pd = pytest.importorskip("pandas")

import reviewtui as cg  # noqa: E402
from reviewtui.evalset.checks import audit as au  # noqa: E402
from reviewtui.evalset.checks.audit import AuditConfig, audit  # noqa: E402

CHECK_NAMES = au.GSA_CHECK_NAMES
NO_CAP = 10**12


def theirs(df, *, question, answer, category=None, id_col=None, row_id=str):
    """goldensetauditor's findings that name rows, as {(our check name, frozenset of our ids)}; and its status."""
    config = gsa.GoldenSetAuditConfig(
        input_col=question, expected_col=answer, category_col=category, id_col=id_col, max_pairwise_checks=NO_CAP
    )
    report = gsa.audit_golden_set(df, config)
    found = {
        (CHECK_NAMES[f.check_name], frozenset(row_id(r) for r in f.row_ids))
        for f in report.findings
        if f.row_ids
    }
    return found, report


def ours(evalset, **options):
    report = audit(evalset, AuditConfig(**options))
    return {(f.check, frozenset(f.item_ids)) for f in report.findings if f.item_ids}, report


def assert_covers(mine, their_findings):
    missing = their_findings - mine
    assert not missing, f"goldensetauditor found {len(missing)} finding(s) we did not: {sorted(missing, key=str)[:5]}"


# --- the demo set -----------------------------------------------------------------------


def test_demo_set_every_finding_and_the_status(realdata):
    path = realdata / "goldenset-demo" / "demo_golden_set.csv"
    df = pd.read_csv(path)
    their_findings, their_report = theirs(df, question="question", answer="expected_answer", category="category", id_col="id")
    evalset = cg.read_csv(path)
    mine, my_report = ours(evalset)  # the reader files `category` as the question type
    assert_covers(mine, their_findings)
    assert my_report.status.value == their_report.status == "FAIL"
    # The seeded defects, by name (SOURCES.md): Q001/Q002 conflict, Q006 ambiguous and weak, Q008 over-easy.
    assert (au.CONFLICTING, frozenset({"Q001", "Q002"})) in mine
    assert {(au.AMBIGUOUS, frozenset({"Q006"})), (au.WEAK_ANSWER, frozenset({"Q006"})), (au.OVER_EASY, frozenset({"Q008"}))} <= mine
    assert len(their_findings) == 11


# --- other real CSVs ---------------------------------------------------------------------

# (file under realdata, question column, answer column, category column or None, category key for us)
REAL_CSVS = [
    ("goldenset-aimakerspace/testset.csv", "question", "ground_truth", "evolution_type", None),
    ("goldenset-aimakerspace/langchain_blog_test_data.csv", "question", "answer", None, None),
    ("goldenset-aimakerspace/student_loan_rag_test_data.csv", "question", "answer", None, None),
    ("goldenset-aimakerspace/mlops_world_conference/groundtruth_eval_dataset.csv", "question", "ground_truth", None, None),
    ("goldenset-hinglish-videos/golden_dataset.csv", "Question", "Answer", "Topic", "Topic"),
    ("goldenset-hinglish-videos/candidate_questions.csv", "Question", "Answer", "Difficulty", "Difficulty"),
    ("qa-csv-datasaur-legalbenchrag/contractnli.csv", "prompt", "expected completion", "source_file", "source_file"),
    ("qa-csv-datasaur-legalbenchrag/cuad.csv", "prompt", "expected completion", "source_file", "source_file"),
    ("qa-csv-datasaur-legalbenchrag/maud.csv", "prompt", "expected completion", "source_file", "source_file"),
    ("qa-csv-datasaur-legalbenchrag/privacy_qa.csv", "prompt", "expected completion", "source_file", "source_file"),
    ("qa-csv-datasaur-legalbenchrag/doc-qa/qa_doc.csv", "input", "expected_output", "source_file", "source_file"),
]


@pytest.mark.parametrize(("name", "question", "answer", "category", "key"), REAL_CSVS, ids=[r[0] for r in REAL_CSVS])
def test_real_csv_every_finding(realdata, name, question, answer, category, key):
    path = realdata / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the real data folder")
    df = pd.read_csv(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "rows were numbered q1, q2, ..."
        evalset = cg.read_csv(path)
    assert len(evalset) == len(df)
    # Without an id column goldensetauditor names rows by their pandas index; our reader numbers them q1, q2, ...
    position_id = {k: item.id for k, item in enumerate(evalset.items)}
    their_findings, their_report = theirs(
        df, question=question, answer=answer, category=category, row_id=lambda r: position_id[int(r)]
    )
    mine, my_report = ours(evalset, category_key=key)
    assert_covers(mine, their_findings)
    assert my_report.status.value == their_report.status


# --- random sets ----------------------------------------------------------------------------

WORDS = (
    "leave policy month employee office remote claim expense limit laptop it this that they there "
    "and the a of what how why is are do report data 30 x y"
).split()


def random_rows(rng: random.Random, n: int) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for k in range(n):
        roll = rng.random()
        if rows and roll < 0.15:  # the same question again, maybe with another answer or other case/spaces
            base = rng.choice(rows)
            question = rng.choice([base["question"], base["question"].upper(), f"  {base['question']} "])
            answer = base["answer"] if rng.random() < 0.5 else " ".join(rng.choices(WORDS, k=rng.randint(1, 8)))
        elif rows and roll < 0.35:  # a paraphrase: one word changed
            words = rng.choice(rows)["question"].split()
            words[rng.randrange(len(words))] = rng.choice(WORDS)
            question, answer = " ".join(words), " ".join(rng.choices(WORDS, k=rng.randint(1, 8)))
        else:
            question = " ".join(rng.choices(WORDS, k=rng.randint(1, 12))) + rng.choice(["?", "", "??", " and x?"])
            answer = question if rng.random() < 0.1 else " ".join(rng.choices(WORDS, k=rng.randint(0, 9)))
        rows.append(
            {"id": f"r{k}", "question": question.strip() or "x", "answer": answer, "category": rng.choice("ABCDEFG")}
        )
    return rows


@pytest.mark.parametrize("seed", range(12))
def test_random_sets_every_finding_and_same_near_duplicate_pairs(seed):
    rng = random.Random(seed)
    rows = random_rows(rng, rng.randint(5, 160))
    df = pd.DataFrame(rows)
    their_findings, their_report = theirs(df, question="question", answer="answer", category="category", id_col="id")
    evalset = cg.EvalSet(
        id=f"random-{seed}",
        items=tuple(cg.EvalItem(id=r["id"], question=r["question"], answer=r["answer"], meta={"category": r["category"]}) for r in rows),
    )
    mine, my_report = ours(evalset, category_key="category")
    assert_covers(mine, their_findings)
    assert my_report.status.value == their_report.status
    # Near-duplicates: exactly the same pairs, not merely a superset.
    def pairs(found):
        return {ids for check, ids in found if check == au.NEAR_DUPLICATES}

    assert pairs(mine) == pairs(their_findings)


def test_a_set_without_answers_every_finding_and_the_status():
    """goldensetauditor warns of each missing expected answer, in a set with none too (WARN); its profile here said
    INSUFFICIENT_INPUT."""
    rows = [
        {"id": "a", "category": "p", "question": "Which office handles international travel booking requests?", "answer": None},
        {"id": "b", "category": "p", "question": "How many paid sick days does each employee receive annually?", "answer": None},
        {"id": "c", "category": "q", "question": "What is the notice period for resignation from the company?", "answer": None},
    ]
    their_findings, their_report = theirs(pd.DataFrame(rows), question="question", answer="answer", category="category", id_col="id")
    evalset = cg.EvalSet(
        id="no-answers",
        items=tuple(cg.EvalItem(id=r["id"], question=r["question"], meta={"category": r["category"]}) for r in rows),
    )
    mine, my_report = ours(evalset, category_key="category")
    assert_covers(mine, their_findings)
    assert {check for check, _ in their_findings} >= {au.WEAK_ANSWER}
    assert my_report.status.value == their_report.status == "WARN"
