"""How long AnchorResolver takes on a synthetic corpus of 1,000 documents and 10,000 anchors.

    /work/venv/bin/python benchmarks/bench_resolve.py [--docs 1000] [--anchors 10000] [--seed 1]

The documents (about 8 KB of prose each, some with form-feed pages, curly
quotes and ligatures) are written to a temporary folder, so the timing
includes listing the folder and reading every file. Anchors are mostly exact
quotes, with some retyped (case, spacing, straight quotes: normalised
matches), some with typos (approximate), some invented (not found) and a few
naming a document that does not exist.

Printed: the end-to-end time of ``resolve_with_report`` on a cold corpus, a
baseline measured in the same run (``str.find`` of every quote in its already
loaded document, and the same plus reading the files), and a breakdown by the
kind each anchor ended as (count, total and mean time) from a second,
per-anchor pass on a warm corpus (files read, documents folded), and the
time to fold every document once, for scale. The goal is 10 s for the end-to-end run.

After the timings the report is checked against the anchors made, and the script stops unless it
holds: as many exact, normalised and unknown-document outcomes as such anchors were made, at least as
many approximate ones as quotes with typos, every anchor resolved, and the per-anchor pass ending each
anchor as the timed run did; and the set it returned holds a gold span for every anchor found, an exact
quote's span holding the quote.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolve import AnchorResolver, MatchKind
from reviewtui.evalset.evidence.textmatch import normalise
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor

GOAL_SECONDS = 10.0
SHARES = {"exact": 0.85, "normalised": 0.06, "typos": 0.04, "invented": 0.04, "unknown": 0.01}


def vocabulary(rng: random.Random, size: int = 6000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 11))) for _ in range(size)}
    return sorted(words)


def sentence(rng: random.Random, words: list[str], weights: list[float]) -> str:
    picked = rng.choices(words, cum_weights=weights, k=rng.randint(8, 24))
    picked[0] = picked[0].capitalize()
    if rng.random() < 0.1:
        picked.insert(rng.randrange(1, len(picked)), "\u201c" + rng.choice(words) + "\u201d")
    if rng.random() < 0.05:
        picked.insert(rng.randrange(1, len(picked)), "o\ufb03ce")
    return " ".join(picked) + rng.choice(".....;?")


def document(rng: random.Random, words: list[str], weights: list[float], size: int) -> str:
    parts: list[str] = []
    total = 0
    paged = rng.random() < 0.1
    while total < size:
        paragraph = " ".join(sentence(rng, words, weights) for _ in range(rng.randint(2, 6)))
        parts.append(paragraph)
        total += len(paragraph) + 2
        if paged and rng.random() < 0.1:
            parts.append("\f")
    return "\n\n".join(parts)


def pick_quote(rng: random.Random, text: str) -> str:
    """A passage of 15-40 words starting at a word boundary."""
    start = rng.randrange(0, max(1, len(text) - 600))
    start = text.index(" ", start) + 1
    words = text[start:].split(None, rng.randint(15, 40))[:-1]
    end = start
    for word in words:
        end = text.index(word, end) + len(word)
    return text[start:end]


def retype(rng: random.Random, quote: str) -> str:
    quote = re.sub(r"\s+", " ", quote).replace("\u201c", '"').replace("\u201d", '"').replace("\ufb03", "ffi")
    return quote.upper() if rng.random() < 0.5 else quote.lower()


def with_typos(rng: random.Random, quote: str) -> str:
    chars = list(quote)
    for _ in range(max(1, len(chars) // 50)):
        chars[rng.randrange(len(chars))] = rng.choice("xqz")
    return "".join(chars)


def build(folder: Path, n_docs: int, n_anchors: int, seed: int) -> tuple[EvalSet, dict[str, str], Counter[str]]:
    """The documents written to ``folder``, the set of anchors on them, the texts by document id, and how many
    anchors of each kind were made: ``exact`` counts every quote that is in its document as written (a retyped
    or mistyped quote that came out unchanged among them), ``unknown`` every one naming a missing document."""
    rng = random.Random(seed)
    words = vocabulary(rng)
    weights = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))  # Zipf-like
    texts: dict[str, str] = {}
    for number in range(n_docs):
        doc_id = f"section {number // 100:02d}/doc {number:04d}.txt"
        text = document(rng, words, weights, rng.randint(4000, 12000))
        path = folder / doc_id
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        texts[doc_id] = text
    ids = list(texts)
    kinds = rng.choices(list(SHARES), weights=list(SHARES.values()), k=n_anchors)
    items: list[EvalItem] = []
    made: Counter[str] = Counter()
    for number, kind in enumerate(kinds):
        doc_id = rng.choice(ids)
        quote = pick_quote(rng, texts[doc_id])
        if kind == "normalised":
            quote = retype(rng, quote)
        elif kind == "typos":
            quote = with_typos(rng, quote)
        elif kind == "invented":
            quote = sentence(rng, words, weights) + " " + sentence(rng, words, weights)
        elif kind == "unknown":
            doc_id = f"missing/doc {number}.txt"
        anchor = GoldAnchor(doc_id, quote)
        items.append(EvalItem(f"q{number}", f"Question {number}?", anchors=(anchor,)))
        made[kind if kind == "unknown" or quote not in texts[doc_id] else "exact"] += 1
    return EvalSet("bench", tuple(items)), texts, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--anchors", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-resolve-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        evalset, texts, made = build(folder, args.docs, args.anchors, args.seed)
        megabytes = sum(len(t) for t in texts.values()) / 1e6
        print(f"built {args.docs} documents ({megabytes:.1f} M chars) and {len(evalset)} anchors "
              f"in {time.perf_counter() - started:.1f} s")

        # Baselines: plain str.find of every quote in its document.
        anchors = [item.anchors[0] for item in evalset]
        started = time.perf_counter()
        found = sum(1 for a in anchors if a.source_id in texts and texts[a.source_id].find(a.quote) != -1)
        find_only = time.perf_counter() - started
        started = time.perf_counter()
        loaded: dict[str, str] = {}
        for a in anchors:
            path = folder / a.source_id
            if a.source_id not in loaded and path.is_file():
                loaded[a.source_id] = path.read_text(encoding="utf-8")
            if a.source_id in loaded:
                loaded[a.source_id].find(a.quote)
        read_and_find = time.perf_counter() - started

        # End to end on a cold corpus.
        started = time.perf_counter()
        corpus = Corpus(folder)
        index_time = time.perf_counter() - started
        started = time.perf_counter()
        resolved, report = AnchorResolver().resolve_with_report(evalset, corpus)
        resolve_time = time.perf_counter() - started

        started = time.perf_counter()
        for doc_id in corpus.ids:
            normalise(corpus.text(doc_id))
        fold_all = time.perf_counter() - started

        # Per-anchor pass on the now warm corpus, for the breakdown.
        resolver = AnchorResolver()
        by_kind: dict[MatchKind, list[float]] = defaultdict(list)
        for anchor in anchors:
            tick = time.perf_counter()
            outcome = resolver.resolve_anchor(anchor, corpus)
            by_kind[outcome.kind].append(time.perf_counter() - tick)

    print()
    print(f"{'step':<44}{'seconds':>10}")
    print(f"{'baseline: str.find, texts in memory':<44}{find_only:>10.3f}   ({found} found)")
    print(f"{'baseline: read files + str.find':<44}{read_and_find:>10.3f}")
    print(f"{'Corpus(folder): list and index names':<44}{index_time:>10.3f}")
    print(f"{'resolve_with_report, cold corpus':<44}{resolve_time:>10.3f}   goal <= {GOAL_SECONDS:g}")
    print(f"{'(for scale) fold every document once':<44}{fold_all:>10.3f}")
    print()
    print(f"{'kind (warm corpus)':<20}{'anchors':>9}{'total s':>10}{'mean ms':>10}{'max ms':>10}")
    for kind in MatchKind:
        times = by_kind.get(kind, [])
        if times:
            print(f"{kind.value:<20}{len(times):>9}{sum(times):>10.3f}{1000 * sum(times) / len(times):>10.3f}"
                  f"{1000 * max(times):>10.2f}")
    print()
    print(report.summary())
    check_counts(report.counts(), {kind: len(times) for kind, times in by_kind.items()}, made, len(evalset))
    check_spans(resolved, texts, report.counts())
    print("PASS" if resolve_time <= GOAL_SECONDS else "SLOWER THAN THE GOAL")


def check_spans(resolved: EvalSet, texts: dict[str, str], counts: dict[MatchKind, int]) -> None:
    """Stop unless the set the timed run returned holds the gold it reported: every item whose one anchor was found
    (exactly, normalised or approximately) has a gold span in the anchor's document, and an exact quote's span
    holds the quote as written."""
    found = counts[MatchKind.EXACT] + counts[MatchKind.NORMALISED] + counts[MatchKind.APPROXIMATE]
    with_gold = [item for item in resolved if item.gold]
    wrong = sum(
        1
        for item in with_gold
        if any(gold.span.doc_id != item.anchors[0].source_id for gold in item.gold)
        or (
            item.anchors[0].quote in texts.get(item.anchors[0].source_id, "")
            and not any(texts[gold.span.doc_id][gold.span.start : gold.span.end] == item.anchors[0].quote for gold in item.gold)
        )
    )
    if len(with_gold) != found or wrong:
        raise SystemExit(
            f"bench_resolve: the set returned has {len(with_gold)} items with gold where {found} anchors were found, "
            f"{wrong} of them with spans that do not hold their quote: the work timed did not happen"
        )


def check_counts(counts: dict[MatchKind, int], warm: dict[MatchKind, int], made: Counter[str], anchors: int) -> None:
    """Stop unless the timed run resolved every anchor as it was made (checked after the timings).

    Exact quotes, retyped ones and those naming a missing document are known exactly; a mistyped quote
    must be found (approximately), so the approximate matches are at least as many as the typos. The warm
    per-anchor pass must end every anchor as the timed run did.
    """
    wanted = {
        MatchKind.EXACT: made["exact"],
        MatchKind.NORMALISED: made["normalised"],
        MatchKind.UNKNOWN_DOCUMENT: made["unknown"],
    }
    wrong = [f"{kind.value} {counts[kind]} (made {count})" for kind, count in wanted.items() if counts[kind] != count]
    if counts[MatchKind.APPROXIMATE] < made["typos"]:
        wrong.append(f"approximate {counts[MatchKind.APPROXIMATE]} (made {made['typos']} with typos)")
    if sum(counts.values()) != anchors:
        wrong.append(f"{sum(counts.values())} anchors resolved of {anchors}")
    if {kind: count for kind, count in counts.items() if count} != warm:
        wrong.append(f"the warm pass ended them otherwise: {', '.join(f'{k.value} {n}' for k, n in warm.items())}")
    if wrong:
        raise SystemExit(f"bench_resolve: the timed resolution does not match the anchors made: {'; '.join(wrong)}")


if __name__ == "__main__":
    main()
