"""Issue 11 acceptance: on a fresh clone every `steward` command in README.md and docs/*.md runs as written.

Commands are the lines of ```bash (sh, shell, console) code blocks that start with `steward`, `echo … | steward` or
`VAR=value steward`. Each runs through the shell with the leading `steward` replaced by `python -m bot.cli`, in a
temporary directory holding a copy of README.md and docs/ only (so nothing outside the repository, such as
../shared, can be read), with this checkout on PYTHONPATH. Untagged blocks are synopses (`steward rr
solve|verify|board   …`); a test checks that they hold no runnable command by mistake.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
RUNNABLE_LANGUAGES = {"bash", "sh", "shell", "console"}
NOT_RUN = ("steward run", "steward web", "--web")  # a Discord token, or a server: they never end

_FENCE = re.compile(r"^```\s*(\S*)\s*$")
_COMMAND = re.compile(r"^(?:(?:[A-Z_]+=\S+\s+)*steward\b|echo\s.*\|\s*steward\b)")
_SYNOPSIS = re.compile(r"\S\s{2,}\S|[a-z]\|[a-z]|\.\.\.|…|\[")


@dataclass(frozen=True)
class Command:
    document: str
    line: int
    text: str
    runnable: bool  # inside a bash-like block

    def __str__(self) -> str:
        return f"{self.document}:{self.line}: {self.text}"


def _commands() -> list[Command]:
    found: list[Command] = []
    for path in DOCUMENTS:
        language: str | None = None
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            fence = _FENCE.match(raw.strip())
            if fence:
                language = None if language is not None else fence.group(1).lower()
                continue
            line = raw.strip()
            if language is not None and _COMMAND.match(line):
                name = path.relative_to(REPO).as_posix()
                found.append(Command(name, number, line, language in RUNNABLE_LANGUAGES))
    return found


COMMANDS = _commands()
RUNNABLE = [c for c in COMMANDS if c.runnable and not any(n in c.text for n in NOT_RUN)]


def _as_python(command: str) -> str:
    python = f"{shlex.quote(sys.executable)} -m bot.cli"
    return re.sub(r"(^|\|\s*|\s)steward\b", lambda m: m.group(1) + python, command, count=2)


def _param(command: Command) -> object:
    # `steward demo` (a whole tournament) took about 5 s here: under the 10 s that would make it a slow check.
    return pytest.param(command, id=f"{command.document}:{command.line}")


@pytest.fixture
def fresh_clone(tmp_path: Path) -> Path:
    """README.md and docs/ copied into an empty folder: what a clone has, and nothing from ../shared."""
    root = tmp_path / "clone"
    root.mkdir()
    shutil.copy(REPO / "README.md", root / "README.md")
    shutil.copytree(REPO / "docs", root / "docs")
    return root


@pytest.mark.parametrize("command", [_param(c) for c in RUNNABLE])
def test_every_documented_command_runs_as_written_on_a_fresh_clone(command: Command, fresh_clone: Path):
    """Issue 11 acceptance: exit 0 and some output for each `steward` command of README.md and docs/*.md."""
    env = dict(os.environ, PYTHONPATH=str(REPO), DATABASE_URL=f"sqlite:///{fresh_clone / 'steward.db'}")
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + _as_python(command.text)],
        cwd=fresh_clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
    assert done.stdout.strip(), f"{command}: no output"


def test_the_walk_finds_the_readme_and_cli_examples():
    """The extraction itself: the README's three examples and one example per engine command in docs/cli.md."""
    readme = [c.text for c in RUNNABLE if c.document == "README.md"]
    assert any(t.startswith("echo ") and "steward risiko odds" in t for t in readme)
    assert "steward draw --input docs/examples/draw/n64_s1.json --seed 7 --text" in readme
    in_cli = " ".join(c.text for c in RUNNABLE if c.document == "docs/cli.md")
    for name in _engine_commands():
        assert f"steward {name} " in in_cli, name


def test_untagged_blocks_hold_synopses_not_commands_that_would_go_unchecked():
    """A runnable-looking `steward` line outside a bash block would escape the walk: tag the block ```bash."""
    strays = [str(c) for c in COMMANDS if not c.runnable and not _SYNOPSIS.search(c.text)]
    assert strays == []


def test_documented_commands_read_nothing_outside_the_repository():
    """Issue 11: the README's draw example read ../shared/data; every path a command names is inside the clone."""
    assert [str(c) for c in COMMANDS if "../" in c.text] == []


def test_every_example_input_is_used_by_a_documented_command():
    examples = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs" / "examples").rglob("*.json"))
    used = " ".join(c.text for c in RUNNABLE)
    assert examples and [e for e in examples if e not in used] == []


def _engine_parsers() -> dict[str, argparse.ArgumentParser]:
    """`rr solve`, …, `draw`, `standings`, `render`: every command that reads an input document."""
    found: dict[str, argparse.ArgumentParser] = {}
    top = next(a for a in build_parser()._subparsers._group_actions if a.choices)  # type: ignore[union-attr]
    for name, parser in top.choices.items():
        # web: a server, like run (its tests: tests/web/test_venue_cli.py); doctor: no input (tests/test_doctor.py)
        if name in {"run", "db", "demo", "web", "doctor"}:
            continue
        inner = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if inner:
            found.update({f"{name} {sub}": p for sub, p in inner[0].choices.items()})
        else:
            found[name] = parser
    return found


def _engine_commands() -> list[str]:
    return list(_engine_parsers())


@pytest.mark.parametrize("name", _engine_commands())
def test_help_of_every_engine_command_describes_its_input_and_points_to_the_docs(name: str):
    """Issue 11: `--help` of draw, standings, risiko score (and every engine command) says what the input holds."""
    text = _engine_parsers()[name].format_help()
    assert "Input" in text and f"docs/cli.md#{name.replace(' ', '-')}" in text
    heading = f"## {name}\n"
    assert heading in (REPO / "docs" / "cli.md").read_text(encoding="utf-8"), heading


def test_issue_44_the_evening_guide_s_paper_fallback_runs_as_written():
    """When the bot or the internet fails mid-evening the guide prints the tables' sheets, the door's list and the
    standings offline from an export: those lines are walked, so the test above runs each of them on a fresh clone."""
    for document in ("docs/tournament-day.md", "docs/tournament-day.en.md"):
        printed = [c.text for c in RUNNABLE if c.document == document and c.text.startswith("steward print ")]
        assert len(printed) == 3, document
        assert [w for w in ("--round 1", "--pairings 1", "--standings") if not any(w in t for t in printed)] == []
        assert all("--input docs/examples/export/tournament.json" in t for t in printed)
