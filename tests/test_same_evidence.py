"""same-evidence: one answer from one quote, asked twice in other words."""

from __future__ import annotations

import warnings

import pytest

from reviewtui.evalset.checks import same_evidence as mod
from reviewtui.evalset.checks.recheck import STALE_NOTE, recheck_item
from reviewtui.evalset.checks.registry import checks
from reviewtui.evalset.checks.same_evidence import SAME_EVIDENCE, same_evidence_flags, same_evidence_groups
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet

TOWER = "The Eiffel tower was built in 1889 for the World's Fair in Paris, France."


def item(item_id: str, question: str, answer: str | None, quote: str | None = TOWER, source: str = "doc1", **extra) -> EvalItem:
    data: dict = {"id": item_id, "question": question, "answer": answer, **extra}
    if quote is not None:
        data["anchors"] = [{"source_id": source, "quote": quote}]
    return EvalItem.model_validate(data)


def spanned(item_id: str, question: str, end: int) -> EvalItem:
    """An item whose evidence is one span of document d, [0, end), with no quote."""
    return EvalItem.model_validate(
        {"id": item_id, "question": question, "answer": "1889", "gold": [{"span": {"doc_id": "d", "start": 0, "end": end}}]}
    )


def flags_of(items: list[EvalItem], profile: str = "review") -> dict[str, list]:
    scan = scan_flags(EvalSet(id="s", items=tuple(items)), profile=profile)
    return {item_id: [f for f in found if f.check == SAME_EVIDENCE] for item_id, found in scan.flags.items()}


def flagged(items: list[EvalItem], profile: str = "review") -> set[str]:
    return {item_id for item_id, found in flags_of(items, profile).items() if found}


PAIR = [
    item("a", "When was the Eiffel tower built?", "1889"),
    # Jaccard 4/10 with the first: word overlap does not see the repeat.
    item("b", "In what year was the Eiffel tower completed?", "1889"),
]


def test_a_reworded_repeat_is_flagged_low_naming_its_partner():
    """The later question is warned, naming the first to keep; the first, the one to keep, has it as a hint."""
    found = flags_of(PAIR)
    assert [f.related_ids for f in found["a"]] == [("b",)]
    assert [f.related_ids for f in found["b"]] == [("a",)]
    flag = found["b"][0]
    assert flag.severity == Severity.LOW
    assert "'a'" in flag.reason and "'1889'" in flag.reason and "same quote" in flag.reason
    assert flag.reason.endswith("Keep 'a', the first of them, or make each ask something the other does not")
    first = found["a"][0]
    assert first.severity == Severity.HINT and "This one comes first: keep it" in first.reason
    # Not also a near-duplicate: this is the pair overlap misses.
    scan = scan_flags(EvalSet(id="s", items=tuple(PAIR)))
    assert "near-duplicate" not in {f.check for f in scan.for_item("a")}
    assert scan.counts[SAME_EVIDENCE] == 2


def test_only_the_review_profile_runs_it():
    assert flagged(PAIR, profile="goldensetauditor") == set()
    entry = next(c for c in checks() if c.name == SAME_EVIDENCE)
    assert entry.profiles == frozenset({"review"})


@pytest.mark.parametrize(
    "other",
    [
        item("b", "In what year was the Eiffel tower completed?", "1890"),  # another answer
        item("b", "In what year was the Eiffel tower completed?", "1889", quote=TOWER + " It is 330 m tall."),  # other quote
        item("b", "In what year was the Eiffel tower completed?", "1889", source="doc2"),  # other document
        item("b", "In what year was the Eiffel tower completed?", "1889", quote=None),  # no evidence
        item("b", "In what year was the Eiffel tower completed?", None),  # no answer
    ],
)
def test_other_answer_or_evidence_is_not_the_same_question(other):
    assert flagged([PAIR[0], other]) == set()


def test_answer_and_quote_compare_without_case_or_spacing():
    other = item("b", "In what year was the Eiffel tower completed?", " 1889. ", quote="  " + TOWER.upper().replace(" ", "  "))
    assert flagged([PAIR[0], other]) == {"a", "b"}


