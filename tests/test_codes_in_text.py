"""Issue 44, "internal ids and codes reach people": what the code puts into a message or a CLI line never shows a
preset's id or a rules engine's code; a past start is echoed on the server's clock; Ricochet Robots moves read in
words and the help shows the board's own cell names; Italian card names are taken wherever cards are typed; a list
of names reads as a sentence lists them ("Anna, Bruno e Carla")."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime

import pytest

from bot.cli import main
from bot.cogs.reports.embeds import report_embed
from bot.errors import InvalidInput
from bot.i18n import LOCALES, catalogue, engine_reason, join_names, preset_name, render_error, t
from bot.present import ricochet as present
from bot.rules.errors import RuleError, refusal_params
from bot.rules.presets import PRESET_NAMES
from bot.rules.ricochet import notation
from bot.rules.risiko.errors import RisikoError
from bot.rules.tournament.model import TournamentError
from bot.services import Services
from bot.services.access import Actor
from bot.services.report_views import ReportView, SeatLine
from tests.conftest import FakeClock
from tests.support.reports_fixtures import GUILD, ORGANIZER, build_tournament

PRESET = "risiko-ufficiali-2018"
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # bad_table_size, unknown_preset, …

# The codes the issue saw reaching people, with a value each raises.
ISSUE_CODES: list[tuple[type[RuleError], str, object]] = [
    (TournamentError, "bad_table_size", [4, 4, 0]),
    (RuleError, "unknown_preset", "risiko-2099"),
    (RisikoError, "card_symbol_invalid", "spada"),
    (RisikoError, "too_many_players_for_points_table", 7),
]


# --- 1. a preset by its name ---------------------------------------------------------------------------------------


def _report(preset: str) -> ReportView:
    seats = tuple(
        SeatLine(
            registration_id=i,
            user_id=i,
            name=name,
            club=None,
            table_points=pts,
            rank=i,
            tournament_points=pts,
            outcome="played",
            signed=i == 1,
        )
        for i, (name, pts) in enumerate((("Anna", 40.0), ("Bruno", 30.0), ("Carla", 20.0)), start=1)
    )
    return ReportView(table_id=1, tournament_name="Coppa", game="risiko", preset=preset, round_number=1,
                      table_number=2, seats=seats, kind="points", reported_by=1, countersigned_by=None,
                      locked=False)  # fmt: skip


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_issue_44_the_report_card_names_its_rulebook_never_the_preset_s_id(preset: str, locale: str):
    """Issue 44: every report card ended «regolamento risiko-ufficiali-2018»; it names the rulebook as the
    /tournament create menu does."""
    card = report_embed(_report(preset), locale)
    shown = json.dumps(card.to_dict(), ensure_ascii=False)
    assert not any(p in shown for p in PRESET_NAMES), shown
    assert t(f"choice.{preset}", locale) in card.footer.text
    assert preset_name(preset, locale) == t(f"choice.{preset}", locale)


def test_issue_44_an_error_naming_a_preset_names_the_rulebook_and_unknown_text_stays_as_typed():
    """Issue 44: a refusal whose parameter is a preset's id (a season of another rulebook, a ruleset without
    semifinals) shows the rulebook's name; a name typed that is no preset is quoted as typed."""
    for locale in LOCALES:
        text = render_error("error.season.other_preset", {"tournament": "Coppa", "preset": "risiko-firk-1",
                            "season": "2026", "season_preset": "risiko-ufficiali-2018"}, locale)  # fmt: skip
        assert "risiko-firk-1" not in text and "risiko-ufficiali-2018" not in text
        assert t("choice.risiko-firk-1", locale) in text and t("choice.risiko-ufficiali-2018", locale) in text
        text = render_error("error.round_no_semifinals", {"preset": "ricochet-v3.3"}, locale)
        assert "ricochet-v3.3" not in text and t("choice.ricochet-v3.3", locale) in text
        assert preset_name("risiko-2099", locale) == "risiko-2099"


