"""The whole ``reviewtui audit`` command at 100k (and optionally 1M) questions, on three generated sets.

What is timed is what a user waits for: the installed ``reviewtui`` command started in a fresh
process, reading the JSONL file, running every check and filter, and writing the JSON report
(``reviewtui audit FILE -o REPORT --to json --force``). Measuring only the scan in this process
would leave out reading, rendering and writing, and would share this process's heap.

Four sets, all generated here deterministically from ``(n, seed)`` and streamed to disk:

* ``real_vocabulary`` - questions that use the words of real ones. A unigram model (word ->
  frequency) and the distribution of question lengths come from the real public QA data in
  ``../shared/realdata`` (SQuAD 2.0, HotpotQA, Natural Questions, PIAF). Each question is the
  first 1-3 words of a real question followed by words drawn from the model. Each quote is a
  real sentence from a real context, and each answer is 1-6 words of that quote. About 5 % of
  questions repeat a recent one with one word swapped, and about 1 % repeat a recent item
  exactly. On a set like this the similarity join has a realistic amount of work: many words
  are rare, so few questions share much of their vocabulary. Without the real data the model
  comes from the demo corpus and the demo set's questions, and a line says so.
* ``small_vocabulary`` - the adversarial case. Every question is 4-7 words drawn (with
  replacement) from the same 20 words, so at 100k questions the same word set turns up again and
  again. That gives over a million pairs that truly are near-duplicates (about 1.4M at 100k), and
  no index can prune them. The printout counts the distinct word sets and the pairs at or above a
  Jaccard similarity of 0.8. Questions have at most 7 distinct words, so two word sets can reach
  0.8 only when they are equal or one is the other plus a single word, and both counts come
  straight from the multiplicities.
* ``repeats`` - the other adversarial case: 500 real sentences with two questions each, every
  item one of those 1,000 questions (about 100 copies each at 100k), so the exact-duplicate and
  same-evidence groups hold hundreds of items. The report must flag at least half the items as
  exact duplicates and some as same-evidence. It has no target of its own; it shows that no
  group costs the square of its size.
* ``templates`` - the third adversarial case: five long templates, each filled in with a number
  the other four fill in too, as a generator varying one slot writes them. Every two questions of
  one template are near-duplicates (a billion pairs at 100k), each its own group of words. The
  report must account for exactly those pairs and flag every item. No target of its own; kept
  as pairs, the links took 4.8 GB at 8,000 questions and ran out of memory at 16,000.

The targets, from the issue, at 100k questions:

* real vocabulary: at most 5 s wall time;
* small vocabulary: at most 3x the real set's time;
* both: at most 4x the file size in memory, counted above the command's own peak on a 10-item
  set of the same kind ``(peak - peak10) / file bytes``.

At 1M questions (``--million``) both sets must finish within this machine's memory.

Peak memory is the command's own ``ru_maxrss``, read with ``os.wait4`` for that one process. On
Linux that value is the largest single process among the command and any children it waited
for, so a worker the scan forks onto a second core is covered as a maximum, not added on. The
``tree PSS`` column fills that gap. It samples the summed proportional set size of the command
and all its descendants every 50 ms, and pages shared copy-on-write are counted once. Sampling
costs a large share of a core, so it runs in one run of its own after the timed ones, whose wall
time is not used.

The command is not started from this process but from a small launcher (:data:`LAUNCHER`, a
Python that imports nothing but the standard library's process tools), which times it and reads
its ``ru_maxrss``. Linux carries the high-water mark of the process that starts a command into the
command's own ``ru_maxrss`` (``subprocess`` starts it with ``vfork``, and ``exec`` keeps the mark),
and this process holds every report it checks: started from here, a 100k run once showed 748 MB
that were this script's, not the command's (359 MB). The launcher's few megabytes are in every
run alike, the 10-item baseline included.

Each run also proves the work was done. The report is removed before every run of the command;
a run must exit 0 or 1 (a failing finding) with no traceback and write the report anew, and the
JSON report must name the set it was given and cover all ``n`` items, the 10-item baselines
included. On the small-vocabulary set it must contain near-duplicate findings and flags; on the real-text set,
near-duplicate findings and an exact-duplicate flag on at least half the items whose question the generator
wrote more than once. If any
check fails, the script stops with an error. Baselines from the same run are printed as well:
``python -c pass``, the audit on a 10-item set of each kind, and a plain orjson parse of every
line of each file.

Usage: python benchmarks/bench_audit_scale.py [--sizes 100000] [--million] [--repeat 1] [--seed 0]
                                             [--sets real_vocabulary,small_vocabulary] [--no-tree]
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
#: Real public QA data (see its SOURCES.md); the tests point this at a missing folder to check the fallback.
REALDATA = Path(os.environ.get("REVIEWTUI_REALDATA", ROOT.parent / "shared" / "realdata"))
DEMO_SET = ROOT / "sample_sets" / "wrenfield_tools" / "wrenfield_tools.jsonl"
DEMO_CORPUS = ROOT / "sample_sets" / "wrenfield_tools" / "corpus"

REAL = "real_vocabulary"
SMALL = "small_vocabulary"
REPEATS = "repeats"
TEMPLATES = "templates"
KINDS = (REAL, SMALL, REPEATS, TEMPLATES)
#: The repeats set: this many passages, two questions each, every question asked about this many times.
REPEAT_PASSAGES = 500

TARGET_SIZE = 100_000
TARGET_REAL_SECONDS = 5.0
TARGET_SMALL_FACTOR = 3.0
TARGET_MEMORY_RATIO = 4.0
BASELINE_SIZE = 10
PARSE_WHOLE = 1 << 30  # bytes of report parsed whole; a larger one is read up to its flags (see check_report)

#: The small set's whole vocabulary: 20 content words (none is one of the audit's stop words).
SMALL_WORDS: tuple[str, ...] = (
    "harbor", "lantern", "orchard", "copper", "meadow", "signal", "timber", "falcon", "glacier", "ledger",
    "canyon", "ember", "violet", "marble", "thunder", "saddle", "velvet", "anchor", "willow", "prism",
)  # fmt: skip
assert len(set(SMALL_WORDS)) == 20

_QTYPES = ("factoid", "factoid", "factoid", "factoid", "numeric", "multi_hop", "comparative", "summarisation")
_WORD = re.compile(r"\w+(?:['’-]\w+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_TAG = re.compile(r"<[^>]*>")
_NQ_PARAGRAPH = re.compile(r"<P>(.*?)</P>", re.S)
_EDGE_PUNCTUATION = ".,;:!?\"'()[]«»“”‘’`"


# --- the real-text model ---------------------------------------------------------------------


@dataclass(frozen=True)
class TextModel:
    """What the real-vocabulary generator samples from."""

    origin: str  # a short description of where the text came from
    words: tuple[str, ...]  # the unigram vocabulary, most frequent first
    cum_weights: tuple[int, ...]  # cumulative frequencies, for random.choices
    openers: tuple[tuple[str, ...], ...]  # the first (up to) three words of every real question
    lengths: tuple[int, ...]  # the word count of every real question
    sentences: tuple[tuple[str, str], ...]  # (source_id, sentence) from real contexts


def _sentences(text: str) -> Iterator[str]:
    for part in _SENTENCE_END.split(" ".join(text.split())):
        if 5 <= len(part.split()) <= 60:
            yield part


def _squad_like(path: Path, questions: list[str], contexts: list[tuple[str, str]]) -> None:
    """SQuAD 2.0 and PIAF files: data[].paragraphs[].{context, qas[].question}."""
    data = orjson.loads(path.read_bytes())
    for article_number, article in enumerate(data.get("data", ())):
        title = str(article.get("title") or f"{path.stem}-{article_number}")
        for paragraph in article.get("paragraphs", ()):
            contexts.append((title, paragraph.get("context", "")))
            questions.extend(qa.get("question", "") for qa in paragraph.get("qas", ()))


def _hotpot(path: Path, questions: list[str], contexts: list[tuple[str, str]]) -> None:
    for line in path.read_bytes().splitlines():
        row = orjson.loads(line)
        questions.append(row["question"])
        for title, sentences in zip(row["context"]["title"], row["context"]["sentences"]):
            contexts.extend((title, sentence) for sentence in sentences)


def _natural_questions(path: Path, questions: list[str], contexts: list[tuple[str, str]]) -> None:
    for line in path.read_bytes().splitlines():
        row = orjson.loads(line)
        questions.append(row["question_text"])
        title = row["document_text"].split(" - wikipedia", 1)[0][:80]
        contexts.extend((title, _TAG.sub(" ", p)) for p in _NQ_PARAGRAPH.findall(row["document_text"]))


def _realdata_text(root: Path) -> tuple[list[str], list[tuple[str, str]]]:
    questions: list[str] = []
    contexts: list[tuple[str, str]] = []
    _squad_like(root / "qa-squad2-haystack" / "small.json", questions, contexts)
    _hotpot(root / "qa-hotpotqa-megagon" / "dev.jsonl", questions, contexts)
    for path in sorted((root / "qa-nq-farm").glob("*.jsonl")):
        _natural_questions(path, questions, contexts)
    for path in sorted((root / "qa-piaf-french").glob("*.json")):
        _squad_like(path, questions, contexts)
    return questions, contexts


def _demo_text() -> tuple[list[str], list[tuple[str, str]]]:
    questions = [row["question"] for row in map(orjson.loads, DEMO_SET.read_bytes().splitlines()) if "question" in row]
    contexts = []
    for path in sorted(DEMO_CORPUS.iterdir()):
        if path.suffix in (".md", ".txt"):
            for line in path.read_text(encoding="utf-8").splitlines():
                line = line.strip().lstrip("#*-|> ").strip()
                if line:
                    contexts.append((path.name, line))
    return questions, contexts


@functools.lru_cache(maxsize=4)
def _text_model(realdata: str) -> TextModel:
    start = time.perf_counter()
    root = Path(realdata)
    if (root / "SOURCES.md").is_file():
        questions, contexts = _realdata_text(root)
        contexts = [(f"{title}.txt", text) for title, text in contexts]
        origin = f"real QA data in {root} (SQuAD 2.0, HotpotQA, Natural Questions, PIAF)"
    else:
        questions, contexts = _demo_text()
        origin = f"the demo corpus {DEMO_CORPUS.relative_to(ROOT)} and the demo set's questions"
        print(f"note: {root} is absent, so the real-vocabulary set is built from {origin} instead")
    counts: Counter[str] = Counter()
    openers: list[tuple[str, ...]] = []
    lengths: list[int] = []
    for question in questions:
        words = question.split()
        if len(words) < 2:
            continue
        openers.append(tuple(word.rstrip("?") for word in words[:3]))
        lengths.append(len(words))
        counts.update(_WORD.findall(question))
    sentences: list[tuple[str, str]] = []
    for source_id, text in contexts:
        counts.update(_WORD.findall(text))
        sentences.extend((source_id, sentence) for sentence in _sentences(text))
    ranked = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))  # an order that depends on the text only
    cum_weights, total = [], 0
    for _, count in ranked:
        total += count
        cum_weights.append(total)
    model = TextModel(
        origin=origin,
        words=tuple(word for word, _ in ranked),
        cum_weights=tuple(cum_weights),
        openers=tuple(openers),
        lengths=tuple(lengths),
        sentences=tuple(sentences),
    )
    print(
        f"real-text model from {origin}: {len(lengths):,} questions, {len(sentences):,} sentences, "
        f"{len(ranked):,} distinct words, built in {time.perf_counter() - start:.2f} s"
    )
    return model


def text_model() -> TextModel:
    """The unigram model, question openers and lengths, and sentences (built once per process and path)."""
    return _text_model(str(REALDATA))


# --- the generators --------------------------------------------------------------------------


def _anchor(source_id: str, quote: str) -> dict[str, Any]:
    return {"source_id": source_id, "quote": quote, "grade": 2, "page_hint": None, "occurrence": 0}


def real_vocabulary_items(n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Items whose questions, quotes and answers use real text (see the module docstring)."""
    model = text_model()
    rng = random.Random(seed)
    words, cum = model.words, model.cum_weights
    recent: list[dict[str, Any]] = []
    for index in range(n):
        roll = rng.random()
        if recent and roll < 0.01:  # an exact repeat of a recent item
            item = dict(rng.choice(recent), id=f"rv-{index:07d}")
            yield item
            continue
        if recent and roll < 0.06:  # a near-duplicate: a recent question with one word swapped
            tokens = rng.choice(recent)["question"].rstrip("?").split()
            tokens[rng.randrange(len(tokens))] = rng.choices(words, cum_weights=cum)[0]
            question = " ".join(tokens) + "?"
        else:
            length = rng.choice(model.lengths)
            opener = rng.choice(model.openers)
            head = opener[: max(1, min(rng.randint(1, 3), len(opener), length - 1))]
            question = " ".join((*head, *rng.choices(words, cum_weights=cum, k=max(1, length - len(head))))) + "?"
        anchors = []
        for _ in range(rng.choice((1, 1, 1, 2))):
            anchors.append(_anchor(*rng.choice(model.sentences)))
        quote_words = anchors[0]["quote"].split()
        size = rng.randint(1, min(6, len(quote_words)))
        start = rng.randrange(len(quote_words) - size + 1)
        answer = " ".join(quote_words[start : start + size]).strip(_EDGE_PUNCTUATION) or quote_words[start]
        item = {
            "id": f"rv-{index:07d}",
            "question": question,
            "gold": [],
            "anchors": anchors,
            "qtype": rng.choice(_QTYPES),
            "answer": answer,
            "meta": {},
        }
        recent.append(item)
        if len(recent) > 200:
            recent.pop(0)
        yield item


