"""One pair, one number: the app's flag and the audit report give the same overlap for a pair both found."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.report import render
from reviewtui.evalset.checks.scan import scan_flags


def test_a_pair_the_audit_found_is_described_by_the_audits_figure_everywhere():
    items = (
        cg.EvalItem(id="a", question="Which long river flows slowly through the old city of Prague in the Czech Republic today?"),
        cg.EvalItem(id="b", question="Which long river flows slowly through the old city of Prague in the Czech Republic now?"),
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items), profile="goldensetauditor")
    (finding,) = scan.audit.of_check("near-duplicates")
    assert "share 85% of their content words" in finding.detail  # 11 of 13 content words; 15 of 17 words is 88%
    (flag,) = [f for f in scan.for_item("a") if f.check == "near-duplicate"]
    assert "85% of content words shared" in flag.reason and "88%" not in flag.reason
    assert "85%" in render(scan.audit, scan, "text")


def test_the_words_named_as_the_difference_are_those_the_figure_counts():
    """A pair measured on content words was said to differ by 'this' and 'the', words the figure leaves out."""
    items = (
        cg.EvalItem(id="a", question="Does the app record my gps location and store this data on its servers?"),
        cg.EvalItem(id="b", question="Does the app record my location and store the data on its servers?"),
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items))
    (flag,) = [f for f in scan.for_item("a") if f.check == "near-duplicate"]
    assert "of content words shared; here 'gps', there nothing" in flag.reason, flag.reason


def test_a_pair_only_the_word_filter_found_keeps_its_own_figure():
    items = (
        cg.EvalItem(id="a", question="What is the name given to the input string of a computational problem?"),
        cg.EvalItem(id="b", question="What is the name given to the input string of a computational solution?"),
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items))
    assert not scan.audit.of_check("near-duplicates")  # 5 of 7 content words: below the audit's 82 %
    (flag,) = [f for f in scan.for_item("a") if f.check == "near-duplicate"]
    assert "85% of words shared" in flag.reason  # 11 of 13 distinct words


def _left(text: str) -> int | None:
    import re

    found = re.search(r"only (\d+) questions? (?:are|is) left", text)
    return int(found.group(1)) if found else None


def test_what_filtering_leaves_is_counted_by_the_chain_the_profile_runs(tmp_path, capsys):
    """`audit` said "only 1 question is left" where `filter` kept all 3: its cautions counted the documented
    chain's survivors in the review profile too. Each profile now counts what `filter` in it keeps."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    items = (
        cg.EvalItem(id="a", question="How many days of annual leave do new staff get?", answer="20"),
        cg.EvalItem(id="b", question="How many days of annual leave do new staff get?", answer="25"),
        cg.EvalItem(id="c", question="Who approves expense reports for the sales team?", answer="the finance lead"),
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    for profile in ("review", "goldensetauditor"):
        main(["audit", str(path), "--profile", profile])
        audited = _left(capsys.readouterr().out)
        assert main(["filter", str(path), "--profile", profile, "-o", str(tmp_path / f"{profile}.jsonl")]) == 0
        filtered = capsys.readouterr()
        kept = len(cg.read_jsonl(tmp_path / f"{profile}.jsonl"))
        assert audited == kept == _left(filtered.out + filtered.err), (profile, audited, kept)
    # and the scan the app shows says the same, on one core or two
    for workers in (1, 2):
        scan = scan_flags(cg.EvalSet(id="s", items=items), workers=workers)
        assert _left("\n".join(str(entry) for entry in scan.cautions)) == 3


def test_an_id_with_an_escape_is_shown_with_one_backslash_in_reasons(tmp_path, capsys):
    """repr() of text already made visible escaped its backslash again: 'q1\\\\x1b[31m' in filter's output."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    items = (
        cg.EvalItem(id="q1\x1b[31m", question="How many days of annual leave do new staff get?", answer="20"),
        cg.EvalItem(id="q2", question="How many days of annual leave do new staff get?", answer="20"),
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    assert main(["filter", str(path), "-o", str(tmp_path / "f.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "asks what 'q1\\x1b[31m' asks" in out and "\\\\x1b" not in out and "\x1b" not in out, out
