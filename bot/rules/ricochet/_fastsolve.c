/* Optional C accelerator of bot.rules.ricochet.solver (same algorithm as the pure-Python _Search, no diagonals).
 *
 * solve(bounds: bytes[256], stops: bytes[4 * 256], corridors: bytes[5 * 256 * 32] or b"", cells: sequence[int],
 *       target: int, active: sequence[int], max_moves: int, node_limit: int = -1, clock: callable | None = None,
 *       deadline: float = 0.0, progress: callable | None = None) -> (status, path, nodes, bound)
 * corridors: five tables of 256 masks of 256 bits (4 native uint64 each): the robot-free rays of each cell; the
 * cells the slides of its shortest relaxed paths cross (each up to its stop) and the blocker cells just past each
 * stop that is not a wall stop; the same two over the paths with one extra move (built and cached per board and
 * target by solver.py, which also numbers the active robot 0).
 * status 0: solved, path = [(robot index, direction 0..3 = N E S W), ...] optimal;
 * status 1: no solution up to max_moves; status 2: node_limit reached or clock() > deadline, bound = first
 * unfinished depth. The injected clock is called (with the GIL) every 2^18 nodes; progress(depth_done, nodes) after
 * each completed depth; an exception raised by either propagates.
 *
 * tables(stops: bytes[4 * 256], target: int) -> bytes[256 + 5 * 256 * 32]: the bounds then the corridors above, built
 * here (the same bytes as solver.py's Python construction; the tests compare them), cached per board and target by
 * solver.py.
 * Prepared(stops, targets, vortex, result_type, solved, unreachable): a board prepared once; its solve(position,
 * max_moves) is the whole of an unbudgeted solve of a Position in one call (robots numbered as solver._prepare numbers
 * them, the result built here), its target tables built on first use and kept (see the type below).
 *
 * The search: iterative deepening with a transposition table, the robot-free "stop anywhere" lower bound of the
 * active robot, only active moves when the bound equals the moves left; with one spare move, no move of another
 * robot that neither leaves a crossed cell nor stops on a blocker cell of the active robot (such a move could only
 * pad a solution the active robot has alone), with two the rule of matters_with_two_spare; commuting moves in one
 * order, the order every node's moves are searched in (robot by robot); an upper bound from a breadth-first
 * search of the active robot alone (the others standing still): when every depth below it fails, that path is
 * optimal and the last (most expensive) depth is never searched.
 *
 * The transposition table is per thread and reused across calls (emptied at the end of a call, not reallocated; an
 * allocation grown past KEEP_SLOTS is freed after the call): one packed 64-bit entry per slot (key and moves left:
 * one cache miss per probe), linear probing from 2^12 slots, grown by doubling up to MAX_SLOTS (64 MiB); once that is
 * half full, a new entry replaces the probed entry with the fewest moves left (memoisation degrades gracefully;
 * results are unchanged, only pruning is weaker).
 * The GIL is released during the search; a nested call on the same thread (from a callback) gets its own table.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 7
#define MAXDEPTH 64
#define MAXPROBE 8
#define MIN_SLOTS (1u << 12)  /* 32 KiB: the probes of a short call (most calls) stay in the first-level cache */
#define LOG_SLOTS (MIN_SLOTS / 2) /* slots remembered for a cheap clear: all a call fills before its table grows */
#define KEEP_SLOTS (1u << 20) /* 8 MiB kept between calls (cleared at the end of the call that used it) */
#ifndef MAX_SLOTS
#define MAX_SLOTS (1u << 23) /* 64 MiB; a doubling briefly holds both tables: 96 MiB */
#endif

typedef struct {
    uint64_t *e; /* slots, linear probing: (key << 7) | 64 | left; 0 = empty (entries are never deleted) */
    size_t size; /* slots in use, a power of two: every call starts small (cache-resident) and grows */
    size_t cap;  /* slots allocated (kept between calls up to KEEP_SLOTS); e[size..cap) is always empty */
    size_t used;
    int full;                /* at MAX_SLOTS or out of memory: replace instead of growing */
    uint32_t log[LOG_SLOTS]; /* the first slots filled by this call: a small search clears just those */
} Table;

typedef struct {
    uint8_t stop[4][256];
    uint8_t bound[256];
    int n;
    uint8_t pos[MAXR];
    int target;
    int is_active[MAXR];
    int active_list[MAXR];
    int nactive;
    int vortex;
    int single; /* the single active robot, or -1 */
    unsigned long long nodes;
    long long node_limit;
    int aborted;
    int py_error;          /* the clock or progress callable raised */
    PyObject *clock;       /* injected clock (borrowed) or NULL */
    double deadline;
    PyObject *progress;    /* progress(depth_done, nodes) (borrowed) or NULL */
    PyThreadState *tstate; /* saved while the GIL is released */
    Table *tt;
    int corridors;                  /* the five tables below were given (else no such pruning) */
    const uint64_t (*rays)[4];      /* the cells of the four robot-free slides from a cell */
    const uint64_t (*crossed)[4];   /* cells the slides of the shortest relaxed paths cross, each up to its stop */
    const uint64_t (*blockers)[4];  /* the cell just past each such stop that is not a wall stop */
    const uint64_t (*crossed1)[4];  /* the same two over relaxed paths with at most one move more than the */
    const uint64_t (*blockers1)[4]; /* shortest */
    int path_r[MAXDEPTH];
    int path_d[MAXDEPTH];
    uint8_t path_from[MAXDEPTH], path_to[MAXDEPTH]; /* start and stop of each move of the dfs path */
    int plen;
} Search;

static const int REVERSE[4] = {2, 3, 0, 1};

static _Thread_local Table tl_table; /* the log makes it 8 KiB of thread-local storage */
static _Thread_local int tl_busy;

static int tt_alloc(Table *t, size_t size) {
    t->e = (uint64_t *)calloc(size, sizeof(uint64_t));
    t->size = t->cap = size;
    t->used = 0;
    t->full = 0;
    return t->e != NULL;
}

static void tt_release(Table *t) {
    free(t->e);
    t->e = NULL;
    t->size = t->cap = 0;
    t->used = 0;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static void tt_insert_all(uint64_t *dst, size_t size, const uint64_t *src, size_t n, size_t *used) {
    size_t mask = size - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = src[i];
        if (!v) continue;
        size_t j = mix(v >> 7) & mask;
        for (int probe = 0; probe < MAXPROBE && dst[j]; probe++) j = (j + 1) & mask;
        if (!dst[j]) { /* else dropped: a lost memo, never a wrong answer */
            dst[j] = v;
            (*used)++;
        }
    }
}