def small_vocabulary_items(n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Items whose questions are 4-7 words drawn from the same 20 words (see the module docstring)."""
    rng = random.Random(seed)
    for index in range(n):
        question = " ".join(rng.choices(SMALL_WORDS, k=rng.randint(4, 7))).capitalize() + "?"
        quote = " ".join(rng.choices(SMALL_WORDS, k=rng.randint(20, 30))).capitalize() + "."
        yield {
            "id": f"sv-{index:07d}",
            "question": question,
            "gold": [],
            "anchors": [_anchor(f"doc-{rng.randrange(50):02d}.txt", quote)],
            "qtype": "factoid",
            "answer": " ".join(rng.choices(SMALL_WORDS, k=rng.randint(1, 3))).capitalize() + ".",
            "meta": {},
        }


def repeated_items(n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Few questions, each asked hundreds of times: a generator's output pasted in again and again.

    REPEAT_PASSAGES real sentences, each with an answer drawn from it and two questions about
    it in different words: "What <a> <b> <c> there?" and "Which <a> <b> is meant?", where a, b
    and c are words of the sentence. Every item is one of those questions, picked at random,
    so each question has about n / (2 * REPEAT_PASSAGES) exact copies (exact-duplicate groups
    of hundreds), and the two questions of a passage share its answer and quote in other words
    (same-evidence groups of hundreds). Nothing here may cost the square of a group.
    """
    model = text_model()
    rng = random.Random(seed)
    passages = []
    while len(passages) < REPEAT_PASSAGES:
        source, quote = rng.choice(model.sentences)
        content = [w for w in dict.fromkeys(_WORD.findall(quote.lower())) if len(w) > 3]
        if len(content) < 4:
            continue
        a, b, c = rng.sample(content[:-1], 3)
        answer = content[-1]
        passages.append(
            (_anchor(source, quote), answer, (f"What {a} {b} {c} there?", f"Which {a} {b} is meant?"))
        )
    for index in range(n):
        anchor, answer, questions = passages[rng.randrange(REPEAT_PASSAGES)]
        yield {
            "id": f"rp-{index:07d}",
            "question": questions[rng.randrange(2)],
            "gold": [],
            "anchors": [anchor],
            "qtype": "factoid",
            "answer": answer,
            "meta": {},
        }


#: The templates set's questions: long enough that two of one template filled in with different numbers share
#: well over the audit's 82 % of their content words, and unlike each other whatever number they share.
TEMPLATE_QUESTIONS = (
    "Which permit must a licensed contractor obtain from the county office before digging trench {} near buried gas pipelines?",
    "How many safety inspectors visited construction site {} during the third quarter of the fiscal year under review?",
    "What was the total invoice amount recorded for warehouse shipment {} after customs duties and freight insurance were added?",
    "Who approved the emergency maintenance request filed for elevator {} in the downtown office tower last winter?",
    "When did the regional water authority finish replacing the corroded valve on pumping station {} along the river?",
)


def template_items(n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Questions from five templates, each filled in with a number the other four fill in too (item k: template
    k mod 5, number k div 5), as a generator that varies one slot writes them. Every two questions of one
    template are near-duplicates (n²/10 pairs: a billion at 100k) and no two of different templates are;
    each number is held by five questions, not one. ``seed`` only names the set: the questions follow from n."""
    rng = random.Random(seed)
    for index in range(n):
        number = index // len(TEMPLATE_QUESTIONS)
        yield {
            "id": f"tp-{index:07d}",
            "question": TEMPLATE_QUESTIONS[index % len(TEMPLATE_QUESTIONS)].format(number),
            "gold": [],
            "anchors": [_anchor(f"doc-{rng.randrange(50):02d}.txt", f"Record {number} was filed and approved.")],
            "qtype": "factoid",
            "answer": f"Record {number}.",
            "meta": {},
        }


def template_pairs(n: int) -> int:
    """How many near-duplicate pairs :func:`template_items` makes: every two questions of one template."""
    per = [len(range(t, n, len(TEMPLATE_QUESTIONS))) for t in range(len(TEMPLATE_QUESTIONS))]
    return sum(m * (m - 1) // 2 for m in per)


GENERATORS: dict[str, Callable[[int, int], Iterator[dict[str, Any]]]] = {
    REAL: real_vocabulary_items,
    SMALL: small_vocabulary_items,
    REPEATS: repeated_items,
    TEMPLATES: template_items,
}


def write_set(kind: str, path: str | Path, n: int, seed: int = 0, *, on_item: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """Write ``n`` items of ``kind`` as native JSONL, streaming in batches; the same ``(n, seed)`` gives the same bytes."""
    path = Path(path)
    header = {"_evalset": {"id": f"{kind}-{n}-s{seed}", "version": 1, "source": "generated"}}
    items = GENERATORS[kind](n, seed)
    with path.open("wb") as out:
        out.write(orjson.dumps(header) + b"\n")
        while batch := list(islice(items, 4096)):
            if on_item is not None:
                for item in batch:
                    on_item(item)
            out.write(b"\n".join(map(orjson.dumps, batch)) + b"\n")
    return path


def question_word_set(question: str) -> frozenset[str]:
    return frozenset(question.lower().rstrip("?").split())


def near_duplicate_pairs(multiplicity: Counter[frozenset[str]], threshold: float) -> tuple[int, int]:
    """Item pairs with word-set Jaccard >= threshold: (identical word sets, one set = the other + one word).

    Exact when no word set has more than 7 words: a swap then gives at most 6/8 = 0.75, and a set
    with two more words at most 7/9 < 0.8, so only these two kinds of pair can reach 0.8.
    """
    identical = sum(m * (m - 1) // 2 for m in multiplicity.values())
    plus_one = 0
    for words, m in multiplicity.items():
        if len(words) / (len(words) + 1) >= threshold:
            for extra in SMALL_WORDS:
                if extra not in words:
                    plus_one += m * multiplicity.get(words | {extra}, 0)
    return identical, plus_one


# --- measuring the command -------------------------------------------------------------------


@dataclass
class Measured:
    wall: float  # seconds
    peak_kb: int  # the child's ru_maxrss
    tree_pss_kb: int  # sampled peak of summed PSS over the command and its descendants (0 when not sampled)
    code: int
    stderr: str
    #: Whether the command wrote the file its ``-o`` names (removed before it started); None when it names none.
    wrote: bool | None = None


class TreeSampler(threading.Thread):
    """Samples the summed PSS of a process and its descendants until stopped."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak_kb = pid, interval, 0
        self._stop_event = threading.Event()

    @staticmethod
    def _tree(pid: int) -> list[int]:
        found, todo = [], [pid]
        while todo:
            current = todo.pop()
            found.append(current)
            try:
                todo.extend(int(c) for c in Path(f"/proc/{current}/task/{current}/children").read_text().split())
            except OSError:
                pass
        return found

    @staticmethod
    def _pss_kb(pid: int) -> int:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            pass
        return 0

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.peak_kb = max(self.peak_kb, sum(map(self._pss_kb, self._tree(self.pid))))
            self._stop_event.wait(self.interval)

    def stop(self) -> int:
        self._stop_event.set()
        self.join()
        return self.peak_kb


#: Starts the command given after its first argument, waits for it, and writes the command's wall
#: time, ``ru_maxrss`` and exit code as JSON to the file named by its first argument. Small on
#: purpose: the command's ``ru_maxrss`` starts from the high-water mark of the process that starts it.
LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - start
proc.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[1], "w") as out:
    json.dump({"wall": wall, "maxrss_kb": usage.ru_maxrss, "code": proc.returncode}, out)
"""


def measure(argv: list[str], workdir: Path, *, tree: bool = True) -> Measured:
    """Run ``argv`` to completion; its wall time and its own peak RSS, from ``os.wait4`` on its pid in :data:`LAUNCHER`.

    A file named after ``-o`` in ``argv`` is removed before the command starts (untimed), so that ``wrote``
    says whether this run wrote it, not an earlier one.
    """
    output = Path(argv[argv.index("-o") + 1]) if "-o" in argv[:-1] else None
    if output is not None:
        output.unlink(missing_ok=True)
    result = workdir / "launched.json"
    result.unlink(missing_ok=True)
    with open(workdir / "child.stdout", "wb") as out, open(workdir / "child.stderr", "wb") as err:
        launcher = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(result), *argv], stdin=subprocess.DEVNULL, stdout=out, stderr=err
        )
        sampler = TreeSampler(launcher.pid) if tree else None
        if sampler is not None:
            sampler.start()
        launcher.wait()
    tree_kb = sampler.stop() if sampler is not None else 0
    stderr = (workdir / "child.stderr").read_text(encoding="utf-8", errors="replace")
    if launcher.returncode != 0 or not result.exists():
        raise SystemExit(f"bench_audit_scale: the launcher failed (exit {launcher.returncode}):\n{stderr[-3000:]}")
    launched = json.loads(result.read_text())
    wrote = output.is_file() if output is not None else None
    return Measured(launched["wall"], launched["maxrss_kb"], tree_kb, launched["code"], stderr, wrote)


def best_of(repeat: int, work: Callable[[], Measured], check: Callable[[Measured], None] | None = None) -> Measured:
    """The best wall time of ``repeat`` runs, with the largest peaks seen in any of them; ``check`` is given
    every run once all have run, not only the best (a run that crashed at once would be the fastest)."""
    runs = [work() for _ in range(repeat)]
    if check is not None:
        for run in runs:
            check(run)
    best = min(runs, key=lambda run: run.wall)
    return Measured(best.wall, max(r.peak_kb for r in runs), max(r.tree_pss_kb for r in runs), best.code, best.stderr, best.wrote)


def reviewtui_command() -> str:
    search = os.pathsep.join((str(Path(sys.executable).parent), os.environ.get("PATH", "")))
    found = shutil.which("reviewtui", path=search)
    if found is None:
        raise SystemExit("the reviewtui command is not installed (pip install -e . in this venv)")
    return found


def audit_argv(command: str, path: Path, report: Path) -> list[str]:
    return [command, "audit", str(path), "-o", str(report), "--to", "json", "--force"]


def run_audit(command: str, path: Path, report: Path, workdir: Path, repeat: int, tree: bool) -> Measured:
    """The best wall time of ``repeat`` runs, none of them watched by the tree sampler; with ``tree``, one more
    run for the tree's PSS alone. Reading each process's ``smaps_rollup`` every 50 ms takes a large share of
    one core while it runs: on this two-core machine it added about half a second to a five-second audit."""
    argv = audit_argv(command, path, report)
    result = best_of(repeat, lambda: measure(argv, workdir, tree=False), lambda run: _finished(path, run))
    if tree:
        sampled = measure(argv, workdir, tree=True)
        _finished(path, sampled)
        if sampled.code != result.code:
            raise SystemExit(f"reviewtui audit {path.name} exited with {result.code}, then with {sampled.code} when sampled")
        result = Measured(
            result.wall, max(result.peak_kb, sampled.peak_kb), sampled.tree_pss_kb, result.code, result.stderr, sampled.wrote
        )
    return result


def _finished(path: Path, run: Measured) -> None:
    """Stop unless the audit finished: 0, or 1 for a failing finding (conflicting answers), with no traceback
    (a crash exits 1 too) and its report written anew (the report is removed before each run, see measure)."""
    if run.code not in (0, 1):
        raise SystemExit(f"reviewtui audit {path.name} exited with {run.code}:\n{run.stderr[-3000:]}")
    if "Traceback (most recent call last)" in run.stderr:
        raise SystemExit(f"reviewtui audit {path.name} crashed (exit {run.code}):\n{run.stderr[-3000:]}")
    if run.wrote is False:
        raise SystemExit(f"reviewtui audit {path.name} exited with {run.code} and wrote no report:\n{run.stderr[-3000:]}")


@dataclass
class ReportSummary:
    items: int
    near_findings: int  # the near-duplicates check's finding count (a pair each, or a cluster each in the review profile)
    near_pairs: int  # the pairs those findings stand for (a cluster finding counts its pairs in evidence["pairs"])
    near_flagged: int  # items carrying a near-duplicate flag
    threshold: float  # the audit's near-duplicate threshold, from the report's config


def set_id_of(path: Path) -> str:
    """The id the set file's header line gives the set (what a report names it by)."""
    with path.open("rb") as lines:
        return orjson.loads(lines.readline())["_evalset"]["id"]


def check_report(
    report: Path, kind: str, n: int, *, set_id: str, expect_near: bool = True, repeated: int = 0
) -> ReportSummary:
    """The report names the set ``set_id`` and covers all ``n`` items, and (with ``expect_near``) the small set's
    near-duplicates were found; else stop. ``repeated``: on the real-text set, the items whose question the
    generator wrote more than once (its exact repeats): at least half of them must carry an exact-duplicate flag,
    and the near-duplicates check must have found some of the questions it wrote with one word swapped.

    A report past PARSE_WHOLE bytes (the repeats set at 1M writes gigabytes of per-item flags,
    more than orjson parses in one buffer) is read up to its last member, the flags, which are
    then counted as the members of that object instead of parsed.
    """
    raw = report.read_bytes()
    if len(raw) <= PARSE_WHOLE:
        data = orjson.loads(raw)
        flags = data.get("flags")
    else:
        cut = raw.rfind(b',\n  "flags": {')
        if cut < 0:
            raise SystemExit(f"{kind} at {n:,}: the report has no per-item flags for the set")
        data = orjson.loads(raw[:cut] + b"\n}")
        # Each flagged item's member starts a line at the flags object's depth: four spaces and a quote.
        flags = dict.fromkeys(range(raw.count(b'\n    "', cut)))
    del raw
    named = data.get("set", {}).get("id")
    if named != set_id:
        raise SystemExit(f"{kind} at {n:,}: the report is of the set {named!r}, not {set_id!r}: it is not this run's")
    items = data.get("summary", {}).get("items")
    if items != n:
        raise SystemExit(f"{kind} at {n:,}: the report's summary counts {items!r} items, not {n:,}")
    if not isinstance(flags, dict) or len(flags) > n:
        raise SystemExit(f"{kind} at {n:,}: the report has no per-item flags for the set")
    checks = {entry.get("check"): entry for entry in data.get("checks", ())}
    near = checks.get("near-duplicates")
    if near is None:
        raise SystemExit(f"{kind} at {n:,}: the report has no near-duplicates check")
    pairs = sum(
        int(finding.get("evidence", {}).get("pairs", 1))
        for finding in data.get("findings", ())
        if finding.get("check") == "near-duplicates"
    )
    counts = data.get("flag_counts", {})
    if expect_near and kind == REPEATS and (counts.get("exact-duplicate", 0) < n // 2 or not counts.get("same-evidence")):
        raise SystemExit(
            f"{kind} at {n:,}: {counts.get('exact-duplicate', 0):,} exact-duplicate and {counts.get('same-evidence', 0):,} "
            f"same-evidence flags on a set of copies: the scan did not do its work"
        )
    if expect_near and kind == REAL and (
        counts.get("exact-duplicate", 0) < repeated // 2 or not repeated or not int(near.get("findings", 0))
    ):
        raise SystemExit(
            f"{kind} at {n:,}: {counts.get('exact-duplicate', 0):,} exact-duplicate flags where {repeated:,} items repeat "
            f"a question, and {int(near.get('findings', 0)):,} near-duplicate findings: the scan did not do its work"
        )
    summary = ReportSummary(
        items,
        int(near.get("findings", 0)),
        pairs,
        int(data.get("flag_counts", {}).get("near-duplicate", 0)),
        float(data.get("config", {}).get("near_duplicate_threshold", 0.0)),
    )
    if expect_near and kind == TEMPLATES and (summary.near_pairs != template_pairs(n) or summary.near_flagged != n):
        raise SystemExit(
            f"{kind} at {n:,}: {summary.near_pairs:,} near-duplicate pairs and {summary.near_flagged:,} flagged items where "
            f"the templates make {template_pairs(n):,} pairs and every item has partners: the scan did not do its work"
        )
    if expect_near and kind == SMALL and (summary.near_findings == 0 or summary.near_flagged == 0):
        raise SystemExit(
            f"{kind} at {n:,}: {summary.near_findings} near-duplicate findings and {summary.near_flagged} flagged items, "
            f"on a set built from 20 words: the scan did not do its work"
        )
    return summary


def parse_seconds(path: Path) -> float:
    """A plain orjson parse of every line, the floor for reading the file."""
    start = time.perf_counter()
    with path.open("rb") as lines:
        for line in lines:
            orjson.loads(line)
    return time.perf_counter() - start


# --- the benchmark ---------------------------------------------------------------------------


@dataclass
class Row:
    kind: str
    n: int
    file_bytes: int
    run: Measured
    ratio: float
    report: ReportSummary
    parse: float


def _mb(value: float) -> str:
    return f"{value / 1e6:,.1f}"


def _targets(row: Row, real_walls: dict[int, float]) -> tuple[str, str]:
    if row.kind == REAL:
        if row.n == TARGET_SIZE:
            time_target = f"≤ {TARGET_REAL_SECONDS:.0f} s: {'ok' if row.run.wall <= TARGET_REAL_SECONDS else 'MISS'}"
        else:
            time_target = f"(≤ {TARGET_REAL_SECONDS:.0f} s at 100k)"
    elif row.kind in (REPEATS, TEMPLATES):
        time_target = f"(no target; {row.run.wall / real_walls[row.n]:.1f}× real)" if row.n in real_walls else "(no target)"
    elif row.n in real_walls:
        limit = TARGET_SMALL_FACTOR * real_walls[row.n]
        time_target = f"≤ 3× real = {limit:.1f} s: {'ok' if row.run.wall <= limit else 'MISS'} ({row.run.wall / real_walls[row.n]:.1f}×)"
    else:
        time_target = "≤ 3× real (real not run)"
    memory_target = f"≤ {TARGET_MEMORY_RATIO:.0f}: {'ok' if row.ratio <= TARGET_MEMORY_RATIO else 'MISS'}"
    return time_target, memory_target


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=str(TARGET_SIZE), help="comma-separated set sizes (default: 100000)")
    parser.add_argument("--million", action="store_true", help="also run both sets at 1,000,000 questions")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best wall time is kept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", default=",".join(KINDS), help=f"which sets (default: {','.join(KINDS)})")
    parser.add_argument("--no-tree", action="store_true", help="do not sample the process tree's PSS")
    args = parser.parse_args(None if argv is None else list(argv))
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    if args.million and 1_000_000 not in sizes:
        sizes.append(1_000_000)
    kinds = [k.strip() for k in args.sets.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in GENERATORS]
    if unknown or not sizes or args.repeat < 1:
        parser.error(f"unknown set {unknown[0]!r}" if unknown else "need at least one size and --repeat ≥ 1")
    tree = not args.no_tree
    command = reviewtui_command()
    from bytecode import compile_package

    compile_package()  # timed as an installed command runs: see bytecode.py
    print(f"command: {command} audit FILE -o REPORT --to json --force   (repeat {args.repeat}, seed {args.seed})")

    rows: list[Row] = []
    baselines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-audit-scale-") as tmp:
        work = Path(tmp)
        report = work / "report.json"
        python = best_of(args.repeat, lambda: measure([sys.executable, "-c", "pass"], work, tree=False))
        baselines.append(f"python -c pass: {python.wall:.3f} s, peak RSS {python.peak_kb / 1024:.1f} MB")
        peak10: dict[str, int] = {}
        for kind in kinds:
            small_file = write_set(kind, work / f"{kind}-{BASELINE_SIZE}.jsonl", BASELINE_SIZE, args.seed)
            base = run_audit(command, small_file, report, work, args.repeat, tree)
            check_report(report, kind, BASELINE_SIZE, set_id=set_id_of(small_file), expect_near=False)  # 10 items may hold no pair
            peak10[kind] = base.peak_kb * 1024
            baselines.append(
                f"audit, {BASELINE_SIZE}-item {kind} set: {base.wall:.3f} s, peak RSS {base.peak_kb / 1024:.1f} MB"
                + (f", tree PSS {base.tree_pss_kb / 1024:.1f} MB" if tree else "")
            )
            small_file.unlink()

        real_walls: dict[int, float] = {}
        for n in sizes:
            for kind in kinds:
                path = work / f"{kind}-{n}.jsonl"
                multiplicity: Counter[frozenset[str]] = Counter()
                questions: Counter[str] = Counter()  # the real-text set's questions, to count its exact repeats
                tap = (
                    (lambda item: multiplicity.update((question_word_set(item["question"]),)))
                    if kind == SMALL
                    else (lambda item: questions.update((item["question"],)))
                    if kind == REAL
                    else None
                )
                start = time.perf_counter()
                write_set(kind, path, n, args.seed, on_item=tap)
                made = time.perf_counter() - start
                repeated = sum(count for count in questions.values() if count > 1)
                questions.clear()  # not held while the audit runs
                size = path.stat().st_size
                print(f"\n{kind}, {n:,} items: generated {_mb(size)} MB in {made:.1f} s")
                if kind == SMALL:
                    identical, plus_one = near_duplicate_pairs(multiplicity, 0.8)
                    print(
                        f"  {len(multiplicity):,} distinct question word sets; item pairs with word-set Jaccard ≥ 0.8: "
                        f"{identical + plus_one:,} ({identical:,} with identical sets, {plus_one:,} one set plus one word)"
                    )
                parse = parse_seconds(path)
                run = run_audit(command, path, report, work, args.repeat, tree)
                summary = check_report(report, kind, n, set_id=set_id_of(path), repeated=repeated)
                report_bytes = report.stat().st_size
                print(
                    f"  audit: {run.wall:.2f} s, peak RSS {run.peak_kb / 1024:,.0f} MB, exit {run.code}; report {_mb(report_bytes)} MB, "
                    f"covers {summary.items:,} items; near-duplicate check: {summary.near_findings:,} findings, "
                    f"{summary.near_flagged:,} items flagged"
                )
                if kind == SMALL and summary.threshold:
                    identical, plus_one = near_duplicate_pairs(multiplicity, summary.threshold)
                    print(
                        f"  at the audit's own threshold ({summary.threshold:g}) the word sets give {identical + plus_one:,} pairs; "
                        f"its near-duplicates check reported {summary.near_pairs:,} in {summary.near_findings:,} findings"
                    )
                    # Pairs of the very same question are exact duplicates, not near ones: a few are left out.
                    if not 0.95 * (identical + plus_one) <= summary.near_pairs <= identical + plus_one:
                        raise SystemExit(
                            f"{kind} at {n:,}: the report accounts for {summary.near_pairs:,} near-duplicate pairs where the "
                            f"word sets give {identical + plus_one:,}: the check did not do its work"
                        )
                ratio = (run.peak_kb * 1024 - peak10[kind]) / size
                rows.append(Row(kind, n, size, run, ratio, summary, parse))
                if kind == REAL:
                    real_walls[n] = run.wall
                path.unlink()
                report.unlink(missing_ok=True)
                gc.collect()

    print(
        "\n| set | items | file MB | wall s | peak RSS MB | (peak − 10-item peak) / file | tree PSS MB | orjson parse s "
        "| time target | memory target |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for row in rows:
        time_target, memory_target = _targets(row, real_walls)
        tree_mb = f"{row.run.tree_pss_kb / 1024:,.0f}" if tree else "—"
        print(
            f"| {row.kind} | {row.n:,} | {_mb(row.file_bytes)} | {row.run.wall:.2f} | {row.run.peak_kb / 1024:,.0f} | "
            f"{row.ratio:.2f} | {tree_mb} | {row.parse:.2f} | {time_target} | {memory_target} |"
        )
    print("\nBaselines (same run):")
    for line in baselines:
        print(f"  {line}")
    print(
        "\nTargets (issue): at 100k, real vocabulary ≤ 5 s; small vocabulary ≤ 3× the real set's time; on both, "
        "(peak RSS − the 10-item peak) ≤ 4× the file; 1M must finish within memory."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
