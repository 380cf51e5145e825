"""/rr verify and /rr solve — a Ricochet Robots dispute settled with the board drawn: the demonstration judged
(RR 4.8 minimum, RR 4.10 no padding) or the optimal solution found, with the path on the board image (BOT-RUL-1,
BOT-IMG-1). Positions are typed as the board image shows them, in the reader's language
(``bot.rules.ricochet.notation``, BOT-I18N-1):

* board: the four quadrants NW NE SE SW, e.g. ``1A 2A 3A 4A``;
* robots: the robot's letter (or colour name) and its cell, column A–P and row 1–16: ``RF16 VH11 BP6 GD11`` in
  Italian (V verde, G giallo), ``RF16 GH11 BP6 YD11`` in English (the older ``row,col`` from 0 still reads, and is
  no longer advertised: issue 44);
* target: ``J3 blue triangle`` or just ``blue triangle`` (found on the board);
* moves: the robot's letter and the direction, ``RN RE BS`` (``O`` or ``W`` west), with arrows ``R↑ R→ B↓`` or
  with words ``R nord``, ``red north``.

The reply says back each robot as its letter, colour and cell, so a letter read as another robot shows."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import EMBED_COLOUR, actor_of, locale_of, one_heavy_call
from bot.i18n import t
from bot.present import ricochet as present
from bot.rules.ricochet import notation
from bot.services.adjudicators import RRAnswer

PROGRESS_AFTER = 2.0  # seconds before the solver's progress line
ROBOTS_HELP = "RF16 GH11 BP6 YD11: letter and cell as on the board (or red F16 …)"
TARGET_HELP = "J3 blue triangle (or just blue triangle)"
MOVES_HELP = "RN GE BS YW or R↑ G→ B↓ Y←"


async def board_file(answer: RRAnswer, locale: str, title: str) -> discord.File:
    png = await present.board_png(answer, locale, title)
    return discord.File(io.BytesIO(png), filename="board.png")


def _embed(answer: RRAnswer, locale: str, title: str, lines: list[str]) -> discord.Embed:
    out = discord.Embed(title=title[:256], description="\n".join(lines)[:4096], colour=EMBED_COLOUR)
    if answer.article is not None:
        out.set_footer(text=f"{answer.article.reference} — {answer.article.title[locale]}"[:2048])
    out.set_image(url="attachment://board.png")
    return out


class RicochetCog(commands.Cog):
    rr = app_commands.Group(name="rr", description="Ricochet Robots adjudicators", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @rr.command(name="verify")
    @app_commands.describe(
        board="Quadrants NW NE SE SW: 1A 2A 3A 4A", robots=ROBOTS_HELP, target=TARGET_HELP, moves=MOVES_HELP,
        declared="Moves called",
    )  # fmt: skip
    async def verify(
        self,
        interaction: discord.Interaction[StewardBot],
        board: app_commands.Range[str, 7, 40],
        robots: app_commands.Range[str, 3, 120],
        target: app_commands.Range[str, 3, 60],
        moves: app_commands.Range[str, 2, 300],
        declared: app_commands.Range[int, 1, 60] | None = None,
    ) -> None:
        """Judge a demonstration: valid, too long, padded, or a void round."""
        actor, loc = actor_of(interaction), locale_of(interaction)
        quadrants, placed, goal, steps = (
            board.upper().split(),
            present.read(notation.parse_robots, robots, loc),
            present.read(notation.parse_target, target, loc),
            present.read(notation.parse_moves, moves, loc),
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with one_heavy_call(interaction):
            answer = await self.bot.services.ricochet.verify(actor, quadrants=quadrants, robots=placed,
                                                             target=present.service_target(goal), moves=steps,
                                                             declared=declared)  # fmt: skip
        v = answer.values
        lines = [t(f"rr.verify.{v['code']}", loc, moves=v["moves"], minimum=v["minimum"], declared=declared or "—")]
        if v["void"]:
            lines.append(t("rr.verify.void_exists", loc, minimum=v["minimum"]))
        lines.append(present.read_back(answer.robots, goal, answer.target, loc))
        title = t("rr.verify.title", loc, moves=len(steps))
        picture = await board_file(answer, loc, title)
        await interaction.followup.send(embed=_embed(answer, loc, title, lines), file=picture, ephemeral=True)

    @rr.command(name="solve")
    @app_commands.describe(board="Quadrants NW NE SE SW: 1A 2A 3A 4A", robots=ROBOTS_HELP, target=TARGET_HELP)
    async def solve(
        self,
        interaction: discord.Interaction[StewardBot],
        board: app_commands.Range[str, 7, 40],
        robots: app_commands.Range[str, 3, 120],
        target: app_commands.Range[str, 3, 60],
    ) -> None:
        """The optimal number of moves and one solution, drawn on the board."""
        actor, loc = actor_of(interaction), locale_of(interaction)
        quadrants = board.upper().split()
        placed = present.read(notation.parse_robots, robots, loc)
        goal = present.read(notation.parse_target, target, loc)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with one_heavy_call(interaction):
            solving = self.bot.services.ricochet.solve(actor, quadrants=quadrants, robots=placed,
                                                       target=present.service_target(goal))  # fmt: skip
            task = asyncio.create_task(solving)
            done, _ = await asyncio.wait({task}, timeout=PROGRESS_AFTER)
            if not done:  # a long search: say so while it runs
                await interaction.edit_original_response(content=t("rr.solve.searching", loc))
            answer = await task
        v = answer.values
        if v["status"] == "solved":
            solution = notation.format_moves(v["moves"], loc)  # type: ignore[arg-type]
            lines = [t("rr.solve.optimal", loc, moves=v["optimal"], solution=solution)]
            if isinstance(v["optimal"], int) and v["optimal"] < int(str(v["minimum"])):
                lines.append(t("rr.solve.void", loc, minimum=v["minimum"]))
        elif v["status"] == "budget_exhausted":
            lines = [t("rr.solve.at_least", loc, moves=v["lower_bound"], budget=v["budget"])]
        else:
            lines = [t("rr.solve.unreachable", loc)]
        lines.append(present.read_back(answer.robots, goal, answer.target, loc))
        title = t("rr.solve.title", loc)
        await interaction.edit_original_response(content=None, embed=_embed(answer, loc, title, lines),
                                                 attachments=[await board_file(answer, loc, title)])  # fmt: skip
