"""Audit reports in every format, with hostile data: nothing from the data may act as markup or as a terminal command."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.audit import audit
from reviewtui.evalset.checks.report import render, to_html, to_json, to_markdown, to_text
from reviewtui.evalset.checks.scan import scan_flags

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "&amp; &lt;b&gt;",
    "[b]bold[/b] [/o",
    "\x1b[31mred\x1b[0m\x07\x00",
    "\u202eevil\u202c",
    "| pipe | `tick` *star* _under_",
    "[click](javascript:alert(1))",
    "[site](https://evil.example/x) ![pic](https://evil.example/p.png)",
    "<b onmouseover=alert(1)>hover</b>",
]
CONTROL = ["\x1b", "\x07", "\x00", "\u202e", "\u202c"]


@pytest.fixture(scope="module")
def hostile():
    items = []
    for k, text in enumerate(HOSTILE):
        # the id, the question, the answer and the category all carry the hostile text; the
        # questions repeat in pairs with different answers so that every check names them
        question = f"What does {text} mean in clause {k}?"
        items.append(cg.EvalItem(id=f"{text}#{k}a", question=question, answer=text, meta={"cat": text}))
        items.append(cg.EvalItem(id=f"{text}#{k}b", question=question, answer=f"{text} other", meta={"cat": text}))
    evalset = cg.EvalSet(id="<script>set</script>\x1b[2J", items=tuple(items))
    scan = scan_flags(evalset, category_key="cat")
    return evalset, scan


class TagCollector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "span", "table", "thead", "tbody", "tr", "th", "td", "ul", "li", "b", "code", "div"}


def test_html_escapes_every_data_string(hostile):
    evalset, scan = hostile
    page = to_html(scan.audit, scan)
    parser = TagCollector()
    parser.feed(page)
    assert parser.tags <= ALLOWED_TAGS, parser.tags - ALLOWED_TAGS
    names = {name for name, _ in parser.attrs}
    assert names <= {"lang", "charset", "http-equiv", "content", "name", "class"}
    assert not any(name.startswith("on") for name in names)
    for char in CONTROL:
        assert char not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&amp;amp;" in page  # the literal text "&amp;" survives as text
    assert "default-src 'none'" in page  # no script or remote resource could run even if something slipped
    shown = "".join(parser.text)
    assert "<script>alert(1)</script>" in shown  # the reader sees the data as it is
    assert "\\x1b[31mred" in shown  # control characters are shown, not obeyed
    assert "[b]bold[/b] [/o" in shown


def test_html_is_self_contained(hostile):
    _, scan = hostile
    page = to_html(scan.audit, scan)
    assert "src=" not in page.replace("src=x", "") and "href=" not in page and "@import" not in page
    assert "https://evil.example" not in page.replace("(https://evil.example/x)", "").replace("(https://evil.example/p.png)", "")
    assert page.startswith("<!doctype html>")


def test_markdown_escapes_data(hostile):
    markdown_it = pytest.importorskip("markdown_it")
    _, scan = hostile
    text = to_markdown(scan.audit, scan)
    for char in CONTROL:
        assert char not in text
    rendered = markdown_it.MarkdownIt("commonmark").render(text)
    parser = TagCollector()
    parser.feed(rendered)
    assert not parser.tags & {"script", "img", "a"}
    assert not any(name.startswith("on") for name, _ in parser.attrs)
    shown = "".join(parser.text)
    assert "<script>alert(1)</script>" in shown and "[click](javascript:alert(1))" in shown
    assert "[site](https://evil.example/x)" in shown and "| pipe | `tick` *star* _under_" in shown


def test_text_report_shows_control_characters_as_escapes(hostile):
    _, scan = hostile
    text = to_text(scan.audit, scan)
    for char in CONTROL:
        assert char not in text
    assert "\\x1b[31mred" in text and "FAIL" in text


def test_json_keeps_the_data_exactly_and_lists_flags(hostile):
    evalset, scan = hostile
    data = json.loads(to_json(scan.audit, scan))
    assert data["status"] == "FAIL"
    ids = {item_id for finding in data["findings"] for item_id in finding["item_ids"]}
    assert f"{HOSTILE[4]}#4a" in ids  # control characters intact (JSON escapes them itself)
    assert set(data["flags"]) == set(scan.flags)
    flag = data["flags"][f"{HOSTILE[0]}#0a"][0]
    assert set(flag) == {"check", "severity", "reason", "related_ids"}
    assert flag["check"] == "conflicting-answers" and flag["severity"] == "high"
    assert flag["related_ids"] == [f"{HOSTILE[0]}#0b"]


def test_render_dispatch_and_limits():
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Is it {k}?", answer="No.") for k in range(80))
    report = audit(cg.EvalSet(id="many", items=items))
    assert render(report, None, "json").startswith("{")
    assert "… and 30 more" in render(report, None, "md")
    assert "… and 30 more" in render(report, None, "html")
    assert "more (use --to json for all)" in render(report, None, "text")  # the option audit --help names
    with pytest.raises(ValueError):
        render(report, None, "pdf")


def _whole_document(report, scan):
    """The report's JSON made the plain way: every dict in memory, one dump."""
    import orjson

    from reviewtui.evalset.checks.report import BOUNDARY, _finding_dict, _weights, flagged_beyond_findings, warning_and_hint_counts

    data = {"tool": f"reviewtui {cg.__version__}", **report.to_dict(), "truth_boundary": BOUNDARY}
    data["findings"] = [_finding_dict(finding, _weights(scan)) for finding in report.findings]
    if scan is not None:
        data["profile"] = scan.profile
        data["cautions"] = [{"level": e.level, "topic": e.topic, "message": e.message} for e in scan.cautions]
        data["flag_counts"] = dict(scan.counts)
        data["warning_counts"], data["hint_counts"] = warning_and_hint_counts(scan)
        beyond = flagged_beyond_findings(report, scan)
        data["warned_beyond_findings"] = {check: warned for check, (warned, _) in beyond.items() if warned}
        data["hinted_beyond_findings"] = {check: hinted for check, (_, hinted) in beyond.items() if hinted}
        data["flags"] = scan.to_dict()
    return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)


