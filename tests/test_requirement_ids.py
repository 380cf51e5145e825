"""Issue 48, "one map and the project's own requirements": the requirement ids the code, the tests and the documents
cite (``RK-SD-2``, ``TOUR-SF-1/2``, ``BOT-SAN-1..3``, ``TOUR-*``) are the catalogue in docs/requirements.md.

An id cited anywhere in bot/, renderer/, tests/, docs/ or README.md must be defined there, once; each proof file the
catalogue lists must exist and cite its id; an id marked *not yet cited* must really be cited nowhere else. The id
syntax is the catalogue's exact prefixes, so ``UTF-8``, ``SHA-256``, ``ISO-8601``, ``Ed25519`` or ``X-Forwarded-For``
are never read as ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CATALOGUE = REPO / "docs" / "requirements.md"
SCANNED = ("bot", "renderer", "tests", "docs", "README.md")
PREFIXES = ("BOT", "RR", "RK", "NP", "TOUR", "FIRK")  # the catalogue's sections: nothing else is an id
BINARY = {".png", ".jpg", ".gif", ".webp", ".ttf", ".otf", ".woff", ".woff2", ".gz", ".zip", ".mo", ".so", ".pyc",
          ".xlsx", ".pdf", ".db", ".sqlite"}  # fmt: skip

_PREFIX = "|".join(PREFIXES)
# PREFIX-AREA-N, optionally a range (..M) or a pair (/M); not preceded by a word character or a hyphen
CITATION = re.compile(rf"(?<![\w-])((?:{_PREFIX})-[A-Z][A-Z0-9]*-)(\d+)(?:(\.\.|/)(\d+))?(?!\w)")
WILDCARD = re.compile(rf"(?<![\w-])((?:{_PREFIX})-(?:[A-Z][A-Z0-9]*-)?)\*")  # TOUR-*, RK-TRIS-*
TEST_NAME = re.compile(rf"\btest_((?:{_PREFIX.lower()})_[a-z][a-z0-9]*_\d+)(?=[_(])")  # test_rk_sd_2_…
ROW = re.compile(rf"^\|\s*((?:{_PREFIX})-[A-Z][A-Z0-9]*-\d+)\s*\|")
NOT_YET_CITED = "*not yet cited*"


def citations(text: str) -> list[str]:
    """The ids ``text`` cites, in order, a range or a pair read as each of its ids."""
    found: list[str] = []
    for match in CITATION.finditer(text):
        area, first, joint, last = match.groups()
        if joint == "..":
            numbers = list(range(int(first), int(last) + 1))
        elif joint == "/":
            numbers = [int(first), int(last)]
        else:
            numbers = [int(first)]
        found += [f"{area}{n}" for n in numbers]
    return found


def wildcards(text: str) -> list[str]:
    """The whole sections or areas ``text`` cites (``TOUR-*`` → ``TOUR-``)."""
    return WILDCARD.findall(text)


@dataclass(frozen=True)
class Citation:
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def _files() -> Iterator[Path]:
    for name in SCANNED:
        top = REPO / name
        if top.is_file():
            yield top
            continue
        for path in sorted(top.rglob("*")):
            hidden = any(p == "__pycache__" or p.startswith(".") for p in path.relative_to(REPO).parts)
            if path.is_file() and path.suffix not in BINARY and not hidden:
                yield path


@cache
def cited() -> dict[str, list[Citation]]:
    """Every id (and ``PREFIX-…-`` for a wildcard) cited in the scanned files, with where, in path order."""
    where: dict[str, list[Citation]] = {}
    for path in sorted(_files(), key=lambda p: p.relative_to(REPO).as_posix()):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        name = path.relative_to(REPO).as_posix()
        for number, line in enumerate(text.splitlines(), start=1):
            for key in [*citations(line), *(f"{w}*" for w in wildcards(line))]:
                where.setdefault(key, []).append(Citation(name, number))
    return where


@dataclass(frozen=True)
class Entry:
    id: str
    line: int
    proof: str  # the row's last cell


def entries() -> list[Entry]:
    """The catalogue's rows: an id in the first cell, the proof in the last (``\\|`` inside a cell is a pipe)."""
    found: list[Entry] = []
    for number, line in enumerate(CATALOGUE.read_text(encoding="utf-8").splitlines(), start=1):
        if match := ROW.match(line):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            found.append(Entry(match.group(1), number, cells[-1]))
    return found


def _defined() -> set[str]:
    return {e.id for e in entries()}