/* double the slots in use: within the allocation when it is big enough, else in a new one */
static void tt_grow(Table *t) {
    size_t size = t->size * 2;
    if (size > MAX_SLOTS) { /* half full at the largest size: from now on, replace */
        t->full = 1;
        return;
    }
    if (size <= t->cap) {
        uint64_t *old = (uint64_t *)malloc(t->size * sizeof(uint64_t));
        if (!old) {
            t->full = 1;
            return;
        }
        memcpy(old, t->e, t->size * sizeof(uint64_t));
        memset(t->e, 0, t->size * sizeof(uint64_t));
        t->used = 0;
        tt_insert_all(t->e, size, old, t->size, &t->used);
        free(old);
        t->size = size;
        return;
    }
    uint64_t *e = (uint64_t *)calloc(size, sizeof(uint64_t));
    if (!e) {
        t->full = 1;
        return;
    }
    size_t used = 0;
    tt_insert_all(e, size, t->e, t->size, &used);
    free(t->e);
    t->e = e;
    t->size = t->cap = size;
    t->used = used;
}

/* 1 if key was already searched with at least `left` moves (prune); else records it and returns 0. Once the table
   is at MAX_SLOTS and half full, a new key replaces the entry with the fewest moves left among the slots it
   probed (if that is not deeper), so probes stay short and the deep entries stay. */
static inline int tt_check(Table *t, uint64_t key, int left) {
    size_t mask = t->size - 1;
    size_t j = mix(key) & mask, low = j;
    uint64_t val = (key << 7) | 64u | (uint64_t)left;
    for (int probe = 0; probe < MAXPROBE; probe++, j = (j + 1) & mask) {
        uint64_t v = t->e[j];
        if (!v) {
            if (t->full) break;
            t->e[j] = val;
            if (t->used < LOG_SLOTS) t->log[t->used] = (uint32_t)j;
            if (++t->used * 2 > t->size) tt_grow(t);
            return 0;
        }
        if ((v >> 7) == key) {
            if ((int)(v & 63) >= left) return 1;
            t->e[j] = val;
            return 0;
        }
        if ((v & 63) < (t->e[low] & 63)) low = j;
    }
    if (!t->full) { /* a long cluster: grow early */
        tt_grow(t);
        if (!t->full) return tt_check(t, key, left);
    }
    if (!t->e[low] || (int)(t->e[low] & 63) <= left) t->e[low] = val;
    return 0;
}