@pytest.mark.parametrize("n", [0, 1, 7, 4100])
def test_the_json_report_made_in_pieces_is_the_whole_document_byte_for_byte(n):
    from reviewtui.evalset.checks.report import to_json_chunks
    from reviewtui.evalset.checks.scan import scan_flags

    items = tuple(
        cg.EvalItem(id=f"q{k}", question=f"Is it {k % 5} or [b]{k}[/b]?", answer="No." if k % 3 else None) for k in range(n)
    )
    evalset = cg.EvalSet(id="pieces", items=items)
    scan = scan_flags(evalset) if n else None
    report = scan.audit if scan is not None else audit(evalset)
    pieces = list(to_json_chunks(report, scan))
    assert b"".join(pieces) == _whole_document(report, scan)
    if n > 4000:
        assert len(pieces) > 3  # the flags come in batches, not as one piece


def test_the_headline_says_how_many_items_the_review_profile_warns_about():
    """SQuAD 2.0 read "WARN (626 items, 681 findings)" over a report whose every finding the review
    profile shows as a hint: the status is the audit's own verdict, and the headline now says the rest."""
    import reviewtui as cg
    from reviewtui.evalset.checks.report import render
    from reviewtui.evalset.checks.scan import scan_flags

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which year did the library open branch number {k}?", answer=str(1900 + k)) for k in range(12))
    evalset = cg.EvalSet(id="years", items=items)
    review = scan_flags(evalset)
    assert review.audit.status.value == "WARN"  # short answers: the audit's weak-answer finding
    assert "WARN (12 items, 14 findings; review profile: no item warned)" in render(review.audit, review, "text")
    assert "review profile: no item warned" in render(review.audit, review, "html")
    assert "review profile: no item warned" in render(review.audit, review, "md")
    tool = scan_flags(evalset, profile="goldensetauditor")
    assert "WARN (12 items, 78 findings)\n" in render(tool.audit, tool, "text")  # that tool's headline, unchanged


