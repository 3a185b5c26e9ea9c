"""What `reviewtui filter` removes by default (checks.review_filters): only what the review profile warns about."""

from __future__ import annotations

import json
import shutil

import pytest

from reviewtui.cli import main
from reviewtui.evalset.checks.review_filters import SameQuestionFilter, review_chain
from reviewtui.evalset.io import open_evalset, read_jsonl
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor


def _set(*rows: tuple[str, str, str | None]) -> EvalSet:
    return EvalSet(id="s", items=tuple(EvalItem(id=i, question=q, answer=a) for i, q, a in rows))


def _kept(evalset: EvalSet) -> tuple[list[str], list[str]]:
    result = review_chain(evalset).chain.run(evalset)
    return [item.id for item in result.kept], [str(entry) for entry in result.warnings]


def test_a_repeat_goes_only_with_the_same_words_in_the_same_order_and_the_same_answer():
    kept, _ = _kept(
        _set(
            ("q1", "What is an example of an NP-intermediate problem not known to be in P?", "Graph isomorphism"),
            # SQuAD 2.0's unanswerable twin: the same set of words, "an" and "not" swapped
            ("q2", "What is not example of an NP-intermediate problem not known to be in P?", None),
            ("q3", "Is a dog larger than a cat?", "Yes"),
            ("q4", "Is a cat larger than a dog?", "Yes"),  # the same words in another order ask something else
            ("q5", "  what is an example of an NP-intermediate problem, not known to be in P ", "graph isomorphism "),
        )
    )
    assert kept == ["q1", "q2", "q3", "q4"]  # q5 is q1 again (case, spaces and punctuation aside)


def test_a_question_without_a_word_is_never_a_repeat():
    passed = SameQuestionFilter().apply(_set(("q1", "???", None), ("q2", "???", None)).items)
    assert [item.id for item in passed.kept] == ["q1", "q2"] and not passed.rejected


def test_the_same_question_with_another_answer_stays_and_is_named():
    evalset = _set(
        ("q1", "How many days of leave accrue per month?", "1.5 days"),
        ("q2", "How many days of leave accrue per month?", "1.5 Days"),
        ("q3", "How many days of leave accrue per month?", "Two days"),
        ("q4", "How many days of leave accrue per month?", "two days"),
    )
    result = review_chain(evalset).chain.run(evalset)
    assert [item.id for item in result.kept] == ["q1", "q3"]
    assert [(r.item_id, r.related_ids) for r in result.rejected] == [("q2", ("q1",)), ("q4", ("q3",))]
    notes = [str(entry) for entry in result.warnings]
    assert any("kept 1 item that repeats an earlier question with another expected answer: 'q3' (as 'q1')" in n for n in notes)


def test_a_retrieval_query_judged_against_other_documents_stays_with_its_judgements():
    # ARCD (BEIR) asks one question twice, each copy judged against another document: dropping the
    # second copy dropped its judgement. Copies judged against the same documents still go.
    def query(item_id: str, *documents: tuple[str, int]) -> EvalItem:
        return EvalItem(id=item_id, question="What are the signs of the zodiac?", meta={"gold_documents": list(documents)})

    evalset = EvalSet(
        id="s",
        items=(
            query("q27", ("doc9", 1)),
            query("q30", ("doc10", 1)),
            query("q31", ["doc9", 1], ["doc4", 0]),  # as read back from JSONL; a grade of 0 is judged not relevant
            query("q32", ("doc10", 2), ("doc11", 1)),
        ),
    )
    result = review_chain(evalset).chain.run(evalset)
    assert [item.id for item in result.kept] == ["q27", "q30", "q32"]
    assert [(r.item_id, r.related_ids) for r in result.rejected] == [("q31", ("q27",))]
    assert "names the same relevant documents" in result.rejected[0].reason
    notes = " ".join(str(entry) for entry in result.warnings)
    assert "kept 2 queries that repeat an earlier one judged against other relevant documents: 'q30' (as 'q27'); 'q32'" in notes
    assert "another expected answer" not in notes


