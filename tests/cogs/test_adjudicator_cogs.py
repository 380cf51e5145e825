"""/risiko battle|odds|limit|cards through the real command tree (BOT-RUL-1, RK-DICE-1, RK-LIM-1, RK-TRIS-1,
FIRK-CARD-1, FIRK-LIM-1): the engine's numbers in the reader's language with the article they apply, the preset of
the server's tournament, and during a live round only referees and organizers may ask."""

from __future__ import annotations

import re

from bot.app import StewardBot
from bot.services import Services
from tests.support.cog_rounds import prepare
from tests.support.helpers import Harness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)


def _footer(sent) -> str:  # type: ignore[no-untyped-def]
    return str((sent.data["embeds"][0].get("footer") or {}).get("text", ""))


async def test_rk_dice_1_battle_losses_and_the_article_in_the_boxed_rules(harness: Harness):
    *_, it = await harness.invoke("risiko battle", locale="it", attacker="6 5 1", defender="5 5 2")
    assert it.ephemeral and "L'attacco perde **2**, la difesa perde **1**" in it.text
    assert "6–5, 5–5, 1–2" in it.text
    assert _footer(it).startswith("NP SECONDA FASE: COMBATTIMENTI") and "regolamento della scatola" in _footer(it)
    *_, en = await harness.invoke("risiko battle", locale="en-US", attacker="651", defender="3")
    assert "The attacker loses **0**, the defender loses **1**" in en.text
    *_, bad = await harness.invoke("risiko battle", locale="en-US", attacker="7 7", defender="1")
    assert bad.ephemeral and "are not dice for the attacker" in bad.text


async def test_rk_dice_1_odds_of_a_roll_and_of_a_battle_are_exact_percentages(harness: Harness):
    *_, roll = await harness.invoke("risiko odds", locale="en-US", attack_dice=3, defence_dice=3)
    assert "Attacker loses 0: 13.76%" in roll.text  # 6420/46656
    *_, battle = await harness.invoke("risiko odds", locale="it", attackers=10, defenders=7)
    assert "L'attacco conquista: **" in battle.text and "%" in battle.text
    *_, nothing = await harness.invoke("risiko odds", locale="en-US")
    assert "Give attackers and defenders" in nothing.text


async def test_a_battle_past_what_the_game_allows_is_refused_at_once(harness: Harness):
    """Defect 10: 500 armies a side took 8 s; the bot and `steward risiko odds` share the bound (300 a side)."""
    from bot.rules.risiko.dice import BATTLE_ARMIES_MAX

    *_, refused = await harness.invoke("risiko odds", locale="en-US", attackers=BATTLE_ARMIES_MAX + 1, defenders=7)
    assert refused.ephemeral and f"At most {BATTLE_ARMIES_MAX} armies a side" in refused.text


async def test_rk_lim_1_the_preset_of_the_server_s_tournament_decides_limit_and_cards(
    harness: Harness, services: Services
):
    await prepare(harness, services, 8, preset="risiko-firk-1")
    *_, spotted = await harness.invoke("risiko limit", locale="it", armies=160, found_by="self")
    assert "10 oltre il limite: togliere **20** armate; il limite ora è 140" in spotted.text
    assert _footer(spotted).startswith("FIRK R5")
    *_, firk = await harness.invoke("risiko cards", locale="en-US", in_hand=7, exchange=6)
    assert "12 + 10 = **22** armies" in firk.text and _footer(firk).startswith("FIRK R14")
    *_, uff = await harness.invoke("risiko limit", locale="en-US", armies=136, found_by="other",
                                   preset="risiko-ufficiali-2018")  # fmt: skip
    assert "remove **12** armies; the limit is now 124" in uff.text and _footer(uff).startswith("ARB 24")
    *_, tris = await harness.invoke("risiko cards", locale="it", cards="cavaliere cavaliere cavaliere",
                                    preset="risiko-nostra-passione-2018")  # fmt: skip
    assert "Tre cavalieri: **8** armate" in tris.text and _footer(tris).startswith("NP VALORE DEI TRIS")


async def test_bot_rul_1_during_a_live_round_only_referees_and_organizers_may_ask(
    harness: Harness, services: Services, http: HttpRecorder
):
    await prepare(harness, services, 8)
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")
    *_, player = await harness.invoke("risiko battle", locale="en-US", attacker="6", defender="5")
    assert player.ephemeral and "only referees and organizers" in player.text
    *_, referee = await harness.invoke("risiko battle", roles=REF, locale="en-US", attacker="6", defender="5")
    assert "the defender loses **1**" in referee.text


def test_the_cog_is_loaded(bot: StewardBot):
    assert bot.get_cog("RisikoCog") is not None


