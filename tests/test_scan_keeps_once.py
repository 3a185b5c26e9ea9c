"""What a large scan keeps in memory is kept once: the set's own id table, the items' own id
strings, each question's form only where it is compared, token rows made after the word sets go.

Each of these was a second copy of something the size of the set, in the process whose peak is
the audit command's (see benchmarks/bench_audit_scale.py for the whole command).
"""

from __future__ import annotations

import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from reviewtui.evalset.checks import audit as audit_mod
from reviewtui.evalset.checks import scan as scan_mod
from reviewtui.evalset.checks.audit import audit, prepare
from reviewtui.evalset.checks.scan import FlagScan
from reviewtui.evalset.checks.scan_parts import word_groups
from reviewtui.evalset.checks.warninglog import WarningLog
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import TokenRows, script_tokens

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from synth import generate_evalset  # noqa: E402


def _set(questions: list[tuple[str, str]]) -> EvalSet:
    return EvalSet("s", tuple(EvalItem(f"q{k}", q, answer=a) for k, (q, a) in enumerate(questions)))


# ---------------------------------------------------------------- the set's id table


def test_a_sets_positions_are_its_own_table_and_read_only():
    evalset = _set([("What is one?", "1"), ("What is two?", "2"), ("What is three?", "3")])
    positions = evalset.positions
    assert dict(positions) == {"q0": 0, "q1": 1, "q2": 2}
    assert positions["q2"] == 2 and evalset.items[positions["q1"]].id == "q1"
    with pytest.raises(TypeError):
        positions["q9"] = 9  # type: ignore[index]
    assert dict(evalset.with_items(evalset.items[::-1]).positions) == {"q2": 0, "q1": 1, "q0": 2}


# ---------------------------------------------------------------- exact duplicates, grouped by hash


QUESTIONS = [
    ("What is the capital of France?", "Paris"),
    ("Who wrote Hamlet?", "Shakespeare"),
    ("  what is the capital of france?", "Paris"),  # the first, trimmed and lower-cased
    ("Who painted the Mona Lisa?", "Leonardo"),
    ("WHO WROTE HAMLET?", "Marlowe"),  # the second, with another answer: a conflict
    ("Who painted the Mona Lisa?", "Leonardo"),
    ("How tall is Everest?", "8849 m"),
]


def _duplicates(evalset: EvalSet) -> list[tuple[str, tuple[str, ...]]]:
    report = audit(evalset)
    wanted = (audit_mod.CONFLICTING, audit_mod.EXACT_DUPLICATES)
    return [(f.check, f.item_ids) for f in report.findings if f.check in wanted]


def test_repeated_questions_are_grouped_in_order_of_their_first_asking():
    assert audit_mod._repeated_forms(prepare(_set(QUESTIONS).items)) == [[0, 2], [1, 4], [3, 5]]
    assert _duplicates(_set(QUESTIONS)) == [
        (audit_mod.CONFLICTING, ("q1", "q4")),
        (audit_mod.EXACT_DUPLICATES, ("q0", "q2")),
        (audit_mod.EXACT_DUPLICATES, ("q3", "q5")),
    ]


@pytest.mark.parametrize("colliding", [lambda form: 0, lambda form: len(form) % 3])
def test_questions_whose_forms_hash_alike_are_told_apart_by_their_text(monkeypatch, colliding):
    """Grouping goes by each form's hash; two different questions with one hash are still two questions."""
    expected = _duplicates(_set(QUESTIONS))
    monkeypatch.setattr(audit_mod, "hash", colliding, raising=False)  # the module's name shadows the builtin
    assert audit_mod._repeated_forms(prepare(_set(QUESTIONS).items)) == [[0, 2], [1, 4], [3, 5]]
    assert _duplicates(_set(QUESTIONS)) == expected


