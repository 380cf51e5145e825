/* Optional C accelerator of bot.rules.tournament._search.exact_search: the same branch-and-bound, node for node.
 *
 * exact(n, sizes, big, cost, rest, seat, cls, allowed, unique, group_w, group_members, group_repeat, order,
 *       incumbent, incumbent_cost, node_limit) -> (best_pos, best_cost, nodes, proven)
 *
 * cost/rest: n*n row-major int64; allowed: n*T bytes (1 = the player may sit there); order: the placement order;
 * every other argument is a sequence of ints (group_members: a sequence of sequences). The Python module builds the
 * arguments, picks the order and checks that no cost can overflow 62 bits. The search, its bounds, its option order
 * and its node count are those of the pure-Python exact_search (a test compares the two on random problems), so a
 * seeded draw is the same with or without this module. The GIL is released during the search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INF ((int64_t)1 << 62)
#define MAXN 128
#define MAXT 64
#define MAXG 256

typedef struct {
    int n, T, G;
    int sizes[MAXT], big[MAXT];
    int64_t *cost, *rest;
    int64_t seat[MAXN];
    int cls[MAXN], unique[MAXN];
    unsigned char *allowed; /* n*T */
    int64_t group_w[MAXG];
    int group_repeat[MAXG];
    int *gmembers; /* flattened */
    int gstart[MAXG + 1];
    int order[MAXN];
    /* state */
    int pos[MAXN], free_[MAXT];
    int members[MAXT][MAXN], msize[MAXT];
    int *counts; /* G*T */
    /* kept up to date as players sit down, so a node reads sums instead of adding them up (values unchanged):
       tc[t*n+i] / trc[t*n+i]: what player i would add at table t from cost / rest; zr[g] / zrb[g]: the tables (the
       5-player ones) with a free seat and no member of group g */
    int64_t *tc, *trc;
    int zr[MAXG], zrb[MAXG];
    int remaining[MAXG], free_left[MAXG];
    int group_of_start[MAXN + 1];
    int *group_of; /* flattened */
    int class_at[MAXT][MAXN]; /* count of unique players of class c at table t (classes are small ints < MAXN) */
    int loose_player[MAXN];
    int loose_left;
    int64_t seat_min;
    int big_tables[MAXT], nbig;
    int repeat_groups[MAXG], nrep;
    int zero_left;
    int nfirst, dynamic;
    int family[MAXG], nfam, mult[MAXG];
    int64_t best_cost;
    int best_pos[MAXN];
    /* scratch of the bounds (kept here, not in thread-local storage: a TLS lookup per node cost ~5 %) */
    int kk[MAXG], elig[MAXG], live[MAXG];
    int64_t *incs_flat; /* every family's increments: family f from fam_off[f], room for all its members */
    int64_t *top_buf;   /* the largest increments picked (as long as incs_flat) */
    int fam_off[MAXG];
    int nincs[MAXG];
    long long nodes, node_limit;
    int aborted;
} S;

static int64_t spread(S *s, int g, int *room) {
    int k[MAXT];
    int T = s->T;
    for (int t = 0; t < T; t++) k[t] = s->counts[g * T + t];
    int64_t add = 0;
    for (int r = 0; r < s->remaining[g]; r++) {
        int bt = -1;
        int bk = 1 << 30;
        for (int t = 0; t < T; t++)
            if (room[t] > 0 && k[t] < bk) { bk = k[t]; bt = t; }
        if (bt < 0) break;
        add += bk;
        k[bt] += 1;
        room[bt] -= 1;
    }
    return add;
}

/* The increments of ``k`` more members of group g spread as evenly as ``room`` allows; returns how many fit. */
static int spread_incs(S *s, int k, int *room, int *cnt, int small_only, int64_t *out) {
    int T = s->T;
    int m = 0;
    for (int r = 0; r < k; r++) {
        int bt = -1;
        int bk = 1 << 30;
        for (int t = 0; t < T; t++)
            if (room[t] > 0 && cnt[t] < bk && !(small_only && s->big[t])) { bk = cnt[t]; bt = t; }
        if (bt < 0) break;
        out[m++] = bk;
        cnt[bt] += 1;
        room[bt] -= 1;
    }
    return m;
}

