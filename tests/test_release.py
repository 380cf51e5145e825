"""Releases (issue 43): scripts/release.py refuses a release unless HEAD's tag vX.Y.Z, pyproject.toml,
bot.__version__ and CHANGELOG.md's newest section agree; `steward --version` never fails without git."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import bot

REPO = Path(__file__).resolve().parents[1]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _release() -> ModuleType:
    spec = importlib.util.spec_from_file_location("release", REPO / "scripts" / "release.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _repo(tmp_path: Path, version: str = "1.2.3", section: str = "1.2.3") -> Path:
    root = tmp_path / "repo"
    (root / "bot").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "x"\nversion = "{version}"\n', encoding="utf-8")
    (root / "bot" / "__init__.py").write_text(f'__version__ = "{version}"\n', encoding="utf-8")
    (root / "CHANGELOG.md").write_text(f"# Changelog\n\n## [Unreleased]\n\n## [{section}] - 2026-12-01\n",
                                       encoding="utf-8")  # fmt: skip
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    return root


def _tag(root: Path, tag: str) -> None:
    subprocess.run(["git", "-C", str(root), "tag", tag], check=True)


@needs_git
def test_a_release_needs_the_matching_tag(tmp_path: Path):
    release = _release()
    root = _repo(tmp_path)
    version, found = release.problems(root)
    assert version == "1.2.3" and len(found) == 1 and "not tagged v1.2.3" in found[0]
    _tag(root, "v1.2.2")
    assert "the latest tag is v1.2.2" in release.problems(root)[1][0]
    _tag(root, "v1.2.3")
    assert release.problems(root)[1] == ["HEAD carries the tag v1.2.2 but the version is 1.2.3"]
    subprocess.run(["git", "-C", str(root), "tag", "-d", "v1.2.2"], check=True, capture_output=True)
    assert release.problems(root) == ("1.2.3", [])
    assert release.main(["--root", str(root)]) == 0


@needs_git
def test_a_changelog_or_package_version_behind_is_refused(tmp_path: Path):
    release = _release()
    root = _repo(tmp_path, section="1.2.2")
    _tag(root, "v1.2.3")
    (found,) = release.problems(root)[1]
    assert "CHANGELOG.md's newest section is 1.2.2" in found
    (root / "bot" / "__init__.py").write_text('__version__ = "1.2.0"\n', encoding="utf-8")
    found = release.problems(root)[1]
    assert any("__version__ is 1.2.0" in f for f in found) and any("uncommitted" in f for f in found)
    assert not any("uncommitted" in f for f in release.problems(root, clean=False)[1])


def test_this_checkout_s_changelog_has_unreleased_and_the_declared_version():
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text and f"## [{bot.__version__}]" in text


def test_version_never_fails_without_git(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert bot.git_describe() is None and bot.version_text() == bot.installed_version()
    done = subprocess.run([sys.executable, "-m", "bot.cli", "--version"], capture_output=True, text=True,
                          env={"PATH": "/nonexistent", "PYTHONPATH": str(REPO)}, timeout=60)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == f"steward {bot.installed_version()}", done.stderr
