"""Issue 43: the deployment files hold to the code — .env.example names every setting, compose.yaml has its services,
the systemd unit passes ``systemd-analyze verify`` and does not restart on the start-up exit code for a wrong setting,
and the Dockerfile keeps what docs/deploy.md promises."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings

REPO = Path(__file__).resolve().parents[1]
ENV_EXAMPLE = REPO / ".env.example"
COMPOSE = REPO / "compose.yaml"
UNIT = REPO / "deploy" / "steward.service"
DOCKERFILE = REPO / "Dockerfile"

_SETTING_LINE = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=")
_INTERPOLATED = re.compile(r"\$\{([A-Z][A-Z0-9_]*)")


def _env_example_names() -> list[str]:
    """The variables .env.example sets or shows commented out (``KEY=value`` or ``# KEY=value`` lines)."""
    names = []
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        found = _SETTING_LINE.match(line)
        if found:
            names.append(found.group(1))
    return names


def _compose_only() -> set[str]:
    """Variables compose.yaml interpolates itself (``${POSTGRES_PASSWORD:-…}``): .env.example shows them too."""
    return set(_INTERPOLATED.findall(COMPOSE.read_text(encoding="utf-8")))


def test_env_example_names_every_setting_and_nothing_else():
    names = _env_example_names()
    fields = {name.upper() for name in Settings.model_fields}
    assert sorted(fields - set(names)) == [], "settings missing from .env.example"
    assert sorted(set(names) - fields - _compose_only()) == [], ".env.example names what Settings does not read"
    assert len(names) == len(set(names)), "a variable appears twice in .env.example"


def test_every_env_example_line_is_read_by_settings_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """.env.example with every commented default switched on, plus a token, is a valid configuration."""
    lines = []
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        found = _SETTING_LINE.match(line)
        if found and found.group(1) not in _compose_only():
            lines.append(line.lstrip("# "))
    (tmp_path / ".env").write_text("\n".join(lines) + "\nDISCORD_TOKEN=x\n", encoding="utf-8")
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.database_url.startswith("sqlite+aiosqlite:")


def _compose_services_by_text() -> dict[str, str]:
    """The top-level services of compose.yaml and their blocks, read without a YAML library."""
    text = COMPOSE.read_text(encoding="utf-8")
    block = re.search(r"^services:\n(.*?)(?=^\S)", text + "\nend:\n", re.S | re.M)
    assert block, "compose.yaml has no services:"
    parts = re.split(r"^  ([a-z][a-z0-9_-]*):\n", block.group(1), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_compose_has_the_bot_and_postgres_wired_together():
    services = _compose_services_by_text()
    assert set(services) == {"bot", "postgres"}
    bot, postgres = services["bot"], services["postgres"]
    assert re.search(r"^\s+build: \.$", bot, re.M)
    assert "env_file: .env" in bot
    assert re.search(r"postgres:\n\s+condition: service_healthy", bot)
    assert "restart: unless-stopped" in bot
    assert ":/data" in bot and "8080:8080" in bot
    assert "@postgres:5432/" in bot  # the bot reaches the service by its name
    assert "image: postgres:16" in postgres and "pg_isready" in postgres
    assert "/var/lib/postgresql/data" in postgres


def test_compose_parses_as_yaml_and_every_service_it_needs_is_defined():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed: the text checks above still ran")
    document = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = document["services"]
    assert set(services) == {"bot", "postgres"}
    for name, service in services.items():
        for needed in service.get("depends_on", {}):
            assert needed in services, f"{name} depends on an undefined service {needed}"
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if not source.startswith((".", "/")):
                assert source in document.get("volumes", {}), f"{name}: named volume {source} is not declared"
    assert services["bot"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["bot"]["restart"] == "unless-stopped"
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])


def test_dockerfile_defaults_match_the_guide():
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^ARG BASE=python:3\.11-slim$", text, re.M)
    assert len(re.findall(r"^FROM ", text, re.M)) >= 2, "multi-stage: a build stage and a runtime stage"
    for default in (
        "DATABASE_URL=sqlite:////data/steward.db",
        "WEB_HOST=0.0.0.0",
        "WEB_PORT=8080",
        "BACKUP_DIR=/data/backups",
    ):
        assert default in text
        name = default.split("=", 1)[0]
        assert name.lower() in Settings.model_fields, f"the image sets {name}, which Settings does not read"
    assert re.search(r"^USER steward$", text, re.M), "the bot runs as a user of its own, not root"
    assert re.search(r"^WORKDIR /data$", text, re.M) and 'VOLUME ["/data"]' in text
    assert re.search(r"^EXPOSE 8080$", text, re.M)
    assert re.search(r"^HEALTHCHECK .*\n?.*urllib.*/healthz", text, re.M)
    assert 'ENTRYPOINT ["steward"]' in text and 'CMD ["run"]' in text
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored and ".git" in ignored, "the token and the history stay out of the build context"


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, comment_prefixes=("#", ";"))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def test_the_unit_does_not_restart_on_the_exit_code_for_a_wrong_setting(tmp_path: Path):
    """RestartPreventExitStatus is the code `steward run` really exits with when a setting is wrong (here: no
    DISCORD_TOKEN), and Restart=on-failure retries the others (1: the database or Discord out of reach)."""
    service = _unit()["Service"]
    assert service["Restart"] == "on-failure"
    prevented = {int(code) for code in service["RestartPreventExitStatus"].split()}
    env = {k: v for k, v in os.environ.items() if k.upper() not in {n.upper() for n in Settings.model_fields}}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'steward.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert "DISCORD_TOKEN" in done.stderr
    assert prevented == {done.returncode} == {2}
    assert 1 not in prevented


def test_the_unit_has_the_documented_paths_and_hardening():
    unit = _unit()
    service = unit["Service"]
    assert service["Type"] == "simple"
    assert service["User"] == "steward"
    assert service["WorkingDirectory"] == "/var/lib/steward"
    assert service["EnvironmentFile"] == "/etc/steward/steward.env"
    assert service["ExecStart"] == "/opt/steward/venv/bin/steward run"
    assert int(service["RestartSec"]) > 0
    assert service["NoNewPrivileges"] == "true"
    assert service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == service["WorkingDirectory"]
    assert service["PrivateTmp"] == "true" and service["ProtectHome"] == "true"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_analyze_verify_passes_on_the_unit(tmp_path: Path):
    """`systemd-analyze verify` with ExecStart pointed at this venv's real `steward` (verify needs the binary):
    exit 0 and not one warning about the unit."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian: apt-get install systemd)")
    steward = Path(sys.executable).with_name("steward")
    if not steward.exists():
        pytest.skip(f"no steward script beside {sys.executable}: install the project into this venv")
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/steward/venv/bin/steward run" in text
    copy = tmp_path / "steward.service"
    copy.write_text(text.replace("/opt/steward/venv/bin/steward", str(steward)), encoding="utf-8")
    done = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=120, env=dict(os.environ, LANG="C")
    )
    about_unit = [line for line in (done.stdout + done.stderr).splitlines() if "steward.service" in line]
    assert done.returncode == 0, done.stdout + done.stderr
    assert about_unit == []