static inline uint64_t make_key(const Search *s) {
    uint8_t v[MAXR];
    int k = 0, i, j;
    uint64_t key = 0;
    if (s->vortex) {
        for (i = 0; i < s->n; i++) v[k++] = s->pos[i];
    } else {
        for (i = 0; i < s->n; i++)
            if (i != s->single) v[k++] = s->pos[i];
    }
    for (i = 1; i < k; i++) { /* insertion sort, k <= 7 */
        uint8_t x = v[i];
        j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    if (!s->vortex) key = (uint64_t)s->pos[s->single];
    for (i = 0; i < k; i++) key = (key << 8) | (uint64_t)v[i];
    return key; /* n <= 7 robots: at most 56 bits */
}

/* The key of the state after robot i moved from p to q, from the key of the state before (make_key's layout: the
   single active robot's cell, then the others' cells in ascending order, a byte each): the same value make_key
   would compute, without sorting again. */
static inline uint64_t child_key(const Search *s, uint64_t key, int i, int p, int q) {
    int k = s->vortex ? s->n : s->n - 1;
    if (!s->vortex && i == s->single) return ((uint64_t)q << (8 * k)) | (key & ((1ULL << (8 * k)) - 1));
    uint8_t v[MAXR];
    int m = 0;
    for (int j = k - 1; j >= 0; j--) {
        int c = (int)((key >> (8 * j)) & 255);
        if (c != p) v[m++] = (uint8_t)c;
    }
    uint64_t out = s->vortex ? 0 : (uint64_t)s->pos[s->single];
    int placed = 0;
    for (int j = 0; j < m; j++) {
        if (!placed && q < v[j]) {
            out = (out << 8) | (uint64_t)q;
            placed = 1;
        }
        out = (out << 8) | (uint64_t)v[j];
    }
    if (!placed) out = (out << 8) | (uint64_t)q;
    return out;
}

static inline int bound_now(const Search *s) {
    if (!s->vortex) return s->bound[s->pos[s->single]];
    int b = 255;
    for (int i = 0; i < s->n; i++)
        if (s->bound[s->pos[i]] < b) b = s->bound[s->pos[i]];
    return b;
}

/* stop of robot i moving d from p with the robots of pos as obstacles */
static inline int slide_from(const Search *s, const uint8_t *pos, int i, int p, int d) {
    int st = s->stop[d][p];
    if (st == p) return p;
    int col = p & 15;
    for (int k = 0; k < s->n; k++) {
        if (k == i) continue;
        int o = pos[k];
        switch (d) {
            case 0: /* N: st < p, same column */
                if ((o & 15) == col && o < p && o >= st) st = o + 16;
                break;
            case 1: /* E */
                if (o > p && o <= st) st = o - 1;
                break;
            case 2: /* S */
                if ((o & 15) == col && o > p && o <= st) st = o - 16;
                break;
            default: /* W */
                if (o < p && o >= st) st = o + 1;
                break;
        }
    }
    return st;
}

static inline int slide(const Search *s, int i, int d) { return slide_from(s, s->pos, i, s->pos[i], d); }

/* The four stops of robot i at once (out[d] == slide(s, i, d)), in one pass over the other robots: the nearest robot
   in each direction cuts that slide short (N/S in its column, E/W within the wall stop, which is in its row). */
static inline void slide4(const Search *s, int i, int *out) {
    int p = s->pos[i], col = p & 15;
    int n = s->stop[0][p], e = s->stop[1][p], so = s->stop[2][p], w = s->stop[3][p];
    for (int k = 0; k < s->n; k++) {
        if (k == i) continue;
        int o = s->pos[k];
        if (o > p) {
            if (o <= e) e = o - 1;
            if ((o & 15) == col && o <= so) so = o - 16;
        } else {
            if (o >= w) w = o + 1;
            if ((o & 15) == col && o >= n) n = o + 16;
        }
    }
    out[0] = n;
    out[1] = e;
    out[2] = so;
    out[3] = w;
}

/* a one-move finish of robot i: only a slide along the target's row or column can end on it; the direction or -1 */
static inline int finish_one(const Search *s, int i) {
    int p = s->pos[i], d;
    if ((p >> 4) == (s->target >> 4))
        d = s->target > p ? 1 : 3;
    else if ((p & 15) == (s->target & 15))
        d = s->target > p ? 2 : 0;
    else
        return -1;
    return slide(s, i, d) == s->target ? d : -1;
}

static inline int finish(const Search *s, int *out_r, int *out_d) {
    for (int k = 0; k < s->nactive; k++) {
        int d = finish_one(s, s->active_list[k]);
        if (d >= 0) {
            *out_r = s->active_list[k];
            *out_d = d;
            return 1;
        }
    }
    return 0;
}

static inline int near_target(const Search *s, int q) {
    int t = s->target;
    return q == t - 16 || q == t + 16 || (q == t - 1 && (t & 15) != 0) || (q == t + 1 && (t & 15) != 15);
}

/* Breadth-first search of each active robot alone, the others standing still: the fewest moves (<= max_moves) and
   the path into path_r/path_d, or -1. An upper bound of the optimum (exact when no other robot needs to move). */
static int solo_bfs(const Search *s, int max_moves, int *out_r, int *out_d) {
    int best = -1;
    uint8_t dist[256], from_cell[256], from_dir[256], queue[256];
    for (int k = 0; k < s->nactive; k++) {
        int i = s->active_list[k];
        int start = s->pos[i];
        memset(dist, 255, sizeof dist);
        dist[start] = 0;
        int head = 0, tail = 0, found = -1;
        queue[tail++] = (uint8_t)start;
        while (head < tail && found < 0) {
            int c = queue[head++];
            int dc = dist[c];
            if (dc >= max_moves || (best >= 0 && dc + 1 >= best)) break;
            for (int d = 0; d < 4; d++) {
                int q = slide_from(s, s->pos, i, c, d);
                if (q == c || dist[q] != 255) continue;
                dist[q] = (uint8_t)(dc + 1);
                from_cell[q] = (uint8_t)c;
                from_dir[q] = (uint8_t)d;
                if (q == s->target) {
                    found = q;
                    break;
                }
                queue[tail++] = (uint8_t)q;
            }
        }
        if (found >= 0) {
            int len = dist[found];
            best = len;
            for (int c = found, j = len - 1; j >= 0; j--) {
                out_r[j] = i;
                out_d[j] = from_dir[c];
                c = from_cell[c];
            }
        }
    }
    return best;
}

static inline int has_bit(const uint64_t *mask, int cell) { return (int)((mask[cell >> 6] >> (cell & 63)) & 1); }


static inline int meets(const uint64_t *x, const uint64_t *y) {
    return ((x[0] & y[0]) | (x[1] & y[1]) | (x[2] & y[2]) | (x[3] & y[3])) != 0;
}

/* Two spare moves (bound == left - 2), a move of the non-active robot i from p to q, the active robot on a. After
   it at most one move is not the active robot's one bound closer. It matters only if it leaves a crossed cell or
   enters a blocker cell of the active robot's relaxed paths with at most one extra move (crossed1, blockers1: the
   active robot can then follow alone), or the same robot can next stop on a blocker cell of the shortest paths
   (one slide from q meets them), or it changes the slide of another robot that can next leave a crossed cell or
   stop on a blocker cell (p or q on one of that robot's slides). Else it could only pad a shorter solution. */
static int matters_with_two_spare(const Search *s, int i, int p, int q, int a) {
    if (has_bit(s->crossed1[a], p) || has_bit(s->blockers1[a], q)) return 1;
    if (meets(s->rays[q], s->blockers[a])) return 1;
    for (int j = 0; j < s->n; j++) {
        if (j == i || s->is_active[j]) continue;
        int u = s->pos[j];
        if (!has_bit(s->crossed[a], u) && !meets(s->rays[u], s->blockers[a])) continue;
        if (has_bit(s->rays[u], p) || has_bit(s->rays[u], q)) return 1;
    }
    return 0;
}


/* vortex, one spare move: does a move of robot i (p -> q) leave no crossed cell and reach no blocker cell of every
   other robot that could finish with one move to spare (bound == left - 1)? (A robot with bound == left needs every
   move itself.) */
static inline int useless_for_others(const Search *s, int i, int p, int q, int left) {
    for (int f = 0; f < s->n; f++) {
        if (f == i || s->bound[s->pos[f]] != left - 1) continue;
        if (has_bit(s->crossed[s->pos[f]], p) || has_bit(s->blockers[s->pos[f]], q)) return 0;
    }
    return 1;
}

/* Reads the injected clock: takes the GIL back for the call (every 2^18 nodes, a few ms of search). */
static int past_deadline(Search *s) {
    int late = 0;
    PyEval_RestoreThread(s->tstate);
    PyObject *now = PyObject_CallNoArgs(s->clock);
    if (!now) {
        s->py_error = 1;
        late = 1;
    } else {
        double t = PyFloat_AsDouble(now);
        Py_DECREF(now);
        if (t == -1.0 && PyErr_Occurred()) {
            s->py_error = 1;
            late = 1;
        } else {
            late = t > s->deadline;
        }
    }
    s->tstate = PyEval_SaveThread();
    return late;
}

static void report_progress(Search *s, int depth) {
    PyEval_RestoreThread(s->tstate);
    PyObject *r = PyObject_CallFunction(s->progress, "iK", depth, s->nodes);
    if (!r)
        s->py_error = 1;
    else
        Py_DECREF(r);
    s->tstate = PyEval_SaveThread();
}

/* A tight node (bound == moves left): only an active robot a whose own bound is the moves left can finish, with
   every move its own, each one bound closer, the others standing still. So the state is a's cell alone: `failed`
   marks the cells already shown to fail in this sub-search (their bound fixes their moves left). No table probe,
   no key. A reversal or repeat of the last move can never be one bound closer, so no last-move rule is needed. */
static int tight(Search *s, int a, int left, uint64_t *failed) {
    int p = s->pos[a];
    if (left == 1) {
        int fd = finish_one(s, a);
        if (fd < 0) return 0;
        s->path_r[s->plen] = a;
        s->path_d[s->plen] = fd;
        s->plen++;
        return 1;
    }
    if ((failed[p >> 6] >> (p & 63)) & 1) return 0;
    s->nodes++;
    if (s->node_limit >= 0 && (long long)s->nodes > s->node_limit) {
        s->aborted = 1;
        return 0;
    }
    int stops[4];
    slide4(s, a, stops);
    for (int d = 0; d < 4; d++) {
        int q = stops[d];
        if (q == p || s->bound[q] != left - 1) continue;
        s->pos[a] = (uint8_t)q;
        s->path_r[s->plen] = a;
        s->path_d[s->plen] = d;
        s->plen++;
        int found = tight(s, a, left - 1, failed);
        s->pos[a] = (uint8_t)p;
        if (found) return 1;
        s->plen--;
        if (s->aborted) return 0;
    }
    failed[p >> 6] |= 1ULL << (p & 63);
    return 0;
}

/* x on the robot-free slide from c in direction d (start excluded, wall stop included) */
static inline int on_ray(const Search *s, int c, int d, int x) {
    int st = s->stop[d][c];
    switch (d) {
        case 0:
            return (x & 15) == (c & 15) && st <= x && x < c;
        case 1:
            return c < x && x <= st;
        case 2:
            return (x & 15) == (c & 15) && c < x && x <= st;
        default:
            return st <= x && x < c;
    }
}

/* Two moves that do not see each other (neither robot's start or stop cell lies on the other's robot-free slide)
   give the same slides in either order. */
static inline int independent(const Search *s, int from_a, int to_a, int d_a, int from_b, int to_b, int d_b) {
    return !on_ray(s, from_a, d_a, from_b) && !on_ray(s, from_a, d_a, to_b) && !on_ray(s, from_b, d_b, from_a) &&
           !on_ray(s, from_b, d_b, to_a);
}

#define COMMUTE_LOOKBACK 2

/* Move ordering by commutation: a move of robot i (p -> q in direction d) that does not see the last moves back to
   an earlier move of a higher robot (and not that one either) reaches a state the search also reaches with it
   played before that move: the same moves in an order that comes first in the search's (robot, direction) order.
   Only that order is searched. Since the search visits move sequences in that order and every other rule only
   drops moves that a strictly shorter solution makes redundant, the first optimal sequence in that order is never
   dropped, by these rules or by the table. Walks back at most COMMUTE_LOOKBACK moves (more finds a few more
   transpositions but costs as much as it saves). */
static inline int commuted_away(const Search *s, int i, int p, int q, int d, int higher) {
    if (i >= higher) return 0; /* no higher robot among the last moves */
    for (int k = s->plen - 1, steps = 0; k >= 0 && steps < COMMUTE_LOOKBACK; k--, steps++) {
        int r = s->path_r[k];
        if (r == i || !independent(s, s->path_from[k], s->path_to[k], s->path_d[k], p, q, d)) return 0;
        if (r > i) return 1;
    }
    return 0;
}

static inline void tt_prefetch(const Table *t, uint64_t key) {
    __builtin_prefetch(t->e + (mix(key) & (t->size - 1)));
}

/* key: the state's table key, computed (and its slot prefetched) by the parent; 0 when the node is tight */
static int dfs(Search *s, int left, int last_r, int last_d, uint64_t key) {
    s->nodes++;
    if (s->node_limit >= 0 && (long long)s->nodes > s->node_limit) {
        s->aborted = 1;
        return 0;
    }
    if (s->clock && !(s->nodes & 0x3ffff) && past_deadline(s)) {
        s->aborted = 1;
        return 0;
    }
    int h = bound_now(s);
    if (h > left) return 0;
    if (h == left) {
        s->nodes--; /* counted by tight() */
        for (int k = 0; k < s->nactive; k++) {
            int a = s->active_list[k];
            if (s->bound[s->pos[a]] != left) continue;
            uint64_t failed[4] = {0, 0, 0, 0};
            if (tight(s, a, left, failed)) return 1;
            if (s->aborted) return 0;
        }
        return 0;
    }
    if (tt_check(s->tt, key, left)) return 0;
    int single = s->single;
    int higher = -1; /* the highest robot among the last COMMUTE_LOOKBACK moves */
    for (int k = s->plen - 1, steps = 0; k >= 0 && steps < COMMUTE_LOOKBACK; k--, steps++)
        if (s->path_r[k] > higher) higher = s->path_r[k];
    /* first pass: every move that survives the pruning, finishes tested at once, children's slots prefetched (the
       table probe is the search's main cost: a cache miss, now overlapped with the work of the siblings) */
    int mv_i[4 * MAXR], mv_d[4 * MAXR], mv_q[4 * MAXR], mv_closer[4 * MAXR], nmv = 0;
    uint64_t mv_key[4 * MAXR];
    for (int i = 0; i < s->n; i++) {
        int p = s->pos[i];
        int stops[4];
        slide4(s, i, stops);
        for (int d = 0; d < 4; d++) {
            if (i == last_r && (d == last_d || d == REVERSE[last_d])) continue;
            int q = stops[d];
            if (q == p) continue;
            if (commuted_away(s, i, p, q, d, higher)) continue;
            if (s->is_active[i]) {
                if (q == s->target) {
                    s->path_r[s->plen] = i;
                    s->path_d[s->plen] = d;
                    s->plen++;
                    return 1;
                }
                if (!s->vortex && s->bound[q] >= left) continue; /* the child would be cut by its bound */
            } else if (left == 2 && !near_target(s, q) && (p >> 4) != (s->pos[single] >> 4) &&
                       (p & 15) != (s->pos[single] & 15)) {
                continue; /* with one move left this can neither stop the active robot nor clear its line */
            } else if (h == left - 1 && s->corridors && !has_bit(s->crossed[s->pos[single]], p) &&
                       !has_bit(s->blockers[s->pos[single]], q)) {
                /* one spare move: every other move left is the active robot's, one bound closer each; this move
                   neither leaves a cell such a slide crosses nor stops where it would stop one, so it would only pad
                   a solution the active robot has alone */
                continue;
            }
            if (!s->vortex && !s->is_active[i] && h == left - 2 && s->corridors &&
                !matters_with_two_spare(s, i, p, q, s->pos[single]))
                continue;
            if (s->vortex && h == left - 1 && s->corridors && s->bound[q] >= left && useless_for_others(s, i, p, q, left))
                continue; /* the same for the vortex: i cannot finish after it, nor help another robot finish */
            s->pos[i] = (uint8_t)q;
            if (left == 2) { /* the child has one move left: test the finish here */
                int fr, fd;
                int ok = finish(s, &fr, &fd);
                s->pos[i] = (uint8_t)p;
                if (ok) {
                    s->path_r[s->plen] = i;
                    s->path_d[s->plen] = d;
                    s->path_r[s->plen + 1] = fr;
                    s->path_d[s->plen + 1] = fd;
                    s->plen += 2;
                    return 1;
                }
                continue;
            }
            uint64_t child = 0;
            if (bound_now(s) < left - 1) { /* not tight: the child will probe the table */
                child = child_key(s, key, i, p, q);
                tt_prefetch(s->tt, child);
            }
            s->pos[i] = (uint8_t)p;
            mv_i[nmv] = i;
            mv_d[nmv] = d;
            mv_q[nmv] = q;
            mv_key[nmv] = child;
            /* search order: robot by robot (the active robot is robot 0, solver.py numbers it so), which is also the
               order of commuting moves (see commuted_away: that order is what keeps every optimum); within a robot,
               its moves one bound closer first (a solution is met sooner) */
            mv_closer[nmv] = s->bound[q] < s->bound[p];
            nmv++;
        }
    }
    int ord[4 * MAXR], nord = 0;
    for (int k0 = 0, k1; k0 < nmv; k0 = k1) { /* each robot's moves, generated together: closer ones first */
        for (k1 = k0; k1 < nmv && mv_i[k1] == mv_i[k0]; k1++)
            if (mv_closer[k1]) ord[nord++] = k1;
        for (int k = k0; k < k1; k++)
            if (!mv_closer[k]) ord[nord++] = k;
    }
    for (int o = 0; o < nord; o++) {
        int k = ord[o];
        int i = mv_i[k], p = s->pos[i];
        s->pos[i] = (uint8_t)mv_q[k];
        s->path_r[s->plen] = i;
        s->path_d[s->plen] = mv_d[k];
        s->path_from[s->plen] = (uint8_t)p;
        s->path_to[s->plen] = (uint8_t)mv_q[k];
        s->plen++;
        int found = dfs(s, left - 1, i, mv_d[k], mv_key[k]);
        s->pos[i] = (uint8_t)p;
        if (found) return 1;
        s->plen--;
        if (s->aborted) return 0;
    }
    return 0;
}

/* depth 1: a direct finish */
static int search_depth(Search *s, int depth) {
    s->plen = 0;
    if (depth == 1) {
        int fr, fd;
        if (finish(s, &fr, &fd)) {
            s->path_r[0] = fr;
            s->path_d[0] = fd;
            s->plen = 1;
            return 1;
        }
        return 0;
    }
    return dfs(s, depth, -1, 0, make_key(s));
}

static int read_int_list(PyObject *seq, int *out, int maxn, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > maxn) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many items (%zd)", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > 255) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: item out of range (%ld)", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* the table of this call: the thread's reusable one (empty, MIN_SLOTS in use), or a private one for a nested call */
static Table *table_acquire(Table *private_table, int *is_private) {
    if (tl_busy) {
        *is_private = 1;
        return tt_alloc(private_table, MIN_SLOTS) ? private_table : NULL;
    }
    *is_private = 0;
    if (tl_table.e == NULL && !tt_alloc(&tl_table, MIN_SLOTS)) return NULL;
    tl_table.size = MIN_SLOTS;
    tl_busy = 1;
    return &tl_table;
}

/* Emptied at the end of the call that filled it (a cost in proportion to that call's own work, never charged to
   the next, small call); an allocation grown past KEEP_SLOTS is freed instead. */
static void table_done(Table *t, int is_private) {
    if (is_private) {
        tt_release(t);
        return;
    }
    tl_busy = 0;
    if (t->cap > KEEP_SLOTS) {
        tt_release(t);
        return;
    }
    if (t->used <= LOG_SLOTS && t->size == MIN_SLOTS) {
        for (size_t k = 0; k < t->used; k++) t->e[t->log[k]] = 0;
    } else {
        memset(t->e, 0, t->size * sizeof(uint64_t));
    }
    t->used = 0;
    t->full = 0;
}

/* The iterative deepening of one call on a set-up search (the GIL held on entry and on return): status 0 solved
   (the path in s->path_r/path_d, s->plen moves), 1 no solution up to max_moves, 2 aborted; -1 with a Python error
   set (out of memory, or the clock or progress callable raised). *depth: the last depth started. */
static int run_search(Search *s, int max_moves, int *depth_out) {
    Table private_table;
    int is_private = 0, status = 1, reached_depth = 0;
    if (max_moves >= MAXDEPTH) max_moves = MAXDEPTH - 1;
    s->vortex = s->nactive > 1;
    s->single = s->nactive == 1 ? s->active_list[0] : -1;
    for (int i = 0; i < s->n; i++)
        if (s->is_active[i] && s->pos[i] == s->target) {
            *depth_out = 0;
            return 0;
        }
    if (s->nactive == 0) {
        *depth_out = 0;
        return 1;
    }
    s->tt = table_acquire(&private_table, &is_private);
    if (!s->tt) {
        PyErr_NoMemory();
        return -1;
    }
    s->tstate = PyEval_SaveThread();
    int solo_r[MAXDEPTH], solo_d[MAXDEPTH];
    int solo = -2; /* not computed yet */
    for (int depth = 1; depth <= max_moves; depth++) {
        reached_depth = depth;
        if (solo == -2 && depth >= 3) solo = solo_bfs(s, max_moves, solo_r, solo_d);
        if (solo == depth) { /* every shorter depth failed: the solo path is optimal */
            memcpy(s->path_r, solo_r, sizeof(int) * (size_t)depth);
            memcpy(s->path_d, solo_d, sizeof(int) * (size_t)depth);
            s->plen = depth;
            status = 0;
            break;
        }
        if (search_depth(s, depth)) {
            status = 0;
            break;
        }
        if (s->aborted) {
            status = 2;
            break;
        }
        if (s->progress) {
            report_progress(s, depth);
            if (s->py_error) break;
        }
    }
    PyEval_RestoreThread(s->tstate);
    table_done(s->tt, is_private);
    *depth_out = reached_depth;
    return s->py_error ? -1 : status;
}

static void use_corridors(Search *s, const uint8_t *buf) {
    const uint64_t (*tables)[4] = (const uint64_t (*)[4])buf;
    s->rays = tables;
    s->crossed = tables + 256;
    s->blockers = tables + 512;
    s->crossed1 = tables + 768;
    s->blockers1 = tables + 1024;
    s->corridors = 1;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Py_buffer bounds, stops, corridors;
    PyObject *cells, *active;
    int target, max_moves;
    long long node_limit = -1;
    PyObject *clock = Py_None, *progress = Py_None;
    double deadline = 0.0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*OiOi|LOdO", &bounds, &stops, &corridors, &cells, &target, &active, &max_moves,
                          &node_limit, &clock, &deadline, &progress))
        return NULL;
    Search s;
    PyObject *result = NULL;
    memset(&s, 0, sizeof s);
    if (bounds.len != 256 || stops.len != 1024 || (corridors.len != 0 && corridors.len != 5 * 256 * 32)) {
        PyErr_SetString(PyExc_ValueError, "bounds: 256 bytes, stops: 4 x 256, corridors: empty or 5 x 256 x 32");
        goto done_buffers;
    }
    if (corridors.len) use_corridors(&s, (const uint8_t *)corridors.buf);
    if (target < 0 || target > 255) {
        PyErr_SetString(PyExc_ValueError, "target out of range");
        goto done_buffers;
    }
    memcpy(s.bound, bounds.buf, 256);
    memcpy(s.stop, stops.buf, 1024);
    {
        int tmp[MAXR];
        int n = read_int_list(cells, tmp, MAXR, "cells");
        if (n < 0) goto done_buffers;
        s.n = n;
        for (int i = 0; i < n; i++) s.pos[i] = (uint8_t)tmp[i];
        int na = read_int_list(active, s.active_list, MAXR, "active");
        if (na < 0) goto done_buffers;
        s.nactive = na;
        for (int i = 0; i < na; i++) {
            if (s.active_list[i] >= n) {
                PyErr_SetString(PyExc_ValueError, "active index out of range");
                goto done_buffers;
            }
            s.is_active[s.active_list[i]] = 1;
        }
    }
    s.target = target;
    s.node_limit = node_limit;
    s.clock = clock == Py_None ? NULL : clock;
    s.deadline = deadline;
    s.progress = progress == Py_None ? NULL : progress;
    int reached_depth = 0;
    int status = run_search(&s, max_moves, &reached_depth);
    if (status < 0) goto done_buffers;
    {
        PyObject *path = PyList_New(status == 0 ? s.plen : 0);
        if (!path) goto done_buffers;
        if (status == 0) {
            for (int k = 0; k < s.plen; k++) {
                PyObject *item = Py_BuildValue("(ii)", s.path_r[k], s.path_d[k]);
                if (!item) {
                    Py_DECREF(path);
                    goto done_buffers;
                }
                PyList_SET_ITEM(path, k, item);
            }
        }
        result = Py_BuildValue("(iNKi)", status, path, s.nodes, reached_depth);
    }
