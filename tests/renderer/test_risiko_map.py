"""RisiKo! map image (BOT-IMG-1, RK-MAP-1, FIRK-SCORE-1)."""

import pytest

from bot.present.images import image_words
from bot.rules.data import load_json
from renderer import _style as st
from renderer import render_risiko_map
from renderer.models import MapPlayer, MapTerritory, RenderInputError, RiskMapData
from renderer.risiko_map import LINK, OBJECTIVE, POSITIONS, canonical, layout_risiko_map
from tests.renderer.checks import close, dhash, hamming, open_png, overlapping, texts_outside
from tests.support.renderer_fixtures import sample_map

HEADER = 96
GOLDEN_DHASH = 0xD4A6B2B4B4D2D2D2


def at(name: str) -> tuple[int, int]:
    x, y = POSITIONS[name]
    return (x, y + HEADER)


def test_rk_map_1_every_territory_of_the_map_has_a_position_and_no_two_nodes_touch():
    names = {n for c in load_json("map.json")["continents"].values() for n in c["territories"]}
    assert set(POSITIONS) == names and len(names) == 42
    pts = list(POSITIONS.values())
    assert min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(pts) for b in pts[i + 1 :]) > 80


def test_bot_img_1_map_size_mode_and_perceptual_hash():
    image = open_png(render_risiko_map(sample_map(seed=5), words=image_words("it")))
    assert image.mode == "RGB" and image.size == (1600, 996)
    assert hamming(dhash(image), GOLDEN_DHASH) <= 10


def test_bot_img_1_each_territory_shows_its_owners_colour_and_army_count():
    data = sample_map(seed=5)
    cv = layout_risiko_map(data, words=image_words("it"))
    colour = {p.name: st.ARMY_RGB[p.colour] for p in data.players}
    armies = [t.text for t in cv.texts if t.group == "army"]
    assert sorted(armies) == sorted(str(t.armies) for t in data.territories)
    for t in data.territories:
        x, y = at(t.name)
        expected = colour[t.owner] if t.owner else st.NEUTRAL_RGB
        assert close(cv.image.getpixel((x - 15, y + 11)), expected, 14), t


def test_firk_score_1_the_doubled_strip_and_the_objective_are_highlighted():
    data = sample_map(seed=5)
    image = layout_risiko_map(data, words=image_words("it")).image
    assert len(data.doubled_strip) >= 2 and data.objective
    for name in data.doubled_strip:
        x, y = at(name)
        halo = image.getpixel((x - 36, y - 8))  # outside the node and any objective ring, inside the halo
        assert halo[2] > halo[0] + 60, (name, halo)  # the cyan halo
    for name in data.objective:
        x, y = at(name)
        assert close(image.getpixel((x - 30, y)), OBJECTIVE, 25), name
    plain = layout_risiko_map(RiskMapData(data.players, data.territories), words=image_words("it")).image
    x, y = at(data.objective[0])
    assert not close(plain.getpixel((x - 30, y)), OBJECTIVE, 25)


def test_rk_map_1_alaska_kamchatka_leaves_both_edges_as_two_half_links():
    image = layout_risiko_map(sample_map(), words=image_words("it")).image
    _, ay = at("Alaska")
    _, ky = at("Kamchatka")
    assert close(image.getpixel((10, ay)), LINK, 30)
    assert close(image.getpixel((image.width - 10, ky)), LINK, 30)


def test_bot_img_1_map_labels_fit_inside_and_never_overlap():
    cv = layout_risiko_map(sample_map(seed=5), words=image_words("en"))
    assert texts_outside(cv) == []
    labels = [t for t in cv.texts if t.group in ("name", "continent", "legend", "title")]
    assert overlapping(labels) == []
    assert {"Doubled strip", "Objective", "Neutral"} <= {t.text for t in cv.texts}


def test_rk_map_1_territory_names_accept_aliases_and_unknown_ones_are_refused():
    assert canonical("cita") == "Čita" and canonical("Afghanistan") == "Afganistan"
    data = RiskMapData((MapPlayer("A", "red"),), (MapTerritory("Atlantide", "A", 3),))
    with pytest.raises(RenderInputError, match="'Atlantide'") as err:
        render_risiko_map(data, words=image_words("it"))
    assert err.value.code == "unknown_territory"


def test_bot_img_1_the_fullest_legend_six_players_neutrals_and_both_keys_overlaps_no_label():
    m = load_json("map.json")
    names = [n for c in m["continents"].values() for n in c["territories"]]
    colours = ("red", "blue", "yellow", "green", "black", "purple")
    players = tuple(MapPlayer(f"Giocatore {c} Übermann-Sánchez", c) for c in colours)
    territories = tuple(MapTerritory(n, None if i < 2 else players[i % 6].name, 100 + i) for i, n in enumerate(names))
    data = RiskMapData(players, territories, "T", doubled_strip=("Cina", "India"), objective=("Cina",))
    cv = layout_risiko_map(data, words=image_words("it"))
    assert texts_outside(cv) == []
    assert overlapping([t for t in cv.texts if t.group in ("name", "continent", "legend", "title")]) == []
    assert len([t for t in cv.texts if t.group == "legend"]) == 2 * 7 + 2
    box = [t for t in cv.texts if t.group == "legend-box"]
    assert len(box) == 1
    assert overlapping(box + [t for t in cv.texts if t.group in ("name", "continent", "army")]) == []