def test_too_short_spares_statements_and_sets_of_keyword_queries():
    prose = [(f"q{k}", f"What does the handbook say about topic number {k} at work?", "x") for k in range(30)]
    kept, _ = _kept(_set(*prose, ("short", "Saw rules?", "x"), ("claim", "DUSP4 decreases apoptosis.", None)))
    assert "short" not in kept and "claim" in kept
    # French elides and Arabic writes the article onto its noun: whole questions, not three-word fragments
    french = [("fr", "Qu'est-ce qu'un cookie ?", None), ("ar", "من هم الدروز؟", None), ("frag", "Combien d'employeurs", None)]
    kept, _ = _kept(_set(*prose, *french))
    assert "fr" in kept and "ar" in kept and "frag" not in kept

    keywords = [(f"k{k}", f"airsoft glock {k}", None) for k in range(5)]  # 5 of 30: more than a tenth
    evalset = _set(*prose[:25], *keywords)
    review = review_chain(evalset)
    assert "too-short" not in [f.name for f in review.chain.filters]
    assert review.notes == [
        "too-short not used: 5 of 30 questions have fewer than 4 words, which makes this a set of keyword queries, "
        "where short is the set's style; the app and audit show these as hints"
    ]
    assert len(review.chain.run(evalset).kept) == 30


def test_the_command_says_what_it_left_out(tmp_path, capsys):
    rows = [{"id": f"q{k}", "question": f"what is entity {k}"} for k in range(16)]
    rows += [{"id": f"k{k}", "question": f"airsoft glock {k}"} for k in range(4)]
    path = tmp_path / "queries.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["filter", str(path), "-o", str(tmp_path / "kept.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "too-short not used: 4 of 20 questions have fewer than 4 words" in out
    assert len(read_jsonl(tmp_path / "kept.jsonl")) == 20
    assert main(["filter", str(path), "-o", str(tmp_path / "gsa.jsonl"), "--profile", "goldensetauditor"]) == 0
    assert "too-short (4):" in capsys.readouterr().out and len(read_jsonl(tmp_path / "gsa.jsonl")) == 16


def test_real_sets_lose_no_twin_and_no_keyword_query(realdata, tmp_path):
    squad = tmp_path / "squad.json"
    shutil.copy(realdata / "qa-squad2-haystack" / "small.json", squad)
    evalset = open_evalset(squad)
    kept, _ = _kept(evalset)
    # the unanswerable "What is not example of ..." has the word set of an answerable question, not its wording
    assert "5ad568d35b96ef001a10ae1c" in kept and len(kept) == len(evalset)

    dbpedia = open_evalset(realdata / "beir-agentset-leaderboard" / "dbpedia")
    assert len(review_chain(dbpedia).chain.run(dbpedia).kept) == len(dbpedia)


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_both_profiles_drop_a_plain_copy(profile, tmp_path):
    rows = [
        {"id": "a", "question": "Which tools may a member borrow for a week?", "answer": "Saws"},
        {"id": "b", "question": "Which tools may a member borrow for a week?", "answer": "saws"},
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["filter", str(path), "-o", str(tmp_path / "kept.jsonl"), "--profile", profile]) == 0
    assert [item.id for item in read_jsonl(tmp_path / "kept.jsonl")] == ["a"]


def test_the_same_question_asked_of_another_document_is_not_a_repeat():
    def item(item_id: str, source: str, answer: str | None = None) -> EvalItem:
        return EvalItem(
            id=item_id, question="What data does the app share with advertisers?", answer=answer,
            anchors=(GoldAnchor(source, "We share usage data."),),
        )

    passed = SameQuestionFilter().apply((item("a", "viber.txt"), item("b", "tiktok.txt"), item("c", "viber.txt")))
    assert [i.id for i in passed.kept] == ["a", "b"]  # c repeats a: the same document, and neither has an answer
    (rejection,) = passed.rejected
    assert rejection.item_id == "c" and "neither has an expected answer" in rejection.reason
    assert passed.note is None  # no conflict: b is another document's question


