"""/risiko battle|odds|limit|cards — the RisiKo! engine at the referee's fingertips: dice → losses, exact odds,
the army limit's consequence, a set's value; each answer cites the article it applies (BOT-RUL-1)."""

from __future__ import annotations

import io
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import EMBED_COLOUR, actor_of, attached_text, locale_of, one_heavy_call, send
from bot.errors import InvalidInput
from bot.i18n import format_number, t
from bot.present.markup import safe
from bot.present.report_map import scored_map_pages
from bot.rules.risiko.cards import Symbol
from bot.rules.risiko.config import RISIKO_PRESETS
from bot.rules.risiko.dice import BATTLE_ARMIES_MAX
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.scoring import ScoredSituation
from bot.services.adjudicators import Answer


class PresetTransformer(app_commands.Transformer):
    """A RisiKo! preset by name, suggested as you type (no fixed choices: they would cost the command's size)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        return str(value).strip()

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=n) for n in RISIKO_PRESETS if str(value).lower() in n]


RisikoPreset = app_commands.Transform[str, PresetTransformer]


def parse_dice(text: str, field: str) -> list[int]:
    """ "6 5 1", "6,5,1" or "651" → [6, 5, 1]; one to three dice of 1 to 6."""
    digits = re.findall(r"[0-9]+", text)
    if len(digits) == 1 and len(digits[0]) > 1:
        digits = list(digits[0])
    dice = [int(d) for d in digits]
    if not 1 <= len(dice) <= 3 or not all(1 <= d <= 6 for d in dice):
        raise InvalidInput("error.adjudicator.dice_text", field=field, value=text[:30])
    return dice


def parse_cards(text: str) -> list[str]:
    """ "cannone fante jolly", "cannoni, cavalleria" → the engine's symbols (the words of ``Symbol.read``)."""
    words = re.findall(r"[a-zà-ú]+", text.lower())
    try:
        symbols = [Symbol.read(w).value for w in words]
    except RisikoError:
        symbols = []
    if not symbols:
        raise InvalidInput("error.adjudicator.cards_text", value=text[:40])
    return symbols


def answer_embed(answer: Answer, locale: str, title: str, lines: list[str]) -> discord.Embed:
    out = discord.Embed(title=title[:256], description="\n".join(lines)[:4096], colour=EMBED_COLOUR)
    rules = t(f"choice.{answer.preset}", locale) if answer.preset else t("adjudicator.boxed", locale)
    if answer.article is not None:
        out.set_footer(text=t("adjudicator.cites", locale, reference=answer.article.reference,
                              title=answer.article.title[locale], rules=rules)[:2048])  # fmt: skip
    else:
        out.set_footer(text=rules[:2048])
    return out