/* See tight_bound in _search.py. */
static int64_t tight_bound(S *s, int64_t partial) {
    int T = s->T;
    if (s->nbig == 0 || s->seat_min >= INF) return 0;
    int f_big = 0;
    for (int b = 0; b < s->nbig; b++) f_big += s->free_[s->big_tables[b]];
    int fill = f_big - s->zero_left;
    if (fill < 0) fill = 0;
    if (partial + (int64_t)(fill + 1) * s->seat_min < s->best_cost) return 0;
    int cut_seat = s->zero_left <= f_big;
    int escapes = cut_seat ? fill : s->zero_left - f_big;
    int64_t total = 0;
    int *nincs = s->nincs;
    int64_t tmp[MAXN], tz[MAXN];
    int room[MAXT], cnt[MAXT];
    for (int f = 0; f < s->nfam; f++) nincs[f] = 0;
    for (int g = 0; g < s->G; g++) {
        if (s->remaining[g] == 0) continue;
        int zs = s->free_left[g];
        int ss = s->remaining[g] - zs;
        /* enough tables with room and none of the group on each side: every increment is 0 (nothing to add, and a
           0 never changes the sum of the largest ones subtracted below) */
        if (ss <= s->zr[g] - s->zrb[g] && zs <= s->zrb[g]) continue;
        for (int t = 0; t < T; t++) { room[t] = s->free_[t]; cnt[t] = s->counts[g * T + t]; }
        int m = spread_incs(s, ss, room, cnt, 1, tmp);
        for (int t = 0; t < T; t++) if (!s->big[t]) room[t] = 0;
        int mz = spread_incs(s, zs, room, cnt, 0, tz);
        int64_t sum = 0;
        for (int q = 0; q < m; q++) sum += tmp[q];
        for (int q = 0; q < mz; q++) sum += tz[q];
        total += sum * s->group_w[g];
        if (escapes) {
            int f = s->family[g];
            const int64_t *src = cut_seat ? tmp : tz;
            int ms = cut_seat ? m : mz;
            int64_t *dst = s->incs_flat + s->fam_off[f];
            for (int q = 0; q < ms; q++) dst[nincs[f]++] = src[q] * s->group_w[g];
        }
    }
    if (escapes) {
        for (int f = 0; f < s->nfam; f++) {
            if (!nincs[f]) continue;
            int take = escapes * s->mult[f];
            const int64_t *incs = s->incs_flat + s->fam_off[f];
            if (take >= nincs[f]) {
                for (int q = 0; q < nincs[f]; q++) total -= incs[q];
            } else { /* the sum of the ``take`` largest: a descending buffer */
                int64_t *top = s->top_buf;
                int nt = 0;
                for (int q = 0; q < nincs[f]; q++) {
                    int64_t v = incs[q];
                    if (nt == take && v <= top[nt - 1]) continue;
                    int k = nt < take ? nt++ : nt - 1;
                    while (k > 0 && top[k - 1] < v) { top[k] = top[k - 1]; k--; }
                    top[k] = v;
                }
                for (int q = 0; q < nt; q++) total -= top[q];
            }
        }
    }
    return total;
}

static int64_t group_bound(S *s) {
    int T = s->T;
    int forbid = s->best_cost < s->seat_min;
    int64_t total = 0, rep_a = 0;
    int room[MAXT];
    for (int g = 0; g < s->G; g++) {
        if (s->remaining[g] == 0) continue;
        int no_big = forbid && s->free_left[g] == 0;
        /* as many tables with room and none of the group as members left: the spread is 0 (the greedy below would
           put each at one of them), so skip it (most previous tables, most of the time) */
        int z = no_big ? s->zr[g] - s->zrb[g] : s->zr[g];
        if (s->remaining[g] <= z) continue;
        memcpy(room, s->free_, sizeof(int) * T);
        if (no_big)
            for (int b = 0; b < s->nbig; b++) room[s->big_tables[b]] = 0;
        int64_t v = spread(s, g, room) * s->group_w[g];
        if (s->group_repeat[g]) rep_a += v; else total += v;
    }
    if (!forbid || s->nbig == 0 || s->nrep == 0) return total + rep_a;
    int64_t rep_b = 0;
    for (int r = 0; r < s->nrep; r++) {
        int g = s->repeat_groups[r];
        if (s->remaining[g] && s->free_left[g] == 0) {
            memcpy(room, s->free_, sizeof(int) * T);
            for (int b = 0; b < s->nbig; b++) room[s->big_tables[b]] = 0;
            rep_b += spread(s, g, room) * s->group_w[g];
        }
    }
    int *kk = s->kk, *elig = s->elig, *live = s->live;
    for (int b = 0; b < s->nbig; b++) {
        int t = s->big_tables[b];
        int f = s->free_[t];
        if (f == 0) continue;
        int nl = 0;
        for (int r = 0; r < s->nrep; r++) {
            int g = s->repeat_groups[r];
            if (s->free_left[g] > 0) { live[nl] = g; kk[nl] = s->counts[g * T + t]; elig[nl] = s->free_left[g]; nl++; }
        }
        int loose = s->loose_left;
        int64_t add = 0, w = 0;
        for (int x = 0; x < f; x++) {
            if (loose > 0) { loose--; continue; }
            int bi = -1;
            for (int q = 0; q < nl; q++)
                if (live[q] >= 0 && (bi < 0 || kk[q] < kk[bi])) bi = q;
            if (bi < 0) break;
            add += kk[bi];
            w = s->group_w[live[bi]];
            kk[bi] += 1;
            elig[bi] -= 1;
            if (elig[bi] == 0) live[bi] = -1;
        }
        rep_b += add * w;
    }
    return total + (rep_a > rep_b ? rep_a : rep_b);
}

