"""Writing a converted set's documents as a corpus folder, and finding them again by their bare ids."""

from __future__ import annotations

import json
import os
import stat

from reviewtui.cli import main
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolution import MatchKind
from reviewtui.evalset.evidence.resolve import AnchorResolver
from reviewtui.evalset.io import open_evalset
from reviewtui.evalset.io.corpusfiles import write_corpus


def test_written_documents_open_under_their_ids(tmp_path):
    texts = {
        "Normans#0": "The Normans were a people.",
        "AC/DC#1": "A band from Sydney.",  # a slash makes a subfolder; the id still finds it
        "Köln: Dom": "Ein Dom.\fSeite zwei.",
        "notes.md": "# kept as .md",
        ".sj": "The Internet country code of Svalbard.",  # a real HotpotQA title: written as %2Esj.txt
    }
    count, refused = write_corpus(texts, tmp_path / "corpus")
    assert (count, refused) == (5, {})
    assert (tmp_path / "corpus" / "%2Esj.txt").is_file()
    assert (tmp_path / "corpus" / "AC" / "DC#1.txt").is_file()
    assert (tmp_path / "corpus" / "notes.md").is_file()
    corpus = Corpus(tmp_path / "corpus")
    for doc_id, text in texts.items():
        assert corpus.text(doc_id) == text
    assert corpus.document("Köln: Dom").page_count == 2


def test_unsafe_or_colliding_ids_are_refused_not_written_elsewhere(tmp_path):
    folder = tmp_path / "corpus"
    texts = {"../escape": "x", "/abs/path": "x", "a\\..\\..\\b": "x", "a/../../b": "x", "": "x", "a": "first", "A": "second"}
    count, refused = write_corpus(texts, folder)
    assert count == 1
    assert set(refused) == {"../escape", "/abs/path", "a\\..\\..\\b", "a/../../b", "", "A"}
    assert "climbs out" in refused["../escape"]
    assert "the one written for 'a'" in refused["A"]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == ["corpus/a.txt"]


def test_bare_id_is_refused_when_two_extensions_match(tmp_path):
    (tmp_path / "doc.txt").write_text("one", encoding="utf-8")
    (tmp_path / "doc.md").write_text("two", encoding="utf-8")
    (tmp_path / "only.md").write_text("three", encoding="utf-8")
    corpus = Corpus(tmp_path)
    assert corpus.resolve_id("doc") is None
    assert corpus.resolve_id("only") == "only.md"


SQUAD = {
    "version": "v2.0",
    "data": [
        {
            "title": "Bell Rock",
            "paragraphs": [
                {
                    "context": "The Bell Rock is a reef. It lies off Angus. A lighthouse stands on it.",
                    "qas": [{"id": "b1", "question": "Where does the Bell Rock lie?", "answers": [{"text": "off Angus", "answer_start": 34}]}],
                }
            ],
        }
    ],
}


def test_convert_writes_the_corpus_the_quotes_resolve_against(tmp_path, capsys):
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(SQUAD), encoding="utf-8")
    out, folder = tmp_path / "set.jsonl", tmp_path / "docs"
    assert main(["convert", str(source), str(out), "--corpus-out", str(folder)]) == 0
    assert f"wrote 1 document to {folder}/" in capsys.readouterr().out
    es = open_evalset(out)
    unresolved = es.with_items(item.model_copy(update={"gold": ()}) for item in es)
    _, report = AnchorResolver().resolve_with_report(unresolved, Corpus(folder))
    assert report.counts()[MatchKind.EXACT] == 1
    assert report.resolutions[0].span == es.items[0].gold[0].span


def test_corpus_out_makes_its_own_folder_only(tmp_path, capsys):
    """A typo above the folder (nodir/docs) made the whole tree, where -o refuses a folder that does not exist."""
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(SQUAD), encoding="utf-8")
    out, folder = tmp_path / "set.jsonl", tmp_path / "nodir" / "docs"
    assert main(["convert", str(source), str(out), "--corpus-out", str(folder)]) == 2
    assert f"the folder it would be made in, {tmp_path / 'nodir'}, does not exist" in capsys.readouterr().err
    assert not out.exists() and not (tmp_path / "nodir").exists()
    assert main(["convert", str(source), str(out), "--corpus-out", str(tmp_path / "docs")]) == 0  # its own folder is made
    assert (tmp_path / "docs").is_dir()