class RisikoCog(commands.Cog):
    risiko = app_commands.Group(name="risiko", description="RisiKo! adjudicators",
                                guild_only=True)  # fmt: skip

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @risiko.command(name="battle")
    @app_commands.describe(attacker="Attack dice: 6 5 1", defender="Defence dice: 5 5 2",
                           attacker_armies="Attacking armies (to check)",
                           defender_armies="Defending armies", preset="The rulebook")  # fmt: skip
    async def battle(
        self,
        interaction: discord.Interaction[StewardBot],
        attacker: app_commands.Range[str, 1, 20],
        defender: app_commands.Range[str, 1, 20],
        attacker_armies: app_commands.Range[int, 1, 999] | None = None,
        defender_armies: app_commands.Range[int, 1, 999] | None = None,
        preset: RisikoPreset | None = None,
    ) -> None:
        """Losses of one roll."""
        actor = actor_of(interaction)
        att, dfn = parse_dice(attacker, "attacker"), parse_dice(defender, "defender")
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await self.bot.services.adjudicators.battle(
            actor, attacker=att, defender=dfn, preset=preset,
            attacker_armies=attacker_armies, defender_armies=defender_armies,
        )  # fmt: skip
        loc, v = locale_of(interaction), answer.values
        pairs = ", ".join(f"{a}–{d}" for a, d in v["pairs"])  # type: ignore[attr-defined]
        lines = [t("adjudicator.battle.losses", loc, attacker=v["attacker_losses"], defender=v["defender_losses"]),
                 t("adjudicator.battle.pairs", loc, pairs=pairs)]  # fmt: skip
        if "legal" in v:
            if v["legal"]:
                lines.append(t("adjudicator.battle.legal", loc))
            else:
                reason = t(f"adjudicator.reason.{v['reason']}", loc)
                lines.append(t("adjudicator.battle.illegal", loc, reason=reason))
        title = t("adjudicator.battle.title", loc, attacker=" ".join(map(str, att)), defender=" ".join(map(str, dfn)))
        await send(interaction, embed=answer_embed(answer, loc, title, lines), ephemeral=True)

    @risiko.command(name="odds")
    @app_commands.describe(attackers="Attacking armies", defenders="Defending armies",
                           attack_dice="Or: attack dice", defence_dice="…and defence dice",
                           preset="The rulebook")  # fmt: skip
    async def odds(
        self,
        interaction: discord.Interaction[StewardBot],
        attackers: app_commands.Range[int, 1, BATTLE_ARMIES_MAX] | None = None,
        defenders: app_commands.Range[int, 1, BATTLE_ARMIES_MAX] | None = None,
        attack_dice: app_commands.Range[int, 1, 3] | None = None,
        defence_dice: app_commands.Range[int, 1, 3] | None = None,
        preset: RisikoPreset | None = None,
    ) -> None:
        """Exact odds of a roll or a battle."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with one_heavy_call(interaction):
            answer = await self.bot.services.adjudicators.odds(
                actor, preset=preset, attackers=attackers, defenders=defenders,
                attack_dice=attack_dice, defence_dice=defence_dice,
            )  # fmt: skip
        loc, v = locale_of(interaction), answer.values
        if v["kind"] == "roll":
            title = t("adjudicator.odds.roll_title", loc, attack=v["attack_dice"], defence=v["defence_dice"])
            losses: list[str] = list(v["attacker_loses"])  # type: ignore[call-overload]
            lines = [t("adjudicator.odds.loses", loc, count=k, pct=p) for k, p in enumerate(losses)]
        else:
            title = t("adjudicator.odds.battle_title", loc, attackers=v["attackers"], defenders=v["defenders"])
            lines = [t("adjudicator.odds.wins", loc, pct=v["attacker_wins"]),
                     t("adjudicator.odds.holds", loc, pct=v["defender_holds"]),
                     t("adjudicator.odds.expected", loc, attacker=v["expected_attacker_losses"],
                       defender=v["expected_defender_losses"])]  # fmt: skip
        await send(interaction, embed=answer_embed(answer, loc, title, lines), ephemeral=True)

    @risiko.command(name="limit")
    @app_commands.describe(armies="Armies on the board", found_by="Who noticed it",
                           current_limit="Limit if lowered", preset="The rulebook")  # fmt: skip
    async def limit(
        self,
        interaction: discord.Interaction[StewardBot],
        armies: app_commands.Range[int, 0, 999],
        found_by: Literal["self", "other"] = "self",
        current_limit: app_commands.Range[int, 1, 999] | None = None,
        preset: RisikoPreset | None = None,
    ) -> None:
        """Over the army limit."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await self.bot.services.adjudicators.limit(
            actor, armies=armies, spotted=found_by == "other", preset=preset,
            current_limit=current_limit,
        )  # fmt: skip
        loc, v = locale_of(interaction), answer.values
        if v["new_limit"] is None:
            lines = [t("adjudicator.limit.none", loc)]
        elif not v["excess"]:
            lines = [t("adjudicator.limit.within", loc, limit=v["new_limit"])]
        else:
            lines = [t("adjudicator.limit.over", loc, excess=v["excess"], remove=v["remove"], limit=v["new_limit"])]
        title = t("adjudicator.limit.title", loc, armies=armies)
        await send(interaction, embed=answer_embed(answer, loc, title, lines), ephemeral=True)

    @risiko.command(name="cards")
    @app_commands.describe(cards="e.g. cannone fante jolly", in_hand="FIRK: cards in hand",
                           exchange="FIRK: cards exchanged", preset="The rulebook")  # fmt: skip
    async def cards(
        self,
        interaction: discord.Interaction[StewardBot],
        cards: app_commands.Range[str, 1, 60] | None = None,
        in_hand: app_commands.Range[int, 1, 20] | None = None,
        exchange: app_commands.Range[int, 1, 20] | None = None,
        preset: RisikoPreset | None = None,
    ) -> None:
        """Value of a set or exchange."""
        actor = actor_of(interaction)
        symbols = parse_cards(cards) if cards else []
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await self.bot.services.adjudicators.cards(
            actor, symbols=symbols, preset=preset, in_hand=in_hand, exchange=exchange
        )
        loc, v = locale_of(interaction), answer.values
        if v["kind"] == "exchange":
            lines = [t("adjudicator.cards.exchange", loc, armies=" + ".join(map(str, v["armies"])),  # type: ignore[call-overload]
                       total=v["total"], count=v["in_hand"])]  # fmt: skip
        else:
            lines = [t("adjudicator.cards.set", loc, kind=t(f"adjudicator.set.{v['set']}", loc), armies=v["armies"],
                       bonus=v["bonus_per_owned_territory"])]  # fmt: skip
        await send(
            interaction, embed=answer_embed(answer, loc, t("adjudicator.cards.title", loc), lines), ephemeral=True
        )