def test_each_finding_in_the_text_report_says_its_weight_as_the_markdown_report_does():
    """SQuAD 2.0's text report printed 260 bare "WARN [id]" lines under a headline saying no item is warned:
    every one of them a hint in the review profile, which only the Markdown report said."""
    import reviewtui as cg
    from reviewtui.evalset.checks.report import render
    from reviewtui.evalset.checks.scan import scan_flags

    items = tuple(cg.EvalItem(id=f"q{k}", question=f"Which year did the library open branch number {k}?", answer=str(1900 + k)) for k in range(12))
    evalset = cg.EvalSet(id="years", items=items)
    review = scan_flags(evalset)
    lines = [line for line in render(review.audit, review, "text").splitlines() if "expected answer has" in line]
    assert lines and all(line.startswith("  WARN / hint [") for line in lines)
    assert all("/ hint" in line for line in render(review.audit, review, "md").splitlines() if "expected answer has" in line)
    tool = scan_flags(evalset, profile="goldensetauditor")  # that tool's own weights
    weak = next(line for line in render(tool.audit, tool, "text").splitlines() if "expected answer has" in line)
    assert weak.startswith("  WARN / medium [q")


def test_an_item_the_review_profile_warns_about_is_named_beside_a_table_that_leaves_it_out():
    """PrivacyQA's lb90 is warned as a near-duplicate of lb89 (their words overlap and both cite the
    same quote), while their content words fall under the audit's threshold: the near-duplicates
    row counted six items and the warnings seven, with nothing saying which one and why."""
    quote = cg.GoldAnchor(source_id="Wordscapes.txt", quote="When you interact with our Services, we may collect data.")
    rows = [
        ("lb89", "Consider \"Wordscapes\"'s privacy policy; what information of mine does it access"),
        ("lb90", "Consider \"Wordscapes\"'s privacy policy; what information of mine does it collect"),
        ("lb91", "How long are the server logs of the checkout kept before deletion?"),
    ]
    evalset = cg.EvalSet(id="policies", items=tuple(cg.EvalItem(id=i, question=q, anchors=(quote,)) for i, q in rows))
    review = scan_flags(evalset)
    assert [f.severity.label for f in review.for_item("lb90") if f.check == "near-duplicate"] == ["medium"]
    named = {i for f in review.audit.findings if f.check == "near-duplicates" for i in f.item_ids}
    assert "lb90" not in named  # the audit's own measure does not reach the pair
    text = render(review.audit, review, "text")
    row = next(line for line in text.splitlines() if "near-duplicates" in line and "finding" in line)
    assert "review profile also warns 1 item no finding here names, each flag saying why: lb90" in row
    assert "each flag saying why: lb90" in render(review.audit, review, "md")
    assert "each flag saying why: lb90" in render(review.audit, review, "html")
    assert json.loads(to_json(review.audit, review))["warned_beyond_findings"] == {"near-duplicates": ["lb90"]}
    # the other profile's report keeps that tool's table and says the same of its own flags
    tool = scan_flags(evalset, profile="goldensetauditor")
    named_by_tool = {i for f in tool.audit.findings if f.check == "near-duplicates" for i in f.item_ids}
    flagged_by_tool = {i for i, flags in tool.flags.items() if any(f.check == "near-duplicate" for f in flags)}
    data = json.loads(to_json(tool.audit, tool))
    said = set(data["warned_beyond_findings"].get("near-duplicates", ())) | set(data["hinted_beyond_findings"].get("near-duplicates", ()))
    assert said == flagged_by_tool - named_by_tool and said  # every flagged item is in the table or named beside it