@pytest.mark.parametrize("answer", ["Yes", "no", "True", "The answer to given question is not present in context", "the"])
def test_stock_answers_say_nothing(answer):
    items = [
        item("a", "Was the Eiffel tower built for a fair?", answer),
        item("b", "Is the Eiffel tower in France?", answer),
    ]
    assert flagged(items) == set()


def test_a_quote_that_is_only_the_answer_says_nothing():
    items = [
        item("a", "When was the Eiffel tower built?", "1889", quote="1889"),
        item("b", "In what year was the Eiffel tower completed?", "1889", quote="1889"),
    ]
    assert flagged(items) == set()


def test_a_quote_that_is_the_whole_answer_counts_when_that_answer_is_a_passage():
    """PIAF's four "what is a cookie" questions expect one 60-word paragraph back, quoted whole: no flag at all."""
    passage = "A cookie is a small file that a website leaves in your browser so that it can recognise you on a later visit."
    items = [
        item("a", "What is a cookie on the web?", passage, quote=passage),
        item("b", "A cookie, what is it for?", passage, quote=passage),
    ]
    assert flagged(items) == {"a", "b"}
    short = "A small file left in your browser."  # a fact, not a passage: two questions may share it
    assert flagged([item("a", "What is a cookie on the web?", short, quote=short), item("b", "A cookie, what is it for?", short, quote=short)]) == set()
    spans = [
        EvalItem.model_validate({"id": k, "question": q, "answer": passage, "gold": [{"span": {"doc_id": "d", "start": 0, "end": len(passage)}}]})
        for k, q in (("a", "What is a cookie on the web?"), ("b", "A cookie, what is it for?"))
    ]
    assert flagged(spans) == {"a", "b"}


def test_the_reason_agrees_with_how_many_questions_it_names():
    passage = "A cookie is a small file that a website leaves in your browser so that it can recognise you on a later visit."
    two = flags_of([item("a", "What is a cookie on the web?", passage, quote=passage), item("b", "A cookie, what is it for?", passage, quote=passage)])
    assert two["a"][0].reason.startswith("probably the question 'b' asks in other words: both expect")
    assert two["a"][0].reason.endswith("drop the later one or make it ask something this one does not")
    assert two["b"][0].reason.endswith("make each ask something the other does not")
    questions = ("What is a cookie on the web?", "A cookie, what is it for?", "What is a browser cookie?")
    three = flags_of([item(k, q, passage, quote=passage) for k, q in zip("abc", questions, strict=True)])
    assert three["b"][0].reason.startswith("probably the questions 'a' and 1 other ask in other words: all expect")
    assert three["b"][0].reason.endswith("make each ask something the others do not")
    assert three["a"][0].severity == Severity.HINT and "This one comes first: keep it" in three["a"][0].reason


def test_real_piaf_paragraph_answers_asked_four_ways_are_flagged(realdata):
    from reviewtui.evalset.io import open_evalset

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evalset = open_evalset(realdata / "qa-piaf-french" / "duplicate_answers.json")
    flags = flags_of(list(evalset.items))
    found = {item_id for item_id, flags in flags.items() if flags}
    assert found == {"a3-p0-q0", "a3-p0-q1", "a3-p0-q2", "a3-p0-q3"}
    # The first is the one to keep, though the rules pair it with neither of the next two but with the last
    # two only, as the second is: the second is linked to it through those and is warned, naming it.
    assert [f.severity for f in flags["a3-p0-q0"]] == [Severity.HINT]
    for later in ("a3-p0-q1", "a3-p0-q2", "a3-p0-q3"):
        (flag,) = flags[later]
        assert flag.severity == Severity.LOW and "Keep 'a3-p0-q0', the first of them" in flag.reason


def test_spans_count_when_they_hold_more_than_the_answer():
    long = [spanned("a", "When was the Eiffel tower built?", 80), spanned("b", "In what year was the Eiffel tower completed?", 80)]
    assert flagged(long) == {"a", "b"}
    short = [spanned("a", "When was the Eiffel tower built?", 6), spanned("b", "In what year was the Eiffel tower completed?", 6)]
    assert flagged(short) == set()