# --- 2. engine codes as sentences ----------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("kind", "code", "value"), ISSUE_CODES)
def test_issue_44_each_engine_code_the_issue_saw_is_a_sentence_in_both_languages(kind, code, value, locale):
    """Issue 44: `bad_table_size`, `unknown_preset`, `card_symbol_invalid`, `too_many_players_for_points_table`
    each read as a sentence with its numbers, in Italian and English — through the draw's, the report's and the
    standings' refusals alike."""
    exc = kind(code, value)
    said = engine_reason(code, locale, **refusal_params(exc))
    assert said is not None and code not in said and not IDENTIFIER.search(said), said
    assert said != engine_reason(code, "en" if locale == "it" else "it", **refusal_params(exc))  # translated
    shown = str(value if not isinstance(value, list) else value[-1])
    assert shown in said, said
    for key in ("error.round_engine", "error.report.engine", "error.standings.engine"):
        text = render_error(key, refusal_params(exc), locale)
        assert said in text and code not in text and not IDENTIFIER.search(text), text


def test_issue_44_a_code_without_a_sentence_and_a_family_message_missing_never_show_a_code_or_a_key():
    """Issue 44: an engine code no catalogue words yet is still a sentence (quoting the value); a message key
    built from a code that no catalogue has (``error.clock.<code>``) shows the engine's reason, not the key."""
    for locale in LOCALES:
        text = render_error("error.round_engine", refusal_params(TournamentError("brand_new_code", "x")), locale)
        assert "brand_new_code" not in text and "x" in text
        text = render_error("error.clock.bad_table_size", {"value": "0"}, locale)
        assert "error.clock" not in text and "bad_table_size" not in text
        assert text == engine_reason("bad_table_size", locale, value="0")


def _cli(capsys, monkeypatch, args: list[str], payload: dict[str, object]) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    code = main([*args, "--json"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "payload", "says"),
    [
        (["risiko", "points"], {"preset": "risiko-ufficiali-2018", "table_points": [9, 8, 7, 6, 5, 4, 3]},
         "The rulebook's points table does not cover a table this large (players: 7)."),
        (["risiko", "cards"], {"cards": ["spada", "fante", "cavaliere"]}, "“spada” is not a card: write cannone"),
        (["risiko", "points"], {"preset": "risiko-2099", "table_points": [1, 2]},
         "No rulebook is called “risiko-2099”."),
    ],
)  # fmt: skip
def test_issue_44_the_cli_says_an_engine_refusal_in_words(capsys, monkeypatch, args, payload, says):
    """Issue 44: `steward` wrote `error: too_many_players_for_points_table: 7`; it writes the English sentence, in
    one line, exit 2, and no code."""
    code, err = _cli(capsys, monkeypatch, args, payload)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert says in err and not IDENTIFIER.search(err.replace("risiko-2099", "")), err


def test_issue_44_a_cli_refusal_without_a_sentence_writes_the_code_as_words():
    """Issue 44: a code the catalogues do not word yet reaches the terminal as words, never as an identifier."""
    from bot.tools._common import error_text

    text = error_text(RuleError("some_new_refusal", "x"))
    assert text == "some new refusal: 'x'"


# --- 3. no "Line 0" (tests/cogs/test_codes_in_text_cogs.py drives /roster import) ----------------------------------
# --- 4. a past start on the server's clock -------------------------------------------------------------------------


async def test_issue_44_a_past_round_start_is_echoed_on_the_server_s_clock(services: Services, clock: FakeClock):
    """Issue 44: /schedule round with a start already past echoed it in UTC ("2026-11-22 11:00 UTC" for 12:00 in
    Rome); it is echoed as typed, on the server's clock."""
    b = await build_tournament(services)
    clock.now = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
    with pytest.raises(InvalidInput) as caught:
        await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=datetime(2026, 11, 22, 12, 0))
    assert caught.value.key == "error.schedule.time_in_past"
    assert caught.value.params["value"] == "2026-11-22 12:00"
    for locale in LOCALES:
        text = render_error(caught.value.key, caught.value.params, locale)
        assert "12:00" in text and "UTC" not in text and "11:00" not in text


# --- 5. Ricochet Robots words, the board's cell names, Italian card names ------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "moves"),
    [
        ("R nord", "it", [("red", "N")]),
        ("R nord, V est", "it", [("red", "N"), ("green", "E")]),
        ("rosso nord verde ovest", "it", [("red", "N"), ("green", "W")]),
        ("G sud", "it", [("yellow", "S")]),
        ("R north, G east", "en", [("red", "N"), ("green", "E")]),
        ("red west blue south", "en", [("red", "W"), ("blue", "S")]),
        ("R: nord", "it", [("red", "N")]),
        ("RN VE", "it", [("red", "N"), ("green", "E")]),
    ],
)
def test_issue_44_a_move_is_a_robot_and_a_direction_in_words_too(text, lang, moves):
    """Issue 44: "R nord" was refused with the fragment "ord,"; a direction is a letter, an arrow or a word
    (nord/sud/est/ovest, north/south/east/west), the robot its letter or colour, in either language."""
    assert notation.parse_moves(text, lang) == moves