def test_items_only_hinted_at_beyond_the_findings_are_named_too():
    """A table of 6 near-duplicate items beside 16 flagged: the 10 the review profile only hints at were never named."""
    from reviewtui.evalset.checks.report import flagged_beyond_findings

    rows = [
        ("a1", "What does the travel policy say about booking economy class flights abroad?"),
        ("a2", "What does the travel policy say about booking economy class flights abroad!"),
        ("b1", "Who approves travel over the yearly budget limit for each team?"),
        ("b2", "Who approves travel over the yearly budget limit for every team?"),
    ]
    evalset = cg.EvalSet(id="trips", items=tuple(cg.EvalItem(id=i, question=q) for i, q in rows))
    for profile in ("review", "goldensetauditor"):
        scan = scan_flags(evalset, profile=profile)
        named = {i for f in scan.audit.findings if f.check == "near-duplicates" for i in f.item_ids}
        flagged = {i for i, flags in scan.flags.items() if any(f.check == "near-duplicate" for f in flags)}
        warned, hinted = flagged_beyond_findings(scan.audit, scan).get("near-duplicates", ([], []))
        assert set(warned) | set(hinted) == flagged - named and flagged - named, profile  # b1, b2: word overlap only
        assert not set(warned) & set(hinted)
        row = next(line for line in render(scan.audit, scan, "text").splitlines() if "near-duplicates" in line and "finding" in line)
        for item_id in flagged - named:
            assert item_id in row, (profile, row)


def test_the_html_table_of_medium_and_high_flags_lists_only_those():
    """Its rows held every flag of such an item, hints included, where the Markdown report lists the
    medium and high ones its heading names."""
    rows = [("q1", "Who approves travel over the yearly budget?"), ("q2", "Who approves travel over the yearly budget?")]
    evalset = cg.EvalSet(id="twice", items=tuple(cg.EvalItem(id=i, question=q, answer="The finance director") for i, q in rows))
    review = scan_flags(evalset)
    labels = {f.severity.label for f in review.for_item("q2")}
    assert "medium" in labels and "hint" in labels  # the later copy: a warning, and the type hint
    page = to_html(review.audit, review)
    table = page.split("Flagged items (medium and high)</h2>", 1)[1].split("</table>", 1)[0]
    assert "<td>medium</td>" in table and "<td>hint</td>" not in table and "<td>low</td>" not in table


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_a_finding_and_its_items_flags_carry_one_severity(profile):
    """The demo set's Q008 read "WARN / low" among the findings and "medium over-easy" among the flags;
    a weak answer "medium" and then a hint. The review profile's report now shows a finding about items
    at the weight their flags have; goldensetauditor's keeps that tool's own severities (its parity)."""
    rows = [
        ("q1", "What colour is the sky on a clear day?", "The colour of the sky on a clear day"),  # over-easy
        ("q2", "Who signs the travel form for the team?", "Finance"),  # weak answer
        ("q3", "How many days of annual leave are there per year?", "Twenty five days of leave"),
        ("q4", "What is the name of the office manager in Leeds?", "Dana Whitfield of Leeds office"),
    ]
    evalset = cg.EvalSet(id="one", items=tuple(cg.EvalItem(id=i, question=q, answer=a) for i, q, a in rows))
    scan = scan_flags(evalset, profile=profile)
    report = json.loads(to_json(scan.audit, scan))
    for finding in report["findings"]:
        if finding["check"] not in ("over-easy", "weak-answer") or finding["status"] != "WARN":
            continue
        if profile == "goldensetauditor":  # as goldensetauditor 0.2.0 reports them
            assert finding["severity"] == {"over-easy": "low", "weak-answer": "medium"}[finding["check"]]
            continue
        (item_id,) = finding["item_ids"]
        flag = next(f for f in report["flags"][item_id] if f["check"] == finding["check"])
        assert finding["severity"] == flag["severity"], (profile, finding, flag)
    checks = {f["check"] for f in report["findings"] if f["status"] == "WARN"}
    assert {"over-easy", "weak-answer"} <= checks
    md = to_markdown(scan.audit, scan)
    over_easy = next(f for f in report["findings"] if f["check"] == "over-easy")
    assert f"**WARN** / {over_easy['severity']} — q1:" in md


