"""The rules desk's learned ranker (BOT-RUL-1): for each preset, a linear model that reads a question's features
(:func:`bot.rules.rulebook.search.learned_features`) and gives every article of the preset a probability of being
the one asked about.

It was fitted by ``scripts/train_rules_desk.py`` on the articles' own fields — titles, summaries, keyword phrases
and the questions each article answers (``asks_it``/``asks_en``, written from the rulebooks' text) — never on the
question sets the desk is scored on. The weights ship in ``learned/<preset>.json.gz`` with the fingerprint of what
they were fitted on; :func:`load` returns nothing when the articles or the features have changed since, and the
desk then ranks without it until the script is run again (a test fails meanwhile).

Pure Python at run time: a question touches a few hundred features, each with a handful of weights.
"""

from __future__ import annotations

import gzip
import json
import math
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

FOLDER = "learned"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Block:
    """One kind of feature (stems, letter pieces), packed: row ``rows[f]`` has the feature's idf and, in
    ``classes``/``values`` from ``starts[row]`` to ``starts[row + 1]``, the (article, weight) pairs kept. Flat arrays,
    not a tuple per weight: the four presets' rankers hold over a million weights."""

    rows: dict[str, int]
    idf: array[float]
    starts: array[int]
    classes: array[int]
    values: array[float]

    @classmethod
    def build(cls, idf: Mapping[str, float], weights: Mapping[str, Iterable[tuple[int, float]]]) -> Block:
        """From each feature's (article, weight) pairs."""
        return cls.packed(idf, {f: [x for pair in pairs for x in pair] for f, pairs in weights.items()})

    @classmethod
    def packed(cls, idf: Mapping[str, float], flat: Mapping[str, Sequence[float]]) -> Block:
        """From each feature's pairs laid flat (article, weight, article, weight, …), as the file stores them: no
        tuple per weight on the way, so reading a ranker costs little more memory than holding it."""
        features = sorted(idf)
        starts, classes, values = array("I", [0]), array("H"), array("d")
        for f in features:
            pairs = flat.get(f, ())
            classes.extend(int(k) for k in pairs[0::2])
            values.extend(pairs[1::2])
            starts.append(len(classes))
        return cls({f: r for r, f in enumerate(features)}, array("d", (idf[f] for f in features)), starts, classes,
                   values)  # fmt: skip

    def idf_of(self, feature: str) -> float | None:
        row = self.rows.get(feature)
        return None if row is None else self.idf[row]

    def weights_of(self, feature: str) -> list[tuple[int, float]]:
        row = self.rows[feature]
        lo, hi = self.starts[row], self.starts[row + 1]
        return list(zip(self.classes[lo:hi], self.values[lo:hi], strict=True))


@dataclass(frozen=True, slots=True)
class Ranker:
    preset: str
    fingerprint: str
    articles: tuple[str, ...]  # article ids, in the order of ``for_preset``
    bias: tuple[float, ...]
    blocks: tuple[Block, ...]


def weighted(counts: Counter[str], idf_of: Callable[[str], float | None]) -> list[tuple[str, float]]:
    """A text's features as the model reads them: (1 + log count) × idf, scaled to unit length; features the model
    never saw are left out. The training script and the desk both weigh through here."""
    row = [(f, (1.0 + math.log(c)) * idf) for f, c in counts.items() if (idf := idf_of(f)) is not None]
    norm = math.sqrt(sum(v * v for _, v in row))
    return [(f, v / norm) for f, v in row] if norm else []


def probabilities(ranker: Ranker, features: Sequence[Counter[str]]) -> list[float]:
    """The probability of each article of the preset (in ``ranker.articles`` order) for a text's features."""
    scores = list(ranker.bias)
    for block, counts in zip(ranker.blocks, features, strict=True):
        starts, classes, values, rows = block.starts, block.classes, block.values, block.rows
        for feature, value in weighted(counts, block.idf_of):
            row = rows[feature]
            lo, hi = starts[row], starts[row + 1]
            for k, w in zip(classes[lo:hi], values[lo:hi], strict=True):  # slices: faster than indexing one by one
                scores[k] += w * value
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def encode(ranker: Ranker, trained: dict[str, object]) -> bytes:
    """The file ``load`` reads (gzip'd JSON, byte-for-byte the same for the same model)."""
    data = {
        "format": FORMAT,
        "preset": ranker.preset,
        "fingerprint": ranker.fingerprint,
        "trained": trained,
        "articles": list(ranker.articles),
        "bias": list(ranker.bias),
        "blocks": [
            {
                "idf": {f: b.idf[r] for f, r in b.rows.items()},
                "weights": {f: [x for pair in pairs for x in pair] for f in b.rows if (pairs := b.weights_of(f))},
            }
            for b in ranker.blocks
        ],
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), mtime=0)


def decode(raw: bytes) -> Ranker:
    data = json.loads(gzip.decompress(raw).decode("utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"learned ranker format {data.get('format')!r}, expected {FORMAT}")
    blocks = tuple(Block.packed(b["idf"], b["weights"]) for b in data["blocks"])
    return Ranker(data["preset"], data["fingerprint"], tuple(data["articles"]), tuple(data["bias"]), blocks)


def file_name(preset: str) -> str:
    return f"{preset}.json.gz"


@cache
def _read(preset: str) -> Ranker | None:
    entry = resources.files(__package__).joinpath(FOLDER, file_name(preset))
    return decode(entry.read_bytes()) if entry.is_file() else None


def load(preset: str, fingerprint: str) -> Ranker | None:
    """The ranker shipped for ``preset`` if it was fitted on what ``fingerprint`` describes, else None."""
    ranker = _read(preset)
    return ranker if ranker is not None and ranker.fingerprint == fingerprint else None