done_buffers:
    PyBuffer_Release(&bounds);
    PyBuffer_Release(&stops);
    PyBuffer_Release(&corridors);
    return result;
}

/* ---- per-target tables, built here once per board and target (solver.py caches them) ---- */

#define TABLES_LEN (256 + 5 * 256 * 32)

static const int STEP[4] = {-16, 1, 16, -1};

static inline void set_bit(uint64_t *mask, int cell) { mask[cell >> 6] |= 1ULL << (cell & 63); }

static inline void or_into(uint64_t *dst, const uint64_t *src) {
    dst[0] |= src[0];
    dst[1] |= src[1];
    dst[2] |= src[2];
    dst[3] |= src[3];
}

/* The robot-free "stop anywhere" lower bound (solver.lower_bounds): a breadth-first search back from the target; the
   cells from which a slide in direction d passes through c are those behind c up to its wall stop the other way. */
static void build_bounds(const uint8_t (*stop)[256], int target, uint8_t *bound) {
    uint8_t queue[256];
    int head = 0, tail = 0;
    memset(bound, 255, 256);
    bound[target] = 0;
    queue[tail++] = (uint8_t)target;
    while (head < tail) {
        int c = queue[head++];
        for (int d = 0; d < 4; d++) {
            int back = STEP[REVERSE[d]], end = stop[REVERSE[d]][c];
            for (int x = c; x != end;) {
                x += back;
                if (bound[x] == 255) {
                    bound[x] = (uint8_t)(bound[c] + 1);
                    queue[tail++] = (uint8_t)x;
                }
            }
        }
    }
}

