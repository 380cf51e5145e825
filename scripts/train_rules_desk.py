"""Fit the rules desk's learned ranker for every preset (dev-time only; needs NumPy and SciPy: ``pip install -e
'.[train]'``), BOT-RUL-1.

    python scripts/train_rules_desk.py            # fit and write bot/rules/rulebook/learned/<preset>.json.gz
    python scripts/train_rules_desk.py --check    # exit 1 if a shipped ranker no longer matches its articles

Run it after changing an article (title, summary, keywords, own questions) or how the desk turns text into
features (``FEATURES_VERSION`` in search.py); the test suite fails until it has been run.

What it fits, per preset: multinomial logistic regression (L2, C = 8) from a text's features — stems and word pairs
in both languages, three-to-five-letter pieces of its words, each block tf-idf weighted and scaled to unit length
(bot.rules.rulebook.learned.weighted) — to the article the text belongs to. The training texts are each article's
title, summary, keyword phrases (all together and one by one) and own questions, in both languages: about 2 000 to
4 900 per preset. None of the question sets the desk is scored on (tests/rules/rulebook/questions, fresh, fresh2) is
read. L-BFGS from zeros, so the same articles give the same file. Weights under 0.05 in size are dropped, so that
the files stay small. When this was measured, with two passes of own questions, C = 1 and the blend at 0.7, on 975
own questions held back from fitting, the desk answered 712 first and 912 in the top three with them dropped, 714
and 913 with all of them.

C = 8, not the first C = 1: chosen on 2 340 own questions written in a fourth pass and asked before they were
fitted on (scripts/tune_rules_desk.py tells the counts; ``--learned --c 1`` compares on held-back own questions).
Less regularised, the rankers keep more weights: 1.28 million of 16.8 million (0.57 million at C = 1 on three passes),
6.5 MB of files, 56 MB in memory for the four presets (measured with tracemalloc; 36 MB before).

Measured on 2026-11-27 on this machine: 5 to 47 s per preset, about 90 s in all.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import sparse
from scipy.optimize import minimize

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.presets import PRESET_NAMES
from bot.rules.rulebook import LANGS, Article, for_preset, learned
from bot.rules.rulebook.search import fingerprint, learned_features

C = 8.0
MIN_DF = (1, 2)  # stems: every one; letter pieces: those in at least two training texts
PRUNE = 0.05
MAX_ITERATIONS = 200
FOLDER = Path(__file__).resolve().parents[1] / "bot" / "rules" / "rulebook" / learned.FOLDER


def training_texts(articles: tuple[Article, ...]) -> tuple[list[str], list[int]]:
    texts, labels = [], []
    for k, a in enumerate(articles):
        for lang in LANGS:
            own = [a.title[lang], a.summary[lang], " ".join(a.keywords[lang]), *a.asks[lang], *a.keywords[lang]]
            texts += own
            labels += [k] * len(own)
    return texts, labels


def fit(preset: str) -> tuple[learned.Ranker, dict[str, object]]:
    articles = for_preset(preset)
    texts, labels = training_texts(articles)
    features = [learned_features(t) for t in texts]
    n, classes = len(texts), len(articles)
    idfs: list[dict[str, float]] = []
    columns: list[dict[str, int]] = []
    for b, min_df in enumerate(MIN_DF):
        df = Counter(f for row in features for f in row[b])
        kept = sorted(f for f, c in df.items() if c >= min_df)
        idfs.append({f: math.log((1 + n) / (1 + df[f])) + 1 for f in kept})
        start = sum(len(c) for c in columns)
        columns.append({f: start + j for j, f in enumerate(kept)})
    dim = sum(len(c) for c in columns)
    rows, cols, vals = [], [], []
    for r, row in enumerate(features):
        for b in range(len(MIN_DF)):
            for f, v in learned.weighted(row[b], idfs[b].get):
                rows.append(r)
                cols.append(columns[b][f])
                vals.append(v)
    x = sparse.csr_matrix((vals, (rows, cols)), shape=(n, dim))
    y = np.array(labels)
    onehot = np.zeros((n, classes))
    onehot[np.arange(n), y] = 1.0

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, bias = theta[: dim * classes].reshape(dim, classes), theta[dim * classes :]
        z = x @ w + bias
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        value = -np.log(p[np.arange(n), y]).sum() * C + 0.5 * (w * w).sum()
        g = p - onehot
        return value, np.concatenate([(C * (x.T @ g) + w).ravel(), C * g.sum(axis=0)])

    started = time.perf_counter()
    result = minimize(loss, np.zeros(dim * classes + classes), jac=True, method="L-BFGS-B",
                      options={"maxiter": MAX_ITERATIONS, "gtol": 1e-4 * n})  # fmt: skip
    seconds = time.perf_counter() - started
    w, bias = result.x[: dim * classes].reshape(dim, classes), result.x[dim * classes :]
    blocks = []
    for b, idf in enumerate(idfs):
        weights = {}
        for f in idf:
            row = w[columns[b][f]]
            kept = tuple((int(k), round(float(row[k]), 4)) for k in np.flatnonzero(np.abs(row) >= PRUNE))
            if kept:
                weights[f] = kept
        blocks.append(learned.Block.build({f: round(v, 6) for f, v in idf.items()}, weights))
    ranker = learned.Ranker(preset, fingerprint(articles), tuple(a.id for a in articles),
                            tuple(round(float(v), 4) for v in bias), tuple(blocks))  # fmt: skip
    trained = {"C": C, "texts": n, "features": dim, "iterations": int(result.nit), "pruned_below": PRUNE,
               "kept_weights": sum(len(b.values) for b in blocks)}  # fmt: skip
    print(f"  {preset}: {n} texts, {dim} features, {result.nit} iterations in {seconds:.1f} s, "
          f"{trained['kept_weights']} weights kept", flush=True)  # fmt: skip
    return ranker, trained


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that every shipped ranker is current")
    args = parser.parse_args()
    stale = [p for p in PRESET_NAMES if learned.load(p, fingerprint(for_preset(p))) is None]
    if args.check:
        for preset in stale:
            print(f"stale or missing: {preset} (run python scripts/train_rules_desk.py)")
        return 1 if stale else 0
    FOLDER.mkdir(exist_ok=True)
    for preset in PRESET_NAMES:
        ranker, trained = fit(preset)
        (FOLDER / learned.file_name(preset)).write_bytes(learned.encode(ranker, trained))
    return 0


if __name__ == "__main__":
    sys.exit(main())
