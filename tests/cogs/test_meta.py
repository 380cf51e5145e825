"""Meta-tests over every cog: names unique, every command/option localised it+en within Discord's limits
(DISCORD-TESTING.md), catalogues complete (BOT-I18N-1)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.app import StewardBot, discover_cogs
from bot.cogs._translator import StewardTranslator
from bot.i18n import catalogue

NAME_RE = re.compile(r"^[-_'\w]{1,32}$")  # Discord: ^[-_'\p{L}\p{N}]{1,32}$, lowercase


def check_name(name: str, where: str) -> None:
    assert NAME_RE.match(name) and name == name.lower() and "\u00a0" not in name, f"bad name {name!r} at {where}"


def check_description(text: str, where: str) -> None:
    assert 1 <= len(text) <= 100, f"description of {where} has {len(text)} characters"


def check_localised(item: dict[str, Any], where: str, *, description: bool = True) -> None:
    check_name(item["name"], where)
    it_name = item.get("name_localizations", {}).get("it")
    assert it_name, f"{where} has no Italian name"
    check_name(it_name, f"{where} (it)")
    if description:
        check_description(item["description"], where)
        it_desc = item.get("description_localizations", {}).get("it")
        assert it_desc, f"{where} has no Italian description"
        check_description(it_desc, f"{where} (it)")


def walk(item: dict[str, Any], where: str) -> None:
    check_localised(item, where)
    options = item.get("options", [])
    assert len(options) <= 25, f"{where} has {len(options)} options"
    names = [o["name"] for o in options]
    assert len(names) == len(set(names)), f"duplicate option names in {where}"
    it_names = [o.get("name_localizations", {}).get("it") for o in options]
    assert len(it_names) == len(set(it_names)), f"duplicate Italian option names in {where}"
    for option in options:
        sub = f"{where} {option['name']}"
        if option["type"] in (1, 2):
            walk(option, sub)
            continue
        check_localised(option, sub)
        choices = option.get("choices", [])
        assert len(choices) <= 25
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100
            assert choice.get("name_localizations", {}).get("it"), f"choice {choice['value']} of {sub} not localised"


async def payloads(bot: StewardBot) -> list[dict[str, Any]]:
    translator = StewardTranslator()
    return [await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()]


async def test_every_cog_loads_and_command_names_are_unique_in_both_languages(bot: StewardBot):
    assert set(bot.extensions) == set(discover_cogs())
    items = await payloads(bot)
    names = [p["name"] for p in items]
    it_names = [p["name_localizations"]["it"] for p in items]
    assert len(names) == len(set(names)), names
    assert len(it_names) == len(set(it_names)), it_names
    assert len(items) <= 100


def discord_size(item: dict[str, Any]) -> int:
    """The characters Discord counts against a command's 8000: every name, description and choice value of the
    command, its subcommands, options and choices, each field at its longest localisation (the default included)."""
    total = 0
    for field in ("name", "description"):
        if field in item:
            total += max(len(str(v)) for v in [item[field], *item.get(f"{field}_localizations", {}).values()])
    if "value" in item:
        total += len(str(item["value"]))
    return total + sum(discord_size(child) for child in [*item.get("options", []), *item.get("choices", [])])


async def test_bot_i18n_1_every_command_and_option_is_localised_within_discord_limits(bot: StewardBot):
    for item in await payloads(bot):
        walk(item, "/" + item["name"])
        total = discord_size(item)
        assert total <= 8000, f"/{item['name']} is {total} characters"


def test_bot_i18n_1_the_italian_and_english_catalogues_have_the_same_keys():
    assert set(catalogue("it")) == set(catalogue("en"))


# Message keys are the literal first argument of tr(interaction, …), t(…) or a UserFacingError subclass.
KEY_RE = re.compile(
    r"""(?:\btr\(\s*\w+,\s*|\bt\(\s*|(?:Error|Denied|Input|NotFound|Conflict)\(\s*)["']([a-z_]+\.[\w.-]+)["']"""
)
SOURCES = [*sorted(str(p) for d in ("bot/cogs", "bot/services") for p in Path(d).rglob("*.py")), "bot/app.py"]


def test_the_key_scanner_finds_keys():
    assert "error.tournament_not_found" in KEY_RE.findall(Path("bot/services/_base.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize("source", SOURCES)
def test_bot_i18n_1_every_message_key_used_in_code_exists_in_both_catalogues(source: str):
    text = Path(source).read_text(encoding="utf-8")
    for key in KEY_RE.findall(text):
        if key.endswith(".") or "{" in key:
            continue
        for locale in ("it", "en"):
            assert key in catalogue(locale), f"{source}: key {key!r} missing in {locale}"


def test_app_commands_use_the_tree_error_handler_class():
    from bot.app import ErrorTree

    assert issubclass(ErrorTree, app_commands.CommandTree)


# Keys built at run time (``t(f"sanction.kind.{kind}")``) escape the scanner above: each family is listed from where
# its codes come from, so a code a preset or the engine can produce always has words in both languages.
def _dynamic_keys() -> set[str]:
    from bot.rules.presets import PRESET_NAMES
    from bot.rules.ruleset import load_ruleset
    from bot.rules.sanctions import CONSEQUENCE_OF, LATENESS_KIND, infractions, sanction_kinds
    from bot.services.access import StaffRole

    keys = {f"role.{r.value}" for r in StaffRole}
    keys |= {f"sanction.kind.{k}" for k in (*CONSEQUENCE_OF, *LATENESS_KIND.values())}
    for name in PRESET_NAMES:
        ruleset = load_ruleset(name)
        keys |= {f"sanction.kind.{k}" for k in sanction_kinds(ruleset)}
        keys |= {f"sanction.infraction.{i.code}" for i in infractions(ruleset)}
    fields = set()
    for path in Path("bot").rglob("*.py"):
        fields |= set(re.findall(r"""\bfield=["']([a-z_]+)["']""", path.read_text(encoding="utf-8")))
    keys |= {f"field.{f}" for f in fields}
    return keys


def test_bot_i18n_1_every_key_built_at_run_time_exists_in_both_catalogues():
    keys = _dynamic_keys()
    assert "sanction.kind.replaced_by_organizers" in keys and "field.situation" in keys
    for locale in ("it", "en"):
        missing = sorted(k for k in keys if k not in catalogue(locale))
        assert missing == [], f"missing in {locale}: {missing}"
