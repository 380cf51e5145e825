"""The rules desk's learned ranker (BOT-RUL-1): for each rulebook preset, a linear model that reads a question's
features (:func:`bot.rules.rulebook.search.learned_features`) and gives every article of the preset a probability of
being the one asked about.

It was fitted by ``scripts/train_rules_desk.py`` on the articles' own fields — titles, summaries, keyword phrases
and the questions each article answers (``asks_it``/``asks_en``, written from the rulebooks' text) — never on the
question sets the desk is scored on. The weights ship in ``learned/<preset>.bin.gz`` with the fingerprint of what
they were fitted on; :func:`load` returns nothing when the articles or the features have changed since, and the
desk then ranks without it until the script is run again (a test fails meanwhile).

Small by construction (issue #48): no feature names are kept. A feature is hashed (CRC-32) into one of a block's
``size`` buckets; a bucket holds the number of training texts it was seen in (its idf) and the weights the fit
left on it, each an int8 times the block's scale, weights under the pruning threshold dropped: 160-450 KB per
preset on disk (1.1 MB for the four, where the JSON rankers before were 6.5 MB), 3.3 MiB in memory once read (52 MiB
before), read in tens of milliseconds (seconds before). The file also says which library versions fitted
it (``trained.libraries``); :func:`load` logs them and warns when they are not the ones pinned in ``TRAINED_WITH``
(pyproject's ``train`` extra, checked by a test).

Pure Python at run time: a question touches a few hundred buckets, each with a handful of weights.
"""

from __future__ import annotations

import gzip
import json
import logging
import math
import sys
import zlib
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import accumulate

log = logging.getLogger(__name__)

FOLDER = "learned"
FORMAT = 2
MAGIC = b"rules-desk-ranker\n"
# The libraries scripts/train_rules_desk.py fits with: pyproject's ``train`` extra pins exactly these (a test checks),
# the script refuses other versions unless told, and every file records the ones that fitted it.
TRAINED_WITH = {"numpy": "2.4.6", "scipy": "1.17.1"}


def hashed(counts: Mapping[str, int], size: int) -> dict[int, int]:
    """A text's feature counts folded onto a block's ``size`` buckets: a feature's bucket is its CRC-32 modulo
    ``size`` (the same in every process, unlike ``hash``); two features of one text in one bucket add up. The training
    script and the desk both hash through here."""
    out: dict[int, int] = {}
    crc32 = zlib.crc32
    for feature, count in counts.items():
        b = crc32(feature.encode("utf-8")) % size
        out[b] = out.get(b, 0) + count
    return out


def idf(texts: int, df: int) -> float:
    """The smoothed inverse document frequency of a bucket seen in ``df`` of the ``texts`` training texts; 0.0 for a
    bucket no training text filled (the model never saw it: left out)."""
    return math.log((1 + texts) / (1 + df)) + 1.0 if df else 0.0


def idf_table(texts: int, df: Sequence[int]) -> array[float]:
    """Every bucket's :func:`idf` (what the desk reads per bucket, computed once at load)."""
    by_df: dict[int, float] = {}
    return array("d", (by_df[d] if d in by_df else by_df.setdefault(d, idf(texts, d)) for d in df))


def weighted(counts: Mapping[int, int], idf_of: Sequence[float]) -> list[tuple[int, float]]:
    """A text's buckets as the model reads them: (1 + log count) × idf, scaled to unit length; buckets no training
    text filled (idf 0) are left out. The training script and the desk both weigh through here."""
    row = [(b, (1.0 + math.log(c)) * i if c > 1 else i) for b, c in counts.items() if (i := idf_of[b])]
    norm = math.sqrt(sum(v * v for _, v in row))
    return [(b, v / norm) for b, v in row] if norm else []


@dataclass(frozen=True, slots=True)
class Block:
    """One kind of feature (stems and word pairs, letter pieces), hashed into ``size`` buckets: ``df[b]`` of the
    ``texts`` training texts filled bucket ``b`` (0: none, or too few to keep), ``idf`` follows from it; its weights
    are ``classes``/``values`` from ``starts[b]`` to ``starts[b + 1]``, each value an int8 to multiply by
    ``scale``."""

    size: int
    texts: int
    df: array[int]  # "H", one per bucket
    idf: array[float]  # "d", one per bucket (computed at load, not stored)
    starts: array[int]  # "I", size + 1
    classes: array[int]  # "B": the article of each weight
    values: array[int]  # "b": the weight / scale
    scale: float

    @classmethod
    def build(
        cls, texts: int, df: Sequence[int], weights: Mapping[int, Iterable[tuple[int, int]]], scale: float
    ) -> Block:
        """From each bucket's (article, int8 weight) pairs, articles ascending."""
        size = len(df)
        counts = array("B", bytes(size))
        classes, values = array("B"), array("b")
        for b in sorted(weights):
            pairs = list(weights[b])
            counts[b] = len(pairs)
            classes.extend(k for k, _ in pairs)
            values.extend(v for _, v in pairs)
        return cls.packed(texts, array("H", df), counts, classes, values, scale)

    @classmethod
    def packed(cls, texts: int, df: array[int], counts: array[int], classes: array[int], values: array[int],
               scale: float) -> Block:  # fmt: skip
        """From the arrays as the file stores them (a count of weights per bucket, not the starts)."""
        starts = array("I", [0])
        starts.extend(accumulate(counts))
        if len(counts) != len(df) or starts[-1] != len(classes) or len(classes) != len(values):
            raise ValueError("learned ranker block sizes do not agree")
        return cls(len(df), texts, df, idf_table(texts, df), starts, classes, values, scale)

    @property
    def counts(self) -> array[int]:
        """The number of weights of each bucket."""
        return array("B", (self.starts[b + 1] - self.starts[b] for b in range(self.size)))

    def weights_of(self, bucket: int) -> list[tuple[int, float]]:
        """A bucket's (article, weight) pairs."""
        lo, hi = self.starts[bucket], self.starts[bucket + 1]
        return [(k, v * self.scale) for k, v in zip(self.classes[lo:hi], self.values[lo:hi], strict=True)]


