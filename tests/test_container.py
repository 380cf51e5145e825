"""Issue 43 acceptance, the container tier (opt-in: ``python -m pytest -m container``; minutes, not seconds).

No image registry is reachable here, so the test first builds its own base image from Debian packages (debootstrap
of bookworm with python3, the C compiler and PostgreSQL 15, imported with ``podman import``; cached), then:

1. builds the Dockerfile on that base (``--build-arg BASE=…``): the wheel with both compiled engines, the slim stage;
2. starts a pod: PostgreSQL (the same base, Debian's server) and the bot's image running ``steward web`` (no Discord
   here; the venue pages serve ``/healthz`` and ``/readyz`` from the same process code), with a volume on ``/data``;
3. writes a whole demo tournament into PostgreSQL through the image's own services, waits for ``/readyz`` (from
   inside the pod: no port is published), and the image's HEALTHCHECK passes;
4. runs ``steward db backup`` inside the running container (``pg_dump`` to the volume);
5. stops it, rebuilds the image (a new build argument: the layers are built again), starts the new image on the same
   volume and database, waits for ``/readyz`` and finds every row of every table, and the backup, still there.

Nothing is installed at test time: without podman (or a runtime it can use) or debootstrap the test is skipped,
saying why. Where crun cannot run (cgroups v1/v2 hybrid, as in some sandboxes) and runc is installed, runc is used.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.container

REPO = Path(__file__).resolve().parents[1]
BASE_IMAGE = "localhost/steward-test-base:bookworm"
CACHE = Path(os.environ.get("STEWARD_CONTAINER_CACHE", Path.home() / ".cache" / "tournament-steward-container"))
DEBIAN_MIRROR = os.environ.get("STEWARD_DEBIAN_MIRROR", "http://deb.debian.org/debian")
BASE_PACKAGES = "python3,python3-venv,python3-dev,gcc,libc6-dev,ca-certificates,postgresql-15"
PG_BIN = "/usr/lib/postgresql/15/bin"
DB_URL = "postgresql://steward@127.0.0.1:5432/steward"

# PostgreSQL in the pod: a cluster on the volume at first start, the steward role (trust on the pod's loopback)
PG_START = f"""set -e
mkdir -p /run/postgresql /pgdata && chown postgres /run/postgresql /pgdata
if [ ! -s /pgdata/PG_VERSION ]; then
  runuser -u postgres -- {PG_BIN}/initdb -D /pgdata -U steward --auth=trust >/dev/null
fi
exec runuser -u postgres -- {PG_BIN}/postgres -D /pgdata -c listen_addresses=127.0.0.1 -c port=5432
"""

# Rows of every table, each table's rows sorted: the same text before and after the upgrade means every row stayed
SNAPSHOT = """set -e
for t in $(psql -h 127.0.0.1 -U steward -d steward -At -c "select tablename from pg_tables
           where schemaname = 'public' order by 1"); do
  echo "== $t"
  psql -h 127.0.0.1 -U steward -d steward -At -c "copy (select * from \\"$t\\") to stdout" | LC_ALL=C sort
done
"""

# A whole demo tournament (38 players, qualifying rounds, semifinals, final) written through the image's services
SEED = """import asyncio, sys, tempfile
from pathlib import Path
from bot import demo
from bot.settings import Settings
asyncio.run(demo._run(Settings().database_url, sys.stdout, "en", 38, Path(tempfile.mkdtemp())))
"""

READY = """import urllib.request
for path in ("/healthz", "/readyz"):
    with urllib.request.urlopen("http://127.0.0.1:8080" + path, timeout=5) as answer:
        assert answer.status == 200, (path, answer.status)
        body = answer.read().decode()
print(body)
"""


ENV: dict[str, str] = dict(os.environ)  # CONTAINERS_CONF set by the fixture where the defaults cannot run


def _run(argv: list[str], *, timeout: float = 600, check: bool = True, stdin: str | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, input=stdin, env=ENV)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(argv)[:300]} exited {done.returncode}:\n{done.stdout[-3000:]}\n"
                             f"{done.stderr[-3000:]}")  # fmt: skip
    return done.stdout


def _sandbox_conf(folder: Path) -> Path:
    """A containers.conf for machines where podman's defaults cannot start a container: limits at or below this
    process's own (an unprivileged sandbox refuses raising them: ``setrlimit RLIMIT_NOFILE: Operation not
    permitted``) and runc (crun refuses cgroups v1/v2 hybrid mode). It applies to the pod's infra container too."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    nofile = min(x for x in (soft, hard, 65536) if x != resource.RLIM_INFINITY)
    conf = folder / "containers.conf"
    runtime = '\n[engine]\nruntime = "runc"\n' if shutil.which("runc") else ""
    conf.write_text(f'[containers]\ndefault_ulimits = ["nofile={nofile}:{nofile}", "nproc=4096:4096"]\n{runtime}')
    return conf