/* solver._crossed_and_blockers, the same masks in the same order: cells by level, each slide walked to its wall stop;
   with spare (the shortest paths' masks), over the paths with at most one extra move. */
static void build_corridors(const uint8_t (*stop)[256], const uint8_t *bound, const uint64_t (*spare_c)[4],
                            const uint64_t (*spare_b)[4], uint64_t (*crossed)[4], uint64_t (*blockers)[4]) {
    int order[256], n = 0, top = 0;
    for (int c = 0; c < 256; c++)
        if (bound[c] != 255 && bound[c] > top) top = bound[c];
    for (int level = 1; level <= top; level++)
        for (int c = 0; c < 256; c++)
            if (bound[c] == level) order[n++] = c;
    memset(crossed, 0, 256 * sizeof *crossed);
    memset(blockers, 0, 256 * sizeof *blockers);
    for (int k = 0; k < n; k++) {
        int c = order[k], level = bound[c];
        uint64_t acc_c[4] = {0, 0, 0, 0}, acc_b[4] = {0, 0, 0, 0};
        for (int d = 0; d < 4; d++) {
            int st = stop[d][c], step = STEP[d];
            uint64_t seg[4] = {0, 0, 0, 0};
            for (int x = c; x != st;) {
                x += step;
                set_bit(seg, x);
                const uint64_t *via_c, *via_b;
                if (bound[x] == level - 1) {
                    via_c = crossed[x];
                    via_b = blockers[x];
                } else if (spare_c && bound[x] == level) {
                    via_c = spare_c[x];
                    via_b = spare_b[x];
                } else {
                    continue;
                }
                or_into(acc_c, seg);
                or_into(acc_c, via_c);
                or_into(acc_b, via_b);
                if (x != st) set_bit(acc_b, x + step);
            }
        }
        memcpy(crossed[c], acc_c, sizeof acc_c);
        memcpy(blockers[c], acc_b, sizeof acc_b);
    }
}