@dataclass(frozen=True, slots=True)
class Ranker:
    """One preset's learned ranker: a bias and the hashed blocks' weights per article."""

    preset: str
    fingerprint: str
    articles: tuple[str, ...]  # article ids, in the order of ``for_preset``
    bias: tuple[float, ...]
    blocks: tuple[Block, ...]
    trained: Mapping[str, object] = field(default_factory=dict, compare=False)  # how it was fitted (informational)


def probabilities(ranker: Ranker, features: Sequence[Mapping[str, int]]) -> list[float]:
    """The probability of each article of the preset (in ``ranker.articles`` order) for a text's features (one
    counter per block, as ``learned_features`` gives them)."""
    scores = list(ranker.bias)
    for block, counts in zip(ranker.blocks, features, strict=True):
        starts, classes, values = block.starts, block.classes, block.values
        acc = [0.0] * len(scores)
        for b, value in weighted(hashed(counts, block.size), block.idf):
            lo, hi = starts[b], starts[b + 1]
            for k, w in zip(classes[lo:hi], values[lo:hi], strict=True):  # slices: faster than indexing one by one
                acc[k] += w * value
        scale = block.scale
        scores = [s + a * scale for s, a in zip(scores, acc, strict=True)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _little(values: array[int]) -> bytes:
    if sys.byteorder == "big" and values.itemsize > 1:
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _read_array(typecode: str, raw: bytes) -> array[int]:
    out = array(typecode)
    out.frombytes(raw)
    if sys.byteorder == "big" and out.itemsize > 1:
        out.byteswap()
    return out


def encode(ranker: Ranker) -> bytes:
    """The file ``load`` reads: a JSON header line, then each block's arrays (little-endian), gzip'd with no time
    stamp — byte for byte the same for the same model."""
    header = {
        "format": FORMAT,
        "preset": ranker.preset,
        "fingerprint": ranker.fingerprint,
        "trained": dict(ranker.trained),
        "articles": list(ranker.articles),
        "bias": list(ranker.bias),
        "texts": ranker.blocks[0].texts if ranker.blocks else 0,
        "blocks": [{"size": b.size, "scale": b.scale, "weights": len(b.values)} for b in ranker.blocks],
    }
    parts = [MAGIC, json.dumps(header, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode(), b"\n"]
    for b in ranker.blocks:
        parts += [_little(b.df), b.counts.tobytes(), b.classes.tobytes(), b.values.tobytes()]
    return gzip.compress(b"".join(parts), compresslevel=9, mtime=0)


def decode(raw: bytes) -> Ranker:
    """The ranker of a file ``encode`` wrote; ValueError for another format or a damaged file."""
    data = gzip.decompress(raw)
    if not data.startswith(MAGIC):
        raise ValueError("not a learned ranker file")
    line, _, rest = data[len(MAGIC) :].partition(b"\n")
    header = json.loads(line)
    if header.get("format") != FORMAT:
        raise ValueError(f"learned ranker format {header.get('format')!r}, expected {FORMAT}")
    blocks, at = [], 0
    for spec in header["blocks"]:
        size, n = int(spec["size"]), int(spec["weights"])
        lengths = (2 * size, size, n, n)
        chunks = []
        for length in lengths:
            chunks.append(rest[at : at + length])
            at += length
        df, counts, classes, values = (_read_array(t, c) for t, c in zip("HBBb", chunks, strict=True))
        blocks.append(Block.packed(int(header["texts"]), df, counts, classes, values, float(spec["scale"])))
    if at != len(rest):
        raise ValueError("learned ranker file has trailing bytes")
    return Ranker(header["preset"], header["fingerprint"], tuple(header["articles"]), tuple(header["bias"]),
                  tuple(blocks), header.get("trained", {}))  # fmt: skip


def file_name(preset: str) -> str:
    """The file of ``preset``'s ranker in ``learned/``."""
    return f"{preset}.bin.gz"


def libraries_differ(ranker: Ranker) -> dict[str, tuple[object, str]]:
    """The libraries whose version in the file is not the pinned one: name → (the file's, the pin)."""
    used = ranker.trained.get("libraries")
    used = used if isinstance(used, dict) else {}
    return {name: (used.get(name), pin) for name, pin in TRAINED_WITH.items() if used.get(name) != pin}


@cache
def _read(preset: str) -> Ranker | None:
    entry = resources.files(__package__).joinpath(FOLDER, file_name(preset))
    if not entry.is_file():
        return None
    ranker = decode(entry.read_bytes())
    used = ranker.trained.get("libraries", {})
    log.info("rules desk: learned ranker %s read (fitted with %s)", preset, used)
    if differ := libraries_differ(ranker):
        log.warning("rules desk: learned ranker %s was fitted with other library versions than pinned (file, pin): "
                    "%s; fit it again with pip install -e '.[train]'", preset, differ)  # fmt: skip
    return ranker


def load(preset: str, fingerprint: str) -> Ranker | None:
    """The ranker shipped for ``preset`` if it was fitted on what ``fingerprint`` describes, else None."""
    ranker = _read(preset)
    return ranker if ranker is not None and ranker.fingerprint == fingerprint else None