def test_markdown_and_html_tell_apart_ids_the_text_report_tells_apart():
    # An id holding the six characters "\u202e" and one holding the right-to-left override itself: the text
    # report (visible_id) shows them differently, and the flags' reasons name them so; the Markdown and
    # HTML reports showed both as q1\u202e, two items under one name.
    literal, override = "q1\\u202e", "q1\u202e"
    question = "What is the policy on late returns of tools?"
    evalset = cg.EvalSet(
        id="ids",
        items=(
            cg.EvalItem(id=literal, question=question, answer="A fine of two pounds a day"),
            cg.EvalItem(id=override, question=question, answer="A fine of five pounds a day"),
        ),
    )
    scan = scan_flags(evalset)
    text = to_text(scan.audit, scan)
    assert "q1\\\\u202e" in text and "q1\\u202e]" in text  # the text report: two names
    page = to_html(scan.audit, scan)
    assert "<code>q1\\\\u202e</code>, <code>q1\\u202e</code>" in page  # the finding's items: two names
    rendered = pytest.importorskip("markdown_it").MarkdownIt("commonmark").render(to_markdown(scan.audit, scan))
    parser = TagCollector()
    parser.feed(rendered)
    findings = [line for line in "".join(parser.text).splitlines() if "high" in line and "q1" in line]
    assert any("q1\\\\u202e, q1\\u202e:" in line for line in findings), findings


# Two near-duplicate clusters: a1-a3 ask one thing with three different answers and no quotes (each item's flag a
# hint); b1-b2 expect the same answer, so the later one's flag is a medium warning (the first, kept, a hint).
NEAR_CLUSTERS = [
    cg.EvalItem(id="a1", question="What is the notice period for terminating the lease agreement early?", answer="30 days"),
    cg.EvalItem(id="a2", question="What is the notice period for terminating the lease agreement?", answer="60 days"),
    cg.EvalItem(id="a3", question="What is the notice period for terminating the lease agreement late?", answer="90 days"),
    cg.EvalItem(id="b1", question="Which court hears appeals from the county tribunal in Ohio?", answer="the district court"),
    cg.EvalItem(id="b2", question="Which court hears appeals from the county tribunal in Ohio state?", answer="The district court"),
    cg.EvalItem(id="c1", question="How many vacation days does a new employee receive each year?", answer="20"),
]


def _near_flag_severity(report: dict, item_id: str) -> str:
    (flag,) = [f for f in report["flags"][item_id] if f["check"] == "near-duplicate"]
    return flag["severity"]


def test_a_near_duplicate_cluster_weighs_what_its_items_flags_weigh():
    """One number per fact: the review profile's cluster said "low" of items whose flags were all hints (maud's
    q14/q16/q17), and of a pair one of whose flags was a medium warning."""
    scan = scan_flags(cg.EvalSet(id="near", items=tuple(NEAR_CLUSTERS)), workers=1)
    made = json.loads(to_json(scan.audit, scan))
    clusters = {tuple(f["item_ids"]): f["severity"] for f in made["findings"] if f["check"] == "near-duplicates"}
    assert clusters == {("a1", "a2", "a3"): "hint", ("b1", "b2"): "medium"}
    order = ["hint", "low", "medium", "high"]
    for ids, severity in clusters.items():
        assert severity == max((_near_flag_severity(made, i) for i in ids), key=order.index)
    text = to_text(scan.audit, scan)
    assert "WARN / hint [a1, a2, a3]" in text and "WARN / medium [b1, b2]" in text
    markdown = to_markdown(scan.audit, scan)
    assert "**WARN** / hint — a1, a2, a3: 3 questions" in markdown and "**WARN** / medium — b1, b2: two" in markdown
    page = to_html(scan.audit, scan).replace("<code>", "").replace("</code>", "")
    assert "<td>hint</td><td>a1, a2, a3</td>" in page and "<td>medium</td><td>b1, b2</td>" in page