static int read_stops(Py_buffer *stops) {
    if (stops->len != 1024) {
        PyErr_SetString(PyExc_ValueError, "stops: 4 x 256 bytes");
        return -1;
    }
    const uint8_t *b = (const uint8_t *)stops->buf;
    for (int d = 0; d < 4; d++)
        for (int c = 0; c < 256; c++) {
            int st = b[d * 256 + c]; /* a wall stop lies on c's own line, in direction d (or is c itself) */
            int ok = d == 0 ? (st <= c && (st & 15) == (c & 15))
                   : d == 2 ? (st >= c && (st & 15) == (c & 15))
                   : d == 1 ? (st >= c && (st >> 4) == (c >> 4))
                            : (st <= c && (st >> 4) == (c >> 4));
            if (!ok) {
                PyErr_Format(PyExc_ValueError, "stops: bad stop %d of cell %d direction %d", st, c, d);
                return -1;
            }
        }
    return 0;
}

/* The bound table (256 bytes) then the five corridor tables solve() reads, for target cell `target` of a board whose
   wall stops are `stop` (checked by read_stops); a new bytes object, or NULL with an exception set. */
static PyObject *build_tables(const uint8_t (*stop)[256], int target) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, TABLES_LEN);
    if (!out) return NULL;
    uint8_t *bound = (uint8_t *)PyBytes_AS_STRING(out);
    uint64_t (*t)[4] = (uint64_t (*)[4])(bound + 256); /* 256 bytes in: 8-aligned in a bytes object */
    uint64_t (*rays)[4] = t, (*crossed)[4] = t + 256, (*blockers)[4] = t + 512;
    build_bounds(stop, target, bound);
    memset(rays, 0, 256 * sizeof *rays);
    for (int c = 0; c < 256; c++)
        for (int d = 0; d < 4; d++)
            for (int x = c; x != stop[d][c];) {
                x += STEP[d];
                set_bit(rays[c], x);
            }
    build_corridors(stop, bound, NULL, NULL, crossed, blockers);
    build_corridors(stop, bound, (const uint64_t (*)[4])crossed, (const uint64_t (*)[4])blockers, t + 768, t + 1024);
    return out;
}

/* tables(stops, target) -> bytes: the bound table (256 bytes) then the five corridor tables solve() reads. */
static PyObject *py_tables(PyObject *self, PyObject *args) {
    Py_buffer stops;
    int target;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*i", &stops, &target)) return NULL;
    PyObject *out = NULL;
    if (read_stops(&stops) < 0) goto done;
    if (target < 0 || target > 255) {
        PyErr_SetString(PyExc_ValueError, "target out of range");
        goto done;
    }
    out = build_tables((const uint8_t (*)[256])stops.buf, target);
done:
    PyBuffer_Release(&stops);
    return out;
}

static PyObject *DIRECTION_NAMES[4];
static PyObject *STR_ROBOTS, *STR_TARGET, *RESULT_FIELDS[6]; /* interned attribute names */