def test_grouping_by_hash_agrees_with_grouping_by_text_on_many_questions():
    rng = random.Random(5)
    stems = [f"What is item {k}?" for k in range(300)]
    questions = [(rng.choice([s, s.upper(), f"  {s.lower()} "]), "x") for s in rng.choices(stems, k=1200)]
    by_text: dict[str, list[int]] = {}
    for k, (question, _) in enumerate(questions):
        by_text.setdefault(question.strip().lower(), []).append(k)
    expected = [positions for positions in by_text.values() if len(positions) > 1]
    assert audit_mod._repeated_forms(prepare(_set(questions).items)) == expected


def test_forms_are_made_only_for_the_questions_asked_for():
    prep = prepare(_set(QUESTIONS).items)
    audit_mod._repeated_forms(prep)
    # Only the first asking of a repeated form is read back (to compare texts), none of the others.
    assert sorted(prep.normalised) == [0, 1, 3]
    assert prep.normalised[6] == "how tall is everest?"


# ---------------------------------------------------------------- token rows made after the word sets


def test_packed_rows_are_the_rows_and_share_the_tables_numbers():
    direct, packed = TokenRows(), TokenRows()
    texts = ["alpha beta gamma", "beta delta", "", "gamma gamma alpha epsilon 1000 words"]
    from array import array

    flat, ends = array("l"), array("q")
    for text in texts:
        direct.add(text.split())
        flat.extend(packed.row(text.split()))
        ends.append(len(flat))
    packed.extend_packed(flat, ends)
    assert list(packed) == list(direct) and packed.numbers == direct.numbers
    own = list(packed.numbers.values())
    assert all(member is own[member] for row in packed for member in row)  # no int of its own per token


def test_the_word_join_hands_the_audit_the_tokens_it_would_make_itself():
    items = generate_evalset(600, seed=4).items
    tokens = TokenRows()
    word_groups(items, None, tokens, every_script=True)
    again = TokenRows()
    for item in items:
        again.add(script_tokens(item.question))
    assert len(tokens) == len(items)
    spelled = {number: word for word, number in tokens.numbers.items()}
    respelled = {number: word for word, number in again.numbers.items()}
    assert [{spelled[n] for n in row} for row in tokens] == [{respelled[n] for n in row} for row in again]


# ---------------------------------------------------------------- the child's findings name this process's ids


