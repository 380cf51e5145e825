"""Refuse a release whose tag and version disagree: ``python scripts/release.py`` (README, "Releases").

A release is the annotated git tag ``vX.Y.Z`` on the commit whose ``pyproject.toml`` says ``version = "X.Y.Z"``.
This checks, from the repository root, that ``pyproject.toml``, ``bot.__version__`` and ``CHANGELOG.md``'s newest
``## [X.Y.Z]`` section agree, that HEAD carries the tag ``vX.Y.Z`` and that the working tree is clean. It prints
one line per problem and exits 1 if there is any, else prints the version and exits 0. ``--tag-only`` skips the
clean-tree check (CI's detached checkouts).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TAG = re.compile(r"^v(\d+\.\d+\.\d+)$")
SECTION = re.compile(r"^## \[(\d+\.\d+\.\d+)\]", re.M)


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def problems(root: Path = ROOT, *, clean: bool = True) -> tuple[str, list[str]]:
    """The declared version and what stands in the way of releasing it."""
    version = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    found: list[str] = []
    init = re.search(r'^__version__ = "([^"]+)"', (root / "bot" / "__init__.py").read_text(encoding="utf-8"), re.M)
    if init is None or init.group(1) != version:
        found.append(f"bot/__init__.py's __version__ is {init.group(1) if init else 'missing'}, pyproject.toml "
                     f"says {version}: make them equal")  # fmt: skip
    changelog = root / "CHANGELOG.md"
    sections = SECTION.findall(changelog.read_text(encoding="utf-8")) if changelog.is_file() else []
    if not sections or sections[0] != version:
        found.append(f"CHANGELOG.md's newest section is {sections[0] if sections else 'missing'}, not {version}: "
                     f"move the Unreleased entries under '## [{version}] - DATE'")  # fmt: skip
    if _git(root, "rev-parse", "--git-dir") is None:
        return version, [*found, "not a git checkout (or git is missing): a release is a git tag"]
    tags = (_git(root, "tag", "--points-at", "HEAD") or "").split()
    released = [m.group(1) for t in tags if (m := TAG.match(t))]
    if version not in released:
        latest = _git(root, "describe", "--tags", "--abbrev=0", "--match", "v[0-9]*") or "none"
        found.append(f"HEAD is not tagged v{version} (the latest tag is {latest}): git tag -a v{version} -m "
                     f"'Tournament Steward {version}'")  # fmt: skip
    for other in released:
        if other != version:
            found.append(f"HEAD carries the tag v{other} but the version is {version}")
    if clean and _git(root, "status", "--porcelain", "--untracked-files=no"):
        found.append("the working tree has uncommitted changes: commit them before tagging")
    return version, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    parser.add_argument("--tag-only", action="store_true", help="do not require a clean working tree")
    args = parser.parse_args(argv)
    version, found = problems(args.root, clean=not args.tag_only)
    for problem in found:
        print(f"release refused: {problem}", file=sys.stderr)
    if found:
        return 1
    print(f"release {version}: tag v{version}, pyproject, bot.__version__ and CHANGELOG.md agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