POSITION = {"board": "1A 2A 3A 4A", "robots": "R15,5 G10,7 B5,15 Y10,3", "target": "2,9 blue triangle"}
POSITION_IT = {"board": "1A 2A 3A 4A", "robots": "RF16 VH11 BP6 GD11", "target": "J3 blu triangolo"}  # the same
SOLUTION = "RE RN BN BW BN RE RS RW RN RW BS BE"  # the benchmark's 12-move optimum (docs/examples/rr/verify.json)


async def test_rr_demo_1_verify_judges_a_demonstration_and_draws_the_path(harness: Harness):
    *_, valid = await harness.invoke("rr verify", locale="it", moves=SOLUTION, declared=12, **POSITION_IT)
    assert valid.ephemeral and "✅ Valida: l'obiettivo è raggiunto in 12 mosse" in valid.text
    assert valid.files == ["board.png"] and valid.data["embeds"][0]["footer"]["text"].startswith("RR 4.10")
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(valid.blobs[0])) as image:
        assert image.mode in ("RGB", "RGBA") and image.width >= 600 and image.height >= 600
    *_, long = await harness.invoke("rr verify", locale="en-US", moves=SOLUTION, declared=11, **POSITION)
    assert "more than the 11 called" in long.text
    *_, short = await harness.invoke("rr verify", locale="en-US", moves="R↑ R→", **POSITION)
    assert "does not reach the target" in short.text
    *_, bad = await harness.invoke("rr verify", locale="en-US", moves="RN RX", **POSITION)
    assert bad.ephemeral and "“RX” is not a move" in bad.text and "directions: N E S W" in bad.text


async def test_rr_min_0_solve_finds_the_optimum_and_draws_it(harness: Harness):
    sent = await harness.invoke("rr solve", locale="en-US", **POSITION)
    final = sent[-1]
    shown = re.search(r"Optimal: \*\*12\*\* moves — ((?:[RGBYKS][NESW] ?){12})\n", final.text)
    assert shown is not None, final.text
    assert final.files == ["board.png"]
    # whichever optimal path the engine meets first, it is a valid demonstration of 12 moves
    *_, checked = await harness.invoke("rr verify", locale="en-US", moves=shown[1].strip(), declared=12, **POSITION)
    assert "✅ Valid: the target is reached in 12 moves" in checked.text, checked.text
    *_, bad = await harness.invoke("rr solve", locale="it", board="9Z 2A 3A 4A", robots=POSITION_IT["robots"],
                                   target=POSITION_IT["target"])  # fmt: skip
    assert bad.ephemeral and "Questa posizione non è valida" in bad.text


async def test_bot_i18n_1_rr_reads_the_letters_and_cells_the_italian_board_shows(harness: Harness):
    """A referee copies "GN" off the Italian board (G giallo): the yellow robot moves, not the green one;
    the reply says back each robot by its letter, colour and cell, so a misread letter shows at once."""
    # yellow at L11 is straight below the yellow circle at L7 (row 6, column 11): one move north reaches it
    board, target = "1A 2A 3A 4A", "L7 giallo cerchio"
    *_, it = await harness.invoke("rr verify", locale="it", board=board, robots="RA1 VH11 BA16 GL11", target=target,
                                  moves="GN")  # fmt: skip
    assert "Round nullo: raggiunto in 1 moss" in it.text, it.text  # reached, under the minimum of 5
    assert "Dati letti: R rosso A1, V verde H11, B blu A16, G giallo L11; obiettivo L7 cerchio giallo." in it.text
    # an English reader's G is the green robot: the same "GN" moves green, and the yellow one stays where it is
    *_, en = await harness.invoke("rr verify", locale="en-US", board=board, robots="RA1 GH11 BA16 YL11",
                                  target="L7 yellow circle", moves="GN")  # fmt: skip
    assert "does not reach the target" in en.text
    assert "Read: R red A1, G green H11, B blue A16, Y yellow L11; target L7 yellow circle." in en.text
    # the old English letters in an Italian reply: G and Y both name the yellow robot, and the refusal says so
    *_, twice = await harness.invoke("rr solve", locale="it", **POSITION)
    assert twice.ephemeral and "Il robot giallo compare due volte: «G10,7» e «Y10,3»" in twice.text
    assert "Robot: R rosso, V verde, B blu, G giallo, N nero, A argento." in twice.text
    *_, off = await harness.invoke("rr solve", locale="it", board=board, robots="RQ3 VH11", target=target)
    assert off.ephemeral and "«Q3» non è una casella" in off.text


FIRK_CSV = (
    "territorio;proprietario;armate\nCina;Anna;5\nIndia;Anna;2\nSiam;Anna;1\nMongolia;Bruno;3\nGiappone;Bruno;2\n"
)