def test_corpus_out_needs_a_format_that_carries_documents(tmp_path, capsys):
    source = tmp_path / "plain.csv"
    source.write_text("id,question\nq1,What is a reef?\n", encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "o.jsonl"), "--corpus-out", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{source}: --corpus-out needs a file that carries its documents (SQuAD, HotpotQA, Natural Questions or DPR), not csv"]
    assert not (tmp_path / "o.jsonl").exists() and not (tmp_path / "d").exists()


def test_real_hotpotqa_quotes_all_resolve_against_the_written_paragraphs(realdata, tmp_path, capsys):
    out, folder = tmp_path / "dev.jsonl", tmp_path / "paragraphs"
    assert main(["convert", str(realdata / "qa-hotpotqa-megagon" / "dev.jsonl"), str(out), "--corpus-out", str(folder)]) == 0
    assert capsys.readouterr().err == ""  # every title could be written, ".sj" included
    _, report = AnchorResolver().resolve_with_report(open_evalset(out), Corpus(folder))
    counts = report.counts()
    assert counts[MatchKind.EXACT] == len(report.resolutions) == 735


def test_spellings_the_corpus_takes_for_one_file_are_written_once(tmp_path):
    nfc, nfd = "MO\u00cbT", "MOE\u0308T"
    count, refused = write_corpus({nfc: "first", nfd: "second", "x": "ex", "x.txt": "other"}, tmp_path)
    assert count == 2
    assert set(refused) == {nfd, "x.txt"}
    assert "finds that document" in refused["x.txt"]
    assert Corpus(tmp_path).text(nfd) == "first"


def test_a_link_out_of_the_folder_is_not_followed(tmp_path):
    folder, elsewhere = tmp_path / "corpus", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "link").symlink_to(elsewhere, target_is_directory=True)
    count, refused = write_corpus({"link/x": "text", "ok": "text"}, folder)
    assert count == 1 and "outside the corpus folder" in refused["link/x"]
    assert list(elsewhere.iterdir()) == []


def test_long_legal_names_are_written(tmp_path):
    name = "y" * 250  # 254 bytes with .txt: legal, and the temporary file must not push it over
    count, refused = write_corpus({name: "long"}, tmp_path)
    assert (count, refused) == (1, {})
    assert Corpus(tmp_path).text(name) == "long"


def test_an_id_matching_two_extensions_is_called_ambiguous(tmp_path):
    (tmp_path / "a.txt").write_text("one", encoding="utf-8")
    (tmp_path / "a.md").write_text("two", encoding="utf-8")
    assert "ambiguous" in Corpus(tmp_path).why_missing("a")


def test_documents_that_cannot_be_written_make_the_convert_fail(tmp_path, capsys):
    """A title too long for a file name: the set is written, that document is not, and the command says
    so and exits 2 ("a write that fails is one line and exit code 2"), not 0."""
    data = json.loads(json.dumps(SQUAD))
    long = json.loads(json.dumps(data["data"][0]))
    long["title"] = "T" * 300
    long["paragraphs"][0]["qas"][0]["id"] = "b2"
    data["data"].append(long)
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    out, folder = tmp_path / "set.jsonl", tmp_path / "docs"
    assert main(["convert", str(source), str(out), "--corpus-out", str(folder)]) == 2
    captured = capsys.readouterr()
    assert "wrote 1 document to" in captured.out
    assert f"{folder}: not written: document 'TTTT" in captured.err and "1 of the documents not written hold evidence" in captured.err
    assert out.exists()
    only_long = json.loads(json.dumps(data))
    only_long["data"] = [long]
    source.write_text(json.dumps(only_long), encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "long.jsonl"), "--corpus-out", str(tmp_path / "none")]) == 2
    said = capsys.readouterr().out
    assert "wrote no document to" in said and "open the set with --corpus" not in said  # no folder to open it with