def test_findings_from_the_scans_child_name_the_items_own_id_strings():
    # In a fresh interpreter: this one may run threads (numpy's, the app's), and then a scan does not fork.
    script = f"""
import sys
sys.path.insert(0, {str(ROOT / "benchmarks")!r})
from synth import generate_evalset  # noqa: E402
from reviewtui.evalset.checks import scan
from reviewtui.evalset.jobs.fork import can_fork

assert can_fork()
forked = []
start = scan._start_child
scan._start_child = lambda *args: forked.append(1) or start(*args)
evalset = generate_evalset(2500, seed=2)
parallel = scan.scan_flags(evalset, workers=2)
assert forked, "the scan did not fork"
assert parallel.audit.findings == scan.scan_flags(evalset, workers=1).audit.findings
own = {{id(item.id) for item in evalset.items}}
named = [item_id for finding in parallel.audit.findings for item_id in finding.item_ids]
assert len(named) > 50, len(named)
print(sum(id(item_id) in own for item_id in named), len(named))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    shared, named = map(int, done.stdout.split())
    assert shared == named  # every id a finding names is the item's own string


# ---------------------------------------------------------------- writing the flags of a report


def _scan_with(flags: dict[str, list[Flag]]) -> FlagScan:
    return FlagScan(flags, WarningLog(), audit(_set([("What is one?", "1")])), lambda: None, len(flags))  # type: ignore[arg-type,return-value]


def test_flags_are_written_as_dicts_shared_where_the_flag_is_and_never_all_kept(monkeypatch):
    """A flag shared by many items is made a dict once; flags of their own (a duplicate naming its partners)
    are not all kept until the last item is written."""
    monkeypatch.setattr(scan_mod, "_DICTS_KEPT", 100)
    common = Flag("weak-answer", Severity.HINT, "a short answer")
    flags = {
        f"q{k}": [Flag("exact-duplicate", Severity.MEDIUM, f"asked again as q{k + 1}", tuple(f"q{k + j}" for j in range(1, 6))), common]
        for k in range(20_000)
    }
    scan = _scan_with(flags)
    expected = {item_id: [flag.to_dict() for flag in listed] for item_id, listed in flags.items()}
    assert dict(scan.dicts()) == expected

    tracemalloc.start()
    try:
        shared_dicts = set()
        for _, listed in scan.dicts():
            shared_dicts.add(id(listed[1]))  # read, then dropped, as the report's writer drops each batch
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(shared_dicts) < 20_000 // 90  # the shared flag's dict is reused between clearings
    assert peak < 2 << 20, peak  # all 20,000 dicts of their own would be about 9 MB


# ---------------------------------------------------------------- the audit's rows, dropped once read where allowed


def test_the_audit_drops_each_token_row_once_read_only_when_its_caller_allows():
    items = generate_evalset(400, seed=6).items
    kept = prepare(items, every_script=True)
    rows_before = list(kept.question_tokens)
    expected = audit(items, prepared=kept, every_script=True)
    assert list(kept.question_tokens) == rows_before  # by default the caller's rows are left alone

    released = prepare(items, every_script=True)
    released.release_tokens = True
    assert audit(items, prepared=released, every_script=True) == expected  # the same report
    assert all(row == () for row in released.question_tokens)  # every row dropped once read
    assert released.near_groups == kept.near_groups  # the join ran before the rows went


def test_the_audits_checks_report_progress_in_order_whatever_order_they_run_in():
    seen: list[tuple[int, int]] = []
    audit(generate_evalset(50, seed=1), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


# ---------------------------------------------------------------- near-duplicate links: flat working tables

_TWENTY_WORDS = (
    "saddle glacier signal canyon timber velvet thunder lantern ember marble copper meadow falcon anchor orchard "
    "prism violet willow harbor ledger"
).split()


def test_the_near_duplicate_links_keep_their_working_tables_flat(monkeypatch):
    """Where nearly every question has partners, what the links work out ahead of the flags (each group's
    first partners, each item's first partner and shared ground) costs bytes per item, not a tuple and a
    dict entry per item and per group (about 390 bytes an item before)."""
    rng = random.Random(3)
    words = _TWENTY_WORDS
    evalset = EvalSet(
        "s",
        tuple(
            EvalItem(f"q{k}", " ".join(rng.choice(words) for _ in range(rng.randint(4, 7))).capitalize() + "?", answer="Copper")
            for k in range(5_000)
        ),
    )
    made = []
    real_links = scan_mod._links
    monkeypatch.setattr(scan_mod, "_links", lambda *args: made.append(real_links(*args)) or made[-1])
    expected = scan_mod.scan_flags(evalset, workers=1).flags

    scanned = made[0]
    links = type(scanned)(scanned.items, scanned.sets, scanned.normalised, scanned.position, scanned.words)
    assert len(links.words.involved()) > 3_000
    for k in range(len(evalset)):  # the questions' forms are the scan's own table (see above), not the links'
        links.normalised[k]
    tracemalloc.start()
    try:
        links.prepare()
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept < 200 * len(evalset), kept / len(evalset)

    # Worked out ahead or not, the flags are the same; once the forms are numbered for the flags, the
    # strings the links cached while working ahead are let go.
    monkeypatch.setattr(scan_mod, "_links", lambda *args: links)
    assert len(links.normalised) == len(evalset)
    assert scan_mod.scan_flags(evalset, workers=1).flags == expected
    assert len(links.normalised) == 0


def test_the_near_duplicate_reasons_keep_no_word_set_nor_a_copy_of_each_difference(monkeypatch):
    """Where every question has partners, the reasons' figures ("83% of words shared") read the word sets of
    nearly every item: the scan's table of them (filled only for the items with a partner when the word join
    ran in this process, empty when it ran in the child) stays as it was, and is not filled for the whole set
    and held to the end of the scan (12 MB at 100k items). What differs between two groups of words is kept
    once per distinct text while the flags are made, not once per pair of groups."""
    from reviewtui.evalset.jobs.fork import can_fork
    from tests.threads import only_this_thread

    if not (only_this_thread() and can_fork()):
        pytest.skip("this process cannot fork (other threads running)")
    rng = random.Random(5)
    evalset = EvalSet(
        "s",
        tuple(
            EvalItem(f"q{k}", " ".join(rng.choice(_TWENTY_WORDS) for _ in range(rng.randint(4, 7))).capitalize() + "?", answer="Copper")
            for k in range(3_000)
        ),
    )
    made = []
    real_links = scan_mod._links
    monkeypatch.setattr(scan_mod, "_links", lambda *args: made.append(real_links(*args)) or made[-1])
    expected = scan_mod.scan_flags(evalset, workers=1).flags
    made.clear()
    scanned = scan_mod.scan_flags(evalset, workers=2)
    assert scanned.flags == expected
    links = made[0]
    assert len(links.words.involved()) > 1_000
    assert len(links.sets) == 0  # the join ran in the child: no word set was kept here, before the flags or after

    # The differences worked out ahead: as many texts as differ, each once.
    links = type(links)(links.items, links.sets, links.normalised, links.position, links.words)
    links.prepare()
    texts = list(links._differences.values())
    assert len(texts) > 1_000 and len({id(text) for text in texts}) == len(set(texts)) < 200


def _twenty_word_set(n: int, seed: int) -> EvalSet:
    rng = random.Random(seed)
    return EvalSet(
        "s",
        tuple(
            EvalItem(f"q{k}", " ".join(rng.choice(_TWENTY_WORDS) for _ in range(rng.randint(4, 7))).capitalize() + "?", answer="Copper")
            for k in range(n)
        ),
    )


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_the_near_duplicate_reasons_are_kept_in_pieces_shared_with_the_set_and_each_other(profile):
    """A near-duplicate reason names items, so each item's is its own string: where every question has partners,
    one per item held to the end of the scan (30 MB at 100k items). What a flag keeps of its reason is the set's
    own id strings and text shared with other reasons; the reason reads, compares, hashes and pickles as before."""
    import pickle
    from dataclasses import replace

    from reviewtui.evalset.checks.findings import PiecedFlag, at_severity

    evalset = _twenty_word_set(3_000, 7)
    scanned = scan_mod.scan_flags(evalset, workers=1, profile=profile)
    near = [f for found in scanned.flags.values() for f in found if f.check == "near-duplicate"]
    assert len(near) > 1_000
    slot = Flag.__dict__["reason"]  # what the flag keeps, under the reason it reads as
    own_ids = {id(item.id) for item in evalset.items}
    kept: dict[int, int] = {}
    for flag in near:
        held = slot.__get__(flag)
        kept[id(held)] = sys.getsizeof(held)
        for piece in () if isinstance(held, str) else held:
            if id(piece) not in own_ids:
                kept[id(piece)] = sys.getsizeof(piece)
    whole = sum(sys.getsizeof(flag.reason) for flag in near)  # what each reason made whole would hold
    assert sum(kept.values()) < whole * 0.7, (sum(kept.values()) / len(near), whole / len(near))

    pieced = [f for f in near if type(f) is PiecedFlag]
    assert pieced
    if profile == "review":  # weighed for the profile (the first copy's flag a hint), still in pieces
        assert Severity.HINT in {f.severity for f in pieced}
    for flag in pieced[:200]:
        whole = Flag(flag.check, flag.severity, flag.reason, flag.related_ids)
        assert flag == whole and whole == flag and hash(flag) == hash(whole) and repr(flag) == repr(whole)
        assert flag != Flag(flag.check, flag.severity, flag.reason + ".", flag.related_ids)
        again = pickle.loads(pickle.dumps(flag))
        assert type(again) is Flag and again == whole
        assert flag.to_dict() == whole.to_dict()
        assert replace(flag, severity=Severity.HIGH) == Flag(flag.check, Severity.HIGH, flag.reason, flag.related_ids)
        weighed = at_severity(flag, Severity.LOW)
        assert slot.__get__(weighed) is slot.__get__(flag) and weighed.severity is Severity.LOW
    assert all(flag.reason.startswith(("nearly the same question as '", "worded like '")) for flag in pieced)


def test_what_the_duplicate_filter_drops_is_held_as_a_flat_table_read_as_the_rule_gives_it(monkeypatch):
    """Held while the near-duplicate flags are made, at the scan's peak: where most items are someone's later copy,
    a dict of them held an entry and two numbers of their own per item (about 70 bytes an item)."""
    evalset = _twenty_word_set(3_000, 11)
    made = []
    real_link = scan_mod._link
    monkeypatch.setattr(scan_mod, "_link", lambda *args: made.append((args[0], real_link(*args))) or made[-1][1])
    scan_mod.scan_flags(evalset, workers=1)
    mine, linked = made[0]
    expected = mine.word_groups.first_kept()
    dropped = linked.dropped
    assert len(expected) > 500 and len(dropped) == len(expected) and dict(dropped.items()) == expected
    assert list(dropped) == sorted(expected) and dropped == expected and expected == dropped
    n = len(evalset)
    for k in [*range(n), -1, n, n + 5]:
        assert (k in dropped) == (k in expected) and dropped.get(k) == expected.get(k) and dropped.get(k, "-") == expected.get(k, "-")
    assert "q1" not in dropped and dropped.get("q1") is None  # type: ignore[call-overload]
    with pytest.raises(KeyError):
        dropped[next(k for k in range(n) if k not in expected)]
    tracemalloc.start()
    try:
        table = scan_mod._KeptTable(expected, n)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert table == expected and kept < 10 * n, kept / n


@pytest.mark.parametrize("every_script", [False, True])
def test_questions_asked_again_are_found_among_those_that_share_a_token_row_as_among_all(every_script):
    # After the near-duplicate join, forms are made only for the questions whose row another shares, those without
    # a token and those not in ASCII: two questions of one form, one of them in ASCII, always share a row. Copies
    # told apart by case, spacing, a no-break space, a Kelvin sign, a final sigma or a dotted capital I are found
    # as they are among every form.
    rng = random.Random(11)
    stems = [
        "What is the capital of France?", "Who wrote Hamlet?", "What is it?", "How many KB is a MB?", "Was ist ÖL?",
        "Où est la gare ?", "ΤΙ ΕΙΝΑΙ ΟΔΟΣ?", "İstanbul nerede?", "What is snake_case?", "Is 5 more than 3?", "何ですか？",
    ]
    variants = [
        lambda s: s, str.upper, str.lower, lambda s: f"  {s}\t", lambda s: s.replace(" ", "\u00a0"),
        lambda s: s.replace(" ", "  "), lambda s: s.replace("K", "\u212a"), lambda s: s.replace("k", "\u212a"),
    ]
    questions = [(rng.choice(variants)(rng.choice(stems)), "x") for _ in range(400)]
    questions += [(f"Question number {k} about {rng.choice(stems)}", "y") for k in range(100)]
    items = _set(questions).items
    everywhere = prepare(items, every_script=every_script)
    expected = audit_mod._repeated_forms(everywhere)
    joined = prepare(items, every_script=every_script)
    audit_mod.near_duplicate_groups(joined, 0.82, tokenless=not every_script)
    assert audit_mod._repeated_forms(joined) == expected
    assert len(expected) > 10 and len(list(audit_mod._may_repeat(joined))) < len(items)