/* ---- Prepared: a board prepared once, then one C call per position ----

   Prepared(stops, targets, vortex, result_type, solved, unreachable): the board's wall stops (4 x 256 bytes) and its
   targets (Target tuples: row, col, colour, symbol), the vortex colour, and the result class with its two statuses
   (solver.SolveResult, SolveStatus.SOLVED, SolveStatus.UNREACHABLE), so that a call returns the finished result.
   solve(position, max_moves) -> SolveResult | None: an unbudgeted solve of a Position (its robots and target read
   here); None when the position is not one this call settles (a target that is not the board's, no robot of the
   target's colour, too many robots, a malformed position): the caller then takes its general path, which gives the
   error. The robots are numbered as solver._prepare numbers them (the active robot 0, which the search order relies
   on); moves as ((colour, "N" | "E" | "S" | "W"), ...). A target's tables are built on its first solve and kept.
   table(cell) -> bytes: the tables of a target cell (built if needed), as tables() builds them; built() -> the
   cells whose tables are built; forget(cell): drop a cell's tables (the next solve builds them again). */
typedef struct {
    PyObject_HEAD
    uint8_t stop[4][256];
    PyObject *target_at[256]; /* the board's Target on each cell (the first one if two share a cell), or NULL */
    PyObject *tables[256];    /* build_tables() of each target cell once built, or NULL */
    PyObject *vortex, *result_type, *solved, *unreachable, *engine;
} Prepared;

static void prepared_dealloc(Prepared *self) {
    for (int c = 0; c < 256; c++) {
        Py_XDECREF(self->target_at[c]);
        Py_XDECREF(self->tables[c]);
    }
    Py_XDECREF(self->vortex);
    Py_XDECREF(self->result_type);
    Py_XDECREF(self->solved);
    Py_XDECREF(self->unreachable);
    Py_XDECREF(self->engine);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *prepared_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    Py_buffer stops;
    PyObject *targets, *vortex, *result_type, *solved, *unreachable;
    static char *kwlist[] = {"stops", "targets", "vortex", "result_type", "solved", "unreachable", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*O!UO!OO", kwlist, &stops, &PyTuple_Type, &targets, &vortex,
                                     &PyType_Type, &result_type, &solved, &unreachable))
        return NULL;
    Prepared *self = NULL;
    if (read_stops(&stops) < 0) goto done;
    for (int f = 0; f < 6; f++) /* the result's fields are slots or attributes the class declares */
        if (!PyObject_HasAttr(result_type, RESULT_FIELDS[f])) {
            PyErr_Format(PyExc_TypeError, "result_type has no field %U", RESULT_FIELDS[f]);
            goto done;
        }
    self = (Prepared *)type->tp_alloc(type, 0); /* zero-filled */
    if (!self) goto done;
    memcpy(self->stop, stops.buf, 1024);
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(targets); k++) {
        PyObject *t = PyTuple_GET_ITEM(targets, k);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4) {
            PyErr_SetString(PyExc_ValueError, "targets: (row, col, colour, symbol) tuples");
            Py_CLEAR(self);
            goto done;
        }
        long r = PyLong_AsLong(PyTuple_GET_ITEM(t, 0)), c = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        if ((r == -1 || c == -1) && PyErr_Occurred()) {
            Py_CLEAR(self);
            goto done;
        }
        if (r < 0 || r > 15 || c < 0 || c > 15) {
            PyErr_SetString(PyExc_ValueError, "targets: cell out of range");
            Py_CLEAR(self);
            goto done;
        }
        if (!self->target_at[r * 16 + c]) {
            Py_INCREF(t);
            self->target_at[r * 16 + c] = t;
        }
    }
    self->engine = PyUnicode_InternFromString("c");
    if (!self->engine) {
        Py_CLEAR(self);
        goto done;
    }
    Py_INCREF(vortex);
    self->vortex = vortex;
    Py_INCREF(result_type);
    self->result_type = result_type;
    Py_INCREF(solved);
    self->solved = solved;
    Py_INCREF(unreachable);
    self->unreachable = unreachable;
done:
    PyBuffer_Release(&stops);
    return (PyObject *)self;
}

/* the tables of cell c, built on first use (borrowed reference), or NULL with an exception set */
static PyObject *prepared_tables_of(Prepared *self, int c) {
    if (!self->tables[c]) self->tables[c] = build_tables((const uint8_t (*)[256])self->stop, c);
    return self->tables[c];
}

static int cell_arg(PyObject *arg, int *out) {
    long c = PyLong_AsLong(arg);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c > 255) {
        PyErr_SetString(PyExc_ValueError, "cell out of range");
        return -1;
    }
    *out = (int)c;
    return 0;
}

static PyObject *prepared_table(Prepared *self, PyObject *arg) {
    int c;
    if (cell_arg(arg, &c) < 0) return NULL;
    PyObject *t = prepared_tables_of(self, c);
    Py_XINCREF(t);
    return t;
}

static PyObject *prepared_built(Prepared *self, PyObject *unused) {
    (void)unused;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int c = 0; c < 256; c++) {
        if (!self->tables[c]) continue;
        PyObject *v = PyLong_FromLong(c);
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    PyObject *t = PyList_AsTuple(out);
    Py_DECREF(out);
    return t;
}

static PyObject *prepared_forget(Prepared *self, PyObject *arg) {
    int c;
    if (cell_arg(arg, &c) < 0) return NULL;
    Py_CLEAR(self->tables[c]); /* a search running on it holds its own reference */
    Py_RETURN_NONE;
}

/* result_type(status, moves, optimal_moves, lower_bound, nodes, engine), its slots set as the dataclass's own
   __init__ sets them (object.__setattr__), without running Python code */
static PyObject *make_result(Prepared *self, PyObject *status, PyObject *moves, PyObject *optimal, PyObject *bound,
                             PyObject *nodes) {
    PyTypeObject *type = (PyTypeObject *)self->result_type;
    PyObject *r = type->tp_alloc(type, 0);
    if (!r) return NULL;
    PyObject *values[6] = {status, moves, optimal, bound, nodes, self->engine};
    for (int f = 0; f < 6; f++)
        if (PyObject_GenericSetAttr(r, RESULT_FIELDS[f], values[f]) < 0) {
            Py_DECREF(r);
            return NULL;
        }
    return r;
}