def test_a_removed_repeat_is_counted_under_the_name_the_audit_gives_the_pair(tmp_path, capsys):
    # ARCD's arcd-q30 repeats arcd-q27 character for character: `audit` and the app call that an
    # exact duplicate, and `filter` counted it as a near-duplicate.
    evalset = _set(
        ("q1", "Who signs the travel form?", "The manager"),
        ("q2", "  who signs the travel form?", "The manager"),  # the same text, case and space aside: exact
        ("q3", "Who signs the travel form", "the manager"),  # the same words, punctuation aside: near
    )
    result = review_chain(evalset).chain.run(evalset)
    assert [(r.item_id, r.filter) for r in result.rejected] == [("q2", "exact-duplicate"), ("q3", "near-duplicate")]
    assert result.summary().endswith("removed: exact-duplicate 1, near-duplicate 1")
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps({"id": i, "question": q}) + "\n" for i, q in (("a", "Who signs the travel form?"), ("b", "who signs the travel form?"))))
    assert main(["filter", str(path), "-o", str(tmp_path / "out.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "exact-duplicate (1):" in out and "removed: exact-duplicate 1" in out and "near-duplicate" not in out


def test_a_repeat_punctuated_apart_goes_only_when_the_app_warns_about_it():
    # Two questions of no answer, the same words with and without "?", quoting other passages: the
    # app shows the pair as a hint, and `filter` removed the second all the same.
    def item(item_id: str, question: str, quote: str, answer: str | None = None) -> EvalItem:
        return EvalItem(id=item_id, question=question, answer=answer, anchors=(GoldAnchor(source_id="a.md", quote=quote),))

    hinted = _set_of(item("m1", "Who approves leave for a whole week?", "Managers approve leave."), item("m2", "Who approves leave for a whole week", "Leave needs HR."))
    assert not review_chain(hinted).chain.run(hinted).rejected
    from reviewtui.evalset.checks.scan import scan_flags

    assert [f.severity.label for f in scan_flags(hinted).for_item("m2") if f.check == "near-duplicate"] == ["hint"]
    same_quote = _set_of(item("m1", "Who approves leave for a whole week?", "Managers approve leave."), item("m2", "Who approves leave for a whole week", "Managers approve leave."))
    assert [(r.item_id, r.filter) for r in review_chain(same_quote).chain.run(same_quote).rejected] == [("m2", "near-duplicate")]
    assert "medium" in [f.severity.label for f in scan_flags(same_quote).for_item("m2") if f.check == "near-duplicate"]
    same_answer = _set_of(item("m1", "Who approves leave for a whole week?", "Managers approve leave.", "Managers"), item("m2", "Who approves leave for a whole week", "Leave needs HR.", "managers"))
    assert [r.item_id for r in review_chain(same_answer).chain.run(same_answer).rejected] == ["m2"]
    exact = _set_of(item("m1", "Who approves leave for a whole week?", "Managers approve leave."), item("m2", "who approves leave for a whole week?", "Leave needs HR."))
    assert [(r.item_id, r.filter) for r in review_chain(exact).chain.run(exact).rejected] == [("m2", "exact-duplicate")]


def _set_of(*items: EvalItem) -> EvalSet:
    return EvalSet(id="s", items=items)


@pytest.mark.parametrize("shape", ["another answer each", "another document each"])
def test_copies_of_one_question_are_judged_without_comparing_every_pair(shape, monkeypatch):
    # 2,000 copies of one question, each with its own answer (a conflict at every copy) or each asked
    # of its own document (never a repeat), were each compared with every earlier copy: 2 million
    # comparisons here, minutes at 20,000. What a copy is compared by is counted, not timed.
    from reviewtui.evalset.checks import findings, repeats, review_filters

    calls = {"n": 0}

    def counted(function):
        def count(*args, **kwargs):
            calls["n"] += 1
            return function(*args, **kwargs)

        return count

    monkeypatch.setattr(findings, "documents_of", counted(repeats.documents_of))
    monkeypatch.setattr(review_filters, "documents_of", counted(repeats.documents_of), raising=False)
    monkeypatch.setattr(review_filters, "normalise_question", counted(review_filters.normalise_question))
    n = 2_000
    copies = [
        EvalItem(
            id=f"q{k}", question="What is the notice period?",
            answer=f"{k} days" if shape == "another answer each" else "Thirty days",
            anchors=(GoldAnchor("policy.md" if shape == "another answer each" else f"policy-{k}.md", "Notice is due."),),
        )
        for k in range(n)
    ]
    passed = SameQuestionFilter().apply(copies)
    assert len(passed.kept) == n and not passed.rejected
    assert (passed.note is not None) == (shape == "another answer each")
    assert calls["n"] <= 20 * n


def test_too_short_counts_each_questions_words_once_and_judges_as_it_would_afresh(monkeypatch):
    # review_chain counts the short questions to decide whether to use the filter at all; the filter then
    # takes those reasons for the same items rather than counting every question's words a second time.
    from reviewtui.evalset.checks.review_filters import StatementAwareShortFilter

    rows = [
        ("s1", "DUSP4 decreases apoptosis.", None),  # a short claim: stays
        ("s2", "Qu'est-ce qu'un cookie ?", None),  # long enough as French writes words: stays
        ("s3", "Vacation days?", None),  # short: goes
        *((f"q{k}", f"What does the policy say about case number {k}?", None) for k in range(30)),
    ]
    evalset = _set(*rows)
    calls = _count_short_checks(monkeypatch)
    short = next(flt for flt in review_chain(evalset).chain.filters if isinstance(flt, StatementAwareShortFilter))
    assert len(calls) == len(rows)
    passed = short.apply(evalset.items)
    assert len(calls) == len(rows)  # nothing counted again
    afresh = StatementAwareShortFilter(short.min_words, name=short.name)
    expected = afresh.apply(evalset.items)
    assert len(calls) == 2 * len(rows)
    assert passed == expected and [r.item_id for r in passed.rejected] == ["s3"]
    # other items (a subset, copies) are judged afresh
    subset = evalset.items[1:]
    assert short.apply(subset) == afresh.apply(subset)
    copies = [item.model_copy() for item in evalset.items]
    before = len(calls)
    assert short.apply(copies) == afresh.apply(copies) and len(calls) == before + 2 * len(copies)


@pytest.mark.parametrize("keywords", [0, 5])  # the filter used, and left out of a set of keyword queries
def test_the_scans_too_short_reasons_give_the_cautions_counting_them_would(keywords, monkeypatch):
    # The scan's wording checks have every question's too-short reason already: given them, the review chain
    # counts no question's words, and says what it says when it counts them itself.
    from reviewtui.evalset.checks.review_filters import review_cautions
    from reviewtui.evalset.checks.scan_parts import item_verdicts

    rows = [
        ("s1", "DUSP4 decreases apoptosis.", None),
        ("s2", "Qu'est-ce qu'un cookie ?", None),
        ("s3", "Vacation days?", None),
        ("s4", "Vacation days?", None),
        *((f"q{k}", f"What does the policy say about case number {k}?", "x") for k in range(30)),
        *((f"k{k}", f"airsoft glock {k}", None) for k in range(keywords)),
    ]
    evalset = _set(*rows)
    expected = [str(entry) for entry in review_cautions(evalset)]
    short = item_verdicts(evalset.items, None).reasons["too-short"]
    assert set(short) == {"s1", "s2", "s3", "s4", *(f"k{k}" for k in range(keywords))}  # the documented filter's
    calls = _count_short_checks(monkeypatch)
    assert [str(entry) for entry in review_cautions(evalset, short_reasons=short)] == expected
    assert not calls


def _count_short_checks(monkeypatch) -> list[str]:
    """The ids of the items the documented too-short filter checks from now on, in order."""
    from reviewtui.evalset.checks import filters as filters_mod

    calls: list[str] = []
    real_check = filters_mod.ShortQuestionFilter.check

    def counted(self, item):
        calls.append(item.id)
        return real_check(self, item)

    monkeypatch.setattr(filters_mod.ShortQuestionFilter, "check", counted)
    return calls


_SYMBOLS_APART = (
    ("g1", "Is a grade of B+ enough to pass the module?", "Yes."),
    ("g2", "Is a grade of B- enough to pass the module?", "Yes."),
    ("f1", "Is the late fee $5 per day?", "No."),
    ("f2", "Is the late fee 5% per day?", "No."),
    ("c1", "Does C# support generic types?", "Yes."),
    ("c2", "Does C++ support generic types?", "Yes."),
    ("w1", "Is the well-known saw policy in the handbook?", "Yes."),
    ("w2", "Is the well known saw policy in the handbook?", "Yes."),  # a dash joining two words is spelling
)


def test_questions_whose_words_match_but_whose_symbols_differ_are_not_repeats():
    """'B+' and 'B-', '$5' and '5%', 'C#' and 'C++' were one wording once punctuation went, and the default filter
    removed the second of each pair with a yes/no answer as the first one asked again."""
    kept, _ = _kept(_set(*_SYMBOLS_APART))
    assert kept == ["g1", "g2", "f1", "f2", "c1", "c2", "w1"]


def test_the_review_profile_flags_such_a_pair_as_a_hint_and_says_what_differs():
    from reviewtui.evalset.checks.scan import scan_flags

    evalset = _set(*_SYMBOLS_APART)
    review = scan_flags(evalset)
    near = {i: [f for f in review.for_item(i) if f.check == "near-duplicate"] for i in ("g2", "f2", "c2", "w2")}
    assert [f.severity.label for f in near["g2"]] == ["hint"]
    assert "the same words, but here '-', there '+'" in near["g2"][0].reason
    assert [f.severity.label for f in near["f2"]] == ["hint"] and [f.severity.label for f in near["c2"]] == ["hint"]
    assert [f.severity.label for f in near["w2"]] == ["medium"]  # the same question, the same answer
    clusters = {f.item_ids: f.detail for f in review.audit.findings if f.check == "near-duplicates"}
    assert "here '+', there '-': probably two questions" in clusters[("g1", "g2")]
    # the goldensetauditor profile compares words only, as the tool does
    gsa = scan_flags(evalset, profile="goldensetauditor")
    assert [f.severity.label for f in gsa.for_item("g2") if f.check == "near-duplicate"] == ["medium"]


def test_unresolved_evidence_stands_down_on_the_whole_set_as_the_audit_judges_it(tmp_path):
    """The one item with a gold span was too short: run on what was left, the filter stood down, kept the three
    items `audit` warns of at high, and said no evidence had been located."""
    from reviewtui.evalset.checks.scan import scan_flags
    from reviewtui.evalset.model.items import GoldSpan, Span

    quote = lambda text: (GoldAnchor(source_id="d.md", quote=text),)  # noqa: E731
    items = (
        EvalItem(id="q02", question="Joining documents?", anchors=quote("one"), gold=(GoldSpan(span=Span(doc_id="d.md", start=0, end=3)),)),
        EvalItem(id="q03", question="What does the handbook say about joining fees?", anchors=quote("two")),
        EvalItem(id="q04", question="What does the handbook say about late returns?", anchors=quote("three")),
    )
    evalset = EvalSet(id="s", items=items)
    kept, _ = _kept(evalset)
    assert kept == []
    warned = {i for i in ("q03", "q04") if any(f.check == "unresolved-evidence" for f in scan_flags(evalset).for_item(i))}
    assert warned == {"q03", "q04"}
    # nothing located anywhere: it stands down, and says so
    bare = EvalSet(id="s", items=tuple(item.replace(gold=()) for item in items))
    kept, _ = _kept(bare)
    assert kept == ["q03", "q04"]


def test_an_empty_answer_is_no_answer_in_the_exact_duplicate_flags_as_in_the_filter():
    """b1 without an answer and b2 with "" were "(no expected answers)" on one flag and "with the same expected answer"
    on the other, while the filter said neither has an expected answer."""
    from reviewtui.evalset.checks.scan import scan_flags

    question = "What does the library charge for a late drill?"
    evalset = _set(("b1", question, None), ("b2", question, ""), ("b3", question, "  "))
    for item_id in ("b1", "b2", "b3"):
        (flag,) = [f for f in scan_flags(evalset).for_item(item_id) if f.check == "exact-duplicate"]
        assert "(no expected answers)" in flag.reason, (item_id, flag.reason)
    rejected = SameQuestionFilter().apply(evalset.items).rejected
    assert all("neither has an expected answer" in r.reason for r in rejected) and len(rejected) == 2


def test_a_repeat_with_the_same_symbols_is_warned_of_though_a_look_alike_comes_first():
    """p3 repeats p2 ("B-"), which the filter removes; its flag was compared with p1 ("B+") alone and made a hint."""
    from reviewtui.evalset.checks.scan import scan_flags

    evalset = _set(
        ("p1", "What grade is B+ in the scale?", "x"),
        ("p2", "What grade is B- in the scale?", "x"),
        ("p3", "what grade is B- in the scale", "x"),
        ("p4", "What grade is B＋ in the scale?", "x"),  # full width: the same "+" as p1
    )
    kept, _ = _kept(evalset)
    assert kept == ["p1", "p2"]
    scan = scan_flags(evalset)
    (p3,) = [f for f in scan.for_item("p3") if f.check in ("near-duplicate", "exact-duplicate")]
    assert p3.severity.label == "medium" and "'p2'" in p3.reason and "here '-'" not in p3.reason, p3


def test_a_repeat_differing_in_spacing_with_another_answer_is_a_conflict_in_the_review_profile(tmp_path, capsys):
    """A spreadsheet's line break in one copy ("What is the\\nVAT rate?", 20% and 21%): the audit passed
    conflicting-answers and showed the pair as a near-duplicate hint, exit 0, while the filter's note called it
    the audit's conflicting-answers. goldensetauditor's profile compares the text as that tool does."""
    from reviewtui.cli import main

    path = tmp_path / "conf.csv"
    path.write_text('id,question,answer\nq1,"What is the\nVAT rate?",20%\nq2,What is the VAT rate?,21%\n', encoding="utf-8")
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL               conflicting-answers  1 finding, 2 items" in out
    assert "PASS               near-duplicates      0 findings" in out  # one question, not two near ones
    assert "kept 1 item that repeats an earlier question with another expected answer" in out
    assert "(audit: conflicting-answers where the two differ in case and spacing only, near-duplicates where" in out
    assert main(["audit", str(path), "--profile", "goldensetauditor"]) == 0
    assert "PASS               conflicting-answers  0 findings" in capsys.readouterr().out


def test_a_repeat_differing_in_spacing_with_the_same_answer_is_removed_as_the_exact_duplicate_the_audit_calls_it(tmp_path, capsys):
    """The review profile's audit and the app call "What is the\\nVAT rate?" and "What is the VAT rate?" with one
    answer an exact duplicate; the filter removed the second as a near-duplicate."""
    from reviewtui.cli import main

    path = tmp_path / "same.csv"
    path.write_text('id,question,answer\nq1,"What is the\nVAT rate?",20%\nq2,What is the  VAT rate?,20%\n', encoding="utf-8")
    assert main(["audit", str(path)]) == 0
    assert "WARN               exact-duplicates     1 finding, 2 items" in capsys.readouterr().out
    assert main(["filter", str(path), "-o", str(tmp_path / "kept.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "removed: exact-duplicate 1" in out and "near-duplicate (1)" not in out, out


def _copies_set(seed: int) -> EvalSet:
    """Questions asked again in the same words, in other words, with other symbols, answers and quotes, and none."""
    import random

    rng = random.Random(seed)
    questions = [
        "Who signs the yearly travel budget report?",
        "who signs the yearly travel budget report",
        "Who signs the travel budget report yearly?",  # the same words in another order: no repeat
        "Is grade B+ enough for the bonus?",
        "Is grade B- enough for the bonus?",  # the same words, other symbols
        "What is the notice period for staff?",
        "???",  # no word at all
        "Which form do new staff sign first?",
    ]
    items = []
    for k in range(rng.randint(6, 30)):
        anchors = ()
        if rng.random() < 0.4:
            anchors = (GoldAnchor(source_id=rng.choice(["a.txt", "b.txt"]), quote="The finance director signs it."),)
        question = rng.choice(questions) if rng.random() < 0.7 else f"How long is leave number {k} kept on file?"
        items.append(EvalItem(id=f"q{k}", question=question, answer=rng.choice(["The director", "the director ", None]), anchors=anchors))
    return EvalSet(id="s", items=tuple(items))


@pytest.mark.parametrize("seed", range(20))
def test_told_which_items_repeat_anothers_words_the_repeats_filter_judges_as_it_does_reading_every_item(seed, monkeypatch):
    """The scan tells the review chain which items another asks in the same words (its word join finds them), so
    that the filter reads no other item's words: it keeps, removes and notes exactly what it does reading them all."""
    from collections import Counter

    from reviewtui.evalset.checks import scan as scan_mod
    from reviewtui.evalset.checks.review_filters import review_cautions
    from reviewtui.evalset.text.words import words

    evalset = _copies_set(seed)
    wordings = [" ".join(words(item.question)) for item in evalset.items]
    times = Counter(wordings)
    repeats = frozenset(item.id for item, wording in zip(evalset.items, wordings) if wording and times[wording] > 1)
    plain, told = SameQuestionFilter().judge(evalset.items), SameQuestionFilter(repeats=repeats).judge(evalset.items)
    assert told == plain
    assert [str(entry) for entry in review_cautions(evalset, repeats=repeats)] == [str(entry) for entry in review_cautions(evalset)]
    # and what the scan tells the chain is that
    said: list[object] = []
    real = scan_mod.review_cautions

    def spy(*args, **kwargs):
        said.append(kwargs.get("repeats"))
        return real(*args, **kwargs)

    monkeypatch.setattr(scan_mod, "review_cautions", spy)
    scan_mod.scan_flags(evalset, workers=1)
    assert said == [repeats]
