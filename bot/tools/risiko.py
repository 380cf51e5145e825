"""``steward risiko ...``: offline RisiKo! adjudicators over ``bot.rules.risiko`` (JSON in, JSON or text out).

Shapes fixed by ../shared/spec/CLI.md (battle, odds, score, points) are contracts; the others are documented in
docs/risiko.md. Every command accepts ``"preset"`` (a RisiKo! preset name) and ``"overrides"`` (per-tournament
preset overrides, e.g. ``{"scoring": {"strip": "chain"}}``); ``disabled_borders`` is the referee's border toggle.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from bot.rules.risiko import cards as cards_mod
from bot.rules.risiko import dice as dice_mod
from bot.rules.risiko import endgame, limits, scoring
from bot.rules.risiko.config import BOXED_DICE, RisikoRules, load_rules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import tournament_points_exact
from bot.rules.ruleset import load_ruleset
from bot.tools._common import BadInput, add_io_arguments, check_keys, run_tool, words
from bot.tools._help import command_help

COMMON = ("preset", "overrides", "disabled_borders")


# -- input helpers ------------------------------------------------------------------------------------------------
# What the game allows: a RisiKo! deck has 42 territory cards and 2 jolly; 300 armies on one
# side of a battle is more than double the 130-army limit of UFF/FIRK (and answers in about 2 s); anything else
# counted in a game stays far below 10,000.
CARDS_MAX = cards_mod.DECK_SIZE
BATTLE_ARMIES_MAX = dice_mod.BATTLE_ARMIES_MAX
COUNT_MAX = 10_000
MAX_SEATS = 10  # no table of any preset seats more
MAXIMA = {
    "cards_in_hand": CARDS_MAX, "exchange": CARDS_MAX,
    "attackers": BATTLE_ARMIES_MAX, "defenders": BATTLE_ARMIES_MAX,
    "attacker_armies": BATTLE_ARMIES_MAX, "defender_armies": BATTLE_ARMIES_MAX,
    "max_attackers": BATTLE_ARMIES_MAX, "max_defenders": BATTLE_ARMIES_MAX,
}  # fmt: skip


def _int(obj: Mapping[str, Any], key: str, *, minimum: int | None = 0, default: int | None = None) -> int:
    if key not in obj:
        if default is None:
            raise BadInput(f"input: missing field {key!r}")
        return default
    value = obj[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadInput(f"{key} must be an integer, got {value!r:.80}")
    maximum = MAXIMA.get(key, COUNT_MAX)
    if value > maximum:
        raise BadInput(f"{key}_too_large: {key}={str(value)[:40]} (at most {maximum})")
    if minimum is not None and value < minimum:
        armies_like = "arm" in key or key in (
            "attackers",
            "defenders",
            "placed",
            "due",
            "max_attackers",
            "max_defenders",
        )
        code = ("negative_armies" if armies_like else "negative_value") if value < 0 else f"{key}_too_small"
        raise BadInput(f"{code}: {key}={value!r}")
    return value


def _list(obj: Mapping[str, Any], key: str) -> list[Any]:
    value = obj.get(key)
    if not isinstance(value, list):
        raise BadInput(f"{key} must be a JSON array, got {value!r}")
    return value


def _rules(data: Mapping[str, Any], *, required: bool = False) -> RisikoRules | None:
    name = data.get("preset")
    overrides = data.get("overrides") or {}
    if not isinstance(overrides, Mapping):
        raise BadInput(f"overrides must be a JSON object, got {overrides!r}")
    if "disabled_borders" in data:
        borders = data["disabled_borders"]
        if not isinstance(borders, list):
            raise BadInput(f"disabled_borders must be a JSON array of pairs, got {borders!r}")
        risiko = dict(overrides.get("risiko", {}))
        risiko["disabled_borders"] = borders
        overrides = {**overrides, "risiko": risiko}
    if name is None:
        if required:
            raise BadInput("input: missing field 'preset'")
        if overrides:
            name = "risiko-ufficiali-2018"
        else:
            return None
    if not isinstance(name, str):
        raise BadInput(f"preset must be a string, got {name!r}")
    ruleset = load_ruleset(name, overrides)  # every section checked, as at /tournament create
    if ruleset.risiko is None:
        raise BadInput(f"preset {name!r} is not a RisiKo! preset")
    return ruleset.risiko


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _pct(x: Fraction | str) -> str:
    f = Fraction(x) if isinstance(x, str) else x
    return f"{float(f) * 100:.2f}%"


# -- battle -------------------------------------------------------------------------------------------------------
def compute_battle(data: Any) -> dict[str, Any]:
    check_keys(
        data,
        required=("attacker_dice", "defender_dice"),
        optional=(*COMMON, "attacker_armies", "defender_armies", "supporting_armies"),
    )
    rules = _rules(data)
    dice_rules = rules.dice if rules else BOXED_DICE
    att, dfn = _list(data, "attacker_dice"), _list(data, "defender_dice")
    result = dice_mod.resolve_roll(att, dfn, dice_rules)
    out: dict[str, Any] = {
        "attacker_losses": result.attacker_losses,
        "defender_losses": result.defender_losses,
        "pairs": [list(p) for p in result.pairs],
    }
    if "attacker_armies" in data or "defender_armies" in data:
        a_armies = _int(data, "attacker_armies")
        d_armies = _int(data, "defender_armies")
        support = data.get("supporting_armies", [])
        if not isinstance(support, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in support):
            raise BadInput(f"supporting_armies must be an array of integers, got {support!r}")
        verdict = dice_mod.judge_attack(len(att), len(dfn), a_armies, d_armies, support, dice_rules)
        out["dice_check"] = verdict.dice.value
        out["superiority"] = verdict.superiority.value
        out["legal"] = verdict.legal  # FIRK §12: false also when superiority forbids the attack
        out["reason"] = verdict.reason
    return out


def text_battle(r: Mapping[str, Any]) -> str:
    lines = [f"attacker loses {r['attacker_losses']}, defender loses {r['defender_losses']}"]
    lines.append("compared: " + ", ".join(f"{a} vs {d}" for a, d in r["pairs"]))
    if "dice_check" in r:
        lines.append(f"dice check: {words(r['dice_check'])}; superiority: {words(r['superiority'])}")
        reason = words(r["reason"], "adjudicator.reason")
        lines.append("attack allowed" if r["legal"] else f"attack NOT allowed: {reason}")
    return "\n".join(lines)


# -- odds ---------------------------------------------------------------------------------------------------------
def compute_odds(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise BadInput(f"input must be a JSON object, got {type(data).__name__}")
    rules = _rules(data)
    dice_rules = rules.dice if rules else BOXED_DICE
    if "attacker_dice" in data or "defender_dice" in data:
        check_keys(data, required=("attacker_dice", "defender_dice"), optional=COMMON)
        a = _int(data, "attacker_dice", minimum=None)
        d = _int(data, "defender_dice", minimum=None)
        if not 1 <= a <= dice_rules.max_attack_dice:
            raise RisikoError("attacker_dice_count_invalid", a)
        if not 1 <= d <= dice_rules.max_defence_dice:
            raise RisikoError("defender_dice_count_invalid", d)
        dist = dice_mod.roll_distribution(a, d)
        counts, total = dice_mod.roll_counts(a, d)
        return {
            "attacker_dice": a,
            "defender_dice": d,
            "attacker_loss_probabilities": [_frac(p) for p in dist],
            "attacker_loss_counts": list(counts),
            "outcomes": total,
        }
    if "max_attackers" in data:
        check_keys(data, required=("max_attackers", "max_defenders"), optional=COMMON)
        ma, md = _int(data, "max_attackers"), _int(data, "max_defenders")
        if ma > 200 or md > 200:
            raise BadInput(f"table too large: {ma} x {md} (at most 200 x 200)")
        table = dice_mod.win_table(ma, md, dice_rules)
        return {
            "max_attackers": ma,
            "max_defenders": md,
            "attacker_wins": [[_frac(x) for x in row] for row in table],
            "attacker_wins_float": [[round(float(x), 6) for x in row] for row in table],
        }
    check_keys(data, required=("attackers", "defenders"), optional=COMMON)
    a, d = _int(data, "attackers"), _int(data, "defenders")
    if a > 500 or d > 500:
        raise BadInput(f"battle too large: {a} vs {d} (at most 500 each)")
    odds = dice_mod.battle_odds(a, d, dice_rules)
    return {
        "attackers": a,
        "defenders": d,
        "attacker_wins": _frac(odds.attacker_wins),
        "defender_holds": _frac(odds.defender_holds),
        "stopped": _frac(odds.stopped),
        "attacker_wins_float": round(float(odds.attacker_wins), 6),
        "attacker_remaining": {str(k): _frac(p) for k, p in odds.attacker_remaining},
        "defender_remaining": {str(k): _frac(p) for k, p in odds.defender_remaining},
        "expected_attacker_losses": round(float(odds.expected_attacker_losses), 6),
        "expected_defender_losses": round(float(odds.expected_defender_losses), 6),
    }


def text_odds(r: Mapping[str, Any]) -> str:
    if "attacker_loss_probabilities" in r:
        lines = [f"{r['attacker_dice']} vs {r['defender_dice']} dice, {r['outcomes']} outcomes"]
        for k, (p, c) in enumerate(zip(r["attacker_loss_probabilities"], r["attacker_loss_counts"], strict=True)):
            lines.append(f"  attacker loses {k}: {c}/{r['outcomes']} = {_pct(p)}")
        return "\n".join(lines)
    if "max_attackers" in r:
        head = "A\\D " + " ".join(f"{d:>6}" for d in range(1, r["max_defenders"] + 1))
        rows = [
            f"{a:>4} " + " ".join(f"{x * 100:6.1f}" for x in row) for a, row in enumerate(r["attacker_wins_float"], 1)
        ]
        return "attacker conquers (%)\n" + head + "\n" + "\n".join(rows)
    return (
        f"{r['attackers']} attackers vs {r['defenders']} defenders\n"
        f"  attacker conquers: {_pct(r['attacker_wins'])} ({r['attacker_wins']})\n"
        f"  defender holds:    {_pct(r['defender_holds'])}"
        + (f" (of which attack stopped by the dice rule: {_pct(r['stopped'])})" if r["stopped"] != "0/1" else "")
        + f"\n  expected losses: attacker {r['expected_attacker_losses']}, defender {r['expected_defender_losses']}"
    )


# -- cards and reinforcements -----------------------------------------------------------------------------------
def _owned(data: Mapping[str, Any], rules: RisikoRules, key: str = "territories") -> list[str]:
    raw = data.get(key, [])
    if isinstance(raw, Mapping):
        raw = list(raw)
    if not isinstance(raw, list):
        raise BadInput(f"{key} must be an array of territory names, got {raw!r}")
    out: list[str] = []
    for t in raw:
        c = rules.board.canonical(t)
        if c in out:
            raise RisikoError("territory_listed_twice", c)
        out.append(c)
    return out


def _cards_value(data: Mapping[str, Any], rules: RisikoRules, owned: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": rules.cards.mode}
    if rules.cards.mode == "sets":
        hand = [cards_mod.Card.parse(c, rules.board) for c in _list(data, "cards")]
        if len(hand) == 3 and cards_mod.set_kind(hand) is not None:
            value = cards_mod.set_value(hand, owned, rules.cards)
            chosen: tuple[int, ...] = (0, 1, 2)
        else:
            best = cards_mod.best_set(hand, owned, rules.cards)
            if best is None:
                if len(hand) == 3:
                    raise RisikoError("not_a_valid_set", [c.symbol.value for c in hand])
                return {**out, "armies": 0, "set": None}
            chosen, value = best
        out.update(
            armies=value.total,
            set={
                "kind": value.kind.value,
                "cards": [hand[i].serialise() for i in chosen],
                "base": value.base,
                "territory_bonus": value.territory_bonus,
                "bonus_territories": list(value.bonus_territories),
            },
        )
        return out
    hand_size = _int(data, "cards_in_hand")
    exchanged = _int(data, "exchange", default=hand_size if hand_size < 3 else hand_size - hand_size % 3)
    values = cards_mod.exchange_values(hand_size, exchanged, rules.cards)
    out.update(armies=sum(values), exchanges=list(values), cards_in_hand=hand_size, exchanged=exchanged)
    return out


def compute_cards(data: Any) -> dict[str, Any]:
    check_keys(data, optional=(*COMMON, "cards", "territories", "cards_in_hand", "exchange"))
    rules = _rules(data) or load_rules("risiko-ufficiali-2018")
    owned = _owned(data, rules)
    out: dict[str, Any] = {"preset": rules.preset}
    if "cards" in data or "exchange" in data or (rules.cards.mode == "exchange" and "cards_in_hand" in data):
        out.update(_cards_value(data, rules, owned))
    if "cards_in_hand" in data or "cards" in data:
        held = _int(data, "cards_in_hand", default=len(data.get("cards", [])))
        out["hand_check"] = cards_mod.hand_check(held, rules.cards).value
    if len(out) == 1:
        raise BadInput("input: give 'cards' (a set or a hand) or 'cards_in_hand' (and 'exchange' with FIRK)")
    return out


def text_cards(r: Mapping[str, Any]) -> str:
    lines = []
    if "armies" in r:
        if r.get("set"):
            s = r["set"]
            kind = words(s["kind"], "adjudicator.set")
            lines.append(f"{kind}: {s['base']} + {s['territory_bonus']} territory bonus = {r['armies']} armies")
        elif "exchanges" in r:
            parts = " + ".join(map(str, r["exchanges"]))
            lines.append(f"exchange {r['exchanged']} of {r['cards_in_hand']}: {parts} = {r['armies']}")
        else:
            lines.append("no valid set in the hand")
    if "hand_check" in r:
        lines.append(f"hand: {words(r['hand_check'])}")
    return "\n".join(lines)


def compute_reinforcements(data: Any) -> dict[str, Any]:
    check_keys(data, required=("territories",), optional=(*COMMON, "cards", "cards_in_hand", "exchange"))
    rules = _rules(data) or load_rules("risiko-ufficiali-2018")
    owned = _owned(data, rules)
    card_part: dict[str, Any] = {}
    if "cards" in data or "cards_in_hand" in data:
        card_part = _cards_value(data, rules, owned)
    r = cards_mod.reinforcements(owned, rules, int(card_part.get("armies", 0)))
    return {
        "preset": rules.preset,
        "territories": r.territories,
        "from_territories": r.from_territories,
        "continents": [{"continent": c, "bonus": b} for c, b in r.continents],
        "from_cards": r.from_cards,
        "cards": card_part or None,
        "total": r.total,
    }


def text_reinforcements(r: Mapping[str, Any]) -> str:
    conts = ", ".join(f"{c['continent']} +{c['bonus']}" for c in r["continents"]) or "none"
    return (
        f"{r['territories']} territories -> {r['from_territories']}; continents: {conts}; cards: {r['from_cards']}\n"
        f"total: {r['total']} armies"
    )


# -- limits -------------------------------------------------------------------------------------------------------
def compute_limit(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise BadInput(f"input must be a JSON object, got {type(data).__name__}")
    kind = data.get("kind", "army_limit")
    if kind == "army_limit":
        check_keys(data, required=("armies_on_board",), optional=(*COMMON, "kind", "found_by", "limit"))
    elif kind == "over_placement":
        check_keys(
            data,
            required=("placed", "due"),
            optional=(*COMMON, "kind", "found_by", "deliberate", "previous_deliberate"),
        )
    elif kind == "distribution":
        check_keys(data, optional=(*COMMON, "kind", "owners", "deal"))
    else:
        raise BadInput(f"kind must be army_limit, over_placement or distribution, got {kind!r}")
    rules = _rules(data) or load_rules("risiko-ufficiali-2018")
    out: dict[str, Any] = {"preset": rules.preset, "kind": kind}
    if kind == "distribution":
        share = rules.continent_share_limit
        if "deal" in data:
            deal_raw = _list(data, "deal")
            for x in deal_raw:
                if not (isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x)):
                    raise BadInput(f"deal must be an array of [territory, player] pairs, got {x!r}")
            deal = [tuple(x) for x in deal_raw]
            fixed, swapped = limits.fix_last_card([(str(t), str(p)) for t, p in deal], rules.board, share)
            out.update(swapped_with_index=swapped, deal=[list(x) for x in fixed])
            owners = {t: p for t, p in fixed}
        else:
            raw = data.get("owners")
            if not isinstance(raw, Mapping):
                raise BadInput("owners must be an object territory -> player")
            owners = {}
            for t, p in raw.items():
                c = rules.board.canonical(t)
                if c in owners:
                    raise RisikoError("territory_owned_twice", c)
                owners[c] = str(p)
        violations = limits.distribution_violations(owners, rules.board, share)
        out["violations"] = [
            {"player": v.player, "continent": v.continent, "owned": v.owned, "allowed": v.allowed} for v in violations
        ]
        out["valid"] = not violations
        return out
    found = data.get("found_by", "other")
    try:
        found_by = limits.FoundBy(found)
    except ValueError:
        raise BadInput(f"found_by must be 'self' or 'other', got {found!r}") from None
    if kind == "army_limit":
        limit = _int(data, "limit") if "limit" in data else None
        v = limits.army_limit_check(_int(data, "armies_on_board"), found_by, rules.limits, limit)
        out.update(excess=v.excess, remove=v.remove, new_limit=v.new_limit)
        return out
    deliberate = data.get("deliberate", False)
    if not isinstance(deliberate, bool):
        raise BadInput(f"deliberate must be true or false, got {deliberate!r}")
    ov = limits.over_placement_check(
        _int(data, "placed"),
        _int(data, "due"),
        found_by,
        rules.limits,
        deliberate=deliberate,
        previous_deliberate=_int(data, "previous_deliberate", default=0),
        sanctions=rules.sanctions,
    )
    out.update(excess=ov.excess, remove=ov.remove, outcome=ov.outcome.value, deliberate_count=ov.deliberate_count)
    out["standing_points"] = ov.standing_points  # FIRK §6: −25 in the general standings when put out
    return out


def text_limit(r: Mapping[str, Any]) -> str:
    if r["kind"] == "distribution":
        if r["valid"]:
            return "distribution valid" + (
                f" (last card swapped with #{r['swapped_with_index']})"
                if r.get("swapped_with_index") is not None
                else ""
            )
        return "\n".join(
            f"{v['player']} holds {v['owned']} of {v['continent']} (max {v['allowed']})" for v in r["violations"]
        )
    if r["kind"] == "army_limit":
        limit = "no limit" if r["new_limit"] is None else f"limit now {r['new_limit']}"
        return f"excess {r['excess']}: remove {r['remove']} armies; {limit}"
    return (
        f"excess {r['excess']}: remove {r['remove']} armies; {words(r['outcome'])}"
        f" (deliberate count {r['deliberate_count']})"
    )


# -- sdadata / end of game --------------------------------------------------------------------------------------
def compute_sdadata(data: Any) -> dict[str, Any]:
    check_keys(data, required=("players",), optional=(*COMMON, "current", "events"))
    rules = _rules(data) or load_rules("risiko-nostra-passione-2018")
    players = _list(data, "players")
    for p in players:
        if not isinstance(p, str) or not p:
            raise BadInput(f"players must be an array of names, got {p!r}")
    raw_events = data.get("events", [])
    if not isinstance(raw_events, list):
        raise BadInput(f"events must be a JSON array, got {raw_events!r}")
    events = [endgame.Event.parse(e) for e in raw_events]
    current = data.get("current")
    if current is not None and not isinstance(current, str):
        raise BadInput(f"current must be a player name, got {current!r}")
    state, log = endgame.run(players, events, rules.end, current)
    return {
        "preset": rules.preset,
        "procedure": rules.end.procedure,
        "ended": state.ended,
        "end_reason": state.end_reason,
        "next": endgame.expectation(state),
        "log": log,
        "state": state.serialise(),
    }


def text_sdadata(r: Mapping[str, Any]) -> str:
    lines = []
    for e in r["log"]:
        extra = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("index", "event", "outcome"))
        outcome = words(e["outcome"], "endgame.outcome")
        lines.append(f"#{e['index']} {words(e['event'])}: {outcome}" + (f" ({extra})" if extra else ""))
    nxt = r["next"]
    if r["ended"]:
        lines.append(f"game ended: {words(r['end_reason'], 'endgame.reason')}")
    elif nxt["kind"] == "roll":
        lines.append(f"next: {nxt['player']} rolls, game ends on {nxt['threshold']} or less")
    else:
        lines.append(f"next: {words(nxt['kind'])} of {nxt['player']}")
    return "\n".join(lines)


# -- score and points -------------------------------------------------------------------------------------------
def compute_score(data: Any) -> dict[str, Any]:
    check_keys(data, required=("preset", "players"), optional=(*COMMON[1:], "dice", "seed"))
    rules = _rules(data, required=True)
    assert rules is not None
    scored = scoring.score_situation(data, rules, also_allowed=COMMON)  # the one scoring (also the bot's)
    players = list(scored.situation.players)
    seed = scored.situation.seed
    table = scored.table
    warnings = sorted({p.objective_source for p in players if p.objective_source.startswith("unverified")})
    order = table.order
    points = None if scored.tournament_points is None else [round(float(x), 6) for x in scored.tournament_points]
    return {
        "preset": rules.preset,
        "method": table.method,
        "players": [p.serialise() for p in table.players],
        "order": order,
        "tournament_points": None if points is None else dict(zip(order, points, strict=True)),
        "unresolved_ties": sorted({p.unresolved for p in table.players if p.unresolved}),
        "warnings": [f"objective_unverified:{w.split(':', 1)[1]}" for w in warnings],
        "seed": seed,
    }


def text_score(r: Mapping[str, Any]) -> str:
    lines = [f"{r['preset']} ({r['method']})"]
    for p in sorted(r["players"], key=lambda p: (p["rank"], p["name"])):
        e = p["explanation"]
        note = f", {words(p['decided_by'], 'adjudicator.decided')}" if p["decided_by"] not in (None, "points") else ""
        if p["unresolved"]:
            note += f", {words(p['unresolved'], 'adjudicator.decided')}"
        status = words(p["status"], "standings.standing")
        lines.append(f"{p['rank']}. {p['name']}: {p['table_points']} table points [{status}{note}]")
        counted = [
            f"{t['territory']} {t['value']}{' x2' if t['doubled'] else ''}" for t in e["territories"] if t["counted"]
        ]
        lines.append("   territories: " + (", ".join(counted) or "none"))
        if e["strip"]:
            lines.append(f"   strip doubled (+{e['strip_points']}): " + " - ".join(e["strip"]))
        for c in e["continents"]:
            lines.append(f"   continent {c['continent']}: +{c['points']}")
        if e["risiko"]:
            lines.append("   RisiKo!")
    for w in r["warnings"]:
        lines.append(f"warning: {w} (objective from the unverified transcription)")
    return "\n".join(lines)


def compute_points(data: Any) -> dict[str, Any]:
    check_keys(data, required=("preset", "table_points"), optional=("overrides", "special", "overall_rank"))
    rules = _rules(data, required=True)
    assert rules is not None
    tps = _list(data, "table_points")
    special = data.get("special")
    if special is not None:  # FIRK's last-round tables: the bot's own points for them (one function)
        return {"preset": rules.preset, "special": special,
                "tournament_points": list(_special_points(data, special, len(tps)))}  # fmt: skip
    if not 1 <= len(tps) <= MAX_SEATS:
        raise BadInput(f"table_points: a table seats 1 to {MAX_SEATS} players, got {len(tps)} values")
    for k, value in enumerate(tps):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise BadInput(f"table_points.{k} must be a number, got {value!r:.80}")
        if abs(value) > COUNT_MAX:
            raise BadInput(f"table_points.{k}={value!r:.40} is beyond what a game scores (at most {COUNT_MAX})")
    exact = tournament_points_exact(rules.points, tps)
    return {"preset": rules.preset, "tournament_points": [round(float(x), 6) for x in exact]}


def _special_points(data: Any, special: object, players: int) -> tuple[float, ...]:
    from bot.rules.ruleset import load_ruleset
    from bot.rules.tournament.model import TournamentError
    from bot.rules.tournament.planner import HEAD_TO_HEAD, SIT_OUT, special_table_points

    if special not in (HEAD_TO_HEAD, SIT_OUT):
        raise BadInput(f"special: {HEAD_TO_HEAD} or {SIT_OUT}, got {special!r:.40}")
    rank = data.get("overall_rank")
    if rank is not None and (isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 100_000):
        raise BadInput(f"overall_rank: a place in the standings (1 or more), got {rank!r:.40}")
    tournament = load_ruleset(str(data["preset"]), data.get("overrides")).tournament
    try:
        fixed = special_table_points(tournament, str(special), players, overall_rank=rank)
    except TournamentError as exc:
        raise BadInput(f"{exc.code}: {str(exc.value)[:60]} (head_to_head: two table points; sit_out: one, with "
                       "overall_rank)") from None  # fmt: skip
    assert fixed is not None
    return fixed


def text_points(r: Mapping[str, Any]) -> str:
    return "\n".join(f"{i}. {p:g}" for i, p in enumerate(r["tournament_points"], 1))


# -- registration -------------------------------------------------------------------------------------------------
COMMANDS: dict[str, tuple[str, Callable[[Any], Any], Callable[[Any], str]]] = {
    "battle": (
        "resolve one roll from the dice (RK-DICE-1), check dice counts and superiority",
        compute_battle,
        text_battle,
    ),
    "odds": ("exact odds of one roll or of a whole battle (fractions)", compute_odds, text_odds),
    "reinforcements": (
        "armies due: territories / 3 + continents + cards (RK-REIN-1)",
        compute_reinforcements,
        text_reinforcements,
    ),
    "cards": ("value of a card set or FIRK exchange, hand limit (RK-TRIS-*, FIRK-CARD-1)", compute_cards, text_cards),
    "limit": ("army limit, over-placement and initial distribution checks", compute_limit, text_limit),
    "sdadata": (
        "end of game: sdadata (NP/UFF) or FIRK supplementary turns, fed with events",
        compute_sdadata,
        text_sdadata,
    ),
    "score": ("table points and ranking from a final situation", compute_score, text_score),
    "points": ("tournament points from table points in final order", compute_points, text_points),
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("risiko", help="RisiKo! rules engine (battle, odds, cards, score...)")
    sub = parser.add_subparsers(dest="risiko_command", metavar="ACTION")
    for name, (help_text, compute, text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, **command_help(f"risiko {name}"))
        add_io_arguments(p)
        p.set_defaults(func=_runner(compute, text))
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _runner(compute: Callable[[Any], Any], text: Callable[[Any], str]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        return run_tool(args, compute, text)

    return run