def _proof_files(entry: Entry) -> list[str]:
    return re.findall(r"`(tests/[^`]+)`", entry.proof)


def _names(id_: str, text: str) -> bool:
    """Whether ``text`` cites ``id_``: as written, in a range or pair, or in a test's name (``test_rk_sd_2_…``)."""
    return id_ in citations(text) or id_.lower().replace("-", "_") in TEST_NAME.findall(text)


def test_the_reader_knows_an_id_from_a_look_alike() -> None:
    """Issue 48: the catalogue's prefixes only — encodings, hashes, dates, headers and articles are not ids; ranges,
    pairs and wildcards are read as what they cite."""
    look_alikes = "UTF-8, SHA-256, ISO-8601, Ed25519, X-Forwarded-For, HMAC-SHA256, CP-SAT, RR 13.5, ARB 5, FIRK §12"
    assert citations(look_alikes + ", FIRK-only, FIRK-style, NP-X, xRR-MIN-1, TOUR-R1") == []
    assert citations("RK-SD-1..3 and TOUR-SF-1/2, BOT-REG-2's deadline (RR-MIN-0).") == [
        "RK-SD-1", "RK-SD-2", "RK-SD-3", "TOUR-SF-1", "TOUR-SF-2", "BOT-REG-2", "RR-MIN-0"]  # fmt: skip
    assert wildcards("(BOT-TAB-1, TOUR-*, RK-TRIS-*)") == ["TOUR-", "RK-TRIS-"]
    assert _names("RK-SD-2", "def test_rk_sd_2_a_big_turn_does_not_roll():") and not _names("RK-SD-2", "rk_sd_21")


def test_every_cited_id_is_defined_in_docs_requirements() -> None:
    """Issue 48: no citation points outside the repository — each id cited in bot/, renderer/, tests/, docs/ or the
    README has its row in docs/requirements.md (the message names the id and the first file citing it)."""
    defined = _defined()
    undefined = [f"{key} (first cited at {where[0]})" for key, where in sorted(cited().items())
                 if not key.endswith("*") and key not in defined]  # fmt: skip
    assert undefined == [], "cited but not defined in docs/requirements.md:\n" + "\n".join(undefined)


def test_every_wildcard_names_a_section_or_area_of_the_catalogue() -> None:
    """Issue 48: ``TOUR-*`` and ``RK-TRIS-*`` stand for ids the catalogue has."""
    defined = _defined()
    empty = [f"{key} (first cited at {where[0]})" for key, where in sorted(cited().items())
             if key.endswith("*") and not any(d.startswith(key[:-1]) for d in defined)]  # fmt: skip
    assert empty == []


def test_no_id_is_defined_twice() -> None:
    """Issue 48: one row per id in docs/requirements.md."""
    seen: dict[str, int] = {}
    twice = []
    for entry in entries():
        if entry.id in seen:
            twice.append(f"{entry.id}: lines {seen[entry.id]} and {entry.line}")
        seen.setdefault(entry.id, entry.line)
    assert len(seen) > 90 and twice == []


def test_every_proof_file_exists_and_cites_its_id() -> None:
    """Issue 48: the catalogue says where each id's proof lives; a listed test file that is gone or no longer names
    the id (in a docstring, a comment or the test's name) fails here."""
    wrong = []
    for entry in entries():
        for name in _proof_files(entry):
            path = REPO / name
            if not path.is_file():
                wrong.append(f"{entry.id}: {name} does not exist")
            elif not _names(entry.id, path.read_text(encoding="utf-8")):
                wrong.append(f"{entry.id}: {name} does not cite it")
    assert wrong == []


def test_every_row_has_a_proof_or_says_why_not() -> None:
    """Issue 48: a row lists its test files, says no test names it yet, or says nothing cites the id yet."""
    bare = [e.id for e in entries() if not _proof_files(e) and e.proof != NOT_YET_CITED and "no test" not in e.proof]
    assert bare == []


def test_an_id_marked_not_yet_cited_is_cited_nowhere_else() -> None:
    """Issue 48: once something cites an id marked *not yet cited*, its row lists the proof instead."""
    elsewhere = {key: [w for w in where if w.path != "docs/requirements.md"] for key, where in cited().items()}
    stale = [f"{e.id} (cited at {elsewhere[e.id][0]})" for e in entries()
             if e.proof == NOT_YET_CITED and elsewhere.get(e.id)]  # fmt: skip
    assert stale == []
