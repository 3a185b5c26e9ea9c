"""Near-duplicates on a set with many of them: clusters and capped lists, so the output grows with the questions."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.findings import PARTNERS_READ, PARTNERS_SHOWN
from reviewtui.evalset.checks.scan import scan_flags


def _variants(n: int) -> cg.EvalSet:
    """n wordings of one question, each with its own last word: every two of them are near-duplicates."""
    stem = "Which permit does a contractor need before starting excavation work near buried gas pipelines in"
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"{stem} district{k}?", answer=f"a{k}") for k in range(n))
    return cg.EvalSet(id="variants", items=items)


def test_the_review_audit_reports_a_cluster_once_with_its_pairs_and_closest():
    scan = scan_flags(_variants(30))
    (finding,) = scan.audit.of_check("near-duplicates")
    assert len(finding.item_ids) == 30 and finding.evidence["pairs"] == 30 * 29 // 2
    assert len(finding.evidence["closest"]) == 3 and "435 pairs share at least 82%" in finding.detail
    checks = {c.check: c for c in scan.audit.checks}
    assert (checks["near-duplicates"].findings, checks["near-duplicates"].items) == (1, 30)


def test_the_tools_profile_still_lists_every_pair():
    scan = scan_flags(_variants(30), profile="goldensetauditor")
    assert len(scan.audit.of_check("near-duplicates")) == 30 * 29 // 2


def test_a_flag_names_a_few_partners_and_counts_the_rest():
    n = PARTNERS_READ + 1  # every partner read (and counted exactly), more than are named
    assert n - 1 > PARTNERS_SHOWN
    scan = scan_flags(_variants(n))
    (flag,) = [f for f in scan.for_item("q0") if f.check == "near-duplicate"]
    assert len(flag.related_ids) == PARTNERS_SHOWN and flag.related_ids[0] == "q1"
    assert f"and {n - 2} others" in flag.reason  # one partner named in the reason, the rest counted


def test_past_what_is_read_the_count_says_at_least():
    n = PARTNERS_READ + 40
    scan = scan_flags(_variants(n))
    (flag,) = [f for f in scan.for_item("q5") if f.check == "near-duplicate"]
    assert len(flag.related_ids) == PARTNERS_SHOWN
    assert "and at least" in flag.reason
    # The order-dependent filter's verdict is still exact: every copy after the first goes.
    assert "`filter --profile goldensetauditor` drops this one and keeps 'q0'" in flag.reason
    chain = scan.chain
    assert [r.item_id for r in chain.rejected if r.filter == "near-duplicate"] == [f"q{k}" for k in range(1, n)]


def _set(questions: list[str]) -> cg.EvalSet:
    return cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=f"q{k}", question=q, answer=f"a{k}") for k, q in enumerate(questions)))


def test_many_exact_copies_do_not_crowd_out_the_near_duplicate():
    """Copies are exact duplicates, not partners: 30 of them still leave each one its near-duplicate."""
    scan = scan_flags(_set(["What is the capital city of France?"] * 30 + ["What is the capital city of France today?"]))
    for k in (0, 15, 29):
        (flag,) = [f for f in scan.for_item(f"q{k}") if f.check == "near-duplicate"]
        assert flag.reason.startswith("nearly the same question as 'q30'") and flag.related_ids == ("q30",)
        assert "others" not in flag.reason


def test_the_filter_keeps_a_question_over_a_near_duplicate_only_when_it_drops_one():
    scan = scan_flags(_set(["What is the capital city of France?"] * 2 + ["capital city of France?"]))
    (flag,) = [f for f in scan.for_item("q0") if f.check == "near-duplicate"]
    assert "keeps this one" not in flag.reason  # it is kept over its exact copy, q1, which is no near-duplicate


def test_a_clusters_closest_pairs_are_the_closest():
    from reviewtui.evalset.checks.audit import audit

    questions = [
        "alpha beta gamma delta epsilon",
        "beta alpha gamma delta epsilon",
        "gamma beta alpha delta epsilon",
        "alpha beta gamma delta epsilon zeta",
    ]
    (finding,) = audit(_set(questions), every_script=True).of_check("near-duplicates")
    assert finding.evidence["closest"] == [["q0", "q1", 1.0], ["q0", "q2", 1.0], ["q1", "q2", 1.0]]
    assert finding.evidence["pairs"] == 6


def test_partners_read_from_a_groups_shared_head_are_the_first_others_of_every_member():
    """Against the definition, on random groups with many copies: the first PARTNERS_READ positions of the
    item's group and its linked groups that are not the item's own question, and whether that is all."""
    import random
    from array import array

    from reviewtui.evalset.checks.findings import NearDuplicateLinks
    from reviewtui.evalset.checks.simgroups import SimilarGroups

    rng = random.Random(5)
    for _ in range(40):
        n = rng.randrange(2, 160)
        group_of = array("l", (rng.randrange(rng.randrange(1, 8)) for _ in range(n)))
        used = sorted(set(group_of), key=list(group_of).index)
        renumber = {g: i for i, g in enumerate(used)}
        group_of = array("l", (renumber[g] for g in group_of))
        members = [array("l", (k for k in range(n) if group_of[k] == g)) for g in range(len(used))]
        links = sorted({tuple(sorted(rng.sample(range(len(used)), 2))) for _ in range(rng.randrange(3))} if len(used) > 1 else set())
        groups = SimilarGroups(group_of, links)
        # Few forms, so many copies of each; a form (the question itself) belongs to one group of words.
        forms = [(group_of[k], rng.randrange(rng.choice((2, 5, 40)))) for k in range(n)]
        links_of = NearDuplicateLinks([], {}, forms, {}, groups)
        for k in range(n):
            g = group_of[k]
            reach = [o for h in (g, *groups.neighbours(g)) for o in members[h]]
            others = sorted(o for o in reach if forms[o] != forms[k])
            assert links_of._partners(groups, k, forms) == (others[:PARTNERS_READ], len(others) <= PARTNERS_READ)


def test_past_what_is_read_a_lone_partner_from_the_same_document_never_says_at_least_0():
    """The partners read were asked of other documents but one; those past them were not read, so there may be more."""
    stem = "Which permit does a contractor need before starting excavation work near buried gas pipelines in"

    def item(k: int, doc: str) -> cg.EvalItem:
        anchor = cg.GoldAnchor(source_id=doc, quote=f"quote {k}")
        return cg.EvalItem(id=f"q{k}", question=f"{stem} district{k}?", answer=f"a{k}", anchors=(anchor,))

    items = [item(0, "a.txt"), item(1, "a.txt")] + [item(k, "b.txt") for k in range(2, PARTNERS_READ + 20)]
    scan = scan_flags(cg.EvalSet(id="docs", items=tuple(items)))
    (flag,) = [f for f in scan.for_item("q0") if f.check == "near-duplicate"]
    assert flag.reason.startswith("nearly the same question as 'q1'") and flag.related_ids == ("q1",)
    assert "at least 0" not in flag.reason and "and perhaps others" in flag.reason


def test_the_audit_reports_the_same_whether_or_not_the_join_gathers_kins(monkeypatch):
    """Kins are how the join holds a template filled in with a number, not a change to what the audit says."""
    from reviewtui.evalset.checks import simgroups
    from reviewtui.evalset.checks.audit import audit

    stems = [  # the first two alike (16 of 19 content words with their own), the third like neither
        "Which permit does a licensed contractor need from the county before starting trench excavation work near buried gas pipelines in",
        "Which permit does a licensed contractor need from the county before starting trench excavation work near buried gas pipelines today in",
        "How many inspectors visit the site every month in",
    ]
    questions = [f"{stems[k % 3]} district{k}?" for k in range(90)]
    questions += questions[:7] + [q.upper() for q in questions[7:12]]  # copies, and copies in capitals
    # Rare words shared: the second stem and the third asked of districts the first was asked of (the
    # second's are closer to the first's than the rest of their kins' pairs, the third's are not similar).
    questions += [f"{stems[1]} district{k}?" for k in (0, 3, 6)] + [f"{stems[2]} district{k}?" for k in (9, 12)]
    evalset = _set(questions)
    with_kins = [audit(evalset, every_script=every).to_dict() for every in (True, False)]
    gathered = simgroups.similar_groups(
        [frozenset(q.lower().rstrip("?").split()) for q in questions], 0.82
    )
    assert gathered.kin_groups is not None and len(gathered.kin_groups) < 60  # the stems' kins, not a group each
    assert len(gathered.boosted) > 0  # pairs that share a district of their own, besides their kins' link
    monkeypatch.setattr(simgroups, "_kin_plan", lambda *args: None)
    without = [audit(evalset, every_script=every).to_dict() for every in (True, False)]
    assert with_kins == without
    findings = audit(evalset, every_script=True).of_check("near-duplicates")
    assert len(findings) == 1 and findings[0].evidence["pairs"] > 2000


def test_questions_with_the_same_content_words_name_the_other_words_that_tell_them_apart():
    """A template filled in with a one-digit number: the content words are the same, the questions are not."""
    scan = scan_flags(_set([f"What is the thing number {i} in the warehouse inventory list?" for i in range(3)]))
    (flag,) = [f for f in scan.for_item("q1") if f.check == "near-duplicate"]
    assert "100% of content words shared; they differ only in words not counted as content: here '1', there '0'" in flag.reason
    assert "same words" not in flag.reason
    # Reordered, with the same words: still said so.
    scan = scan_flags(_set(["alpha beta gamma delta epsilon", "beta alpha gamma delta epsilon"]))
    (flag,) = [f for f in scan.for_item("q1") if f.check == "near-duplicate"]
    assert "same words, in another order or form" in flag.reason


def test_a_cluster_of_two_with_the_same_content_words_does_not_claim_they_are_reordered():
    from reviewtui.evalset.checks.audit import audit

    questions = ["What is the thing number 1 in the list of things?", "What is the thing number 2 in the list of things?"]
    (finding,) = audit(_set(questions), every_script=True).of_check("near-duplicates")
    assert finding.detail.startswith("two different questions have the same content words (")
    assert "or with other words not counted as content" in finding.detail