/* The seats still free at the big tables are filled by unplaced players: at least the smallest seat costs. */
static int64_t seat_fill(S *s, int depth) {
    int F = 0;
    for (int b = 0; b < s->nbig; b++) F += s->free_[s->big_tables[b]];
    if (F == 0) return 0;
    int64_t v[MAXN];
    int nv = 0;
    for (int idx = depth; idx < s->n; idx++) {
        int64_t x = s->seat[s->order[idx]];
        int q = nv++;
        while (q > 0 && v[q - 1] > x) { v[q] = v[q - 1]; q--; }
        v[q] = x;
    }
    int64_t total = 0;
    for (int q = 0; q < F && q < nv; q++) total += v[q];
    return total;
}

static int64_t player_bound(S *s, int depth, int with_seat) {
    int T = s->T, n = s->n;
    int64_t total = 0;
    for (int idx = depth; idx < n; idx++) {
        int i = s->order[idx];
        int64_t m = INF;
        for (int t = 0; t < T; t++) {
            if (s->free_[t] <= 0) continue;
            int64_t d = (with_seat ? s->seat[i] * s->big[t] : 0) + s->trc[(size_t)t * n + i];
            if (d < m) { m = d; if (m == 0) break; }
        }
        total += m;
    }
    return total;
}

/* Twice a bound on the cost still to come: each unplaced player's cheapest table, counting its placed tablemates
 * in full and half of the cheapest tablemates it could still get among the unplaced (each such pair is counted by
 * both of its players); the larger of that with the seat costs in each player's choice, and without them plus the
 * cheapest filling of the big tables' free seats. */
static int64_t half_pair_bound2(S *s, int depth) {
    int T = s->T, n = s->n;
    int maxf = 0;
    for (int t = 0; t < T; t++) if (s->free_[t] > maxf) maxf = s->free_[t];
    int need = maxf - 1;
    int forbid = s->best_cost < s->seat_min;
    int64_t total = 0, total0 = 0;
    int64_t small[MAXN];
    for (int idx = depth; idx < n; idx++) {
        int i = s->order[idx];
        const int64_t *row = s->cost + (size_t)i * n;
        int ns = 0;
        for (int jdx = depth; jdx < n; jdx++) {
            int j = s->order[jdx];
            if (j == i) continue;
            int64_t v = row[j];
            /* insertion into the ``need`` smallest, ascending */
            if (ns < need) {
                int q = ns++;
                while (q > 0 && small[q - 1] > v) { small[q] = small[q - 1]; q--; }
                small[q] = v;
            } else if (need > 0 && v < small[need - 1]) {
                int q = need - 1;
                while (q > 0 && small[q - 1] > v) { small[q] = small[q - 1]; q--; }
                small[q] = v;
            }
        }
        int64_t prefix[MAXN + 1];
        prefix[0] = 0;
        for (int q = 0; q < ns; q++) prefix[q + 1] = prefix[q] + small[q];
        int64_t m = INF, m0 = INF;
        const unsigned char *al = s->allowed + (size_t)i * T;
        for (int t = 0; t < T; t++) {
            if (s->free_[t] <= 0 || !al[t]) continue;
            if (s->unique[i] && s->class_at[t][s->cls[i]]) continue;
            if (s->big[t] && s->seat[i] && forbid) continue;
            int64_t d = s->tc[(size_t)t * n + i];
            int k = s->free_[t] - 1;
            if (k > ns) k = ns;
            int64_t v0 = 2 * d + prefix[k];
            int64_t v = v0 + 2 * s->seat[i] * s->big[t];
            if (v < m) m = v;
            if (v0 < m0) m0 = v0;
        }
        if (m >= INF) return INF;
        total += m;
        total0 += m0;
    }
    total0 += 2 * seat_fill(s, depth);
    return total > total0 ? total : total0;
}

