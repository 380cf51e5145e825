"""Write constraints.txt: the exact versions, in the current virtual environment, of every package the project needs
(its dependencies and the ``dev`` extra, with theirs, recursively), the project itself left out.

    python -m scripts.constraints                  # rewrite constraints.txt from the active venv
    python -m scripts.constraints --extras dev,train --out -   # print, with the train extra too

Use it with ``pip install -c constraints.txt -e ".[dev]"``: pip installs the same versions that passed here.
Regenerate after upgrading a package in the venv (``pip install -U x``) or changing pyproject's dependencies."""

from __future__ import annotations

import argparse
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def closure(roots: list[Requirement]) -> dict[str, str]:
    """Installed name -> version for ``roots`` and what they require, each requirement's markers evaluated for this
    interpreter with the extras that asked for it. A requirement not installed here is an error."""
    found: dict[str, str] = {}
    todo = [(r, "") for r in roots]
    done: set[tuple[str, str]] = set()
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):  # over this interpreter's values
            continue
        key = canonicalize_name(req.name)
        for wanted in sorted(req.extras) or [""]:
            if (key, wanted) in done:
                continue
            done.add((key, wanted))
            try:
                dist = metadata.distribution(req.name)
            except metadata.PackageNotFoundError:
                raise SystemExit(f"{req.name} is required ({req}) but not installed in this environment") from None
            found[key] = dist.version
            for sub in dist.requires or []:
                todo.append((Requirement(sub), wanted))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", default="dev", help="comma-separated extras of pyproject to include (default: dev)")
    parser.add_argument("--out", default=str(ROOT / "constraints.txt"), help="file to write, '-' for stdout")
    args = parser.parse_args(argv)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    roots = [Requirement(r) for r in project["dependencies"]]
    for extra in filter(None, args.extras.split(",")):
        roots += [Requirement(r) for r in project["optional-dependencies"][extra]]
    pins = closure(roots)
    pins.pop(canonicalize_name(project["name"]), None)
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    lines = [
        f"# Exact versions the project was tested with (its dependencies and extras: {args.extras}), Python {py}.",
        '# Install: pip install -c constraints.txt -e ".[dev]"    Regenerate: python -m scripts.constraints',
        *(f"{name}=={version}" for name, version in sorted(pins.items())),
    ]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