def test_one_frame_with_one_part_swapped_is_left_to_near_duplicate():
    # SQuAD2: two questions about two things one sentence covers.
    quote = "Complexity measures are very generally defined by the Blum complexity axioms."
    items = [
        item("a", "Communication complexity is an example of what type of measure?", "Complexity measures", quote=quote),
        item("b", "Decision tree is an example of what type of measure?", "Complexity measures", quote=quote),
    ]
    assert flagged(items) == set()


def test_questions_pointing_at_different_parts_of_the_quote_are_different():
    quote = "Il part faire des études à l'université de Dar es Salaam en Tanzanie, pays alors dirigé par Julius Nyerere."
    items = [
        item("a", "Dans quel pays a étudié Yoweri Museveni ?", "Tanzanie", quote=quote),
        item("b", "Où est Dar es Salaam ?", "Tanzanie", quote=quote),
    ]
    assert flagged(items) == set()
    # No word of the quote in common (only short or common words): nothing says they ask the same.
    quote = "Böhme aurait vécu, dès l'enfance, des épisodes surnaturels."
    items = [
        item("a", "Qui a été témoin de miracles", "Böhme", quote=quote),
        item("b", "Qui est voué à un avenir hors du commun", "Böhme", quote=quote),
    ]
    assert flagged(items) == set()


def test_exact_and_near_duplicates_keep_their_own_flags():
    exact = [PAIR[0], item("b", "  when was the Eiffel tower built?", "1889")]
    assert flagged(exact) == set()
    near = [PAIR[0], item("b", "When was the Eiffel tower built, exactly?", "1889")]
    scan = scan_flags(EvalSet(id="s", items=tuple(near)))
    assert {f.check for f in scan.for_item("a")} >= {"near-duplicate"}
    assert SAME_EVIDENCE not in {f.check for f in scan.for_item("a")}


def test_a_third_item_named_by_no_other_check_is_still_named():
    items = [*PAIR, item("c", "When was the Eiffel tower built, exactly?", "1889")]
    found = flags_of(items)
    # a and c are near-duplicates; b repeats both in other words.
    assert found["b"][0].related_ids == ("a", "c")
    assert found["a"][0].related_ids == ("b",)
    assert found["c"][0].related_ids == ("b",)


def test_a_huge_group_is_named_by_its_head_and_a_count():
    words = [f"w{k:04d}" for k in range(3000)]
    quote = "The tower was built in 1889, the records say."
    items = [item(f"q{k}", f"{words[k]} tower built {words[-1 - k]} when?", "1889", quote=quote) for k in range(1500)]
    found = flags_of(items)
    assert len(found) == 1500
    flag = found["q0"][0]
    assert len(flag.related_ids) == mod.SHOWN
    assert "at least" in flag.reason


def test_each_answer_and_its_evidence_make_one_group():
    items = [*PAIR, item("c", "When was the tower finished?", "1890"), item("d", "What year did the tower open?", "1890")]
    assert same_evidence_groups(items) == [[0, 1], [2, 3]]


def test_an_edited_item_keeps_the_flag_as_found_before_the_edit():
    before = flags_of(PAIR)["a"]
    edited = item("a", "When was the Eiffel tower built, and by whom?", "1889")
    after = [f for f in recheck_item(edited, before) if f.check == SAME_EVIDENCE]
    assert len(after) == 1 and after[0].reason.endswith(STALE_NOTE)


def test_flags_skip_partners_other_checks_name():
    from reviewtui.evalset.model.flag import Flag

    named = {"a": [Flag("near-duplicate", Severity.LOW, "x", ("b",))]}
    found = same_evidence_flags(PAIR, same_evidence_groups(PAIR), named, frozenset({"near-duplicate"}))
    assert set(found) == {"b"}


