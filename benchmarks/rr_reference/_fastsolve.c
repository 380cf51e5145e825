/* Optional C accelerator of bot.rules.ricochet.solver (same algorithm as the pure-Python _Search, no diagonals).
 *
 * solve(masks: bytes[256], bounds: bytes[256], stops: bytes[4 * 256], cells: list[int], target: int,
 *       active: list[int], max_moves: int, first_depth: int, node_limit: int = -1,
 *       clock: callable | None = None, deadline: float = 0.0, progress: callable | None = None)
 *   -> (status, path, nodes, bound)
 * status 0: solved, path = [(robot index, direction 0..3 = N E S W), ...] optimal;
 * status 1: no solution up to max_moves; status 2: node_limit reached or clock() > deadline, bound = first
 * unfinished depth. The injected clock is called (with the GIL) every 2^18 nodes; progress(depth_done, nodes) after
 * each completed depth; an exception raised by either propagates.
 * first_depth < 0 means "iterative deepening from 1"; otherwise only depths first_depth..max_moves are tried.
 * The GIL is released during the search; all state lives on the stack/heap of the call (thread-safe).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 7
#define MAXDEPTH 64
/* memory cap of the transposition table: 2^25 slots x 9 bytes = 288 MiB; once full, no new entries are stored
   (the search stays correct, only less pruned) */
#define TT_MAX_SLOTS (1u << 25)

typedef struct {
    uint64_t *keys;
    uint8_t *depth;
    size_t size; /* power of two */
    size_t used;
    int oom;
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
    Table tt;
    int path_r[MAXDEPTH];
    int path_d[MAXDEPTH];
    int plen;
} Search;

static const int REVERSE[4] = {2, 3, 0, 1};

static int tt_init(Table *t, size_t size) {
    t->size = size;
    t->used = 0;
    t->oom = 0;
    t->keys = (uint64_t *)calloc(size, sizeof(uint64_t));
    t->depth = (uint8_t *)calloc(size, 1);
    return t->keys != NULL && t->depth != NULL;
}