/* The tables player j may take now, each with what it adds (sorted by (cost, table) when ``sort``): equal empty
 * tables count once; while the best draw has no 5-seat repeat, a 5-player table is closed to anyone it would repeat. */
static int placements(S *s, int j, int64_t *od, int *ot, int sort) {
    int T = s->T;
    const unsigned char *al = s->allowed + (size_t)j * T;
    int no = 0, seen_n = 0;
    int seen_size[MAXT], seen_big[MAXT];
    for (int t = 0; t < T; t++) {
        if (s->free_[t] <= 0 || !al[t] || (s->unique[j] && s->class_at[t][s->cls[j]])) continue;
        if (s->big[t] && s->seat[j] && s->best_cost < s->seat_min) continue;
        if (s->msize[t] == 0) {
            int dup = 0;
            for (int q = 0; q < seen_n; q++)
                if (seen_size[q] == s->sizes[t] && seen_big[q] == s->big[t]) { dup = 1; break; }
            if (dup) continue;
            seen_size[seen_n] = s->sizes[t];
            seen_big[seen_n] = s->big[t];
            seen_n++;
        }
        int64_t d = s->seat[j] * s->big[t] + s->tc[(size_t)t * s->n + j];
        int q = no++; /* insertion sort by (d, t) */
        while (sort && q > 0 && (od[q - 1] > d || (od[q - 1] == d && ot[q - 1] > t))) { od[q] = od[q - 1]; ot[q] = ot[q - 1]; q--; }
        od[q] = d;
        ot[q] = t;
    }
    return no;
}

/* Player i sits down at table t (its seat, its groups' counts, the sums and counters above); ``stand`` undoes it. */
static void sit(S *s, int i, int t) {
    int n = s->n, T = s->T, big = s->big[t];
    const int64_t *c = s->cost + (size_t)i * n, *r = s->rest + (size_t)i * n;
    int64_t *tc = s->tc + (size_t)t * n, *trc = s->trc + (size_t)t * n;
    for (int x = 0; x < n; x++) { tc[x] += c[x]; trc[x] += r[x]; }
    for (int q = s->group_of_start[i]; q < s->group_of_start[i + 1]; q++) {
        int g = s->group_of[q];
        if (s->counts[g * T + t]++ == 0) { s->zr[g]--; s->zrb[g] -= big; }
        s->remaining[g]--;
        if (s->seat[i] == 0) s->free_left[g]--;
    }
    if (--s->free_[t] == 0)
        for (int g = 0; g < s->G; g++)
            if (s->counts[g * T + t] == 0) { s->zr[g]--; s->zrb[g] -= big; }
}

static void stand(S *s, int i, int t) {
    int n = s->n, T = s->T, big = s->big[t];
    const int64_t *c = s->cost + (size_t)i * n, *r = s->rest + (size_t)i * n;
    int64_t *tc = s->tc + (size_t)t * n, *trc = s->trc + (size_t)t * n;
    for (int x = 0; x < n; x++) { tc[x] -= c[x]; trc[x] -= r[x]; }
    if (s->free_[t]++ == 0)
        for (int g = 0; g < s->G; g++)
            if (s->counts[g * T + t] == 0) { s->zr[g]++; s->zrb[g] += big; }
    for (int q = s->group_of_start[i]; q < s->group_of_start[i + 1]; q++) {
        int g = s->group_of[q];
        if (--s->counts[g * T + t] == 0) { s->zr[g]++; s->zrb[g] += big; }
        s->remaining[g]++;
        if (s->seat[i] == 0) s->free_left[g]++;
    }
}

