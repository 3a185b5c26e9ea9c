"""SQuAD and HotpotQA conversions, format sniffing in open_evalset, and the convert command."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver
from reviewtui.evalset.io import (
    FORMATS,
    describe_skipped,
    open_evalset,
    read_hotpotqa,
    read_squad,
    sniff_format,
    squad_corpus,
)
from reviewtui.evalset.io.squad import sentence_bounds

CONTEXT = (
    "The Normans were a people. They gave their name to Normandy in the 10th century. "
    "Rollo was their first ruler! He signed a treaty."
)
SQUAD = {
    "version": "v2.0",
    "data": [
        {
            "title": "Normans",
            "categorie": " Histoire ",
            "paragraphs": [
                {
                    "context": CONTEXT,
                    "qas": [
                        {
                            "id": "a1",
                            "question": "When did Normandy get its name?",
                            "answers": [
                                {"text": "10th century", "answer_start": CONTEXT.index("10th century")},
                                {"text": "the 10th century", "answer_start": CONTEXT.index("the 10th")},
                                {"text": "10th century", "answer_start": CONTEXT.index("10th century")},
                            ],
                            "is_impossible": False,
                        },
                        {
                            "id": "a2",
                            "question": "Who ruled first and what did he sign?",
                            "answers": [
                                {"text": "Rollo", "answer_start": CONTEXT.index("Rollo")},
                                {"text": "treaty", "answer_start": 0},  # wrong offset: found nearby
                                {"text": "crown", "answer_start": 3},  # not in the paragraph
                            ],
                        },
                        {
                            "id": "a3",
                            "question": "Who was the last Norman king?",
                            "answers": [],
                            "is_impossible": True,
                            "plausible_answers": [{"text": "Rollo", "answer_start": 82}],
                        },
                        {"id": "a4", "question": "", "answers": [], "is_impossible": True},
                        {"question": "Where is Normandy?", "answers": [{"text": "Normandy", "answer_start": 51}]},
                    ],
                }
            ],
        }
    ],
}


def _squad(tmp_path: Path, payload=SQUAD, name: str = "squad.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return path


def test_sentence_bounds():
    text = "First one. Second (2) one!  Third?\nFourth line e.g. lower case stays. Last"
    assert [text[s:e] for s, e in sentence_bounds(text)] == [
        "First one.",
        "Second (2) one!",
        "Third?",
        "Fourth line e.g. lower case stays.",
        "Last",
    ]


def test_squad_answerable_question_gets_matching_anchor_and_span(tmp_path):
    es = read_squad(_squad(tmp_path))
    item = es.get("a1")
    sentence = "They gave their name to Normandy in the 10th century."
    start = CONTEXT.index(sentence)
    assert item.anchors == (cg.GoldAnchor("Normans#0", sentence),)
    assert item.gold == (cg.GoldSpan(cg.Span("Normans#0", start, start + len(sentence))),)
    assert item.answer == "10th century"
    # every entry, the repeat too: SQuAD's dev files give each annotator's answer, and the repeats are their agreement
    assert item.meta["answers"] == [
        {"text": "10th century", "answer_start": CONTEXT.index("10th century")},
        {"text": "the 10th century", "answer_start": CONTEXT.index("the 10th")},
        {"text": "10th century", "answer_start": CONTEXT.index("10th century")},
    ]
    assert (item.meta["title"], item.meta["paragraph"], item.meta["categorie"]) == ("Normans", 0, " Histoire ")  # as written
    assert item.qtype is None
    assert squad_corpus(tmp_path / "squad.json")["Normans#0"][start : start + len(sentence)] == sentence


def test_squad_answers_in_two_sentences_and_bad_offsets(tmp_path):
    es = read_squad(_squad(tmp_path))
    item = es.get("a2")
    assert [a.quote for a in item.anchors] == ["Rollo was their first ruler!", "He signed a treaty."]
    assert [a["text"] for a in item.meta["answers"]] == ["Rollo", "treaty"]
    assert es.meta["answers_skipped"] == {"answer text not in its paragraph": 1}


def test_many_answers_on_one_squad_question_are_placed_without_comparing_every_pair():
    # 1,000 answers "cat", each given at a wrong offset, in a paragraph of 1,000 sentences alike: each answer
    # was looked for at every place its text is, and its sentence among every sentence, and the places of each
    # quote before it searched again from the start (minutes at 40,000). The reader's lines run are counted.
    import sys

    from reviewtui.evalset.io import squad

    n = 1_000
    context = "The cat is Red. " * n
    answers = [{"text": "cat", "answer_start": (k * 7919) % len(context)} for k in range(n)]
    payload = {"data": [{"title": "T", "paragraphs": [{"context": context, "qas": [{"id": "q", "question": "Which?", "answers": answers}]}]}]}
    lines = {"n": 0}

    def trace(frame, event, arg):
        if frame.f_code.co_filename != squad.__file__:
            return None
        if event == "line":
            lines["n"] += 1
        return trace

    sys.settrace(trace)
    try:
        item = squad.squad_from_payload(payload, "many.json").items[0]
    finally:
        sys.settrace(None)
    assert item.answer == "cat"
    spans = [(g.span.start, g.span.end) for g in item.gold]
    assert len(spans) == len(item.anchors) == len({start for start, _ in spans})
    assert all(context[start:end] == "The cat is Red." for start, end in spans)
    assert [a.occurrence for a in item.anchors] == [start // 16 for start, _ in spans]
    assert lines["n"] <= 100 * n


def test_squad_impossible_empty_and_id_less_questions(tmp_path):
    es = read_squad(_squad(tmp_path), evalset_id="norm")
    assert es.id == "norm" and es.source == "squad"
    impossible = es.get("a3")
    assert (impossible.qtype, impossible.answer, impossible.is_answerable) == ("unanswerable", None, False)
    assert impossible.meta["plausible_answers"] == [{"text": "Rollo", "answer_start": 82}]  # with its offset
    assert es.get("a4") is None
    assert es.get("a0-p0-q4").question == "Where is Normandy?"
    assert es.meta["questions_in_file"] == 5
    assert es.meta["questions_skipped"] == {"empty question": 1}
    assert es.meta["format_version"] == "v2.0"
    assert "1 question skipped: 1 empty question." in describe_skipped(es)


def test_squad_duplicate_ids_are_refused(tmp_path):
    payload = json.loads(json.dumps(SQUAD))
    payload["data"][0]["paragraphs"][0]["qas"][1]["id"] = "a1"
    with pytest.raises(cg.EvalSetError, match="'a1' is used twice"):
        read_squad(_squad(tmp_path, payload))


HOTPOT_ROWS = [
    {
        "id": "h1",
        "question": "Which band released Tinted Windows?",
        "answer": "Tinted Windows",
        "type": "bridge",
        "level": "hard",
        "supporting_facts": {"title": ["Album", "Band", "Band", "Nowhere"], "sent_id": [0, 1, 7, 0]},
        "context": {
            "title": ["Album", "Band"],
            "sentences": [["Tinted Windows is an album.", " It came out in 2009."], ["A band.", " They played in Texas."]],
        },
    },
    {
        "id": "h2",
        "question": "Are both from Texas?",
        "answer": "yes",
        "type": "comparison",
        "level": "easy",
        "supporting_facts": {"title": ["Band"], "sent_id": [0]},
        "context": {"title": ["Band"], "sentences": [["A band."]]},
    },
]


def test_hotpot_jsonl_conversion(tmp_path):
    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in HOTPOT_ROWS) + "\n")
    es = read_hotpotqa(path)
    first, second = es.items
    assert first.anchors == (
        cg.GoldAnchor("Album", "Tinted Windows is an album."),
        cg.GoldAnchor("Band", "They played in Texas."),
    )
    assert (first.qtype, first.answer, dict(first.meta)) == ("multi_hop", "Tinted Windows", {"type": "bridge", "level": "hard"})
    assert (second.qtype, second.answer) == ("comparative", "yes")
    assert es.meta["supporting_facts_skipped"] == {"sentence index out of range": 1, "title not in the context": 1}
    assert (es.source, es.id, es.meta["questions_in_file"]) == ("hotpotqa", "dev", 2)


def test_hotpot_two_facts_on_sentences_of_the_same_words_are_two_quotes(tmp_path):
    """[A, 0] and [A, 2] on two sentences reading alike gave one quote (the first copy): the second fact was
    dropped as a repeat, and nothing counted it. The same fact listed twice is one quote, and is counted."""
    row = {
        "_id": "h1",
        "question": "Q?",
        "answer": "A",
        "supporting_facts": [["A", 0], ["A", 2], ["A", 0]],
        "context": [["A", ["Same sentence.", " Other one.", " Same sentence."]]],
    }
    path = tmp_path / "dev.jsonl"
    path.write_text(json.dumps(row) + "\n")
    from reviewtui.evalset.io.skipped import describe_skipped

    es = read_hotpotqa(path)
    assert "1 supporting fact listed a second time among the same question's facts (HotpotQA), kept once" in describe_skipped(es)
    assert es.items[0].anchors == (
        cg.GoldAnchor("A", "Same sentence.", occurrence=0),
        cg.GoldAnchor("A", "Same sentence.", occurrence=1),
    )
    assert es.meta["supporting_facts_repeated"] == 1


def test_hotpot_original_json_shape(tmp_path):
    rows = [
        {
            "_id": "h9",
            "question": "Q?",
            "answer": "A",
            "type": "bridge",
            "supporting_facts": [["T", 1]],
            "context": [["T", ["Zero.", " One."]]],
        }
    ]
    path = tmp_path / "hotpot.json"
    path.write_text(json.dumps(rows))
    for es in (read_hotpotqa(path), open_evalset(path)):
        assert es.items[0].id == "h9" and es.items[0].anchors == (cg.GoldAnchor("T", "One."),)


@pytest.mark.parametrize(
    "sentences",
    [
        ["aXaXa", " aXa"],  # the earlier copies overlap each other
        ["Go go", " go go"],  # an earlier copy runs from the first sentence into the second
        ["One.", " Two.", " One."],  # the usual case
    ],
)
def test_hotpot_occurrence_picks_the_supporting_sentence_itself(tmp_path, sentences):
    row = {"_id": "h", "question": "Q?", "answer": "A", "supporting_facts": [["T", len(sentences) - 1]],
           "context": [["T", sentences]]}
    path = tmp_path / "hotpot.json"
    path.write_text(json.dumps([row]))
    text = "".join(sentences)
    corpus = Corpus.from_texts({"T": text})
    (resolution,) = AnchorResolver().resolve_item(read_hotpotqa(path).items[0], corpus)[1]
    start = len(text) - len(sentences[-1].lstrip())
    assert (resolution.span.start, resolution.span.end) == (start, len(text))


def test_sniffing(tmp_path):
    squad = _squad(tmp_path)
    lb = tmp_path / "lb.json"
    lb.write_text(json.dumps({"tests": [{"query": "A?", "snippets": []}]}))
    bare_lb = tmp_path / "bare.json"
    bare_lb.write_text(json.dumps([{"query": "A?", "snippets": []}]))
    hotpot = tmp_path / "hp.jsonl"
    hotpot.write_text(json.dumps(HOTPOT_ROWS[0]) + "\n")
    native = tmp_path / "n.jsonl"
    native.write_text('{"id": "q1", "question": "Q?"}\n')
    table = tmp_path / "t.csv"
    table.write_text("id,question\nq1,Q?\n")
    expected = {squad: "squad", lb: "legalbench", bare_lb: "legalbench", hotpot: "hotpotqa", native: "jsonl", table: "csv"}
    for path, kind in expected.items():
        assert sniff_format(path) == kind
    assert open_evalset(squad).source == "squad"
    assert open_evalset(lb).source == "legalbench-rag"
    assert open_evalset(bare_lb).items[0].id == "lb0"
    assert open_evalset(hotpot).source == "hotpotqa"
    assert open_evalset(native).source == "import"
    assert open_evalset(table).items[0].id == "q1"


def test_format_overrides_sniffing_and_unknown_json_is_refused(tmp_path):
    odd = tmp_path / "odd.json"
    odd.write_text('{"questions": []}')
    with pytest.raises(cg.EvalSetError, match="not a format reviewtui knows") as info:
        open_evalset(odd)
    assert info.value.path == str(odd)
    native = tmp_path / "native.data"
    native.write_text('{"id": "q1", "question": "Q?"}\n')
    assert open_evalset(native, format="jsonl").items[0].id == "q1"
    with pytest.raises(cg.EvalSetError, match="question column"):
        open_evalset(native, format="csv")
    with pytest.raises(cg.EvalSetError, match="unknown format"):
        open_evalset(native, format="xml")


def test_open_evalset_errors_for_missing_paths_and_plain_folders(tmp_path):
    with pytest.raises(cg.EvalSetError, match="no such file"):
        open_evalset(tmp_path / "missing.jsonl")
    with pytest.raises(cg.EvalSetError, match="not a BEIR set"):
        open_evalset(tmp_path)


def test_convert_command(tmp_path, capsys):
    from reviewtui.cli import main
    from reviewtui.cli.options import INPUT_FORMATS as FORMAT_CHOICES

    assert FORMAT_CHOICES == FORMATS
    out = tmp_path / "out" / "norm.jsonl"
    out.parent.mkdir()
    assert main(["convert", str(_squad(tmp_path)), str(out), "--id", "normans"]) == 0
    printed = capsys.readouterr().out
    assert "4 questions" in printed and "1 question skipped" in printed
    es = cg.read_jsonl(out)
    assert (es.id, len(es), es.source) == ("normans", 4, "squad")
    csv_out = tmp_path / "norm.csv"
    # CSV would drop evidence (gold spans, second quotes): refused, nothing written, unless --lossy
    assert main(["convert", str(out), str(csv_out)]) == 2
    assert "--lossy to write the CSV all the same" in capsys.readouterr().err and not csv_out.exists()
    with pytest.warns(UserWarning, match="gold spans|after the first"):
        assert main(["convert", str(out), str(csv_out), "--lossy"]) == 0
    assert cg.read_csv(csv_out).get("a1").anchors == es.get("a1").anchors
    assert main(["convert", str(out), str(tmp_path / "x.xlsx")]) == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
@pytest.mark.parametrize("shape", ["jsonl", "list"])
def test_hotpot_from_a_pipe_is_read_in_one_pass(tmp_path, shape):
    """Telling a JSON list from JSON Lines looked at the file, closed it and opened it again: a pipe
    then hung (its writer gone) or gave no questions (its bytes used up by the look)."""
    import threading

    pipe = tmp_path / "dev.jsonl"
    os.mkfifo(pipe)
    data = (json.dumps(HOTPOT_ROWS) if shape == "list" else "\n".join(json.dumps(row) for row in HOTPOT_ROWS) + "\n").encode()

    def feed() -> None:
        with open(pipe, "wb") as writer:
            writer.write(data)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    es = read_hotpotqa(pipe)
    feeder.join(5)
    assert [item.id for item in es.items] == ["h1", "h2"] and es.items[0].anchors  # both rows, with their evidence


def test_gold_spans_beside_a_quote_are_a_loss_the_commands_refuse_without_lossy(tmp_path, capsys):
    import warnings

    from reviewtui.cli import main
    from reviewtui.evalset.io import write_csv, write_jsonl

    item = cg.EvalItem(
        id="a",
        question="What is the capital of France?",
        gold=(cg.GoldSpan(cg.Span("d1", 0, 20)),),
        anchors=(cg.GoldAnchor("d1", "Paris is the capital"),),
    )
    source = write_jsonl(cg.EvalSet(id="g", items=(item,)), tmp_path / "g.jsonl")
    for line in (
        ["convert", str(source), str(tmp_path / "g.csv")],
        ["export", str(source), "--to", "csv", "-o", str(tmp_path / "ge.csv")],
        ["filter", str(source), "-o", str(tmp_path / "gf.csv")],
    ):
        assert main(line) == 2, line
        err = capsys.readouterr().err
        assert "loses its gold spans" in err and "'a'" in err, err
        # how to write what keeps everything, as a command to type
        without = ", without --to csv" if "--to" in line else ""  # "--to csv -o x.jsonl" is refused
        named = "as " if line[0] == "convert" else "-o "  # convert takes OUT as its second argument: it has no -o
        suggested = Path(line[-1]).with_suffix(".jsonl")
        if suggested.exists():  # g.jsonl, the input: no command writes it, so it is no name to type
            assert f"write JSONL ({named}a .jsonl name other than {suggested}, which exists{without})" in err, err
        else:
            assert f"write JSONL ({named}{suggested}{without})" in err, err
        assert not Path(line[-1]).exists()
    assert main(["convert", str(source), str(tmp_path / "g.csv"), "--lossy"]) == 0
    # the library's writer keeps its documented warnings: quotes written, so no word about these spans
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_csv(cg.EvalSet(id="g", items=(item,)), tmp_path / "lib.csv")


def test_hotpot_facts_that_are_not_pairs_are_counted_not_dropped_unseen(tmp_path):
    context = {"title": ["Alpha", "Beta"], "sentences": [["Alpha is old."], ["Beta is new."]]}
    rows = [
        # three titles for one sentence index: zip kept the first and dropped the rest without a word
        {"id": "h1", "question": "Which came first?", "answer": "Alpha", "context": context,
         "supporting_facts": {"title": ["Alpha", "Beta", "Beta"], "sent_id": [0]}},
        {"id": "h2", "question": "Which is newer?", "answer": "Beta", "context": context,
         "supporting_facts": [["Alpha", 0], ["Beta"], "junk", ["Beta", 0, 9]]},
        {"id": "h3", "question": "Which is older?", "answer": "Alpha", "context": context, "supporting_facts": 7},
    ]
    path = tmp_path / "hp.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    es = read_hotpotqa(path)
    assert [len(item.anchors) for item in es.items] == [1, 1, 0]
    assert es.meta["supporting_facts_skipped"] == {
        "a title without a sentence index, or the reverse": 2,
        "not a [title, sentence index] pair": 3,
        "supporting_facts is not a list": 1,
    }


def test_a_squad_answer_offset_that_misses_its_text_is_corrected_counted_and_kept(tmp_path):
    from reviewtui.evalset.io import describe_skipped, read_squad

    context = "The Normans lived in Normandy, a region in France."
    qas = [
        {"id": "s1", "question": "Where did the Normans live?", "answers": [{"text": "Normandy", "answer_start": 999}]},
        {"id": "s2", "question": "Which region is in France?", "answers": [{"text": "Normandy", "answer_start": 21}]},
    ]
    payload = {"version": "v2.0", "data": [{"title": "Normans", "paragraphs": [{"context": context, "qas": qas}]}]}
    es = read_squad(_squad(tmp_path, payload))
    first, second = es.items
    assert first.meta["answers"] == [{"text": "Normandy", "answer_start": 21, "answer_start_in_file": 999}]
    assert second.meta["answers"] == [{"text": "Normandy", "answer_start": 21}]  # right where it said: nothing added
    assert es.meta["answer_offsets_corrected"] == 1
    assert "1 answer offset not at the answer's text (or not a whole number), moved to where it is" in describe_skipped(es)


@pytest.mark.parametrize(
    "given, context, start",
    [(True, " Zed is here. Ask Zed.", 1), (False, "Zed is here. Ask Zed.", 0), (-4, " Zed is here. Ask Zed.", 1)],
    ids=["true", "false", "negative"],
)
def test_a_squad_answer_start_that_is_true_false_or_negative_is_no_offset(tmp_path, given, context, start):
    # true and false are 1 and 0 to Python: the answer found there was taken without a note. -4 sliced from the
    # end and matched "Zed", then failed as a negative gold span with a message about `gold.0.span.start`.
    qa = {"id": "s1", "question": "Who is here?", "answers": [{"text": "Zed", "answer_start": given}]}
    es = read_squad(_squad(tmp_path, {"version": "v2.0", "data": [{"title": "T", "paragraphs": [{"context": context, "qas": [qa]}]}]}))
    (item,) = es.items
    assert item.meta["answers"] == [{"text": "Zed", "answer_start": start, "answer_start_in_file": given}]
    assert item.gold == (cg.GoldSpan(cg.Span("T#0", start, context.index(".") + 1)),)  # its sentence
    assert es.meta["answer_offsets_corrected"] == 1


def test_a_file_read_as_the_wrong_format_is_refused_with_the_reason_not_converted_to_nothing(tmp_path, capsys):
    from reviewtui.cli import main

    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in HOTPOT_ROWS) + "\n")
    out = tmp_path / "x.jsonl"
    assert main(["convert", "--from", "nq", str(path), str(out)]) == 2
    err = capsys.readouterr().err
    assert "no questions in this file" in err and "2 questions skipped: 2 no `question_text` field" in err, err
    assert not out.exists()


def test_a_question_that_is_not_text_is_not_called_empty(tmp_path):
    qas = [
        {"id": "s1", "question": 5, "answers": []},
        {"id": "s2", "question": "  ", "answers": []},
        {"id": "s3", "question": "Where is it?", "answers": []},
    ]
    payload = {"version": "v2.0", "data": [{"title": "T", "paragraphs": [{"context": "It is here.", "qas": qas}]}]}
    es = read_squad(_squad(tmp_path, payload))
    assert es.meta["questions_skipped"] == {"`question` is a number, not text": 1, "empty question": 1}


def test_with_lossy_the_gold_span_loss_is_still_said(tmp_path, capsys):
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    item = cg.EvalItem(
        id="a", question="What is the capital of France?", gold=(cg.GoldSpan(cg.Span("d1", 0, 20)),),
        anchors=(cg.GoldAnchor("d1", "Paris is the capital"),),
    )
    source = write_jsonl(cg.EvalSet(id="g", items=(item,)), tmp_path / "g.jsonl")
    assert main(["convert", str(source), str(tmp_path / "g.csv"), "--lossy"]) == 0
    err = capsys.readouterr().err
    assert "loses its gold spans" in err and err.count("loses its gold spans") == 1, err
    # LegalBench-RAG's quotes name no copy: a span on the second copy of its words is found again on the first.
    # The promise that resolving finds the spans said nothing of that.
    assert "at the copy the quote's occurrence names, which may not be where the span was" in " ".join(err.split()), err


def test_writing_csv_says_what_of_the_set_will_not_read_back(tmp_path, capsys):
    """A version 3 set with its own id, source and meta was written as CSV without a word; read back,
    it was version 1 of an 'import' set named after the file, and its empty answer was no answer."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    items = (
        cg.EvalItem(id="q1", question="What is kept?", answer="", qtype=""),
        cg.EvalItem(id="q2", question="And what does this one ask?", answer="x"),  # long enough for the filters to keep
    )
    source = write_jsonl(cg.EvalSet(id="quiz", items=items, version=3, source="manual", meta={"owner": "ana"}), tmp_path / "quiz.jsonl")
    for line, version, keys in (
        (["convert", str(source), str(tmp_path / "c.csv")], 3, "1 key: 'owner'"),
        (["filter", str(source), "-o", str(tmp_path / "f.csv")], 4, "2 keys: 'owner', 'filter'"),  # and its filter record
    ):
        assert main(line) == 0, line
        err = capsys.readouterr().err
        assert "does not keep its id 'quiz'" in err and f"version {version} (read back as 1)" in err, err
        assert "source 'manual'" in err and f"its meta ({keys})" in err
    # an export's header: its lineage is named first, whatever else the meta holds
    lineage = {f"k{n}": n for n in range(6)} | {"review": {"from_version": 2}}
    exported = write_jsonl(cg.EvalSet(id="quiz", items=items, version=3, meta=lineage), tmp_path / "exported.jsonl")
    assert main(["convert", str(exported), str(tmp_path / "e.csv")]) == 0
    assert "its meta (7 keys: 'review' (the record of its reviews), 'k0'" in capsys.readouterr().err
    # a name that carries the version keeps it, for the commands that read it there
    assert main(["filter", str(source), "-o", str(tmp_path / "quiz.v4.csv")]) == 0
    err = capsys.readouterr().err
    assert "read back as 1" not in err and "source 'manual'" in err, err
    assert main(["info", str(tmp_path / "quiz.v4.csv")]) == 0 and "v4" in capsys.readouterr().out
    assert main(["convert", str(source), str(tmp_path / "quiz.v5.csv")]) == 0  # another version than the set's
    assert "version 3 (read back as 5)" in capsys.readouterr().err
    assert main(["convert", str(source), str(tmp_path / "c.csv"), "--force"]) == 0
    err = capsys.readouterr().err
    assert "1 item whose answer is an empty string reads back without one: 'q1'" in err
    assert "no qtype, so 1 item whose qtype is an empty string reads back without one: 'q1'" in err
    back = cg.read_csv(tmp_path / "c.csv")
    assert (back.id, back.version, back.source, back.get("q1").answer) == ("c", 1, "import", None)  # what was said
    plain = write_jsonl(cg.EvalSet(id="plain", items=items[1:], source="import"), tmp_path / "plain.jsonl")
    assert main(["convert", str(plain), str(tmp_path / "plain.csv")]) == 0
    assert "reviewtui:" not in capsys.readouterr().err  # reads back as it was: nothing to say


