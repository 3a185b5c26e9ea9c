"""A BEIR corpus.jsonl (or the BEIR folder holding it) as a corpus: documents by `_id`, read when asked for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.evidence.corpus import Corpus, UnreadableDocument
from reviewtui.evalset.evidence.resolution import MatchKind
from reviewtui.evalset.evidence.resolve import AnchorResolver
from reviewtui.evalset.io import open_evalset, write_jsonl
from reviewtui.evalset.model.errors import InputError

DOCS = [
    {"_id": "d1", "title": "Notice periods", "text": "An employee gives four weeks of notice.", "metadata": {}},
    {"_id": "<dbpedia:Oceanic_Airlines>", "title": "", "text": "A fictional airline."},
    {"text": "Keys in another order.", "title": "Order", "_id": "d3"},
    {"_id": 4, "title": "Number", "text": "An id written as a number."},
    {"_id": 'quote " inside', "text": "An id with an escape in it."},
    {"_id": "d6", "title": "Kölner Dom", "text": "Ein Dom.\fSeite zwei."},
]


def _lines(docs: list[dict]) -> str:
    return "".join(json.dumps(doc, ensure_ascii=False) + "\n" for doc in docs)


@pytest.fixture
def beir(tmp_path: Path) -> Path:
    """A small BEIR folder with its corpus: queries, test qrels and corpus.jsonl."""
    root = tmp_path / "mini"
    (root / "qrels").mkdir(parents=True)
    (root / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "How much notice must an employee give?"}\n{"_id": "q2", "text": "Which airline?"}\n',
        encoding="utf-8",
    )
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\t<dbpedia:Oceanic_Airlines>\t2\n", encoding="utf-8"
    )
    (root / "corpus.jsonl").write_text(_lines(DOCS), encoding="utf-8")
    return root


def test_a_corpus_jsonl_is_a_corpus_of_its_lines_by_id(beir: Path) -> None:
    corpus = Corpus(beir / "corpus.jsonl")
    assert corpus.ids == ("d1", "<dbpedia:Oceanic_Airlines>", "d3", "4", 'quote " inside', "d6")
    assert corpus.root == beir / "corpus.jsonl"
    assert corpus.text("d1") == "Notice periods\n\nAn employee gives four weeks of notice."
    assert corpus.text("<dbpedia:Oceanic_Airlines>") == "A fictional airline."  # an empty title adds nothing
    assert corpus.text("d3") == "Order\n\nKeys in another order."
    assert corpus.text("4") == "Number\n\nAn id written as a number."
    assert corpus.text('quote " inside') == "An id with an escape in it."
    assert corpus.document("d6").page_count == 2
    assert corpus.get("d2") is None and "no document 'd2'" in corpus.why_missing("d2")


def test_the_beir_folder_opens_its_corpus_and_every_gold_document_is_in_it(beir: Path) -> None:
    corpus = Corpus(beir)
    assert corpus.root == beir / "corpus.jsonl" and len(corpus) == len(DOCS)
    evalset = open_evalset(beir)
    gold = [doc_id for item in evalset for doc_id, _grade in item.meta["gold_documents"]]
    assert gold == ["d1", "<dbpedia:Oceanic_Airlines>"]
    assert all(corpus.get(doc_id) is not None for doc_id in gold)
    # The app's checks process is handed str(corpus.root): it must open the same corpus.
    assert Corpus(str(corpus.root)).ids == corpus.ids


def test_a_folder_of_documents_holding_a_corpus_jsonl_stays_a_folder_of_documents(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha", encoding="utf-8")
    (tmp_path / "corpus.jsonl").write_text(_lines(DOCS[:1]), encoding="utf-8")
    corpus = Corpus(tmp_path)  # no queries.jsonl beside it, so not a BEIR folder
    assert corpus.ids == ("a.txt",) and corpus.root == tmp_path


def test_a_beir_folder_without_its_corpus_is_refused_not_read_as_empty(beir: Path) -> None:
    (beir / "corpus.jsonl").unlink()
    with pytest.raises(InputError, match="a BEIR set without its corpus.jsonl"):
        Corpus(beir)


def test_bom_and_crlf_endings_are_read(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + _lines(DOCS[:2]).replace("\n", "\r\n").encode("utf-8"))
    corpus = Corpus(path)
    assert corpus.ids == ("d1", "<dbpedia:Oceanic_Airlines>")
    assert corpus.text("d1").endswith("four weeks of notice.")


def test_a_line_without_an_id_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines(DOCS[:2]) + "\n" + '{"title": "No id", "text": "x"}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Corpus(path)
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(path), 4, "_id")


def test_an_id_used_twice_is_refused_naming_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines([DOCS[0], DOCS[1], DOCS[0]]), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Corpus(path)
    assert caught.value.line == 3 and "'d1' is used twice: on line 1" in str(caught.value)


def test_a_line_giving_its_id_twice_is_refused_at_its_line(tmp_path: Path) -> None:
    """`{"_id": "d15", "_id": "d16", ...}` was indexed as d15 and read as d16: d15 was then said to be in "a corpus
    file that changed since it was opened", and d16 was no document."""
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines(DOCS[:1]) + '{"_id": "d15", "_id": "d16", "title": "t", "text": "words"}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Corpus(path)
    assert caught.value.line == 2 and "_id" in str(caught.value) and "twice" in str(caught.value)
    path.write_text(_lines(DOCS[:1]) + '{"_id": "a", "title": "", "text": "words", "\\u005fid": "b"}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:  # the second spelled with an escape: the same key to a JSON reader
        Corpus(path)
    assert caught.value.line == 2 and "twice" in str(caught.value)


def test_a_null_text_is_said_to_be_null(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines(DOCS[:1]) + '{"_id": "empty", "text": null}\n', encoding="utf-8")
    with pytest.raises(UnreadableDocument, match="corpus.jsonl:2: `text` is null"):  # the line to mend
        Corpus(path).document("empty")


def test_bad_bytes_in_a_line_name_the_line(tmp_path: Path) -> None:
    """Said "not valid utf-8 at byte 29 of its line", which left the line to find among a million."""
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(_lines(DOCS[:1]).encode() + b'{"_id": "latin", "text": "caf\xe9"}\n')
    with pytest.raises(UnreadableDocument, match=r"corpus.jsonl:2: not valid utf-8 at byte 29 of the line"):
        Corpus(path).document("latin")
    replaced = Corpus(path, errors="replace")
    assert replaced.text("latin") == "caf\ufffd"
    assert [str(p) for p in replaced.problems] == ["latin: corpus.jsonl:2: not valid utf-8 at byte 29 of the line; bad bytes replaced"]


def test_an_unreadable_document_is_not_said_to_be_missing(tmp_path: Path) -> None:
    """x on a BEIR question whose relevant document's line has no text said "no document 'empty' in the corpus"."""
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines(DOCS[:1]) + '{"_id": "empty", "text": null}\n', encoding="utf-8")
    corpus = Corpus(path)
    assert corpus.get("empty") is None
    said = corpus.why_unusable("empty")
    assert said == "document 'empty' is in the corpus but could not be read: corpus.jsonl:2: `text` is null", said
    assert corpus.why_unusable("nowhere") == corpus.why_missing("nowhere")
    assert "no document 'nowhere' in the corpus" in corpus.why_unusable("nowhere")