static void dfs(S *s, int depth, int64_t partial) {
    if (s->aborted) return;
    s->nodes++;
    if (s->nodes > s->node_limit) { s->aborted = 1; return; }
    int n = s->n;
    if (depth == n) {
        if (partial < s->best_cost) { s->best_cost = partial; memcpy(s->best_pos, s->pos, sizeof(int) * n); }
        return;
    }
    {
        int64_t gb = group_bound(s);
        int64_t pb = player_bound(s, depth, 1);
        if (partial + gb + pb >= s->best_cost) return;
        int64_t pb0 = player_bound(s, depth, 0) + seat_fill(s, depth);
        if (pb0 > pb) pb = pb0;
        if (partial + gb + pb >= s->best_cost) return;
        if (partial + tight_bound(s, partial) + pb >= s->best_cost) return;
    }
    {
        int64_t h2 = half_pair_bound2(s, depth);
        if (h2 >= INF || partial + (h2 + 1) / 2 >= s->best_cost) return;
    }
    int picked = depth;
    if (depth >= s->nfirst && s->dynamic) {
        /* fail first: the unplaced player with the fewest placements that could still improve on the best draw,
         * then the dearest cheapest placement, then the first in the current order */
        int64_t slack = s->best_cost - partial;
        int bestv = 1 << 30;
        int64_t bestm = -1;
        for (int jdx = depth; jdx < n; jdx++) {
            int64_t jd[MAXT];
            int jt[MAXT];
            int nj = placements(s, s->order[jdx], jd, jt, 0), viable = 0;
            int64_t m1 = INF;
            for (int k = 0; k < nj; k++) {
                if (jd[k] < slack) viable++;
                if (jd[k] < m1) m1 = jd[k];
            }
            if (viable < bestv || (viable == bestv && m1 > bestm)) { bestv = viable; bestm = m1; picked = jdx; }
        }
        int tmpo = s->order[depth]; s->order[depth] = s->order[picked]; s->order[picked] = tmpo;
    }
    int i = s->order[depth];
    int64_t od[MAXT];
    int ot[MAXT];
    int no = placements(s, i, od, ot, 1);
    int uniq = s->unique[i], ci = s->cls[i];
    for (int k = 0; k < no; k++) {
        int64_t d = od[k];
        int t = ot[k];
        if (partial + d >= s->best_cost) break;
        s->pos[i] = t;
        s->members[t][s->msize[t]++] = i;
        if (uniq) s->class_at[t][ci]++;
        sit(s, i, t);
        if (s->loose_player[i]) s->loose_left--;
        if (s->seat[i] == 0) s->zero_left--;
        dfs(s, depth + 1, partial + d);
        if (s->seat[i] == 0) s->zero_left++;
        stand(s, i, t);
        if (s->loose_player[i]) s->loose_left++;
        if (uniq) s->class_at[t][ci]--;
        s->msize[t]--;
        s->pos[i] = -1;
        if (s->aborted) break;
    }
    if (picked != depth) { int tmpo = s->order[depth]; s->order[depth] = s->order[picked]; s->order[picked] = tmpo; }
}

static int read_ints(PyObject *seq, int *out, Py_ssize_t expect, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (expect >= 0 && k != expect) { Py_DECREF(f); PyErr_Format(PyExc_ValueError, "%s: wrong length", what); return -1; }
    for (Py_ssize_t q = 0; q < k; q++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, q));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(f); return -1; }
        out[q] = (int)v;
    }
    Py_DECREF(f);
    return (int)k;
}

static int read_i64(PyObject *seq, int64_t *out, Py_ssize_t expect, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k != expect) { Py_DECREF(f); PyErr_Format(PyExc_ValueError, "%s: wrong length", what); return -1; }
    for (Py_ssize_t q = 0; q < k; q++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, q));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(f); return -1; }
        out[q] = (int64_t)v;
    }
    Py_DECREF(f);
    return (int)k;
}

