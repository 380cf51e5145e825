"""Issue 44, "CLI and start-up": each start-up mistake an organizer makes is one line that names it.

A busy port and a folder that cannot be written are said as what they are (never "cannot reach the database"), and
the demo checks both before it plays; ``steward web`` on an empty database says so and serves; ``steward db restore``
is refused while ``steward web`` serves the database; an unknown ``LOG_LEVEL`` is refused naming the valid ones;
the documented backup command works on a new folder; the demo's file count is the number of files it wrote.
"""

from __future__ import annotations

import errno
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.cli import main, start_up_failure
from bot.settings import LOG_LEVELS, Settings, get_settings

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """DATABASE_URL on a new SQLite file in the test's folder (not created), the settings read afresh."""
    path = tmp_path / "club.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something else listens on (as another `steward web` would)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "reach the database" not in err and "Traceback" not in err, err
    return lines[0]


# -------------------------------------------------------------------------------------------- 1, 2: port and folder


def test_issue_44_a_busy_port_for_steward_web_is_named_not_called_a_database_error(
    database: Path, busy_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 item 1: `steward web --port P` on a taken port says the port is in use and how to choose another,
    exit 2, before touching the database (no file is created)."""
    assert main(["web", "--port", str(busy_port)]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line == (f"error: port {busy_port} is already in use (another steward web or demo?): choose another "
                    "with --port")  # fmt: skip
    assert not database.exists()


def test_issue_44_the_demo_checks_its_port_before_it_plays(
    tmp_path: Path, busy_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 items 1 and 2: `steward demo --web --port P` on a taken port fails before the demo plays: one line
    naming the port, exit 2, not a line of the demo printed and no image written."""
    out = tmp_path / "out"
    assert main(["demo", "--web", "--port", str(busy_port), "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert f"port {busy_port} is already in use" in _one_error_line(captured.err)
    assert captured.out == "" and list(out.iterdir()) == []


def _file_in_the_way(tmp_path: Path) -> tuple[Path, str]:
    (tmp_path / "afile").write_text("x")
    return tmp_path / "afile", "it is a file, not a folder"


def _under_a_file(tmp_path: Path) -> tuple[Path, str]:
    (tmp_path / "afile").write_text("x")
    return tmp_path / "afile" / "out", "a part of the path is a file, not a folder"


def _no_permission(tmp_path: Path) -> tuple[Path, str]:
    if os.geteuid() == 0:
        pytest.skip("root writes in a folder without write permission")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    return locked / "out", "permission denied"


@pytest.mark.parametrize("case", [_file_in_the_way, _under_a_file, _no_permission])
def test_issue_44_an_output_folder_that_cannot_be_written_is_named_before_the_demo_plays(
    tmp_path: Path, case: Callable[[Path], tuple[Path, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 item 1: `steward demo -o OUTPUT` where OUTPUT cannot be written says "cannot write to OUTPUT:
    <why>", exit 2, before anything of the demo is printed."""
    folder, why = case(tmp_path)
    assert main(["demo", "-o", str(folder)]) == 2
    captured = capsys.readouterr()
    assert _one_error_line(captured.err) == f"error: cannot write to {folder}: {why} (choose another --output)"
    assert captured.out == ""


def test_issue_44_a_read_only_file_system_is_a_folder_that_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 item 1, where the tests run as root (which writes through permissions): a read-only mount."""
    mount = tmp_path / "ro"
    mount.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(mount)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        assert main(["demo", "-o", str(mount / "out")]) == 2
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)
    line = _one_error_line(capsys.readouterr().err)
    assert line == f"error: cannot write to {mount / 'out'}: read-only file system (choose another --output)"


@pytest.mark.parametrize(
    ("exc", "says", "code"),
    [
        (PermissionError(errno.EACCES, "Permission denied", "out/standings-1.png"),
         "cannot write to out/standings-1.png: permission denied", 1),
        (OSError(errno.ENOSPC, "No space left on device", "out/a.png"),
         "cannot write to out/a.png: no space left on device", 1),
        (OSError(errno.EADDRINUSE, "Address already in use"), "cannot listen (address already in use)", 2),
    ],
)  # fmt: skip
def test_issue_44_a_file_or_port_error_past_the_checks_is_not_called_a_database_error(
    exc: OSError, says: str, code: int
) -> None:
    """Issue 44 item 1: the broad clause that said "cannot reach the database" for any OSError now keeps that for
    the database: a file's error names the file, a port's says to check the port."""
    message, exit_code = start_up_failure(exc) or ("", 0)
    assert message.startswith(says) and exit_code == code and "database" not in message


def test_issue_44_an_unreachable_database_is_still_called_so() -> None:
    """The database's own network errors keep their line (issue 11)."""
    found = start_up_failure(ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed"))
    assert found is not None and found[0].startswith("cannot reach the database at ") and found[1] == 1


# ------------------------------------------------------------------------ 3, 4: steward web empty, restore under it


def _read_line(proc: subprocess.Popen[str], timeout: float = 60) -> str:
    """The next line the process prints, or a failure naming what it said on standard error (never a hang)."""
    assert proc.stdout is not None
    ready = selectors.DefaultSelector()
    ready.register(proc.stdout, selectors.EVENT_READ)
    if not ready.select(timeout):
        proc.kill()
        raise AssertionError(f"no line from {proc.args!r}: {proc.communicate()[1][-2000:]}")
    return proc.stdout.readline().rstrip("\n")


def _steward(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_issue_44_steward_web_on_an_empty_database_says_so_serves_and_a_restore_under_it_is_refused(
    tmp_path: Path,
) -> None:
    """Issue 44 items 3 and 4: `steward web` on a database with no tournament prints one line saying so, with what
    it serves and how to get a tournament, and serves (/healthz answers); while it serves, `steward db restore` is
    refused with one line naming it (exit 2, the database untouched, nothing kept aside); once it stopped, the
    same restore works."""
    db = tmp_path / "club.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    for name in ("WEB_BASE_URL", "DISCORD_TOKEN", "LOG_LEVEL"):
        env.pop(name, None)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "web", "--port", str(port)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    backup = tmp_path / "backups" / "club-backup.db"  # a folder that does not exist yet: made (item 6)
    try:
        line = _read_line(proc)
        assert line.startswith(f"no tournament in sqlite+aiosqlite:///{db} yet: serving http://127.0.0.1:{port} "
                               "anyway"), line  # fmt: skip
        assert "/tournament create" in line and "steward demo --web" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as response:
            assert response.status == 200
        taken = _steward("db", "backup", str(backup), env=env)  # a backup is fine under a live process
        assert taken.returncode == 0 and backup.exists(), taken.stderr
        before = db.read_bytes()
        refused = _steward("db", "restore", str(backup), env=env)
        assert refused.returncode == 2 and refused.stdout == ""
        said = _one_error_line(refused.stderr)
        assert said.startswith(f"error: steward web is serving {db} (process {proc.pid}"), said
        assert "stop it first, then restore (nothing was changed)" in said
        assert db.read_bytes() == before and not list(tmp_path.glob("club.db.before-restore-*"))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
        proc.communicate()
    restored = _steward("db", "restore", str(backup), env=env)
    assert restored.returncode == 0 and restored.stdout.startswith("the database it replaced is kept as "), restored


# ----------------------------------------------------------------------------------------------- 5: LOG_LEVEL


@pytest.mark.parametrize("command", [["db", "upgrade"], ["run"], ["web"], ["doctor", "--offline"]])
def test_issue_44_an_unknown_log_level_is_refused_naming_the_valid_ones(
    database: Path, command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 item 5: LOG_LEVEL=verbose is not taken as INFO in silence: one line naming the setting, the value
    and the valid levels, exit 2 (a setting to fix), before anything else."""
    monkeypatch.setenv("LOG_LEVEL", "verbose")
    monkeypatch.setenv("DISCORD_TOKEN", "sekret")
    assert main(command) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line == ("error: configuration: LOG_LEVEL is not valid ('verbose' is not a log level: use DEBUG, INFO, "
                    "WARNING, ERROR or CRITICAL)")  # fmt: skip
    assert not database.exists()


@pytest.mark.parametrize("given", ["debug", " Warning ", "ERROR", "critical", "info", ""])
def test_issue_44_the_log_levels_are_taken_in_any_case(given: str) -> None:
    """Issue 44 item 5: the five levels in any case; an empty LOG_LEVEL= is the default, INFO."""
    settings = Settings(_env_file=None, log_level=given)  # type: ignore[call-arg]
    assert settings.log_level == (given.strip().upper() or "INFO") and settings.log_level in LOG_LEVELS


@pytest.mark.parametrize("given", ["verbose", "10", "WARN ING", "trace"])
def test_issue_44_other_log_levels_are_refused(given: str) -> None:
    with pytest.raises(ValidationError, match="is not a log level: use DEBUG, INFO, WARNING, ERROR or CRITICAL"):
        Settings(_env_file=None, log_level=given)  # type: ignore[call-arg]


# -------------------------------------------------------------------------------------- 6: the backup example


def _documented_backups() -> list[tuple[str, str]]:
    """Each `steward db backup PATH` of the README and docs/ with a relative PATH: what an organizer types in the
    bot's folder. (Absolute paths are the deploy guides' server folders: never written by a test.)"""
    found = []
    for path in DOCUMENTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            for target in re.findall(r"steward db backup ([\w.-][\w./-]*)", line):
                if target != "PATH" and not target.startswith("/") and ".." not in target:
                    found.append((path.relative_to(REPO).as_posix(), target))
    return found


def test_the_walk_finds_the_readme_backup_example() -> None:
    found = _documented_backups()
    assert ("README.md", "backups/steward-2026-11-26.db") in found
    assert all(not Path(target).is_absolute() for _, target in found)


@pytest.mark.parametrize(("document", "target"), _documented_backups())
def test_issue_44_each_documented_backup_command_works_in_a_new_folder(
    document: str, target: str, database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 item 6: the documented `steward db backup backups/…` needs a folder nobody made: the command makes
    it (and its parents), in a fresh working folder with only a database; the documented restore then works."""
    monkeypatch.chdir(database.parent)
    assert main(["db", "upgrade"]) == 0
    assert main(["db", "backup", target]) == 0, capsys.readouterr().err
    assert (database.parent / target).is_file()
    assert main(["db", "restore", target]) == 0, capsys.readouterr().err
    assert "restored " in capsys.readouterr().out


def test_issue_44_a_backup_folder_that_cannot_be_made_is_one_line(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(database.parent)
    assert main(["db", "upgrade"]) == 0
    (database.parent / "backups").write_text("a file where the folder should be")
    capsys.readouterr()
    assert main(["db", "backup", "backups/steward.db"]) == 2
    assert _one_error_line(capsys.readouterr().err) == ("error: cannot write to backups: it is a file, not a folder "
                                                        "(choose another PATH)")  # fmt: skip


# ------------------------------------------------------------------------------------------ 7: the demo's files


def test_issue_44_the_demo_prints_the_number_of_files_it_wrote_and_names_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44 item 7: the demo said "13 files" and wrote 16 (the season's were not counted). The last count it
    prints is the number of files in its folder, and it names each of them."""
    out = tmp_path / "new" / "demo-output"  # made by the command, parents too
    assert main(["demo", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    counted = re.findall(rf"files in {re.escape(str(out))} \((\d+)\):", text)
    assert len(counted) == 1, text[-3000:]
    written = sorted(p.name for p in out.iterdir())
    assert int(counted[0]) == len(written) >= 16
    listed = re.findall(r"^  (\S+) \(\d+ B\)$", text.split(f"files in {out}")[1], flags=re.MULTILINE)
    assert sorted(listed) == written