def _squad_file(tmp_path, articles, name="s.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"version": "v2.0", "data": articles}))
    return path


def test_squad_articles_titled_alike_get_documents_of_their_own(tmp_path):
    # Both first paragraphs were "T#0": the corpus written kept one text, and the other
    # article's question pointed into it (audit with --corpus: evidence-not-found).
    def article(context, qid, answer):
        start = context.index(answer)
        return {"title": "T", "paragraphs": [{"context": context, "qas": [{"id": qid, "question": f"What is in {qid}?", "answers": [{"text": answer, "answer_start": start}]}]}]}

    path = _squad_file(tmp_path, [article("Alpha beta gamma.", "q1", "beta"), article("Omega psi chi.", "q2", "psi"), article("Rho tau.", "q3", "tau")])
    with pytest.warns(UserWarning, match=r"articles titled like an earlier one.*: 2 \(data\[1\] 'T' as 'T \(2\)'"):
        evalset = read_squad(path)
    corpus = squad_corpus(path)
    assert corpus == {"T#0": "Alpha beta gamma.", "T (2)#0": "Omega psi chi.", "T (3)#0": "Rho tau."}
    for item in evalset.items:
        anchor = item.anchors[0]
        assert anchor.quote in corpus[anchor.source_id], item.id
    assert evalset.meta["articles_renamed"] == 2


def test_a_null_squad_title_is_no_title_and_one_that_is_not_text_is_refused(tmp_path):
    # A null title gave documents "None#0" and a title nobody wrote; a list was spelled "[1]#0".
    def article(title, qid):
        qa = {"id": qid, "question": f"Who is in {qid}?", "answers": [{"text": "Zed", "answer_start": 0}]}
        return {"title": title, "paragraphs": [{"context": "Zed is here.", "qas": [qa]}]}

    path = _squad_file(tmp_path, [article(None, "q1"), article(2019, "q2")])
    evalset = read_squad(path)
    assert [item.anchors[0].source_id for item in evalset.items] == ["#0", "2019#0"]
    assert evalset.get("q1").meta["title"] is None
    assert set(squad_corpus(path)) == {"#0", "2019#0"}
    for title, found in (([1], "a list"), (True, "true/false"), (1.5, "1.5")):
        bad = _squad_file(tmp_path, [article("A", "q1"), article(title, "q2")], "bad.json")
        for read in (read_squad, squad_corpus):
            with pytest.raises(cg.EvalSetError) as caught:
                read(bad)
            assert str(caught.value) == f"{bad}: data[1]: `title` must be a string or a whole number, found {found}"


def test_squad_corpus_reads_as_the_reader_does(tmp_path):
    # "paragraphs": null read as no paragraphs by the reader crashed the corpus (a traceback from convert --corpus-out).
    path = _squad_file(tmp_path, [{"title": "A", "paragraphs": [{"context": "Alpha beta.", "qas": []}]}, {"title": "B", "paragraphs": None}])
    assert squad_corpus(path) == {"A#0": "Alpha beta."}
    bad = _squad_file(tmp_path, [{"title": "A", "paragraphs": [{"context": 5, "qas": []}]}], "bad.json")
    with pytest.raises(cg.EvalSetError, match=r"data\[0\]\.paragraphs\[0\] must be an object with a `context` string"):
        squad_corpus(bad)


def test_squad_is_impossible_must_be_true_or_false(tmp_path):
    # The string "false" is true to Python: an answered question became unanswerable and lost its answer.
    qa = {"id": "q1", "question": "Who is it?", "is_impossible": "false", "answers": [{"text": "Zed", "answer_start": 0}]}
    path = _squad_file(tmp_path, [{"title": "A", "paragraphs": [{"context": "Zed is here.", "qas": [qa]}]}])
    with pytest.raises(cg.EvalSetError, match=r"is_impossible must be true or false, found a string"):
        read_squad(path)


def _impossible_with_answers(tmp_path):
    qas = [
        {"id": "q1", "question": "Who is gone?", "is_impossible": True, "answers": [{"text": "Zed", "answer_start": 0}, {"text": "Zed here", "answer_start": 0}]},
        {"id": "q2", "question": "Who left?", "is_impossible": True, "answers": [{"text": "", "answer_start": -1}]},  # "no answer", written out
        {"id": "q3", "question": "Who is here?", "answers": [{"text": "Zed", "answer_start": 0}]},
    ]
    return _squad_file(tmp_path, [{"title": "A", "paragraphs": [{"context": "Zed here. Zed is here.", "qas": qas}]}])


def test_a_squad_question_marked_impossible_that_lists_answers_keeps_them_and_is_counted(tmp_path):
    # Its answers were dropped without a word: the question read as unanswerable and nothing said what went.
    with pytest.warns(UserWarning, match=r"questions marked is_impossible that also list answers, .*: 1 \('q1'\)"):
        evalset = read_squad(_impossible_with_answers(tmp_path))
    gone, left, here = evalset.items
    assert (gone.qtype, gone.answer, gone.gold) == ("unanswerable", None, ())
    assert gone.meta["answers_in_file"] == [{"text": "Zed", "answer_start": 0}, {"text": "Zed here", "answer_start": 0}]
    assert left.qtype == "unanswerable" and "answers_in_file" not in left.meta
    assert "answers_in_file" not in here.meta
    assert evalset.meta["impossible_with_answers"] == 1
    assert "1 question marked is_impossible but listing answers, read as unanswerable" in describe_skipped(evalset)


def test_a_hotpot_answer_that_is_not_text_is_refused_at_its_line(tmp_path):
    # "answer": 5 was read as no answer at all.
    row = {"id": "h1", "question": "Which band formed first?", "answer": 5, "supporting_facts": {"title": [], "sent_id": []}, "context": {"title": [], "sentences": []}}
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps({**row, "id": "h0", "answer": "Alpha"}) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(cg.EvalSetError, match=r"h\.jsonl:2: question 'h1': `answer` must be text, found a number"):
        read_hotpotqa(path)


@pytest.mark.parametrize(
    "name, text, says",
    [
        ("s.json", '{"data": [{"title": "A", "paragraphs": [{"context": "Alpha.", "context": "Beta.", "qas": []}]}]}', 'the key "context"'),
        ("l.json", '{"tests": [{"query": "Who?", "query": "What?", "snippets": []}]}', 'the key "query"'),
        ("h.jsonl", '{"id": "h1", "question": "Which one?", "answer": "A", "answer": "B", "context": {"title": [], "sentences": []}}\n', 'the key "answer"'),
        ("c.csv", 'id,question,meta\na,What is kept here?,"{""a"": 1, ""a"": 2}"\n', 'the key "a" twice'),
        ("p.csv", "id,question,meta\na,What is kept here?,\"{'a': 1, 'a': 2}\"\n", 'the key "a" twice'),
    ],
)
def test_a_key_given_twice_is_refused_in_every_format(tmp_path, name, text, says):
    """Native JSONL refused a key given twice; SQuAD, LegalBench, HotpotQA and a CSV meta cell kept the last value."""
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(cg.EvalSetError, match=says) as caught:
        open_evalset(path)
    assert str(caught.value).startswith(f"{path}:")


def test_a_colon_written_as_an_escape_is_no_repeated_key(tmp_path):
    path = tmp_path / "l.json"
    path.write_text('{"tests": [{"query": "Who is \\\\u003a here\\u003a?", "snippets": []}]}')
    (item,) = open_evalset(path).items
    assert item.question == "Who is \\u003a here:?"


def test_repeated_keys_behind_an_escaped_colon_and_the_forms_that_stay_readable(tmp_path):
    from reviewtui.evalset.io.files import RepeatedKeyError, loads_exact

    with pytest.raises(RepeatedKeyError):  # the escape's colon made the count add up again
        loads_exact('{"a": 1, "a": 2, "b": "\\u003a"}')
    # is_impossible written 0/1, as a spreadsheet or pandas writes false/true, is read as such
    qa = {"id": "q1", "question": "Who is it?", "is_impossible": 1}
    ok = {"id": "q2", "question": "Who is here?", "is_impossible": 0, "answers": [{"text": "Zed", "answer_start": 0}]}
    path = _squad_file(tmp_path, [{"title": "", "paragraphs": [{"context": "Zed is here.", "qas": [qa, ok]}]}, {"title": "", "paragraphs": [{"context": "Other text.", "qas": []}]}])
    with pytest.warns(UserWarning, match="articles titled like an earlier one"):
        evalset = read_squad(path)
    assert [item.qtype for item in evalset.items] == ["unanswerable", None] and evalset.items[1].answer == "Zed"
    assert set(squad_corpus(path)) == {"#0", "(2)#0"}  # an untitled article's number, without a stray space


def test_a_plausible_answer_with_an_offset_too_large_for_json_still_converts(tmp_path):
    """Kept as entries with their offsets, an offset past what JSON writers take refused the whole file."""
    qas = [{"id": "i1", "question": "Who?", "is_impossible": True, "answers": [],
            "plausible_answers": [{"text": "Paris", "answer_start": 99999999999999999999}]}]
    evalset = read_squad(_squad_file(tmp_path, [{"title": "A", "paragraphs": [{"context": "Paris.", "qas": qas}]}]))
    assert evalset.items[0].meta["plausible_answers"] == [{"text": "Paris", "answer_start": "99999999999999999999"}]
    from reviewtui.evalset.io import write_jsonl

    write_jsonl(evalset, tmp_path / "out.jsonl")  # writable


def test_converting_a_csv_export_keeps_the_version_its_name_carries(tmp_path, capsys):
    """quiz.v2.csv is version 2 to info, status, filter and export (a CSV has no place for its version); converted
    back to JSONL it was written as version 1, and its review exported a second, different version 2."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_csv

    items = (cg.EvalItem(id="q1", question="What is kept?", answer="x"),)
    exported = write_csv(cg.EvalSet(id="quiz", items=items, version=2), tmp_path / "quiz.v2.csv")
    assert main(["info", str(exported)]) == 0 and "v2" in capsys.readouterr().out
    assert main(["convert", str(exported), str(tmp_path / "back.jsonl")]) == 0
    assert cg.read_jsonl(tmp_path / "back.jsonl").version == 2
    assert main(["convert", str(exported), str(tmp_path / "back.csv")]) == 0
    assert "version 2 (read back as 1)" in capsys.readouterr().err  # the version it lost, said


def test_the_jsonl_name_a_refused_csv_suggests_is_never_the_input(tmp_path, capsys):
    """`convert quiz.jsonl quiz.csv` (and `filter quiz.jsonl -o quiz.csv`) refused to lose evidence and said to write
    JSONL "as quiz.jsonl": the input itself, which the command then refuses to write."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    item = cg.EvalItem(
        id="a",
        question="What is the capital of France?",
        gold=(cg.GoldSpan(cg.Span("d1", 0, 20)),),
        anchors=(cg.GoldAnchor("d1", "Paris is the capital"),),
    )
    source = write_jsonl(cg.EvalSet(id="quiz", items=(item,)), tmp_path / "quiz.jsonl")
    for line in (["convert", str(source), str(tmp_path / "quiz.csv")], ["filter", str(source), "-o", str(tmp_path / "quiz.csv")]):
        assert main(line) == 2, line
        err = capsys.readouterr().err
        assert f" {source})" not in err and f"other than {source}, which exists" in err, err


def test_a_refused_csv_names_every_kind_of_loss(tmp_path, capsys):
    """"(and 1 more kind of loss)" left the reader to pass --lossy to find out which."""
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    items = (
        cg.EvalItem(id="a", question="What is kept here?", anchors=(cg.GoldAnchor("d", "one"), cg.GoldAnchor("d", "two"))),
        cg.EvalItem(id="b", question="What else is kept?", gold=(cg.GoldSpan(cg.Span("d", 0, 3)),)),
    )
    source = write_jsonl(cg.EvalSet(id="two", items=items), tmp_path / "two.jsonl")
    assert main(["convert", str(source), str(tmp_path / "two.csv")]) == 2
    err = capsys.readouterr().err
    assert "every anchor after the first: 'a'" in err
    assert "(and besides: the gold spans of 1 item with no quote)" in err, err
