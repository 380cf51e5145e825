"""Tournament Steward: the Discord bot, its rules engine and the `steward` command line."""

from __future__ import annotations

__version__ = "0.1.0"  # keep equal to pyproject.toml [project] version (tests/test_cli.py checks)

HOME = "README.md"  # the project's home as /about shows it while pyproject.toml declares no [project.urls]


def installed_version() -> str:
    """The installed distribution's version; the package's own ``__version__`` when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tournament-steward")
    except PackageNotFoundError:
        return __version__


def git_describe(timeout: float = 2.0) -> str | None:
    """``git describe --tags --always --dirty`` of the checkout the package runs from (``v0.1.0-12-gabc1234``),
    or None: not a git checkout, git missing, slow or failing. Never raises."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "describe", "--tags", "--always", "--dirty"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    described = done.stdout.strip()
    return described if done.returncode == 0 and described else None


def version_text() -> str:
    """The version as ``steward --version`` and /about say it: ``0.1.0``, plus ``(git v0.1.0-3-gabc1234)`` when
    run from a git checkout."""
    described = git_describe()
    return f"{installed_version()} (git {described})" if described else installed_version()


def project_home() -> str:
    """The project's home page from the installed metadata (``[project.urls]``), else :data:`HOME`."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("tournament-steward")
    except PackageNotFoundError:
        return HOME
    for entry in meta.get_all("Project-URL") or []:
        _label, _, url = str(entry).partition(",")
        if url.strip():
            return url.strip()
    return str(meta["Home-page"] or HOME) if "Home-page" in meta else HOME
