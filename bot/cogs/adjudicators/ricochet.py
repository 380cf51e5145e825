"""/rr verify and /rr solve — a Ricochet Robots dispute settled with the board drawn: the demonstration judged
(RR 4.8 minimum, RR 4.10 no padding) or the optimal solution found, with the path on the board image (BOT-RUL-1,
BOT-IMG-1). Positions are typed compactly:

* board: the four quadrants NW NE SE SW, e.g. ``1A 2A 3A 4A``;
* robots: colour letter (or name) and row,col, e.g. ``R15,5 G10,7 B5,15 Y10,3``;
* target: ``2,9 blue triangle`` or just ``blue triangle`` (found on the board);
* moves: colour letter and direction, ``RN RE BS`` or with arrows ``R↑ R→ B↓``."""

from __future__ import annotations

import asyncio
import io
import re
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import EMBED_COLOUR, actor_of, locale_of, one_heavy_call
from bot.errors import InvalidInput
from bot.i18n import t
from bot.present.images import image_words
from bot.services.adjudicators import RRAnswer
from bot.workers import default_workers
from renderer import render_rr_board
from renderer.adapters import rr_board_data

COLOURS = {
    "r": "red", "g": "green", "b": "blue", "y": "yellow", "k": "black", "s": "silver",
    "red": "red", "green": "green", "blue": "blue", "yellow": "yellow", "black": "black", "silver": "silver",
    "rosso": "red", "verde": "green", "blu": "blue", "giallo": "yellow", "nero": "black", "argento": "silver",
}  # fmt: skip
SYMBOLS = {
    "triangle": "triangle", "square": "square", "circle": "circle", "hexagon": "hexagon", "vortex": "vortex",
    "triangolo": "triangle", "quadrato": "square", "cerchio": "circle", "esagono": "hexagon", "vortice": "vortex",
}  # fmt: skip
DIRECTIONS = {"n": "N", "e": "E", "s": "S", "w": "W", "o": "W", "↑": "N", "→": "E", "↓": "S", "←": "W"}
PROGRESS_AFTER = 2.0  # seconds before the solver's progress line


def parse_robots(text: str) -> dict[str, tuple[int, int]]:
    found = re.findall(r"([a-z]+)\s*[:=]?\s*(\d{1,2})\s*[,.;/ ]\s*(\d{1,2})", text.lower())
    robots = {COLOURS.get(c, ""): (int(r), int(k)) for c, r, k in found}
    if not found or "" in robots or len(robots) != len(found):
        raise InvalidInput("error.adjudicator.rr_robots", value=text[:60])
    return robots


def parse_target(text: str) -> list[object]:
    words = text.lower().split()
    numbers = [int(n) for n in re.findall(r"\d{1,2}", text)]
    names = [w for w in words if not re.fullmatch(r"[\d,.;/]+", w)]
    colour = next((COLOURS[w] for w in names if w in COLOURS and len(w) > 1), None)
    symbol = next((SYMBOLS[w] for w in names if w in SYMBOLS), None)
    if symbol == "vortex":
        colour = colour or "any"
    if colour is None or symbol is None or len(numbers) not in (0, 2):
        raise InvalidInput("error.adjudicator.rr_target", value=text[:60])
    return [*numbers, colour, symbol] if numbers else [colour, symbol]


def parse_moves(text: str) -> list[tuple[str, str]]:
    moves = []
    for colour, direction in re.findall(r"([rgbyks])\s*([nesow↑→↓←])", text.lower()):
        moves.append((COLOURS[colour], DIRECTIONS[direction]))
    if not moves or len(moves) > 60:
        raise InvalidInput("error.adjudicator.rr_moves_text", value=text[:60])
    return moves


async def board_file(answer: RRAnswer, locale: str, title: str) -> discord.File:
    data = rr_board_data(answer.board, answer.robots, answer.steps, active_target=answer.target,
                         diagonal_variant=answer.diagonal_variant, title=title)  # fmt: skip
    png = await default_workers().thread(partial(render_rr_board, data, words=image_words(locale)))
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
        board="Quadrants NW NE SE SW: 1A 2A 3A 4A", robots="R15,5 G10,7 B5,15 Y10,3", target="2,9 blue triangle",
        moves="RN RE BS or R↑ R→ B↓", declared="Moves called",
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
        actor = actor_of(interaction)
        quadrants, placed, goal, steps = (
            board.upper().split(),
            parse_robots(robots),
            parse_target(target),
            parse_moves(moves),
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with one_heavy_call(interaction):
            answer = await self.bot.services.ricochet.verify(actor, quadrants=quadrants, robots=placed, target=goal,
                                                             moves=steps, declared=declared)  # fmt: skip
        loc, v = locale_of(interaction), answer.values
        lines = [t(f"rr.verify.{v['code']}", loc, moves=v["moves"], minimum=v["minimum"], declared=declared or "—")]
        if v["void"]:
            lines.append(t("rr.verify.void_exists", loc, minimum=v["minimum"]))
        title = t("rr.verify.title", loc, moves=len(steps))
        picture = await board_file(answer, loc, title)
        await interaction.followup.send(embed=_embed(answer, loc, title, lines), file=picture, ephemeral=True)

    @rr.command(name="solve")
    @app_commands.describe(board="Quadrants NW NE SE SW: 1A 2A 3A 4A", robots="R15,5 G10,7 B5,15 Y10,3",
                           target="2,9 blue triangle")  # fmt: skip
    async def solve(
        self,
        interaction: discord.Interaction[StewardBot],
        board: app_commands.Range[str, 7, 40],
        robots: app_commands.Range[str, 3, 120],
        target: app_commands.Range[str, 3, 60],
    ) -> None:
        """The optimal number of moves and one solution, drawn on the board."""
        actor = actor_of(interaction)
        quadrants, placed, goal = board.upper().split(), parse_robots(robots), parse_target(target)
        await interaction.response.defer(ephemeral=True, thinking=True)
        loc = locale_of(interaction)
        async with one_heavy_call(interaction):
            task = asyncio.create_task(self.bot.services.ricochet.solve(actor, quadrants=quadrants, robots=placed,
                                                                        target=goal))  # fmt: skip
            done, _ = await asyncio.wait({task}, timeout=PROGRESS_AFTER)
            if not done:  # a long search: say so while it runs
                await interaction.edit_original_response(content=t("rr.solve.searching", loc))
            answer = await task
        v = answer.values
        if v["status"] == "solved":
            notation = " ".join(f"{str(c)[0].upper()}{d}" for c, d in v["moves"])  # type: ignore[attr-defined]
            lines = [t("rr.solve.optimal", loc, moves=v["optimal"], solution=notation)]
            if isinstance(v["optimal"], int) and v["optimal"] < int(str(v["minimum"])):
                lines.append(t("rr.solve.void", loc, minimum=v["minimum"]))
        elif v["status"] == "budget_exhausted":
            lines = [t("rr.solve.at_least", loc, moves=v["lower_bound"], budget=v["budget"])]
        else:
            lines = [t("rr.solve.unreachable", loc)]
        title = t("rr.solve.title", loc)
        await interaction.edit_original_response(content=None, embed=_embed(answer, loc, title, lines),
                                                 attachments=[await board_file(answer, loc, title)])  # fmt: skip
