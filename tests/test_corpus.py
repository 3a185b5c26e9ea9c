"""Corpus: ids, lookups by other spellings, lazy loading, per-document errors, pages."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from reviewtui.evalset.evidence.corpus import Corpus, Document, UnknownDocument, UnreadableDocument
from reviewtui.evalset.model.items import EvalSetError


def write(root: Path, rel: str, data: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    write(root, "a.txt", "alpha")
    write(root, "sub/b.md", "bravo")
    write(root, "sub/deeper/c.txt", "charlie")
    write(root, "sub/a.txt", "another alpha")
    write(root, "notes.rst", "restructured")
    write(root, "image.png", b"\x89PNG")
    write(root, ".hidden.txt", "hidden")
    write(root, ".git/config.txt", "git internals")
    return root


def test_ids_are_relative_paths_with_slashes(tree: Path) -> None:
    corpus = Corpus(tree)
    assert sorted(corpus.ids) == ["a.txt", "sub/a.txt", "sub/b.md", "sub/deeper/c.txt"]
    assert len(corpus) == 4


def test_extensions_can_be_added(tree: Path) -> None:
    corpus = Corpus(tree, extensions=(".txt", "rst", ".MD"))
    assert "notes.rst" in corpus.ids
    assert corpus.text("notes.rst") == "restructured"


def test_bare_name_works_only_when_unique(tree: Path) -> None:
    corpus = Corpus(tree)
    assert corpus.resolve_id("c.txt") == "sub/deeper/c.txt"
    assert corpus.text("b.md") == "bravo"
    # "a.txt" is the exact id of the top-level file, so it is not ambiguous.
    assert corpus.resolve_id("a.txt") == "a.txt"


def test_ambiguous_bare_name_is_refused_with_candidates(tmp_path: Path) -> None:
    write(tmp_path, "x/same.txt", "one")
    write(tmp_path, "y/same.txt", "two")
    corpus = Corpus(tmp_path)
    assert corpus.resolve_id("same.txt") is None
    with pytest.raises(UnknownDocument, match="ambiguous.*x/same.txt.*y/same.txt"):
        corpus.document("same.txt")


def test_unknown_id_says_so(tree: Path) -> None:
    corpus = Corpus(tree)
    assert "nope.txt" not in corpus
    with pytest.raises(UnknownDocument, match="no document 'nope.txt'"):
        corpus.text("nope.txt")
    assert corpus.get("nope.txt") is None


def test_url_encoded_and_decoded_spellings_meet(tmp_path: Path) -> None:
    write(tmp_path, "contractnli/DBT%20Mutual%20NDA.txt", "literal percent name")
    write(tmp_path, "contractnli/Data Use Agreement.txt", "space name")
    corpus = Corpus(tmp_path)
    assert corpus.text("contractnli/DBT%20Mutual%20NDA.txt") == "literal percent name"
    assert corpus.text("contractnli/DBT Mutual NDA.txt") == "literal percent name"
    assert corpus.text("contractnli/Data%20Use%20Agreement.txt") == "space name"
    assert corpus.text("Data%20Use%20Agreement.txt") == "space name"


def test_nfc_and_nfd_spellings_meet(tmp_path: Path) -> None:
    nfc = unicodedata.normalize("NFC", "MOËT.txt")
    nfd = unicodedata.normalize("NFD", "MOËT.txt")
    assert nfc != nfd
    write(tmp_path, nfc, "champagne")
    corpus = Corpus(tmp_path)
    assert corpus.text(nfd) == "champagne"
    assert corpus.resolve_id(nfd) == nfc


def test_backslashes_and_dot_slash_are_tolerated(tree: Path) -> None:
    corpus = Corpus(tree)
    assert corpus.resolve_id("sub\\deeper\\c.txt") == "sub/deeper/c.txt"
    assert corpus.resolve_id("./sub/b.md") == "sub/b.md"


def test_corpus_folder_name_in_front_of_an_id_is_tolerated(tmp_path: Path) -> None:
    root = tmp_path / "corpus" / "privacy_qa"
    write(root, "Fiverr.txt", "fiverr policy")
    corpus = Corpus(root)
    assert corpus.ids == ("Fiverr.txt",)
    assert corpus.text("privacy_qa/Fiverr.txt") == "fiverr policy"
    assert corpus.text("corpus/privacy_qa/Fiverr.txt") == "fiverr policy"
    # A different folder in front is not stripped.
    assert corpus.resolve_id("cuad/Fiverr.txt") is None


def test_hostile_file_names(tmp_path: Path) -> None:
    names = [
        "TickTick: To Do List with Reminder, Day Planner.txt",
        "Cubic Corporation_Investment Group.pdf||Cubic_Amendment No.1.txt",
        "TIFFANY_&_CO._LVMH_MOËT_HENNESSY.txt",
        "The Michaels Companies, Inc._Apollo (2020).txt",
    ]
    for number, name in enumerate(names):
        write(tmp_path, f"maud/{name}", f"document {number}")
    corpus = Corpus(tmp_path)
    for number, name in enumerate(names):
        assert corpus.text(f"maud/{name}") == f"document {number}"
        assert corpus.text(name) == f"document {number}"


def test_documents_are_read_lazily(tree: Path) -> None:
    corpus = Corpus(tree)
    (tree / "sub" / "b.md").write_text("changed before first use", encoding="utf-8")
    assert corpus.text("sub/b.md") == "changed before first use"
    (tree / "sub" / "b.md").write_text("changed after first use", encoding="utf-8")
    assert corpus.text("sub/b.md") == "changed before first use"


def test_invalid_utf8_is_reported_for_that_document_only(tmp_path: Path) -> None:
    write(tmp_path, "good.txt", "fine text")
    write(tmp_path, "bad.txt", b"caf\xe9 latin-1 bytes")
    corpus = Corpus(tmp_path)
    with pytest.raises(UnreadableDocument, match=r"bad.txt: not valid utf-8 at byte 3 \(line 1\)"):
        corpus.document("bad.txt")
    assert corpus.text("good.txt") == "fine text"
    assert [str(p) for p in corpus.problems] == ["bad.txt: not valid utf-8 at byte 3 (line 1)"]
    # The failure is remembered, not retried into a different error.
    with pytest.raises(UnreadableDocument):
        corpus.document("bad.txt")


def test_bad_bytes_far_into_a_document_name_their_line(tmp_path: Path) -> None:
    # A byte offset alone left the place to find in an editor.
    write(tmp_path, "long.txt", b"first line\n" * 20_000 + b"caf\xe9\n")
    with pytest.raises(UnreadableDocument, match=r"long.txt: not valid utf-8 at byte 220,003 \(line 20,001\)$"):
        Corpus(tmp_path).document("long.txt")


def test_replace_mode_loads_bad_bytes_and_still_reports_them(tmp_path: Path) -> None:
    write(tmp_path, "bad.txt", b"caf\xe9 au lait")
    corpus = Corpus(tmp_path, errors="replace")
    assert corpus.text("bad.txt") == "caf\ufffd au lait"
    (problem,) = corpus.problems
    assert not problem.fatal and "replaced" in problem.reason


def test_load_all_collects_every_problem(tmp_path: Path) -> None:
    write(tmp_path, "one.txt", b"\xff\xfe")
    write(tmp_path, "two.txt", b"ok")
    write(tmp_path, "three.txt", b"\x80")
    problems = Corpus(tmp_path).load_all()
    assert sorted(p.doc_id for p in problems) == ["one.txt", "three.txt"]


def test_missing_folder_and_file_instead_of_folder(tmp_path: Path) -> None:
    with pytest.raises(EvalSetError, match="corpus folder not found"):
        Corpus(tmp_path / "absent")
    write(tmp_path, "file.txt", "x")
    with pytest.raises(EvalSetError, match="is a file"):
        Corpus(tmp_path / "file.txt")
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(EvalSetError, match="pipe: is a named pipe; a corpus is a folder"):
        Corpus(tmp_path / "pipe")  # said without opening it: opening a pipe waits for a writer
    with pytest.raises(EvalSetError, match="/dev/null: is a device; a corpus is a folder"):
        Corpus("/dev/null")


def test_in_memory_corpus() -> None:
    corpus = Corpus.from_texts({"x/one.txt": "first", "two.md": "second"})
    assert corpus.text("one.txt") == "first"
    assert corpus.document("two.md").path is None


def test_pages_split_on_form_feeds() -> None:
    doc = Document("d", "page one\fpage two\f\fpage four")
    assert doc.page_count == 4
    assert doc.page_bounds(1) == (0, 8)
    assert doc.text[slice(*doc.page_bounds(2))] == "page two"
    assert doc.page_bounds(3) == (18, 18)
    assert doc.text[slice(*doc.page_bounds(4))] == "page four"
    assert doc.page_bounds(0) is None and doc.page_bounds(5) is None
    assert doc.page_of(0) == 1 and doc.page_of(9) == 2 and doc.page_of(len(doc.text) - 1) == 4
    assert Document("e", "no breaks").page_count == 1


def test_datasaur_knowledge_base_ids_resolve(realdata: Path) -> None:
    """Every source_file named by the datasaur CSVs resolves, in its written and other spellings."""
    import csv

    base = realdata / "qa-csv-datasaur-legalbenchrag"
    corpus = Corpus(base / "knowledge-base")
    assert len(corpus) == 18
    names: set[str] = set()
    for domain in ("contractnli", "cuad", "maud", "privacy_qa"):
        with open(base / f"{domain}.csv", encoding="utf-8", newline="") as handle:
            names.update(row["source_file"] for row in csv.DictReader(handle))
    unresolved = [name for name in names if corpus.resolve_id(name) is None]
    assert not unresolved
    hostile = {
        "%20": next(n for n in names if "%20" in n),
        "||": next(n for n in names if "||" in n),
        "&": next(n for n in names if "&" in n),
        "non-ascii": next(n for n in names if not n.isascii()),
    }
    for name in hostile.values():
        text = corpus.text(name)
        assert len(text) > 1000
        assert corpus.text(unicodedata.normalize("NFD", name)) == text
        assert corpus.text(name.rsplit("/", 1)[1]) == text
    assert corpus.text(hostile["%20"].replace("%20", " ")) == corpus.text(hostile["%20"])


def test_a_named_pipe_among_the_documents_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    # `audit` and `resolve` with such a corpus stopped for good, waiting for a writer to the pipe.
    import threading

    (tmp_path / "a.md").write_text("hello world text")
    os.mkfifo(tmp_path / "pipe.md")
    corpus = Corpus(tmp_path)
    outcome: list[object] = []
    reader = threading.Thread(target=lambda: outcome.append(corpus.load_all()), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "reading the corpus waits on the named pipe"
    [problems] = outcome
    assert [(p.doc_id, p.reason) for p in problems] == [("pipe.md", "cannot read: is a named pipe, not a document file")]
    assert corpus.text("a.md") == "hello world text"


def test_a_file_the_corpus_skips_is_said_to_be_there_and_why(tmp_path):
    """A hidden file, a .pdf and a file in a linked folder were each "no document … in the corpus (35 documents)",
    as if they were not there: the reviewer could not tell a typo from a file the corpus does not read."""
    folder = tmp_path / "docs"
    (folder / "real").mkdir(parents=True)
    (folder / ".hidden.txt").write_text("hidden words\n", encoding="utf-8")
    (folder / "notes.pdf").write_text("pdf words\n", encoding="utf-8")
    (folder / "real" / "inside.txt").write_text("inside words\n", encoding="utf-8")
    (folder / "a.txt").write_text("a words\n", encoding="utf-8")
    (folder / "linkdir").symlink_to(folder / "real")
    (tmp_path / "secret.pdf").write_text("outside\n", encoding="utf-8")
    corpus = Corpus(folder)
    assert "hidden files and folders (a name starting with a dot) are not read" in corpus.why_missing(".hidden.txt")
    assert "only .md, .txt files are read: --ext pdf reads it" in corpus.why_missing("notes.pdf")
    assert "in linkdir, a link to a folder, which is not followed" in corpus.why_missing("linkdir/inside.txt")
    assert corpus.why_missing("nothing.txt") == "no document 'nothing.txt' in the corpus (2 documents)"
    assert "the file is there" not in corpus.why_missing("../secret.pdf")  # outside the folder: nothing said of it
    assert Corpus(folder, extensions=(".txt", ".md", ".pdf")).get("notes.pdf") is not None


def test_an_id_with_a_folder_is_not_called_ambiguous_by_documents_of_its_name_elsewhere(tmp_path):
    """'zzz/plain.txt' was "ambiguous: it could be 'plain.txt', 'sub/plain.txt'", though an id with a folder part is
    never matched by its bare name; and two names a screen shows alike were listed alike."""
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "plain.txt").write_text("a\n", encoding="utf-8")
    (folder / "sub" / "plain.txt").write_text("b\n", encoding="utf-8")
    (folder / unicodedata.normalize("NFC", "café.txt")).write_text("c\n", encoding="utf-8")
    (folder / unicodedata.normalize("NFD", "café.txt")).write_text("d\n", encoding="utf-8")
    corpus = Corpus(folder)
    assert corpus.why_missing("zzz/plain.txt").startswith("no document 'zzz/plain.txt' in the corpus")
    said = corpus.why_missing("cafe%CC%81.txt")
    assert "ambiguous" in said and "'cafe\\u0301.txt'" in said and "'caf\\xe9.txt'" in said
