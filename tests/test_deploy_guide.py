"""Issue 43 acceptance: docs/deploy.md (and deploy.en.md) walks a volunteer from a fresh Debian machine to a running
bot — and the steps that can run here are run, as written, in a temporary folder.

The runnable steps are the ```sh blocks right after a ``<!-- run -->`` line. The slow test runs them in order in one
shell, with ``/opt/steward``, ``/etc/steward`` and ``/var/lib/steward`` moved under a temporary prefix (the checkout
copied to ``/opt/steward/src``, as the guide says) and ``runuser -u steward --`` dropped (the test is not root's
``steward`` user): a new venv, ``pip install`` of the checkout (the user's install, not ``-e .[dev]``),
``steward --version``, the settings file from ``.env.example``, ``steward db upgrade``. The package, user and
systemd steps change the machine and are not run; the unit itself is checked by tests/test_deploy_files.py.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.settings import Settings

REPO = Path(__file__).resolve().parents[1]
GUIDES = {"it": REPO / "docs" / "deploy.md", "en": REPO / "docs" / "deploy.en.md"}
MOVED = ("/opt/steward", "/etc/steward", "/var/lib/steward")
_RUN_BLOCK = re.compile(r"^<!-- run -->\n```sh\n(.*?)^```$", re.M | re.S)
_NOT_COPIED = shutil.ignore_patterns(
    ".git", ".venv", ".ci-venv", "__pycache__", "*.pyc", "*.so", "build", "dist", "*.egg-info", ".pytest_cache",
    ".mypy_cache", ".ruff_cache", ".hypothesis", ".grimp_cache", ".import_linter_cache", "demo-output",
    "render-output", "*.db", "*.db-*", ".env",
)  # fmt: skip


def run_blocks(guide: Path) -> list[str]:
    return _RUN_BLOCK.findall(guide.read_text(encoding="utf-8"))


def as_test_script(blocks: list[str], root: Path) -> str:
    """The guide's runnable blocks as one script under ``root``: the three folders moved, ``runuser`` dropped."""
    script = "\n".join(blocks).replace("runuser -u steward -- ", "")
    for folder in MOVED:
        script = script.replace(folder, f"{root}{folder}")
    return script


def test_both_languages_run_the_same_steps():
    """The Italian and English guides cannot drift apart: the same tested blocks, in the same order."""
    italian, english = run_blocks(GUIDES["it"]), run_blocks(GUIDES["en"])
    assert italian == english
    assert len(italian) >= 3


def test_the_runnable_steps_are_the_users_install_and_touch_only_the_moved_folders():
    script = "\n".join(run_blocks(GUIDES["en"]))
    assert "python3 -m venv /opt/steward/venv" in script
    assert "/opt/steward/venv/bin/pip install /opt/steward/src" in script
    assert not re.search(r"pip install .*(-e |--editable|\[dev\])", script), "the user's install, not the developers'"
    assert "/opt/steward/venv/bin/steward --version" in script
    assert "steward db upgrade" in script
    for path in re.findall(r"(?<![\w.:/])/[a-z][\w./-]*", script):
        assert path.startswith(MOVED), f"a tested step writes outside the folders the test moves: {path}"


@pytest.mark.parametrize("language", sorted(GUIDES))
def test_the_guide_covers_the_walk_and_its_links_resolve(language: str):
    text = GUIDES[language].read_text(encoding="utf-8")
    for needed in (
        "python3-venv",
        "build-essential",
        "useradd --system",
        "/etc/steward/steward.env",
        ".env.example",
        "deploy/steward.service",
        "systemctl enable --now steward",
        "journalctl -u steward -f",
        "RestartPreventExitStatus=2",
        "docker compose up -d",
        "podman",
        "steward db backup",
        "pip install --upgrade /opt/steward/src",
    ):
        assert needed in text, f"docs/deploy ({language}) does not mention {needed}"
    headings = {
        re.sub(r"[^\w\s-]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in (REPO / "README.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    for target, anchor in re.findall(r"\]\(([^)#\s]+)(?:#([\w-]+))?\)", text):
        path = (GUIDES[language].parent / target).resolve()
        assert path.exists(), f"docs/deploy ({language}) links to a missing {target}"
        if anchor and path.name == "README.md":
            assert anchor in headings, f"docs/deploy ({language}) links to a missing README heading #{anchor}"
    assert "the-venue-screen" in text, "the nginx example (README's venue screen) is linked"


@pytest.mark.slow
def test_the_guides_steps_run_as_written(tmp_path: Path):
    """A new venv, pip install of the checkout, steward --version, the settings from .env.example, db upgrade."""
    root = tmp_path / "machine"
    shutil.copytree(REPO, root / "opt" / "steward" / "src", ignore=_NOT_COPIED)
    (root / "var" / "lib" / "steward" / "backups").mkdir(parents=True)  # what useradd --create-home and install do
    script = as_test_script(run_blocks(GUIDES["en"]), root)
    env = {k: v for k, v in os.environ.items() if k.upper() not in {n.upper() for n in Settings.model_fields}}
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert done.returncode == 0, f"{script}\n--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
    assert re.search(r"^steward \S+$", done.stdout, re.M), done.stdout[-2000:]

    settings_file = (root / "etc" / "steward" / "steward.env").read_text(encoding="utf-8")
    database = root / "var" / "lib" / "steward" / "steward.db"
    assert f"DATABASE_URL=sqlite:///{database}" in settings_file.splitlines()
    assert "WEB_PORT=8080" in settings_file.splitlines()
    assert f"BACKUP_DIR={root}/var/lib/steward/backups" in settings_file.splitlines()

    # the database is at the installed version's newest revision: ask the installed steward, not this checkout
    steward = root / "opt" / "steward" / "venv" / "bin" / "steward"
    with sqlite3.connect(database) as connection:
        (revision,) = connection.execute("select version_num from alembic_version").fetchone()
    again = subprocess.run(
        [str(steward), "db", "upgrade"],
        cwd=root / "var" / "lib" / "steward",
        env=dict(env, DATABASE_URL=f"sqlite:///{database}"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    with sqlite3.connect(database) as connection:
        assert connection.execute("select version_num from alembic_version").fetchone() == (revision,)
    # the C accelerators were built by pip install (build-essential is step 1 of the guide)
    python = root / "opt" / "steward" / "venv" / "bin" / "python"
    engines = subprocess.run(
        [str(python), "-c", "import bot.rules.ricochet._fastsolve, bot.rules.tournament._drawsearch"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert engines.returncode == 0, engines.stderr
