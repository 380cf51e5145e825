"""Certify draws offline with CP-SAT (OR-Tools): a development tool, never a runtime dependency of the bot.

For a draw export (``DrawRequest``) and a seed, the planner draws the round; this script rebuilds the problem the
procedure solved once the cinquisti were drawn (``draw.procedure_problem``: the drawn cinquisti at the 5-player tables,
one per table; with ARB 5 c) their clubs unseen) and asks CP-SAT for its optimum. It prints the engine's value, the
certified optimum and the engine's label, and fails when the engine claims a proof it does not have (a proven label
at a value worse than the optimum) or reports a value below the optimum (a wrong model).

``--write`` stores the certified instances as golden test data (``tests/rules/tournament/data/certified_draws.json``):
the export, the seed, the cinquisti and the optimum of each criterion. The tests replay them without OR-Tools.

    pip install ortools   # development only
    python -m scripts.certify_draws --sizes 16,17,21,23,27 --rounds 3,4 --write
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
from bot.rules.tournament.draw import _weighted, procedure_problem  # noqa: E402
from bot.rules.tournament.planner import DrawRequest, context, criteria, plan_draw  # noqa: E402
from bot.rules.tournament.synthetic import CLUB_MIXES, tournament_requests  # noqa: E402

GOLDEN = ROOT / "tests" / "rules" / "tournament" / "data" / "certified_draws.json"


def cp_sat_optimum(problem: Any, time_limit: float) -> tuple[int, bool]:
    """The optimum of the weighted problem (pair costs + seat costs), and whether CP-SAT proved it."""
    from ortools.sat.python import cp_model

    n, sizes = problem.n, problem.sizes
    t_count = len(sizes)
    m = cp_model.CpModel()
    x = {(i, t): m.NewBoolVar(f"x{i}_{t}") for i in range(n) for t in range(t_count)}
    for i in range(n):
        m.AddExactlyOne(x[i, t] for t in range(t_count))
        if problem.allowed[i] is not None:
            for t in range(t_count):
                if t not in problem.allowed[i]:
                    m.Add(x[i, t] == 0)
    for t in range(t_count):
        m.Add(sum(x[i, t] for i in range(n)) == sizes[t])
        uniq = [i for i in range(n) if problem.unique[i]]
        if uniq:
            m.Add(sum(x[i, t] for i in uniq) <= 1)
    terms = []
    for i in range(n):
        for j in range(i + 1, n):
            w = problem.cost[i][j]
            if w:
                y = m.NewBoolVar("")  # i and j share a table
                for t in range(t_count):
                    m.AddBoolOr([x[i, t].Not(), x[j, t].Not(), y])
                terms.append(w * y)
        if problem.seat[i]:
            terms += [problem.seat[i] * x[i, t] for t in range(t_count) if problem.big[t]]
    m.Minimize(sum(terms))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 2
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SystemExit("CP-SAT found no draw")
    return round(solver.ObjectiveValue()), status == cp_model.OPTIMAL


def certify(request: DrawRequest, seed: int, time_limit: float) -> dict[str, Any]:
    plan = plan_draw(request, seed)
    rules = request.rules
    ctx = context(request, rules)
    crit = criteria(request, rules)
    report = plan.report
    sizes = [len(t) for t in plan.tables]
    index = {pid: i for i, pid in enumerate(ctx.ids)}
    big = [t for t, s in enumerate(sizes) if s >= rules.large_table_size]
    cinq = list(report.get("cinquisti", []))
    pins = {index[p]: big[k] for k, p in enumerate(cinq)}
    blind = "step_c" in report
    _, built = procedure_problem(ctx, sizes, crit, pins, step_c_blind=blind)
    values = report["step_c"] if blind else report["criteria"]
    engine = _weighted(values, built.weights)
    optimum, proved = cp_sat_optimum(built.problem, time_limit)
    # the optimum per criterion: peel the weighted optimum back into counts (weights are powers of one base)
    ordered = sorted(built.weights.items(), key=lambda kv: -kv[1])
    rest, per = optimum, {}
    for c, w in ordered:
        per[c.value], rest = divmod(rest, w)
    return {
        "request": request.to_json(),
        "seed": seed,
        "cinquisti": cinq,
        "procedure_values": dict(values),
        "optimum": per,
        "optimality": report["optimality"],
        "engine_weighted": engine,
        "optimum_weighted": optimum,
        "cp_sat_proved": proved,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,17,21,23")
    ap.add_argument("--mixes", default=",".join(CLUB_MIXES))
    ap.add_argument("--rounds", default="3,4")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--tournament", type=int, default=7, help="the synthetic tournament's seed (not the benchmark's 0)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--step-c", action="store_true")
    ap.add_argument("--write", action="store_true", help=f"store the certified instances in {GOLDEN}")
    args = ap.parse_args()
    overrides = {"tournament": {"cinquisti_clubs_in_step_c": True}} if args.step_c else None
    out, bad = [], 0
    for n in (int(x) for x in args.sizes.split(",")):
        for mix in args.mixes.split(","):
            reqs = tournament_requests(n, mix=mix, seed=args.tournament, rounds=4, overrides=overrides)
            for request in reqs:
                if str(request.round_no) not in args.rounds.split(","):
                    continue
                for s in range(args.seeds):
                    t0 = time.perf_counter()
                    doc = certify(request, 500 + s, args.time_limit)
                    ok = doc["cp_sat_proved"]
                    claim = doc["optimality"] != "not_proven"
                    wrong = ok and (
                        doc["engine_weighted"] < doc["optimum_weighted"]
                        or (claim and doc["engine_weighted"] > doc["optimum_weighted"])
                    )
                    bad += wrong
                    print(
                        f"n={n} {mix} round {request.round_no} seed {doc['seed']}: engine {doc['procedure_values']} "
                        f"[{doc['optimality']}], optimum {doc['optimum']} "
                        f"{'certified' if ok else 'NOT certified'} in {time.perf_counter() - t0:.1f} s"
                        + ("  <-- WRONG" if wrong else ""),
                        flush=True,
                    )
                    if ok:
                        out.append(doc)
    if args.write:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(out, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {len(out)} certified draws to {GOLDEN.relative_to(ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