static PyObject *py_exact(PyObject *self, PyObject *args) {
    int n;
    PyObject *sizes, *big, *cost, *rest, *seat, *cls, *allowed, *unique, *gw, *gm, *grep, *order, *inc;
    long long inc_cost, node_limit;
    int nfirst = 0, dynamic = 1;
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOOOOOLL|ii", &n, &sizes, &big, &cost, &rest, &seat, &cls, &allowed,
                          &unique, &gw, &gm, &grep, &order, &inc, &inc_cost, &node_limit, &nfirst, &dynamic))
        return NULL;
    if (n < 1 || n > MAXN) { PyErr_SetString(PyExc_ValueError, "n out of range"); return NULL; }
    S *s = calloc(1, sizeof(S));
    if (!s) return PyErr_NoMemory();
    PyObject *result = NULL;
    int *tmp = NULL;
    s->n = n;
    int T = read_ints(sizes, s->sizes, -1, "sizes");
    if (T < 1 || T > MAXT) { if (T >= 0) PyErr_SetString(PyExc_ValueError, "tables out of range"); goto done; }
    s->T = T;
    if (read_ints(big, s->big, T, "big") < 0) goto done;
    s->cost = malloc(sizeof(int64_t) * n * n);
    s->rest = malloc(sizeof(int64_t) * n * n);
    s->allowed = malloc((size_t)n * T);
    tmp = malloc(sizeof(int) * (size_t)n * T);
    if (!s->cost || !s->rest || !s->allowed || !tmp) { PyErr_NoMemory(); goto done; }
    if (read_i64(cost, s->cost, (Py_ssize_t)n * n, "cost") < 0) goto done;
    if (read_i64(rest, s->rest, (Py_ssize_t)n * n, "rest") < 0) goto done;
    if (read_i64(seat, s->seat, n, "seat") < 0) goto done;
    if (read_ints(cls, s->cls, n, "cls") < 0) goto done;
    for (int i = 0; i < n; i++)
        if (s->cls[i] < 0 || s->cls[i] >= MAXN) { PyErr_SetString(PyExc_ValueError, "class out of range"); goto done; }
    if (read_ints(allowed, tmp, (Py_ssize_t)n * T, "allowed") < 0) goto done;
    for (int q = 0; q < n * T; q++) s->allowed[q] = (unsigned char)(tmp[q] != 0);
    if (read_ints(unique, s->unique, n, "unique") < 0) goto done;
    {
        PyObject *f = PySequence_Fast(gm, "group_members");
        if (!f) goto done;
        Py_ssize_t G = PySequence_Fast_GET_SIZE(f);
        if (G > MAXG) { Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "too many groups"); goto done; }
        s->G = (int)G;
        Py_ssize_t total = 0;
        for (Py_ssize_t g = 0; g < G; g++) {
            Py_ssize_t k = PySequence_Size(PySequence_Fast_GET_ITEM(f, g));
            if (k < 0) { Py_DECREF(f); goto done; }
            total += k;
        }
        s->gmembers = malloc(sizeof(int) * (total + 1));
        s->group_of = malloc(sizeof(int) * (total + 1));
        s->counts = calloc((size_t)(G ? G : 1) * T, sizeof(int));
        s->tc = calloc((size_t)n * T, sizeof(int64_t));
        s->trc = calloc((size_t)n * T, sizeof(int64_t));
        if (!s->gmembers || !s->group_of || !s->counts || !s->tc || !s->trc) { Py_DECREF(f); PyErr_NoMemory(); goto done; }
        int at = 0;
        for (Py_ssize_t g = 0; g < G; g++) {
            s->gstart[g] = at;
            int k = read_ints(PySequence_Fast_GET_ITEM(f, g), s->gmembers + at, -1, "members");
            if (k < 0) { Py_DECREF(f); goto done; }
            for (int q = 0; q < k; q++)
                if (s->gmembers[at + q] < 0 || s->gmembers[at + q] >= n) {
                    Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "member out of range"); goto done;
                }
            at += k;
        }
        s->gstart[G] = at;
        Py_DECREF(f);
    }
    if (read_i64(gw, s->group_w, s->G, "group_w") < 0) goto done;
    if (read_ints(grep, s->group_repeat, s->G, "group_repeat") < 0) goto done;
    if (read_ints(order, s->order, n, "order") < 0) goto done;
    if (read_ints(inc, s->best_pos, n, "incumbent") < 0) goto done;
    s->best_cost = inc_cost;
    s->node_limit = node_limit;
    s->nfirst = nfirst;
    s->dynamic = dynamic;
    /* derived state, as exact_search builds it */
    for (int i = 0; i < n; i++) s->pos[i] = -1;
    for (int t = 0; t < T; t++) s->free_[t] = s->sizes[t];
    s->seat_min = INF;
    for (int i = 0; i < n; i++) if (s->seat[i] > 0 && s->seat[i] < s->seat_min) s->seat_min = s->seat[i];
    {
        int at = 0;
        for (int i = 0; i < n; i++) {
            s->group_of_start[i] = at;
            for (int g = 0; g < s->G; g++)
                for (int q = s->gstart[g]; q < s->gstart[g + 1]; q++)
                    if (s->gmembers[q] == i) s->group_of[at++] = g;
        }
        s->group_of_start[n] = at;
    }
    for (int g = 0; g < s->G; g++) {
        s->remaining[g] = s->gstart[g + 1] - s->gstart[g];
        int fl = 0;
        for (int q = s->gstart[g]; q < s->gstart[g + 1]; q++) fl += s->seat[s->gmembers[q]] == 0;
        s->free_left[g] = fl;
        if (s->group_repeat[g]) s->repeat_groups[s->nrep++] = g;
    }
    for (int t = 0; t < T; t++) if (s->big[t]) s->big_tables[s->nbig++] = t;
    {
        int open = 0, open_big = 0; /* every table is empty: those with a seat count for every group */
        for (int t = 0; t < T; t++) { open += s->sizes[t] > 0; open_big += s->sizes[t] > 0 && s->big[t]; }
        for (int g = 0; g < s->G; g++) { s->zr[g] = open; s->zrb[g] = open_big; }
    }
    s->loose_left = 0;
    for (int i = 0; i < n; i++) {
        int rep = 0;
        for (int q = s->group_of_start[i]; q < s->group_of_start[i + 1]; q++) rep |= s->group_repeat[s->group_of[q]];
        s->loose_player[i] = s->seat[i] == 0 && !rep;
        s->loose_left += s->loose_player[i];
    }
    s->zero_left = 0;
    for (int i = 0; i < n; i++) s->zero_left += s->seat[i] == 0;
    /* families of groups: same weight and kind, in order of first appearance */
    {
        int64_t fw[MAXG];
        int fr[MAXG];
        s->nfam = 0;
        for (int g = 0; g < s->G; g++) {
            int f = -1;
            for (int q = 0; q < s->nfam; q++)
                if (fw[q] == s->group_w[g] && fr[q] == (s->group_repeat[g] != 0)) { f = q; break; }
            if (f < 0) { f = s->nfam++; fw[f] = s->group_w[g]; fr[f] = s->group_repeat[g] != 0; s->mult[f] = 0; }
            s->family[g] = f;
        }
        for (int i = 0; i < n; i++) {
            int per[MAXG];
            for (int f = 0; f < s->nfam; f++) per[f] = 0;
            for (int q = s->group_of_start[i]; q < s->group_of_start[i + 1]; q++) per[s->family[s->group_of[q]]]++;
            for (int f = 0; f < s->nfam; f++) if (per[f] > s->mult[f]) s->mult[f] = per[f];
        }
        /* each family's increments never exceed its groups' members: room for all of them, never truncated (a
           truncated list would subtract too little and make the bound invalid) */
        int off = 0;
        for (int f = 0; f < s->nfam; f++) {
            s->fam_off[f] = off;
            for (int g = 0; g < s->G; g++)
                if (s->family[g] == f) off += s->gstart[g + 1] - s->gstart[g];
        }
        s->incs_flat = malloc(sizeof(int64_t) * (size_t)(off + 1));
        s->top_buf = malloc(sizeof(int64_t) * (size_t)(off + 1));
        if (!s->incs_flat || !s->top_buf) { PyErr_NoMemory(); goto done; }
    }
    Py_BEGIN_ALLOW_THREADS
    dfs(s, 0, 0);
    Py_END_ALLOW_THREADS
    {
        PyObject *lst = PyList_New(n);
        if (!lst) goto done;
        for (int i = 0; i < n; i++) PyList_SET_ITEM(lst, i, PyLong_FromLong(s->best_pos[i]));
        result = Py_BuildValue("(NLLO)", lst, (long long)s->best_cost, s->nodes, s->aborted ? Py_False : Py_True);
    }
done:
    free(tmp);
    free(s->cost);
    free(s->rest);
    free(s->allowed);
    free(s->gmembers);
    free(s->group_of);
    free(s->counts);
    free(s->tc);
    free(s->trc);
    free(s->incs_flat);
    free(s->top_buf);
    free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"exact", py_exact, METH_VARARGS, "The draw branch-and-bound (see module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_drawsearch", NULL, -1, methods};

PyMODINIT_FUNC PyInit__drawsearch(void) { return PyModule_Create(&module); }
