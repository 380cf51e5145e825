"""Draw benchmark through the bot's own path: exports with history, rounds 2-4, ``plan_draw`` in-process.

Each instance is a synthetic tournament (``bot.rules.tournament.synthetic.tournament_requests``): a field of ``n``
players with an ``ordinary``, ``club_heavy`` or ``extreme`` club mix, every earlier round drawn by the project's
planner and played with a seeded finishing order, exactly the document the bot publishes as the round's export and
``steward draw --round N --seed s`` reads. Rounds 2, 3 and 4 are then drawn with ``--seeds`` seeds each, through
``plan_draw`` (ARB 5 c)-d) included), timing the CPU of this process (``time.process_time``).

Printed per field size: the draws by verdict (``bound_met``, ``proven_optimal_by_search``,
``optimal_for_cinquisti``, ``not_proven``), the share proven within the procedure the preset follows, the median and
worst CPU time per draw; then the totals against the targets (every draw <= 1 s at n <= 250 and <= 3 s at n = 500;
>= 95 % proven) and, as the randomness baseline measured in the same run, the mean overlap of "who sits with whom"
between two draws of different seeds against that of two pure random draws (DRAWS.md: close to random).
Every draw is also drawn a second time with its seed: the run stops if the tables differ.

    python -m benchmarks.draws                        # n = 16..250, three mixes, rounds 2-4, 3 seeds (~10 min)
    python -m benchmarks.draws --sizes 16,17,21,24 --seeds 3
    python -m benchmarks.draws --sizes 500 --mixes ordinary --tournaments 1
    python -m benchmarks.draws --step-c               # the option cinquisti_clubs_in_step_c = true
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from bot.rules.tournament.draw import random_tables
from bot.rules.tournament.planner import plan_draw
from bot.rules.tournament.synthetic import CLUB_MIXES, tournament_requests

DEFAULT_SIZES = (16, 17, 18, 19, 20, 21, 22, 23, 24, 27, 30, 33, 37, 41, 50, 64, 101, 150, 250)
PROVEN = ("bound_met", "proven_optimal_by_search", "optimal_for_cinquisti")
VERDICTS = (*PROVEN, "not_proven")


def pair_set(tables: Any) -> set[frozenset[Any]]:
    return {frozenset((a, b)) for t in tables for a, b in itertools.combinations(t, 2)}


def overlap(a: Any, b: Any) -> float:
    x, y = pair_set(a), pair_set(b)
    return len(x & y) / len(x | y)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    ap.add_argument("--mixes", default=",".join(CLUB_MIXES))
    ap.add_argument("--tournaments", type=int, default=1, help="synthetic tournaments per size and mix")
    ap.add_argument(
        "--first", type=int, default=0, help="first tournament seed (0 was used while tuning the search; 1+ were not)"
    )
    ap.add_argument("--seeds", type=int, default=3, help="draw seeds per round")
    ap.add_argument("--rounds", default="2,3,4")
    ap.add_argument("--step-c", action="store_true", help="override cinquisti_clubs_in_step_c = true")
    ap.add_argument("--preset", default="risiko-ufficiali-2018")
    ap.add_argument("--show", type=int, default=8, help="unproven draws listed")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    mixes = args.mixes.split(",")
    rounds = [int(x) for x in args.rounds.split(",")]
    overrides = {"tournament": {"cinquisti_clubs_in_step_c": True}} if args.step_c else None
    by_n: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"times": [], "verdicts": Counter(), "overlap": [], "random": []}
    )
    overlaps: list[float] = []
    rand_overlaps: list[float] = []
    unproven: list[str] = []
    started = time.perf_counter()
    for n in sizes:
        for mix in mixes:
            for tour in range(args.first, args.first + args.tournaments):
                requests = tournament_requests(
                    n, mix=mix, seed=tour, rounds=max(rounds), preset=args.preset, overrides=overrides
                )
                for request in requests:
                    if request.round_no not in rounds:
                        continue
                    drawn = []
                    for s in range(args.seeds):
                        seed = 1000 + s
                        t0 = time.process_time()
                        plan = plan_draw(request, seed)
                        dt = time.process_time() - t0
                        again = plan_draw(request, seed)
                        if again.tables != plan.tables:
                            raise SystemExit(f"n={n} {mix} round {request.round_no} seed {seed}: not reproducible")
                        verdict = str(plan.report["optimality"])
                        g = by_n[n]
                        g["times"].append(dt)
                        g["verdicts"][verdict] += 1
                        if verdict not in PROVEN:
                            unproven.append(
                                f"n={n} {mix} round {request.round_no} seed {seed}: {plan.report['criteria']} "
                                f"bound {plan.report['lower_bound']} {dt:.2f} s"
                            )
                        drawn.append(plan.tables)
                    if request.round_no == 2 and len(drawn) >= 2:
                        ov = statistics.fmean(overlap(a, b) for a, b in itertools.combinations(drawn, 2))
                        ids = [p.id for p in request.players]
                        shape = [len(t) for t in drawn[0]]
                        rnd = [random_tables(ids, shape, random.Random(9000 + k)) for k in range(len(drawn))]
                        rv = statistics.fmean(overlap(a, b) for a, b in itertools.combinations(rnd, 2))
                        overlaps.append(ov)
                        rand_overlaps.append(rv)
                        by_n[n]["overlap"].append(ov)
                        by_n[n]["random"].append(rv)
        g = by_n[n]
        v = g["verdicts"]
        total = sum(v.values())
        print(
            f"n={n:<4} draws {total:>4}  "
            + "  ".join(f"{k} {v[k]:>3}" for k in VERDICTS)
            + f"  proven {sum(v[k] for k in PROVEN) / total:6.1%}  cpu median {statistics.median(g['times']):.3f} s"
            f"  max {max(g['times']):.3f} s"
            + (
                f"  overlap r2 {statistics.fmean(g['overlap']):.3f} (random {statistics.fmean(g['random']):.3f})"
                if g["overlap"]
                else ""
            ),
            flush=True,
        )
    all_times = [(n, t) for n, g in by_n.items() for t in g["times"]]
    verdicts = sum((g["verdicts"] for g in by_n.values()), Counter())
    total = sum(verdicts.values())
    proven = sum(verdicts[k] for k in PROVEN)
    over = [(n, t) for n, t in all_times if t > (1.0 if n <= 250 else 3.0)]
    print()
    print(f"tournaments {args.first}..{args.first + args.tournaments - 1} per size and mix")
    print(
        f"preset {args.preset}{' with cinquisti_clubs_in_step_c = true' if args.step_c else ''}; "
        f"rounds {args.rounds}; {args.seeds} seeds; mixes {args.mixes}; wall {time.perf_counter() - started:.0f} s"
    )
    print(f"draws: {total}; proven within the procedure: {proven} ({proven / total:.1%}; target >= 95 %)")
    print("  " + ", ".join(f"{k} {verdicts[k]}" for k in VERDICTS))
    worst = max(all_times, key=lambda x: x[1])
    print(
        f"cpu per draw: median {statistics.median(t for _, t in all_times):.3f} s, worst {worst[1]:.3f} s "
        f"(n={worst[0]}); over the limit (1 s at n <= 250, 3 s at n = 500): {len(over)}"
    )
    if overlaps:
        ov, rv = statistics.fmean(overlaps), statistics.fmean(rand_overlaps)
        print(
            f"randomness, round 2: mean overlap between seeds {ov:.4f}, pure random draws {rv:.4f} "
            f"(ratio {ov / rv:.2f})"
        )
    if unproven:
        print(f"not proven ({len(unproven)}):")
        for line in unproven[: args.show]:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