async def test_firk_score_1_score_reads_an_attached_csv_and_draws_the_map(harness: Harness):
    from io import BytesIO

    from PIL import Image

    from tests.support.helpers import FakeFile

    *_, sent = await harness.invoke("score", locale="it", preset="risiko-firk-1",
                                    file=FakeFile("tavolo.csv", FIRK_CSV.encode()))  # fmt: skip
    assert "1. **Anna** — 26 punti tavolo" in sent.text and "2. **Bruno** — 14 punti tavolo" in sent.text
    # the map as a situation report posts it: a phone's page per pair of continents (BOT-IMG-1), in the message
    assert sent.files == ["map-1.png", "map-2.png", "map-3.png"]
    assert sent.data["embeds"][0]["footer"]["text"].startswith("FIRK R15")
    assert "image" not in sent.data["embeds"][0]  # the pages are attachments, none pulled into the embed
    for blob in sent.blobs:
        with Image.open(BytesIO(blob)) as image:
            assert image.width >= 600 and image.mode in ("RGB", "RGBA")
    *_, typed = await harness.invoke("score", locale="en-US", preset="risiko-firk-1",
                                     situation='{"players": [{"name": "Anna", "territories": {"Cina": 3}}, '
                                               '{"name": "Bruno", "territories": {"Urali": 2}}]}')  # fmt: skip
    assert "1. **Anna**" in typed.text
    *_, bad = await harness.invoke("score", locale="en-US", preset="risiko-firk-1",
                                   file=FakeFile("t.csv", b"Cina;Anna;5\nAtlantide;Bruno;2\n"))  # fmt: skip
    assert bad.ephemeral and "“Atlantide” is not a territory of the map" in bad.text
    *_, nothing = await harness.invoke("score", locale="en-US", preset="risiko-firk-1")
    assert "Attach the situation as a file or type it" in nothing.text
    huge = b"Cina;" + b"A" * 140_000 + b";5\n"  # one field over the csv module's 128 KiB: a line, not an error ref
    *_, refused = await harness.invoke("score", locale="en-US", preset="risiko-firk-1", file=FakeFile("t.csv", huge))
    assert refused.ephemeral and "row 1" in refused.text and "field larger than field limit" in refused.text


def test_bot_img_1_score_draws_each_player_s_score_under_their_name_as_a_report_does():
    """/score and a situation report draw the map through one function (``bot.present.report_map``): the same
    notes under each name (table points, strip), the same doubled strip."""
    from bot.present.report_map import map_notes, map_score, scored_map_data, situation_map_data
    from bot.rules.risiko.scoring import score_situation
    from bot.rules.ruleset import load_ruleset

    rules = load_ruleset("risiko-firk-1").risiko
    assert rules is not None
    doc = {"players": [{"name": "Anna", "territories": {"Cina": 5, "India": 2, "Siam": 1}},
                       {"name": "Bruno", "territories": {"Mongolia": 3, "Giappone": 2}}]}  # fmt: skip
    scored = score_situation(doc, rules)
    data = scored_map_data(scored, "it", "Punteggio")
    assert [(p.name, p.notes) for p in data.players] == [
        ("Anna", ("Punti tavolo: 26", "Striscia doppia (+13): Cina – India – Siam")),
        ("Bruno", ("Punti tavolo: 14", "Striscia doppia (+7): Giappone – Mongolia")),
    ]
    scores = [map_score(p) for p in scored.table.players]
    owners = [(p.name, p.territories) for p in scored.situation.players]
    assert data == situation_map_data(owners, scores, title="Punteggio", locale="it")
    assert data.players[0].notes == map_notes(scores[0], "it")


async def test_bot_res_1_a_report_situation_can_be_an_attached_territory_csv(
    harness: Harness, services: Services, http: HttpRecorder
):
    """The final situation of /report situation as a territory;owner;armies file, names = display names."""
    from tests.support.helpers import FakeFile

    await prepare(harness, services, 8, preset="risiko-firk-1")
    await harness.invoke("round draw", roles=ORG, tournament="Coppa")
    await harness.invoke("round publish", roles=ORG, tournament="Coppa")
    view = await services.rounds.show(services_reader(harness), tournament="Coppa")
    names = [s.name for s in view.tables[0].seats]
    rows = ["Cina", "India", "Siam", "Mongolia", "Giappone", "Kamchatka", "Urali", "Siberia"]
    csv = "\n".join(f"{t};{names[i % len(names)]};{2 + i}" for i, t in enumerate(rows))
    sent = await harness.invoke("report situation", roles=REF, locale="it", tournament="Coppa", table=1,
                                file=FakeFile("finale.csv", csv.encode()))  # fmt: skip
    report = sent[-2].text
    assert "Referto — Coppa, turno 1, tavolo 1" in report and "punti tavolo 20, punti torneo 32,1" in report
    # the table's final map under its report, a phone's page per pair of continents (BOT-IMG-1)
    assert sent[-1].files == ["map-1-1-1.png", "map-1-1-2.png", "map-1-1-3.png"]


def services_reader(harness: Harness):  # type: ignore[no-untyped-def]
    from bot.services.access import Actor

    return Actor(guild_id=harness.guild.id, user_id=1)