def test_the_goldensetauditor_profile_keeps_the_tools_weight_of_each_pair():
    scan = scan_flags(cg.EvalSet(id="near", items=tuple(NEAR_CLUSTERS)), workers=1, profile="goldensetauditor")
    made = json.loads(to_json(scan.audit, scan))
    pairs = [f for f in made["findings"] if f["check"] == "near-duplicates"]
    assert pairs and {f["severity"] for f in pairs} == {"medium"}
    assert all(len(f["item_ids"]) == 2 for f in pairs)


def _counted_set() -> cg.EvalSet:
    """Items with every kind of flag list a scan's table keeps: shared ones (weak answers), an item's own
    (near-duplicates naming their partners), and lists the review profile gives whole (short statements)."""
    items = []
    for k in range(60):
        question = f"What does the travel policy say about meals for team {k % 6} members on trip {k % 4}?"
        if k % 9 == 0:
            question = f"Taxis are reimbursed{'.' if k % 2 else '?'}"  # too short; as a statement, a hint in the review profile
        elif k % 11 == 0:
            question = "Why is it late?"
        answer = None if k % 13 == 0 else ("Yes." if k % 3 else f"Meals are covered up to a daily limit for team {k % 6}")
        items.append(cg.EvalItem(id=f"c{k}", question=question, answer=answer))
    # a list many items share: a weak answer, and nothing else
    for k, (animal, place) in enumerate(zip("otter heron beaver salmon eagle frog newt".split(), "delta gorge falls bend ford weir lock".split())):
        items.append(cg.EvalItem(id=f"w{k}", question=f"Which {animal} lives near the {place} river", answer="Yes."))
    # pairs only the word join finds (see the two tests above): flagged beyond the findings
    quote = cg.GoldAnchor(source_id="Wordscapes.txt", quote="When you interact with our Services, we may collect data.")
    for k, verb in enumerate(("access", "collect")):
        question = f"Consider \"Wordscapes\"'s privacy policy; what information of mine does it {verb}"
        items.insert(20 + k, cg.EvalItem(id=f"lb{k}", question=question, anchors=(quote,)))
    for k, each in enumerate(("each", "every")):
        items.insert(40 + k, cg.EvalItem(id=f"b{k}", question=f"Who approves travel over the yearly budget limit for {each} team?"))
    return cg.EvalSet(id="counted", items=tuple(items))


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_counts_and_items_beyond_the_findings_read_from_a_table_are_those_of_its_items_one_by_one(profile):
    """The report reads a scan's table pattern by pattern; what it reads is what a walk through every item's own
    flags gives, to the order of the checks (the JSON prints them in that order)."""
    import dataclasses

    from reviewtui.evalset.checks.report import flagged_beyond_findings, warning_and_hint_counts
    from reviewtui.evalset.checks.scan import FlagTable

    scan = scan_flags(_counted_set(), workers=1, profile=profile)
    assert isinstance(scan.flags, FlagTable)
    plain = dataclasses.replace(scan, flags=dict(scan.flags.items()))
    counts, plain_counts = warning_and_hint_counts(scan), warning_and_hint_counts(plain)
    assert counts == plain_counts and [list(c) for c in counts] == [list(c) for c in plain_counts]
    beyond, plain_beyond = flagged_beyond_findings(scan.audit, scan), flagged_beyond_findings(scan.audit, plain)
    assert beyond == plain_beyond and list(beyond) == list(plain_beyond)
    assert beyond["near-duplicates"][0]  # lb1, b0, b1: pairs of the word join alone
    checks = {flag.check for flags in scan.flags.values() for flag in flags}
    assert {"near-duplicate", "weak-answer", "too-short"} <= checks
    if profile == "review":  # lists given whole: the statements' too-short flags made hints
        assert any(f.check == "too-short" and f.severity.label == "hint" for flags in scan.flags.values() for f in flags)