def test_real_sets_candidates_are_left_out(realdata):
    from reviewtui.evalset.io import open_evalset

    for name in ("qa-piaf-french/small.json", "qa-piaf-french/tiny.json", "qa-squad2-haystack/small.json"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evalset = open_evalset(realdata / name)
        groups = same_evidence_groups(evalset.items)
        assert groups, name  # the candidates are there...
        assert same_evidence_flags(evalset.items, groups, {}, frozenset()) == {}, name  # ...and none is flagged


# ---- what an attack on the first version found


def test_spans_alone_need_the_questions_to_share_their_subject():
    unrelated = [spanned("a", "What year did the Eiffel tower open?", 2000), spanned("b", "When was the Moulin Rouge cabaret founded?", 2000)]
    assert flagged(unrelated) == set()
    reworded = [spanned("a", "When was the Eiffel tower built?", 2000), spanned("b", "In what year was the Eiffel tower completed?", 2000)]
    assert flagged(reworded) == {"a", "b"}


@pytest.mark.parametrize(
    ("first", "second", "quote"),
    [
        ("When was the Eiffel tower built?", "In which year was the Eiffel tower built?", TOWER),
        (
            "Who designed the Eiffel tower?",
            "Which engineer's company designed the Eiffel tower?",
            "The Eiffel tower was designed by the engineering company of Gustave Eiffel.",
        ),
    ],
)
def test_a_pair_that_differs_only_in_how_it_asks_is_a_repeat(first, second, quote):
    items = [item("a", first, "Gustave Eiffel", quote=quote), item("b", second, "Gustave Eiffel", quote=quote)]
    assert mod.one_part_swapped(mod.words(first), mod.words(second)) is False
    assert flagged(items) == {"a", "b"}


def test_reworded_chinese_questions_are_compared_by_character_pairs():
    quote = "埃菲尔铁塔建于1889年，为世界博览会而建。"
    items = [item("a", "埃菲尔铁塔是哪一年建成的？", "1889年", quote=quote), item("b", "埃菲尔铁塔建于何年？", "1889年", quote=quote)]
    assert flagged(items) == {"a", "b"}


@pytest.mark.parametrize(
    "answer",
    [
        "The context does not provide this information.",
        "I don't know",
        "Not enough information",
        "The document does not state this.",
        "Not in context",
        "NOT_ANSWERABLE",
        "no_answer",
        "Yes, it does.",
    ],
)
def test_more_stock_answers(answer):
    items = [
        item("a", "Who owns the Eiffel tower today?", answer),
        item("b", "Who owns the Eiffel tower now, and since when?", answer),
    ]
    assert flagged(items) == set()


def test_composed_and_decomposed_accents_compare_equal():
    import unicodedata

    quote = "Le Café de Flore est un café parisien du boulevard Saint-Germain."
    nfd = unicodedata.normalize("NFD", quote)
    items = [
        item("a", "Quel café parisien est sur le boulevard Saint-Germain ?", "Café de Flore", quote=quote),
        item("b", "Quel café du boulevard Saint-Germain est parisien ?", unicodedata.normalize("NFD", "« Café de Flore »"), quote=nfd),
    ]
    assert same_evidence_groups(items) == [[0, 1]]


def test_a_quote_that_is_only_the_answer_is_left_out_of_the_evidence():
    items = [
        EvalItem.model_validate(
            {
                "id": "a",
                "question": "When was the Eiffel tower built?",
                "answer": "1889",
                "anchors": [{"source_id": "doc1", "quote": TOWER}, {"source_id": "doc1", "quote": "1889"}],
            }
        ),
        PAIR[1],
    ]
    assert same_evidence_groups(items) == [[0, 1]]


def test_the_reason_names_spans_when_spans_were_compared():
    found = flags_of([spanned("a", "When was the Eiffel tower built?", 80), spanned("b", "In what year was the Eiffel tower completed?", 80)])
    assert "same span" in found["a"][0].reason and "quote" not in found["a"][0].reason


def test_a_long_answer_is_cut_before_it_is_escaped():
    answer = "x" * 58 + "\u202e" + " and more words after the override"
    items = [item("a", "When was the Eiffel tower built?", answer), item("b", "In what year was the Eiffel tower completed?", answer)]
    reason = flags_of(items)["a"][0].reason
    assert "\u202e" not in reason
    assert "\\u202e" in reason or "U+202E" in reason


def test_a_long_comparison_can_be_stopped():
    from reviewtui.evalset.jobs.cancel import ScanCancelled

    words_ = [f"w{k:04d}" for k in range(5000)]
    items = [item(f"q{k}", f"{words_[k]} tower built {words_[-1 - k]} when?", "1889") for k in range(2500)]
    groups = same_evidence_groups(items)
    with pytest.raises(ScanCancelled):
        same_evidence_flags(items, groups, {}, frozenset(), should_stop=lambda: True)


def test_span_only_real_candidates_are_left_out(realdata):
    from reviewtui.evalset.io import open_evalset

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evalset = open_evalset(realdata / "qa-piaf-french/small.json")
    stripped = [i.model_copy(update={"anchors": ()}) for i in evalset.items]
    groups = same_evidence_groups(stripped)
    assert groups
    assert same_evidence_flags(stripped, groups, {}, frozenset()) == {}


def test_the_forked_scan_finds_the_same(monkeypatch):
    from reviewtui.evalset.jobs.fork import can_fork
    from tests.threads import only_this_thread

    if not (only_this_thread() and can_fork()):
        pytest.skip("this process cannot fork (other threads running)")
    items = [*PAIR, item("c", "What event was the tower made for?", "the World's Fair")]
    items += [item(f"x{k}", f"Filler question number {k} about lanterns?", f"answer {k}", quote=f"Lantern fact {k}.") for k in range(60)]
    evalset = EvalSet(id="s", items=tuple(items))
    alone = scan_flags(evalset, workers=1)
    forked = scan_flags(evalset, workers=2)
    assert forked.to_dict() == alone.to_dict()
    assert {i for i, found in forked.flags.items() if any(f.check == SAME_EVIDENCE for f in found)} == {"a", "b"}


def test_a_pair_late_in_a_large_group_is_still_compared():
    # Seventy questions about other words of the same quote come first: a pair after them that
    # repeats itself must still be found (an item is compared with the members sharing its words).
    quote = "Records " + " ".join(f"alpha{k}" for k in range(70)) + " say the tower was finished in 1889."
    fillers = [item(f"f{k}", f"What about alpha{k}?", "1889", quote=quote) for k in range(70)]
    pair = [
        item("p1", "When was the tower finished?", "1889", quote=quote),
        item("p2", "In which year did they complete the tower?", "1889", quote=quote),
    ]
    assert flagged([*fillers, *pair]) == {"p1", "p2"}


def test_the_one_to_keep_is_among_the_questions_each_member_names(realdata):
    """PIAF's four cookie questions link only across two halves (q0 and q1 each to q2 and q3): q1 was told to keep
    q0, which its reason did not name, and q0 told to drop q2 and q3 only, so following it kept q1 as well."""
    from reviewtui.evalset.checks.scan import scan_flags
    from reviewtui.evalset.io import open_evalset

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evalset = open_evalset(realdata / "qa-piaf-french" / "duplicate_answers.json")
    flags = scan_flags(evalset).flags
    cookie = [f"a3-p0-q{k}" for k in range(4)]
    shown = {item_id: next(f for f in flags[item_id] if f.check == SAME_EVIDENCE) for item_id in cookie}
    for item_id, flag in shown.items():
        assert set(flag.related_ids) == set(cookie) - {item_id}, (item_id, flag.related_ids)
        # its own partners said to ask the same; the one linked only through them said to be so linked
        assert "and 1 other ask in other words (and, through them, 'a3-p0-q" in flag.reason, flag.reason
    assert shown["a3-p0-q0"].severity is Severity.HINT and "This one comes first" in shown["a3-p0-q0"].reason
    for item_id in cookie[1:]:
        assert shown[item_id].severity is Severity.LOW and "Keep 'a3-p0-q0', the first of them" in shown[item_id].reason


def test_a_question_linked_only_through_a_broad_one_is_said_to_be_linked_not_to_ask_the_same():
    """A and C ask different things (the rule finds no pair), B asks both: C was told A asks it in other words."""
    quote = "Museveni studied at the University of Dar es Salaam in Tanzania"
    items = [
        item("A", "In which country was Museveni when he studied?", "Tanzania", quote=quote),
        item("C", "Where is Dar es Salaam?", "Tanzania", quote=quote),
        item("B", "Which country holds Dar es Salaam, where Museveni studied?", "Tanzania", quote=quote),
    ]
    found = same_evidence_flags(items, same_evidence_groups(items), {}, frozenset())
    assert found["C"].reason.startswith("probably the question 'B' asks in other words (and, through it, 'A'): all expect")
    assert found["B"].reason.startswith("probably the questions 'A' and 1 other ask in other words: all expect")
    assert found["A"].severity is Severity.HINT and found["C"].severity is Severity.LOW