FILES_PER_MESSAGE = 10  # Discord's limit of attachments on one message


async def map_files(scored: ScoredSituation, locale: str, title: str) -> list[discord.File]:
    """The scored situation on the map, a phone's page per pair of continents with each player's score under their
    name: the pages a situation report posts (``bot.present.report_map``)."""
    pages = await scored_map_pages(scored, locale, title)
    return [discord.File(io.BytesIO(png), filename=f"map-{i}.png") for i, png in enumerate(pages, 1)]


def score_lines(scored: ScoredSituation, locale: str) -> list[str]:
    points = dict(zip(scored.table.order, scored.tournament_points or (), strict=False))
    lines = []
    for p in sorted(scored.table.players, key=lambda x: (x.rank, x.name)):
        tp = format_number(float(points[p.name]), locale) if p.name in points else "—"
        how = t(f"adjudicator.decided.{p.decided_by or p.unresolved or 'none'}", locale)
        lines.append(t("adjudicator.score.line", locale, rank=p.rank, name=safe(p.name), table=p.table_points,
                       points=tp, how=how))  # fmt: skip
    if scored.tournament_points is None:
        lines.append(t("adjudicator.score.tie_open", locale))
    return lines


class ScoreCog(commands.Cog):
    """/score: a RisiKo! final situation scored by the preset, with the map (its own command: /risiko is full)."""

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="score")
    @app_commands.guild_only()
    @app_commands.describe(file="A .json or .csv file", situation="Or the JSON typed", preset="The rulebook")
    async def score(
        self,
        interaction: discord.Interaction[StewardBot],
        file: discord.Attachment | None = None,
        situation: app_commands.Range[str, 2, 4000] | None = None,
        preset: RisikoPreset | None = None,
    ) -> None:
        """Score a RisiKo! final situation, with the map."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await attached_text(file, situation)
        async with one_heavy_call(interaction):
            answer = await self.bot.services.scoring.score(actor, text=text, preset=preset)
        loc = locale_of(interaction)
        title = t("adjudicator.score.title", loc, rules=t(f"choice.{answer.preset}", loc))
        out = discord.Embed(title=title[:256], description="\n".join(score_lines(answer.scored, loc))[:4096],
                            colour=EMBED_COLOUR)  # fmt: skip
        if answer.article is not None:
            out.set_footer(text=f"{answer.article.reference} — {answer.article.title[loc]}"[:2048])
        files = await map_files(answer.scored, loc, title)
        await interaction.followup.send(embed=out, files=files[:FILES_PER_MESSAGE], ephemeral=True)
        for start in range(FILES_PER_MESSAGE, len(files), FILES_PER_MESSAGE):
            await interaction.followup.send(files=files[start : start + FILES_PER_MESSAGE], ephemeral=True)
