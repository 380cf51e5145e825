"""Fit the rules desk's learned ranker for every rulebook preset (dev-time only, BOT-RUL-1; needs the pinned NumPy and
SciPy of pyproject's ``train`` extra: ``pip install -e '.[train]'``).

    python -m scripts.train_rules_desk            # fit and write bot/rules/rulebook/learned/<preset>.bin.gz
    python -m scripts.train_rules_desk --check    # exit 1 if a shipped ranker no longer matches its articles

Run it after changing an article (title, summary, keywords, own questions) or how the desk turns text into
features (``FEATURES_VERSION`` in search.py); the test suite fails until it has been run. It refuses to fit with
other NumPy or SciPy versions than ``learned.TRAINED_WITH`` (the pins; ``--any-versions`` to fit anyway, for a
trial), and writes the versions it used into each file.

What it fits, per preset: multinomial logistic regression (L2, C = 8) from a text's features — stems and word pairs
in both languages, three-to-five-letter pieces of its words — to the article the text belongs to. Each block of
features is hashed (CRC-32) into a fixed number of buckets (``BUCKETS``), tf-idf weighted and scaled to unit length
(bot.rules.rulebook.learned.weighted); letter pieces count only in buckets at least two training texts fill. The
training texts are each article's title, summary, keyword phrases (all together and one by one) and own questions,
in both languages: about 2 000 to 4 900 per preset. None of the question sets the desk is scored on is read. L-BFGS
from zeros, so the same articles give the same file. Weights under ``PRUNE`` in size are dropped, the rest are
stored as int8 times a scale per block.

Issue #48 ("the rules desk proportionate") made it so; before, every stem, pair and letter piece was a named feature
(115 641 for the official preset), the weights 4-decimal JSON: 6.5 MB of files, 52 MiB in memory, and the fit held
2.7 GB. The buckets (2^14 per block; 2^15 for the stems answered the same on held-back own questions and needed 0.9
GB), the pruning threshold (0.1, of 0.05-0.2) and the blend weight (0.8 still) were chosen on own questions held back
from fitting (``python -m scripts.tune_rules_desk --learned``), never on a question set. Measured on 2026-12-08 on
this machine (two cores shared with other work, ``nice -n 19``): 3 to 5 minutes for the four presets, a peak of
663 MiB (``/usr/bin/time -v``: 679 348 KB; the old fit 2 821 484 KB), 1 082 500 bytes written in all, the same
bytes at every run.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from bot.rules.presets import RULEBOOK_PRESETS
from bot.rules.rulebook import LANGS, Article, learned
from bot.rules.rulebook import for_preset as shipped_articles
from bot.rules.rulebook.search import FEATURES_VERSION, fingerprint, learned_features

C = 8.0
BUCKETS = (1 << 14, 1 << 14)  # stems and word pairs; letter pieces
MIN_DF = (1, 2)  # stems: every bucket a text fills; letter pieces: those at least two training texts fill
PRUNE = 0.1
MAX_ITERATIONS = 200
HISTORY = 5  # L-BFGS's stored corrections: memory is about (2 × HISTORY + 6) copies of the weights
FOLDER = Path(__file__).resolve().parents[1] / "bot" / "rules" / "rulebook" / learned.FOLDER


def training_texts(articles: Sequence[Article]) -> tuple[list[str], list[int]]:
    texts, labels = [], []
    for k, a in enumerate(articles):
        for lang in LANGS:
            own = [a.title[lang], a.summary[lang], " ".join(a.keywords[lang]), *a.asks[lang], *a.keywords[lang]]
            texts += own
            labels += [k] * len(own)
    return texts, labels


@dataclass(frozen=True)
class Fitted:
    """A fit before pruning and rounding: ``weights[block][bucket]`` is the row of per-article weights."""

    preset: str
    articles: tuple[Article, ...]
    texts: int
    df: list[list[int]]  # per block, per bucket: training texts filling it (0 below MIN_DF)
    weights: list[dict[int, Any]]  # per block: bucket → NumPy row over the articles
    bias: Any
    info: dict[str, object]


def fit(preset: str, articles: Sequence[Article] | None = None) -> Fitted:
    import numpy as np
    from scipy import sparse
    from scipy.optimize import minimize

    found = tuple(articles if articles is not None else shipped_articles(preset))
    texts, labels = training_texts(found)
    rows_of = [[learned.hashed(counts, size) for counts, size in zip(learned_features(t), BUCKETS, strict=True)]
               for t in texts]  # fmt: skip
    n, classes = len(texts), len(found)
    dfs: list[list[int]] = []
    columns: list[dict[int, int]] = []
    start = 0
    for b, (size, min_df) in enumerate(zip(BUCKETS, MIN_DF, strict=True)):
        counted = Counter(bucket for row in rows_of for bucket in row[b])
        df = [0] * size
        for bucket, c in counted.items():
            if c >= min_df:
                df[bucket] = min(c, 65535)
        kept = [bucket for bucket in range(size) if df[bucket]]
        columns.append({bucket: start + j for j, bucket in enumerate(kept)})
        dfs.append(df)
        start += len(kept)
    dim = start
    idfs = [learned.idf_table(n, df) for df in dfs]
    r_idx, c_idx, vals = [], [], []
    for r, row in enumerate(rows_of):
        for b in range(len(BUCKETS)):
            for bucket, v in learned.weighted(row[b], idfs[b]):
                r_idx.append(r)
                c_idx.append(columns[b][bucket])
                vals.append(v)
    x = sparse.csr_matrix((vals, (r_idx, c_idx)), shape=(n, dim))
    xt = x.T.tocsr()
    y = np.array(labels)
    size = dim * classes
    gradient = np.empty(size + classes)

    def loss(theta: Any) -> tuple[float, Any]:
        w, bias = theta[:size].reshape(dim, classes), theta[size:]
        z = x @ w + bias
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        flat = theta[:size]
        value = -np.log(p[np.arange(n), y]).sum() * C + 0.5 * float(flat @ flat)
        p[np.arange(n), y] -= 1.0
        g = gradient[:size].reshape(dim, classes)
        g[...] = xt @ p
        g *= C
        g += w
        gradient[size:] = C * p.sum(axis=0)
        return value, gradient.copy()

    started = time.perf_counter()
    result = minimize(loss, np.zeros(size + classes), jac=True, method="L-BFGS-B",
                      options={"maxiter": MAX_ITERATIONS, "gtol": 1e-4 * n, "maxcor": HISTORY})  # fmt: skip
    seconds = time.perf_counter() - started
    w = result.x[:size].reshape(dim, classes)
    weights = [{bucket: w[col] for bucket, col in cols.items()} for cols in columns]
    info: dict[str, object] = {"texts": n, "buckets_used": dim, "iterations": int(result.nit),
                               "seconds": round(seconds, 1)}  # fmt: skip
    return Fitted(preset, found, n, dfs, weights, result.x[size:], info)


def packed(fitted: Fitted, prune: float = PRUNE) -> learned.Ranker:
    """The shipped form: weights under ``prune`` dropped, the rest int8 times a scale per block (the largest weight
    is ±127 steps)."""
    import numpy as np

    blocks = []
    for df, rows in zip(fitted.df, fitted.weights, strict=True):
        top = max((float(np.abs(row).max()) for row in rows.values()), default=1.0)
        scale = float(f"{top / 127:.6g}")
        kept = {}
        for bucket, row in rows.items():
            q = np.clip(np.rint(row / scale), -127, 127).astype(int)
            pairs = [(int(k), int(q[k])) for k in np.flatnonzero((np.abs(row) >= prune) & (q != 0))]
            if pairs:
                kept[bucket] = pairs
        blocks.append(learned.Block.build(fitted.texts, df, kept, scale))
    trained = {
        "C": C,
        "buckets": list(BUCKETS),
        "min_df": list(MIN_DF),
        "pruned_below": prune,
        "features_version": FEATURES_VERSION,
        "kept_weights": sum(len(b.values) for b in blocks),
        "libraries": {name: metadata.version(name) for name in learned.TRAINED_WITH},
        **{k: v for k, v in fitted.info.items() if k != "seconds"},
    }
    return learned.Ranker(fitted.preset, fingerprint(fitted.articles), tuple(a.id for a in fitted.articles),
                          tuple(round(float(v), 4) for v in fitted.bias), tuple(blocks), trained)  # fmt: skip


def versions_differ() -> dict[str, tuple[str | None, str]]:
    out: dict[str, tuple[str | None, str]] = {}
    for name, pin in learned.TRAINED_WITH.items():
        try:
            have: str | None = metadata.version(name)
        except metadata.PackageNotFoundError:
            have = None
        if have != pin:
            out[name] = (have, pin)
    return out


def main(argv: Sequence[str] | None = None, *, articles_of: Callable[[str], Sequence[Article]] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that every shipped ranker is current")
    parser.add_argument("--any-versions", action="store_true", help="fit with other NumPy/SciPy than the pins")
    args = parser.parse_args(argv)
    of = articles_of or shipped_articles
    stale = [p for p in RULEBOOK_PRESETS if learned.load(p, fingerprint(of(p))) is None]
    if args.check:
        for preset in stale:
            print(f"stale or missing: {preset} (run python -m scripts.train_rules_desk)")
        return 1 if stale else 0
    if (differ := versions_differ()) and not args.any_versions:
        print(f"installed (have, pinned) {differ}: pip install -e '.[train]', or --any-versions for a trial")
        return 2
    FOLDER.mkdir(exist_ok=True)
    written = set()
    for preset in RULEBOOK_PRESETS:
        fitted = fit(preset, of(preset))
        ranker = packed(fitted)
        raw = learned.encode(ranker)
        (FOLDER / learned.file_name(preset)).write_bytes(raw)
        written.add(learned.file_name(preset))
        print(f"  {preset}: {fitted.texts} texts, {fitted.info['buckets_used']} buckets, "
              f"{fitted.info['iterations']} iterations in {fitted.info['seconds']} s, "
              f"{ranker.trained['kept_weights']} weights kept, {len(raw)} bytes", flush=True)  # fmt: skip
    for old in FOLDER.iterdir():  # another preset's or an older format's file
        if old.is_file() and old.name not in written:
            old.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