def test_a_document_broken_after_its_id_is_reported_alone(tmp_path: Path) -> None:
    # Opening reads only where each line starts and its id, so a line broken further on
    # is found when its document is read, and the rest of the corpus stays usable.
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines(DOCS[:1]) + '{"_id": "bad", "text": \n' + '{"_id": "nontext", "text": 3}\n', encoding="utf-8")
    corpus = Corpus(path)
    assert corpus.ids == ("d1", "bad", "nontext")
    with pytest.raises(UnreadableDocument, match="not valid JSON"):
        corpus.document("bad")
    with pytest.raises(UnreadableDocument, match="`text` must be a string"):
        corpus.document("nontext")
    assert corpus.text("d1").startswith("Notice periods")
    assert [problem.doc_id for problem in corpus.problems] == ["bad", "nontext"]


def test_a_corpus_file_that_changed_since_it_was_opened_is_not_misread(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text(_lines(DOCS[:2]), encoding="utf-8")
    corpus = Corpus(path)
    path.write_text(_lines([DOCS[2], DOCS[1], DOCS[0]]), encoding="utf-8")  # rewritten: the lines moved
    with pytest.raises(UnreadableDocument, match="changed since it was opened"):
        corpus.document("<dbpedia:Oceanic_Airlines>")


def test_another_file_is_still_refused_saying_what_a_corpus_may_be(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="a folder of documents or a BEIR corpus.jsonl"):
        Corpus(path)


def test_resolve_takes_a_corpus_jsonl_on_the_command_line(beir: Path, tmp_path: Path, capsys) -> None:
    item = cg.EvalItem(
        id="q1",
        question="How much notice must an employee give?",
        anchors=[cg.GoldAnchor(source_id="d1", quote="four weeks of notice")],
    )
    quiz = write_jsonl(cg.EvalSet(id="quiz", items=(item,)), tmp_path / "quiz.jsonl")
    out = tmp_path / "resolved.jsonl"
    assert main(["resolve", str(quiz), "--corpus", str(beir / "corpus.jsonl"), "-o", str(out)]) == 0
    assert "1 exact" in capsys.readouterr().out
    span = open_evalset(out).items[0].gold[0].span
    assert Corpus(beir).text("d1")[span.start : span.end] == "four weeks of notice"


def test_a_broken_corpus_jsonl_is_one_line_and_exit_2(beir: Path, tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"_id": "d1", "text": "x"}\n[1, 2]\n', encoding="utf-8")
    quiz = write_jsonl(cg.EvalSet(id="quiz", items=(cg.EvalItem(id="q", question="What?"),)), tmp_path / "quiz.jsonl")
    assert main(["resolve", str(quiz), "--corpus", str(broken), "-o", str(tmp_path / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{broken}:2:" in err and "Traceback" not in err


# --- the real leaderboard subsets (SOURCES.md 1b: corpora of 5,000, 671 and 2,043 documents) -------


@pytest.mark.parametrize("subset, documents", [("msmarco", 5000), ("dbpedia", 5000), ("business-reports", 671), ("pg", 2043)])
def test_real_beir_corpora_open_with_their_document_counts(realdata, subset, documents):
    folder = realdata / "beir-agentset-leaderboard" / subset
    assert len(Corpus(folder)) == len(Corpus(folder / "corpus.jsonl")) == documents


@pytest.mark.parametrize("subset", ["msmarco", "dbpedia", "business-reports"])
def test_real_gold_documents_are_all_found_and_quotable(realdata, subset):
    folder = realdata / "beir-agentset-leaderboard" / subset
    corpus = Corpus(folder)
    evalset = open_evalset(folder)
    gold = {doc_id for item in evalset for doc_id, _grade in item.meta["gold_documents"]}
    assert gold and all(corpus.resolve_id(doc_id) == doc_id for doc_id in gold)
    # A quote taken from a gold document resolves against the same id.
    doc_id = sorted(gold)[0]
    body = corpus.text(doc_id).split("\n\n", 1)[-1]
    anchored = cg.EvalItem(id="x", question="Where?", anchors=[cg.GoldAnchor(source_id=doc_id, quote=body[:60])])
    _, report = AnchorResolver().resolve_with_report(cg.EvalSet(id="x", items=(anchored,)), corpus)
    assert report.counts()[MatchKind.EXACT] == 1


def test_real_msmarco_titles_are_empty_so_texts_are_bare(realdata):
    corpus = Corpus(realdata / "beir-agentset-leaderboard" / "msmarco")
    assert corpus.text("4380635").startswith("Fahrenheit Scale-Daniel Gabriel Fahrenheit.")


# --- a relevant document the corpus holds only split up, and a name nearly right ----------------------


def _judged(*doc_ids: str) -> cg.EvalSet:
    item = cg.EvalItem(id="q1", question="Who are the Druze?", meta={"gold_documents": [[d, 1] for d in doc_ids]})
    return cg.EvalSet(id="beir", items=(item,))


def test_the_pieces_of_a_split_document_are_found_in_the_order_of_their_numbers() -> None:
    corpus = Corpus.from_texts(
        {
            "doc18": "another document",
            **{f"doc183_chunk_{n}": f"piece {n}" for n in (10, 0, 2, 1)},
            "doc183-v2": "not a piece: no number after the separator's word",
            "page#3": "p",
            "page#4": "p",
        }
    )
    assert corpus.pieces_of("doc183") == ["doc183_chunk_0", "doc183_chunk_1", "doc183_chunk_2", "doc183_chunk_10"]
    assert corpus.pieces_of("page") == ["page#3", "page#4"]
    assert corpus.pieces_of("doc1") == [] and corpus.pieces_of("doc18") == []  # doc18 is a document itself
    assert corpus.pieces_of("") == []
    assert "only its 4 pieces ('doc183_chunk_0', …)" in corpus.why_missing("doc183")


def test_a_name_off_by_a_character_or_two_is_offered_but_not_another_of_a_numbered_series() -> None:
    corpus = Corpus.from_texts({"policies/TickTick: To Do List.txt": "x", "arcd-doc99": "y", "zeta.txt": "z"})
    assert corpus.why_missing("policies/TickTick - To Do List.txt").endswith(
        "; the closest name is 'policies/TickTick: To Do List.txt'"
    )
    assert corpus.closest_name("arcd-doc99999") is None  # doc99 is another document, not a misspelling
    assert corpus.closest_name("arcd-dok99") == "arcd-doc99"
    assert corpus.closest_name("something else entirely") is None
    assert "closest" not in corpus.why_missing("alpha.txt")


def test_a_relevant_document_held_only_in_pieces_is_a_medium_warning_that_says_so() -> None:
    """ARCD's qrels name arcd-doc183 and its corpus holds arcd-doc183_chunk_0 to _3: the warning said no
    retriever could find the answer (HIGH), which is false; a score that compares ids misses it."""
    from reviewtui.evalset.evidence.resolution import evidence_flags
    from reviewtui.evalset.model.flag import Severity

    corpus = Corpus.from_texts({"d1_chunk_0": "The Druze are", "d1_chunk_1": "a religious community.", "d2": "other"})
    (flag,) = evidence_flags(AnchorResolver().resolve_with_report(_judged("d1"), corpus)[1])["q1"]
    assert flag.severity is Severity.MEDIUM
    assert "only in pieces (d1 as 2 pieces: d1_chunk_0, …)" in flag.reason and "no retriever" not in flag.reason

    (flag,) = evidence_flags(AnchorResolver().resolve_with_report(_judged("gone"), corpus)[1])["q1"]
    assert flag.severity is Severity.HIGH and "no retriever can find its answer" in flag.reason

    (flag,) = evidence_flags(AnchorResolver().resolve_with_report(_judged("d1", "gone", "d2"), corpus)[1])["q1"]
    assert flag.severity is Severity.MEDIUM
    assert "1 of its 3 relevant documents is not in the corpus (gone; 1 more only in pieces" in flag.reason


def test_real_arcd_qrels_naming_a_split_document_are_not_said_to_be_lost(realdata):
    from reviewtui.evalset.evidence.resolution import evidence_flags
    from reviewtui.evalset.model.flag import Severity

    folder = realdata / "beir-agentset-leaderboard" / "arcd"
    corpus = Corpus(folder)
    assert corpus.pieces_of("arcd-doc183") == [f"arcd-doc183_chunk_{n}" for n in range(4)]
    flags = evidence_flags(AnchorResolver().resolve_with_report(open_evalset(folder), corpus)[1])
    (flag,) = flags["arcd-q549"]
    assert flag.severity is Severity.MEDIUM and "arcd-doc183 as 4 pieces" in flag.reason
    assert not any("no retriever" in f.reason for found in flags.values() for f in found)


def test_a_folder_corpus_finds_pieces_and_close_names_with_their_extensions(tmp_path: Path) -> None:
    folder = tmp_path / "corp"
    folder.mkdir()
    for n in range(3):
        (folder / f"doc183_chunk_{n}.txt").write_text(f"piece {n}", encoding="utf-8")
    (folder / "TickTick - To Do.md").write_text("x", encoding="utf-8")
    corpus = Corpus(folder)
    chunks = [f"doc183_chunk_{n}.txt" for n in range(3)]
    assert corpus.pieces_of("doc183") == corpus.pieces_of("doc183.txt") == corpus.pieces_of("corp/doc183") == chunks
    assert corpus.why_missing("TickTick: To Do").endswith("; the closest name is 'TickTick - To Do.md'")
    assert corpus.why_missing("TickTick: To Do.md").endswith("; the closest name is 'TickTick - To Do.md'")


def test_why_a_document_is_missing_is_worked_out_once_per_id(monkeypatch) -> None:
    """Every quote of a missing document asked again: six string comparisons a quote made 50k quotes take 20 s."""
    corpus = Corpus.from_texts({f"policies/section {n} - revised.txt": "x" for n in range(50)})
    calls = []
    real = Corpus.closest_name
    monkeypatch.setattr(Corpus, "closest_name", lambda self, source_id: calls.append(source_id) or real(self, source_id))
    said = {corpus.why_missing("policies/section 7: revised.txt") for _ in range(100)}
    assert len(said) == 1 and calls == ["policies/section 7: revised.txt"]


def test_one_piece_and_one_of_two_documents_are_said_in_the_singular() -> None:
    from reviewtui.evalset.evidence.resolution import evidence_flags

    corpus = Corpus.from_texts({"d1_chunk_0": "The Druze are a religious community.", "d2": "other"})
    assert corpus.why_missing("d1").endswith(", only its one piece ('d1_chunk_0')")
    (flag,) = evidence_flags(AnchorResolver().resolve_with_report(_judged("d1", "d2"), corpus)[1])["q1"]
    assert flag.reason.startswith("1 of its 2 relevant documents is in the corpus only in pieces (d1 as 1 piece: d1_chunk_0)")


def test_a_short_id_that_begins_too_many_ids_names_no_pieces_rather_than_a_count_cut_short(monkeypatch) -> None:
    from reviewtui.evalset.evidence import corpus as module

    monkeypatch.setattr(module, "_PIECES_WEIGHED", 5)
    corpus = Corpus.from_texts({f"doc_{n}": "x" for n in range(10)})
    assert corpus.pieces_of("doc") == []
    assert Corpus.from_texts({f"doc_{n}": "x" for n in range(4)}).pieces_of("doc") == [f"doc_{n}" for n in range(4)]