@pytest.fixture(scope="module")
def podman(tmp_path_factory: pytest.TempPathFactory) -> str:
    """``podman``, able to start a container here (CONTAINERS_CONF set where its defaults cannot); a skip naming
    the failure where it cannot at all."""
    found = shutil.which("podman")
    if found is None:
        pytest.skip("podman is not installed (Debian: apt-get install podman buildah debootstrap)")
    if not _image_exists(found, BASE_IMAGE):
        _build_base(found)
    failures = []
    for conf in (None, _sandbox_conf(tmp_path_factory.mktemp("podman"))):
        if conf is not None:
            ENV["CONTAINERS_CONF"] = str(conf)
        done = subprocess.run([found, "run", "--rm", BASE_IMAGE, "true"], capture_output=True, text=True,
                              timeout=120, env=ENV)  # fmt: skip
        if done.returncode == 0:
            return found
        failures.append(f"{'defaults' if conf is None else conf.read_text()!r}: {done.stderr.strip()[-300:]}")
    pytest.skip("podman cannot start a container here: " + " | ".join(failures))


def _image_exists(podman: str, image: str) -> bool:
    return subprocess.run([podman, "image", "exists", image], capture_output=True, env=ENV).returncode == 0


def _build_base(podman: str) -> None:
    """debootstrap bookworm with python3, gcc and PostgreSQL into the cache, then ``podman import`` it."""
    rootfs = CACHE / "rootfs"
    if not (rootfs / "usr" / "bin" / "python3").exists():
        debootstrap = shutil.which("debootstrap")
        if debootstrap is None or os.geteuid() != 0:
            pytest.skip(f"no base image {BASE_IMAGE} and no way to build one (debootstrap as root)")
        shutil.rmtree(rootfs, ignore_errors=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        _run([debootstrap, "--variant=minbase", f"--include={BASE_PACKAGES}", "bookworm", str(rootfs), DEBIAN_MIRROR],
             timeout=1800)  # fmt: skip
        for deb in (rootfs / "var" / "cache" / "apt" / "archives").glob("*.deb"):
            deb.unlink()
    # pip in the build reaches PyPI as this machine does: with this machine's certificate authorities
    host_bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if host_bundle.exists():
        shutil.copy(host_bundle, rootfs / "etc" / "ssl" / "certs" / "ca-certificates.crt")
    (rootfs / "etc" / "pip.conf").write_text("[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n")
    tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
    try:
        subprocess.run([podman, "import", "--change", 'CMD ["python3"]', "-", BASE_IMAGE], stdin=tar.stdout,
                       check=True, capture_output=True, timeout=900, env=ENV)  # fmt: skip
    finally:
        assert tar.stdout is not None
        tar.stdout.close()
        tar.wait()


def _build(podman: str, tag: str, version: str) -> None:
    _run([podman, "build", "--format", "docker", "--network", "host",
          "--build-arg", f"BASE={BASE_IMAGE}", "--build-arg", f"VERSION={version}", "-t", tag, str(REPO)],
         timeout=1800)  # fmt: skip


def _wait(podman: str, container: str, argv: list[str], seconds: float) -> str:
    deadline = time.monotonic() + seconds
    last = ""
    while time.monotonic() < deadline:
        done = subprocess.run([podman, "exec", container, *argv], capture_output=True, text=True,
                              timeout=60, env=ENV)  # fmt: skip
        if done.returncode == 0:
            return done.stdout
        last = done.stderr[-1000:]
        time.sleep(1)
    logs = subprocess.run([podman, "logs", container], capture_output=True, text=True, env=ENV).stdout[-3000:]
    raise AssertionError(f"{container} not ready in {seconds:.0f} s: {last}\n{logs}")


@contextlib.contextmanager
def _pod(podman: str, name: str) -> Iterator[None]:
    volumes = [f"{name}-data", f"{name}-pg"]
    try:
        _run([podman, "pod", "create", "--name", name])
        for volume in volumes:
            _run([podman, "volume", "create", volume])
        yield
    finally:
        subprocess.run([podman, "pod", "rm", "--force", "--time", "5", name], capture_output=True, env=ENV)
        for volume in volumes:
            subprocess.run([podman, "volume", "rm", "--force", volume], capture_output=True, env=ENV)


def _start_bot(podman: str, pod: str, name: str, image: str) -> None:
    _run([podman, "run", "--detach", "--pod", pod, "--name", name,
          "--volume", f"{pod}-data:/data", "--env", f"DATABASE_URL={DB_URL}", image,
          "web", "--host", "0.0.0.0", "--port", "8080"])  # fmt: skip


def test_the_image_runs_with_postgresql_backs_up_and_keeps_every_row_across_an_upgrade(podman: str):
    name = f"steward-test-{uuid.uuid4().hex[:8]}"
    first, second = f"localhost/{name}:1", f"localhost/{name}:2"
    python = "/opt/steward/venv/bin/python"
    _build(podman, first, f"0.0.0+{name.replace('-', '.')}.1")  # a build argument of this run: no cached layer
    try:
        with _pod(podman, name):
            _run([podman, "run", "--detach", "--pod", name, "--name", f"{name}-pg",
                  "--volume", f"{name}-pg:/pgdata", BASE_IMAGE, "bash", "-c", PG_START])  # fmt: skip
            _wait(podman, f"{name}-pg", [f"{PG_BIN}/pg_isready", "-h", "127.0.0.1", "-U", "steward"], 120)
            _run([podman, "exec", f"{name}-pg", f"{PG_BIN}/createdb", "-h", "127.0.0.1", "-U", "steward",
                  "steward"])  # fmt: skip

            # the image's own command line and services: migrations, then a whole tournament
            seed = [podman, "run", "--rm", "--pod", name, "--volume",
                    f"{name}-data:/data", "--env", f"DATABASE_URL={DB_URL}"]  # fmt: skip
            assert "steward" in _run([*seed, first, "--version"])
            _run([*seed, first, "db", "upgrade"])
            _run([*seed, "--entrypoint", python, first, "-c", SEED], timeout=900)

            _start_bot(podman, name, f"{name}-bot1", first)
            ready = _wait(podman, f"{name}-bot1", [python, "-c", READY], 120)
            assert '"ready"' in ready
            _run([podman, "healthcheck", "run", f"{name}-bot1"])  # the image's HEALTHCHECK, as Docker runs it
            user = _run([podman, "exec", f"{name}-bot1", "id", "-un"]).strip()
            assert user == "steward", "the bot runs as its own user, not root"

            _run([podman, "exec", f"{name}-bot1", "steward", "db", "backup", "/data/backups/before-upgrade.pgdump"])
            before = _run([podman, "exec", "-i", f"{name}-pg", "bash"], stdin=SNAPSHOT)
            assert before.count("\n") > 200, "the demo tournament wrote its rows"
            _run([podman, "stop", "--time", "20", f"{name}-bot1"])

            _build(podman, second, f"0.0.0+{name.replace('-', '.')}.2")  # the "new version": built again
            assert _run([podman, "image", "inspect", "--format", "{{.Id}}", first]) != _run(
                [podman, "image", "inspect", "--format", "{{.Id}}", second]
            )
            _start_bot(podman, name, f"{name}-bot2", second)
            _wait(podman, f"{name}-bot2", [python, "-c", READY], 120)
            after = _run([podman, "exec", "-i", f"{name}-pg", "bash"], stdin=SNAPSHOT)
            assert after == before, "a row changed or went missing across the upgrade"
            listing = _run([podman, "exec", f"{name}-bot2", "ls", "-l", "/data/backups"])
            assert "before-upgrade.pgdump" in listing, "the backup stayed on the volume"
    finally:
        for image in (first, second):
            subprocess.run([podman, "rmi", "--force", image], capture_output=True, env=ENV)