def _hotpot_row(**context_titles):
    titles = list(context_titles)
    return {
        "id": "h1",
        "question": "Which band played in Tulsa first?",
        "answer": "Tinted Windows",
        "supporting_facts": [[titles[0], 0]],
        "context": [[title, [text]] for title, text in context_titles.items()],
    }


def test_a_distractor_paragraph_that_cannot_be_written_is_said_but_no_failure(tmp_path, capsys):
    row = _hotpot_row(Band="Tinted Windows played in Tulsa first.", **{"a\x00b": "A distractor.", "": "Another."})
    source = tmp_path / "hp.jsonl"
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "o.jsonl"), "--corpus-out", str(tmp_path / "d")]) == 0
    err = capsys.readouterr().err
    assert "2 documents not written, none of them holding any of the set's evidence" in err, err
    assert (tmp_path / "d" / "Band.txt").read_text() == "Tinted Windows played in Tulsa first."


def test_a_document_named_like_the_input_never_replaces_it(tmp_path, capsys, monkeypatch):
    row = _hotpot_row(hp="Tinted Windows played in Tulsa first.", Other="Other text.")
    source = tmp_path / "hp.txt"
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    before = source.read_bytes()
    monkeypatch.chdir(tmp_path)
    code = main(["convert", "hp.txt", "out.jsonl", "--corpus-out", ".", "--force", "--from", "hotpotqa"])
    assert code == 2  # the document the quote is from could not be written
    assert source.read_bytes() == before
    assert "its file hp.txt is the input set itself" in capsys.readouterr().err


def test_a_title_holding_control_characters_is_written_escaped_and_found_again(tmp_path):
    """convert --corpus-out wrote a SQuAD title's escape sequence and bell into the file name itself: listing the
    folder in a terminal sent them to it."""
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.io.corpusfiles import write_corpus

    ids = {"\x1b[31mred\x07#0": "Paris is red.", "new\nline#1": "A line.", "plain#0": "Plain text."}
    assert write_corpus(ids, tmp_path, flat=True) == (3, {})
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["%1B[31mred%07#0.txt", "new%0Aline#1.txt", "plain#0.txt"]
    corpus = Corpus(tmp_path)
    assert all(corpus.resolve_id(doc_id) is not None for doc_id in ids)


def test_a_pipe_under_a_documents_name_is_passed_over_not_opened(tmp_path, capsys):
    """With --force, a named pipe at a document's file name was opened for writing, and the command waited for a
    reader for ever. It is a document not written, said as any other."""
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(SQUAD), encoding="utf-8")
    folder = tmp_path / "docs"
    assert main(["convert", str(source), str(tmp_path / "set.jsonl"), "--corpus-out", str(folder)]) == 0
    (document,) = folder.iterdir()
    document.unlink()
    os.mkfifo(document)
    capsys.readouterr()
    assert main(["convert", str(source), str(tmp_path / "again.jsonl"), "--corpus-out", str(folder), "--force"]) == 2
    err = capsys.readouterr().err
    assert "is a named pipe, not a file to hold a document" in err and "1 of the documents not written hold evidence" in err
    assert stat.S_ISFIFO(os.lstat(document).st_mode)


def test_corpus_out_that_is_out_itself_is_refused_before_anything_is_written(tmp_path, capsys, monkeypatch):
    """`convert squad.json set.jsonl --corpus-out set.jsonl` wrote the set, then failed every document (Not a directory)."""
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(SQUAD), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "squad.json", "set.jsonl", "--corpus-out", "./set.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "./set.jsonl: --corpus-out names the same path as OUT" in err
    assert not (tmp_path / "set.jsonl").exists()


def test_corpus_out_that_is_out_through_a_linked_folder_is_refused_before_anything_is_written(tmp_path, capsys, monkeypatch):
    """`--corpus-out up/set.jsonl`, up a link to the folder itself: the set was written, then every document failed."""
    source = tmp_path / "squad.json"
    source.write_text(json.dumps(SQUAD), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to("..")
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "squad.json", "set.jsonl", "--corpus-out", "sub/up/set.jsonl"]) == 2
    assert "--corpus-out names the same path as OUT" in capsys.readouterr().err
    assert not (tmp_path / "set.jsonl").exists()