static PyObject *prepared_solve(Prepared *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "solve(position, max_moves)");
        return NULL;
    }
    long max_long = PyLong_AsLong(args[1]);
    if (max_long == -1 && PyErr_Occurred()) return NULL;
    if (max_long < 0 || max_long > 1000) {
        PyErr_SetString(PyExc_ValueError, "max_moves: 0 to 1000");
        return NULL;
    }
    int max_moves = (int)max_long;
    PyObject *target = PyObject_GetAttr(args[0], STR_TARGET), *robots = NULL, *tables = NULL, *result = NULL;
    PyObject *names[MAXR];
    int cell[MAXR], order[MAXR];
    if (!target) return NULL;
    robots = PyObject_GetAttr(args[0], STR_ROBOTS);
    if (!robots) goto done;
    if (!PyTuple_Check(target) || PyTuple_GET_SIZE(target) != 4 || !PyTuple_Check(robots) ||
        PyTuple_GET_SIZE(robots) > MAXR)
        goto none;
    long tr = PyLong_AsLong(PyTuple_GET_ITEM(target, 0)), tc = PyLong_AsLong(PyTuple_GET_ITEM(target, 1));
    if ((tr == -1 || tc == -1) && PyErr_Occurred()) goto done;
    if (tr < 0 || tr > 15 || tc < 0 || tc > 15) goto none;
    int target_cell = (int)(tr * 16 + tc);
    PyObject *known = self->target_at[target_cell];
    if (!known) goto none;
    if (known != target) { /* a Target equal to the board's, not the board's own object */
        int eq = PyObject_RichCompareBool(known, target, Py_EQ);
        if (eq < 0) goto done;
        if (!eq) goto none;
    }
    PyObject *colour = PyTuple_GET_ITEM(target, 2);
    int vortex = colour == self->vortex;
    if (!vortex) {
        vortex = PyObject_RichCompareBool(colour, self->vortex, Py_EQ);
        if (vortex < 0) goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(robots);
    int k = vortex ? -1 : -2;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(robots, i), *rc;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 || !PyTuple_Check(rc = PyTuple_GET_ITEM(item, 1)) ||
            PyTuple_GET_SIZE(rc) != 2)
            goto none;
        long r = PyLong_AsLong(PyTuple_GET_ITEM(rc, 0)), c = PyLong_AsLong(PyTuple_GET_ITEM(rc, 1));
        if ((r == -1 || c == -1) && PyErr_Occurred()) goto done;
        if (r < 0 || r > 15 || c < 0 || c > 15) goto none;
        names[i] = PyTuple_GET_ITEM(item, 0);
        cell[i] = (int)(r * 16 + c);
        if (k == -2) {
            int eq = names[i] == colour || PyObject_RichCompareBool(names[i], colour, Py_EQ);
            if (eq < 0) goto done;
            if (eq) k = (int)i;
        }
    }
    if (k == -2) goto none; /* no robot of the target's colour */
    tables = prepared_tables_of(self, target_cell);
    if (!tables) goto done;
    Py_INCREF(tables); /* kept alive through the search, whatever forget() does meanwhile */
    {
        Search s;
        memset(&s, 0, sizeof s);
        int m = 0;
        if (k >= 0) order[m++] = k;
        for (int i = 0; i < (int)n; i++)
            if (i != k) order[m++] = i;
        s.n = (int)n;
        for (int i = 0; i < (int)n; i++) s.pos[i] = (uint8_t)cell[order[i]];
        if (k >= 0) {
            s.nactive = 1;
            s.active_list[0] = 0;
            s.is_active[0] = 1;
        } else {
            s.nactive = (int)n;
            for (int i = 0; i < (int)n; i++) {
                s.active_list[i] = i;
                s.is_active[i] = 1;
            }
        }
        const uint8_t *t = (const uint8_t *)PyBytes_AS_STRING(tables);
        memcpy(s.bound, t, 256);
        memcpy(s.stop, self->stop, 1024);
        use_corridors(&s, t + 256);
        s.target = target_cell;
        s.node_limit = -1;
        int depth = 0;
        int status = run_search(&s, max_moves, &depth);
        if (status < 0) goto done;
        PyObject *nodes = PyLong_FromUnsignedLongLong(s.nodes);
        if (!nodes) goto done;
        if (status == 0) {
            PyObject *moves = PyTuple_New(s.plen), *len = NULL;
            if (moves) {
                for (int j = 0; j < s.plen; j++) {
                    PyObject *step = PyTuple_Pack(2, names[order[s.path_r[j]]], DIRECTION_NAMES[s.path_d[j]]);
                    if (!step) {
                        Py_CLEAR(moves);
                        break;
                    }
                    PyTuple_SET_ITEM(moves, j, step);
                }
            }
            if (moves && (len = PyLong_FromLong(s.plen)))
                result = make_result(self, self->solved, moves, len, len, nodes);
            Py_XDECREF(moves);
            Py_XDECREF(len);
        } else { /* 1: no solution within max_moves (no budget: never 2) */
            PyObject *bound = PyLong_FromLong((long)max_moves + 1);
            if (bound) result = make_result(self, self->unreachable, Py_None, Py_None, bound, nodes);
            Py_XDECREF(bound);
        }
        Py_DECREF(nodes);
    }
    goto done;
none:
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(tables);
    Py_XDECREF(robots);
    Py_DECREF(target);
    return result;
}

static PyMethodDef prepared_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))prepared_solve, METH_FASTCALL,
     "solve(position, max_moves) -> SolveResult | None (see module source)."},
    {"table", (PyCFunction)prepared_table, METH_O, "table(cell) -> bytes: the tables of a target cell."},
    {"built", (PyCFunction)prepared_built, METH_NOARGS, "built() -> the target cells whose tables are built."},
    {"forget", (PyCFunction)prepared_forget, METH_O, "forget(cell): drop the tables of a target cell."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PreparedType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_fastsolve.Prepared",
    .tp_basicsize = sizeof(Prepared),
    .tp_dealloc = (destructor)prepared_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A board prepared once: its stops and targets, and each target's tables once built.",
    .tp_methods = prepared_methods,
    .tp_new = prepared_new,
};

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Iterative-deepening solve (see module source)."},
    {"tables", py_tables, METH_VARARGS, "The bound and corridor tables of a board and target (see module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastsolve", "Ricochet Robots solver core in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__fastsolve(void) {
    static const char *names[4] = {"N", "E", "S", "W"};
    static const char *fields[6] = {"status", "moves", "optimal_moves", "lower_bound", "nodes", "engine"};
    for (int d = 0; d < 4; d++)
        if (!DIRECTION_NAMES[d] && !(DIRECTION_NAMES[d] = PyUnicode_InternFromString(names[d]))) return NULL;
    for (int f = 0; f < 6; f++)
        if (!RESULT_FIELDS[f] && !(RESULT_FIELDS[f] = PyUnicode_InternFromString(fields[f]))) return NULL;
    if (!STR_ROBOTS && !(STR_ROBOTS = PyUnicode_InternFromString("robots"))) return NULL;
    if (!STR_TARGET && !(STR_TARGET = PyUnicode_InternFromString("target"))) return NULL;
    if (PyType_Ready(&PreparedType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&PreparedType);
    if (PyModule_AddObject(m, "Prepared", (PyObject *)&PreparedType) < 0) {
        Py_DECREF(&PreparedType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