def test_issue_44_a_move_not_understood_is_quoted_whole():
    """Issue 44: the refusal quotes the whole piece typed ("R nordd"), never a fragment of it."""
    for typed, piece in (("R nordd, V est", "R nordd"), ("RN XYZ", "XYZ"), ("RNE", "RNE")):
        with pytest.raises(notation.NotationError) as caught:
            notation.parse_moves(typed, "it")
        assert caught.value.value == piece
        with pytest.raises(InvalidInput) as refused:
            present.read(notation.parse_moves, typed, "it")
        assert f"{piece}»" in render_error(refused.value.key, refused.value.params, "it") or f"{piece}”" in (
            render_error(refused.value.key, refused.value.params, "it")
        )


def test_issue_44_the_rr_help_shows_the_board_s_cell_names_only():
    """Issue 44: the help still advertised the 0-based "R15,5"; every /rr description and refusal shows the
    A–P / 1–16 names the board image draws (the old form is still read, not shown)."""
    zero_based = re.compile(r"\b\d{1,2}\s*,\s*\d{1,2}\b")
    for locale in LOCALES:
        for key, text in catalogue(locale).items():
            if key.startswith(("cmd.rr ", "error.adjudicator.rr_")):
                assert not zero_based.search(text), (locale, key, text)
    assert notation.parse_robots("R15,5", "it") == {"red": (15, 5)}  # still read


async def test_issue_44_italian_card_names_are_taken_by_the_service_too(services: Services):
    """Issue 44: "cannone" was refused where the service read engine values only; Italian and English names are
    taken wherever cards are typed (Discord, the CLI, the service)."""
    actor = Actor(guild_id=GUILD, user_id=5)
    for symbols in (
        ("cannone", "fante", "cavaliere"),
        ("Cannoni", "fanti", "cavalleria"),
        ("cannon", "infantry", "cavalry"),
    ):
        answer = await services.adjudicators.cards(actor, symbols=symbols, preset=PRESET)
        assert answer.values["set"] == "one_of_each"
    with pytest.raises(InvalidInput) as caught:
        await services.adjudicators.cards(
            actor, symbols=("spada", "fante", "cavaliere"), preset="risiko-ufficiali-2018"
        )
    assert "card_symbol_invalid" not in render_error(caught.value.key, caught.value.params, "it")


# --- 6. names joined with "e" / "and" ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "it", "en"),
    [
        ((), "", ""),
        (("Anna",), "Anna", "Anna"),
        (("Anna", "Bruno"), "Anna e Bruno", "Anna and Bruno"),
        (("Anna", "Bruno", "Carla"), "Anna, Bruno e Carla", "Anna, Bruno and Carla"),
    ],
)
def test_issue_44_names_are_joined_as_a_sentence_lists_them(names, it, en):
    """Issue 44: lists of names were joined with ", " only."""
    assert join_names(names, "it") == it and join_names(names, "en") == en
    assert join_names(iter(names), "it") == it  # any iterable


def test_issue_44_an_error_listing_names_joins_them_and_the_report_card_waits_for_names_in_a_sentence():
    """Issue 44: a refusal carrying names (the signatures missing) and the report card's pending line read
    "Anna e Bruno"."""
    text = render_error("error.report.signatures_missing", {"names": ("Bruno", "Carla")}, "it")
    assert "Bruno e Carla" in text
    card = report_embed(_report("risiko-ufficiali-2018"), "it")
    assert "Bruno e Carla" in card.fields[0].value


def test_issue_44_a_workbook_table_the_rules_refuse_is_worded_with_its_sheet_and_table():
    """Issue 44: a ModuloTorneo table the points table cannot score was refused as
    "…table 2: too_many_players_for_points_table (7)"; it names the sheet and table and says why in words."""
    params = {"sheet": "Turno 1", "table": 2, **refusal_params(RisikoError("too_many_players_for_points_table", 7))}
    for locale in LOCALES:
        text = render_error("error.import.workbook_table", params, locale)
        assert "Turno 1" in text and "2" in text and "7" in text and not IDENTIFIER.search(text), text