static void tt_free(Table *t) {
    free(t->keys);
    free(t->depth);
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int tt_grow(Table *t) {
    Table n;
    if (!tt_init(&n, t->size * 2)) {
        tt_free(&n);
        return 0;
    }
    for (size_t i = 0; i < t->size; i++) {
        if (t->keys[i]) {
            size_t j = mix(t->keys[i]) & (n.size - 1);
            while (n.keys[j]) j = (j + 1) & (n.size - 1);
            n.keys[j] = t->keys[i];
            n.depth[j] = t->depth[i];
            n.used++;
        }
    }
    tt_free(t);
    *t = n;
    return 1;
}

/* returns 1 if (key) was already searched with depth >= left (prune); else records left and returns 0 */
static inline int tt_check(Table *t, uint64_t key, int left) {
    size_t mask = t->size - 1;
    size_t j = mix(key) & mask;
    while (t->keys[j]) {
        if (t->keys[j] == key) {
            if (t->depth[j] >= left) return 1;
            t->depth[j] = (uint8_t)left;
            return 0;
        }
        j = (j + 1) & mask;
    }
    if (t->oom) return 0; /* table full and cannot grow: search on without memo (still correct) */
    t->keys[j] = key;
    t->depth[j] = (uint8_t)left;
    t->used++;
    if (t->used * 2 > t->size) {
        if (t->size >= TT_MAX_SLOTS || !tt_grow(t)) t->oom = 1;
    }
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
    return key | (1ULL << 63); /* at most 8 robots x 8 bits would collide with this flag: n <= 7 is enforced */
}

static inline int bound_now(const Search *s) {
    if (!s->vortex) return s->bound[s->pos[s->single]];
    int b = 255;
    for (int i = 0; i < s->n; i++)
        if (s->bound[s->pos[i]] < b) b = s->bound[s->pos[i]];
    return b;
}

static inline int slide(const Search *s, int i, int d) {
    int p = s->pos[i];
    int st = s->stop[d][p];
    if (st == p) return p;
    int col = p & 15;
    for (int k = 0; k < s->n; k++) {
        if (k == i) continue;
        int o = s->pos[k];
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

/* a one-move finish: only a slide along the target's row or column can end on it */
static inline int finish(const Search *s, int *out_r, int *out_d) {
    int tr = s->target >> 4, tc = s->target & 15;
    for (int k = 0; k < s->nactive; k++) {
        int i = s->active_list[k];
        int p = s->pos[i], d;
        if ((p >> 4) == tr)
            d = s->target > p ? 1 : 3;
        else if ((p & 15) == tc)
            d = s->target > p ? 2 : 0;
        else
            continue;
        if (slide(s, i, d) == s->target) {
            *out_r = i;
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

static int dfs(Search *s, int left, int last_r, int last_d) {
    if (left == 1) {
        int fr, fd;
        if (finish(s, &fr, &fd)) {
            s->path_r[s->plen] = fr;
            s->path_d[s->plen] = fd;
            s->plen++;
            return 1;
        }
        return 0;
    }
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
    if (tt_check(&s->tt, make_key(s), left)) return 0;
    int only_active = (h == left);
    for (int i = 0; i < s->n; i++) {
        if (only_active && !s->is_active[i]) continue;
        int p = s->pos[i];
        for (int d = 0; d < 4; d++) {
            if (i == last_r && (d == last_d || d == REVERSE[last_d])) continue;
            int q = slide(s, i, d);
            if (q == p) continue;
            if (s->is_active[i]) {
                if (q == s->target) {
                    s->path_r[s->plen] = i;
                    s->path_d[s->plen] = d;
                    s->plen++;
                    return 1;
                }
                if (!s->vortex && s->bound[q] >= left) continue; /* the child would be cut by its bound */
            } else if (left == 2 && !near_target(s, q) && (p >> 4) != (s->pos[s->single] >> 4) &&
                       (p & 15) != (s->pos[s->single] & 15)) {
                continue; /* with one move left this can neither stop the active robot nor clear its line */
            }
            if (left == 2) {
                int fr, fd, ok;
                s->pos[i] = (uint8_t)q;
                ok = finish(s, &fr, &fd);
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
            if (left > 1) {
                s->pos[i] = (uint8_t)q;
                s->path_r[s->plen] = i;
                s->path_d[s->plen] = d;
                s->plen++;
                int found = dfs(s, left - 1, i, d);
                s->pos[i] = (uint8_t)p;
                if (found) return 1;
                s->plen--;
                if (s->aborted) return 0;
            }
        }
    }
    return 0;
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
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Py_buffer masks, bounds, stops;
    PyObject *cells, *active;
    int target, max_moves, first_depth;
    long long node_limit = -1;
    PyObject *clock = Py_None, *progress = Py_None;
    double deadline = 0.0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*OiOii|LOdO", &masks, &bounds, &stops, &cells, &target, &active, &max_moves,
                          &first_depth, &node_limit, &clock, &deadline, &progress))
        return NULL;
    Search *s = (Search *)calloc(1, sizeof(Search));
    PyObject *result = NULL;
    if (!s) {
        PyErr_NoMemory();
        goto done_buffers;
    }
    if (bounds.len != 256 || masks.len != 256) {
        PyErr_SetString(PyExc_ValueError, "masks and bounds must be 256 bytes");
        goto done;
    }
    memcpy(s->bound, bounds.buf, 256);
    if (stops.len != 1024) {
        PyErr_SetString(PyExc_ValueError, "stops must be 4 x 256 bytes");
        goto done;
    }
    memcpy(s->stop, stops.buf, 1024);
    {
        int tmp[MAXR];
        int n = read_int_list(cells, tmp, MAXR, "cells");
        if (n < 0) goto done;
        s->n = n;
        for (int i = 0; i < n; i++) s->pos[i] = (uint8_t)tmp[i];
        int na = read_int_list(active, s->active_list, MAXR, "active");
        if (na < 0) goto done;
        s->nactive = na;
        for (int i = 0; i < na; i++) {
            if (s->active_list[i] < 0 || s->active_list[i] >= n) {
                PyErr_SetString(PyExc_ValueError, "active index out of range");
                goto done;
            }
            s->is_active[s->active_list[i]] = 1;
        }
    }
    s->target = target;
    s->vortex = s->nactive > 1;
    s->single = s->nactive == 1 ? s->active_list[0] : -1;
    s->node_limit = node_limit;
    s->clock = clock == Py_None ? NULL : clock;
    s->deadline = deadline;
    s->progress = progress == Py_None ? NULL : progress;
    if (max_moves >= MAXDEPTH) max_moves = MAXDEPTH - 1;
    if (!tt_init(&s->tt, 1 << 16)) {
        PyErr_NoMemory();
        goto done;
    }
    int status = 1, reached_depth = 0;
    s->tstate = PyEval_SaveThread();
    int already = 0;
    for (int i = 0; i < s->n; i++)
        if (s->is_active[i] && s->pos[i] == s->target) already = 1;
    if (already && first_depth <= 0) {
        status = 0;
    } else {
        int start = first_depth < 0 ? 1 : (first_depth == 0 ? 1 : first_depth);
        for (int depth = start; depth <= max_moves; depth++) {
            reached_depth = depth;
            s->plen = 0;
            if (dfs(s, depth, -1, 0)) {
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
    }
    PyEval_RestoreThread(s->tstate);
    if (s->py_error) goto done_tt;
    {
        PyObject *path = PyList_New(0);
        if (!path) goto done_tt;
        if (status == 0) {
            for (int k = 0; k < s->plen; k++) {
                PyObject *item = Py_BuildValue("(ii)", s->path_r[k], s->path_d[k]);
                if (!item || PyList_Append(path, item) < 0) {
                    Py_XDECREF(item);
                    Py_DECREF(path);
                    goto done_tt;
                }
                Py_DECREF(item);
            }
        }
        result = Py_BuildValue("(iNKi)", status, path, s->nodes, reached_depth);
    }
done_tt:
    tt_free(&s->tt);
done:
    free(s);
done_buffers:
    PyBuffer_Release(&masks);
    PyBuffer_Release(&bounds);
    PyBuffer_Release(&stops);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Iterative-deepening solve (see module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastsolve", "Ricochet Robots solver core in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__fastsolve(void) { return PyModule_Create(&module); }
