"""``steward render ...`` (BOT-IMG-1): writes PNGs, reports them, exits 2 with one line on bad input."""

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.renderer.checks import open_png

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "render"


@pytest.mark.parametrize("kind", ["tables", "bracket", "rr-board", "risiko-map"])
def test_bot_img_1_every_example_input_renders_from_the_command_line(kind, tmp_path, capsys):
    out = tmp_path / f"{kind}.png"
    assert main(["render", kind, str(EXAMPLES / f"{kind}.json"), "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # one page is OUT.png, several are OUT-1.png, OUT-2.png, … (the phone rule of renderer.pages, as in the bot)
    pages = report["files"]
    names = [str(out)] if len(pages) == 1 else [str(tmp_path / f"{kind}-{i}.png") for i in range(1, len(pages) + 1)]
    assert [f["path"] for f in pages] == names
    for f in pages:
        assert open_png(Path(f["path"]).read_bytes()).size == (f["width"], f["height"])


def test_bot_img_1_standings_pages_are_numbered_files(tmp_path, capsys):
    out = tmp_path / "standings.png"
    code = main(["render", "standings", str(EXAMPLES / "standings.json"), "-o", str(out), "--rows-per-page", "15",
                 "--locale", "en", "--text"])  # fmt: skip
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["standings-1.png", "standings-2.png", "standings-3.png"]
    assert capsys.readouterr().out.count("wrote ") == 3


def test_bot_img_1_rr_board_accepts_the_engine_shape_and_replays_the_moves(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert main(["render", "rr-board", str(EXAMPLES / "rr-board-moves.json"), "-o", str(out), "--json"]) == 0
    native = tmp_path / "native.png"
    assert main(["render", "rr-board", str(EXAMPLES / "rr-board.json"), "-o", str(native), "--json"]) == 0
    capsys.readouterr()
    # the same position and solution: the engine's replay draws what the fixture's replay draws, title aside
    a, b = open_png(out.read_bytes()), open_png(native.read_bytes())
    assert a.size == b.size
    assert a.crop((0, 70, a.width, a.height)).tobytes() == b.crop((0, 70, b.width, b.height)).tobytes()


@pytest.mark.parametrize(
    ("kind", "payload", "needle"),
    [
        ("tables", {"tournament": "T"}, "missing field 'round'"),
        ("standings", {"tournament": "T", "round": 1, "date": "2026-11-01", "rows": [], "typo": 1}, "'typo'"),
        ("risiko-map", {"players": [], "territories": {"Atlantide": {"armies": 3}}}, "'Atlantide'"),
        ("rr-board", {"board": {"quadrants": ["1A", "2A", "3A", "4A"]}, "robots": {"red": [0, 0]},
                      "moves": [["red", "Q"]]}, "Q"),
        ("rr-board", {"board": {}, "robots": {}, "tagret": [1, 2]}, "unknown field 'tagret'"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_line_naming_the_bad_value(kind, payload, needle, tmp_path, capsys):
    src = tmp_path / "in.json"
    src.write_text(json.dumps(payload), encoding="utf-8")
    assert main(["render", kind, str(src), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and needle in err
    assert not (tmp_path / "x.png").exists()


def test_bot_img_1_rr_board_accepts_every_target_form_rr_solve_accepts(tmp_path, capsys):
    """`steward render rr-board` parses the target with `rr solve`'s parser: [colour, symbol] and the four-item
    form draw the same board (the first used to crash)."""
    base = {
        "board": {"quadrants": ["1A", "2A", "3A", "4A"]},
        "robots": {"red": [15, 5], "green": [10, 7], "blue": [5, 15], "yellow": [10, 3]},
    }
    from bot.rules.ricochet.board import Board

    found = Board.from_quadrants(["1A", "2A", "3A", "4A"]).target("green", "circle")
    images = []
    for target in (["green", "circle"], [found.row, found.col, "green", "circle"]):
        path, out = tmp_path / "in.json", tmp_path / f"out-{len(target)}.png"
        path.write_text(json.dumps({**base, "target": target}), encoding="utf-8")
        assert main(["render", "rr-board", str(path), "-o", str(out), "--json"]) == 0
        images.append(out.read_bytes())
    capsys.readouterr()
    assert images[0] == images[1]
