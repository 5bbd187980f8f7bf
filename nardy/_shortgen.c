/*
 * nardy._shortgen: the whole-turn move generator of short nardy's board (short nardy, Hypergammon, Nackgammon,
 * Portes, Misère), in C. It does what nardy/movegen.py's _turns_in_context does with ShortNardy.successors and the
 * default turn context, in the same order, and returns the same values: optional, built by setup.py beside the
 * mypyc modules, used only when their manifest matches (nardy/_build.py), and compared with the Python generator
 * in tests/nardy/test_shortgen.py.
 *
 * `turns` returns the end states as a dict {state: step path}, as _turns_in_context does (TurnPlan's form). The
 * listings `moves` (the parts of nardy.legal_moves' Move and Position objects), `states` (the computer players'
 * search) and `count` take a Position's two sides instead and make no more Python objects than their answer needs.
 *
 * A state is the generator's 50 bytes (nardy/variants/base.py): 0..23 the mover's points 1..24, 24 the mover's bar,
 * 25..49 the opponent's side in its own frame (49 its bar). The opponent's point for the mover's point p is byte
 * 49 - p. A path is the steps' indices in nardy.movegen._STEPS: ((src * 27 + dst) * 14 + die * 2 + hit).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define STATE_LEN 50
#define BAR 24
#define OPP_BAR 49
#define MAX_STEPS 4
#define STEP_TABLE_LEN (27 * 27 * 14)

typedef struct {
    uint64_t hash; /* zobrist_hash of the state */
    uint8_t state[STATE_LEN];
    uint8_t length;
    uint16_t path[MAX_STEPS];
} Entry;

/* A level's first entries and index live in the level itself (no allocation for most turns); a larger level moves
 * them to the heap. */
#define INLINE_ENTRIES 32

/* The states of one level in insertion order, with an open-addressing index (slots hold entry + 1; 0 is empty). */
typedef struct {
    Entry *entries;
    Py_ssize_t size;
    Py_ssize_t capacity;
    int32_t *slots;
    Py_ssize_t mask;
    Entry inline_entries[INLINE_ENTRIES];
    int32_t inline_slots[2 * INLINE_ENTRIES];
} Level;

/* Zobrist hashing: a state's hash is the XOR of one random word per (byte, count), so that a step updates it with
 * the few bytes it changes instead of hashing 50 bytes. The words are fixed at import (splitmix64 from a constant):
 * the hash decides only where a state is indexed, never the order of the states listed. */
static uint64_t zobrist[STATE_LEN][16];

static void zobrist_init(void) {
    uint64_t seed = 0x6E617264795F7A62ULL;
    for (int i = 0; i < STATE_LEN; i++) {
        for (int c = 0; c < 16; c++) {
            uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            zobrist[i][c] = z ^ (z >> 31);
        }
    }
}

static uint64_t zobrist_hash(const uint8_t *state) {
    uint64_t hash = 0;
    for (int i = 0; i < STATE_LEN; i++) {
        hash ^= zobrist[i][state[i]];
    }
    return hash;
}

static void level_init(Level *level) {
    level->size = 0;
    level->capacity = INLINE_ENTRIES;
    level->mask = 2 * INLINE_ENTRIES - 1;
    level->entries = level->inline_entries;
    level->slots = level->inline_slots;
    memset(level->inline_slots, 0, sizeof(level->inline_slots));
}

static void level_free(Level *level) {
    if (level->entries != level->inline_entries) {
        PyMem_Free(level->entries);
    }
    if (level->slots != level->inline_slots) {
        PyMem_Free(level->slots);
    }
    level->entries = level->inline_entries;
    level->slots = level->inline_slots;
}

static int level_reindex(Level *level) {
    Py_ssize_t mask = level->mask * 2 + 1;
    if (mask > INT32_MAX) {
        return -1;
    }
    int32_t *slots = PyMem_Calloc((size_t)mask + 1, sizeof(int32_t));
    if (slots == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < level->size; i++) {
        Py_ssize_t slot = (Py_ssize_t)(level->entries[i].hash & (uint64_t)mask);
        while (slots[slot]) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = (int32_t)(i + 1);
    }
    if (level->slots != level->inline_slots) {
        PyMem_Free(level->slots);
    }
    level->slots = slots;
    level->mask = mask;
    return 0;
}

static int level_grow(Level *level) {
    size_t bytes = sizeof(Entry) * (size_t)level->capacity * 2;
    Entry *entries;
    if (level->entries == level->inline_entries) {
        entries = PyMem_Malloc(bytes);
        if (entries != NULL) {
            memcpy(entries, level->inline_entries, sizeof(level->inline_entries));
        }
    } else {
        entries = PyMem_Realloc(level->entries, bytes);
    }
    if (entries == NULL) {
        return -1;
    }
    level->entries = entries;
    level->capacity *= 2;
    return 0;
}

/* The slot of a fresh entry, the level's next (its state and hash filled in by the caller), for `level_commit`; or
 * -1 when the level holds that state already (the first path found is kept), -2 on a failed allocation. */
static Py_ssize_t level_find(Level *level, const Entry *fresh) {
    Py_ssize_t slot = (Py_ssize_t)(fresh->hash & (uint64_t)level->mask);
    int32_t held;
    while ((held = level->slots[slot]) != 0) {
        const Entry *entry = &level->entries[held - 1];
        if (entry->hash == fresh->hash && memcmp(entry->state, fresh->state, STATE_LEN) == 0) {
            return -1;
        }
        slot = (slot + 1) & level->mask;
    }
    return slot;
}

/* Makes the level's next entry (filled in) one of its states, indexed at `slot` (from level_find). */
static int level_commit(Level *level, Py_ssize_t slot) {
    level->size++;
    level->slots[slot] = (int32_t)level->size;
    if (level->size * 2 > level->mask && level_reindex(level) < 0) {
        return -1;
    }
    if (level->size == level->capacity && level_grow(level) < 0) {
        return -1;
    }
    return 0;
}

static inline uint16_t step_index(int src, int dst, int die, int hit) {
    return (uint16_t)((src * 27 + dst) * 14 + die * 2 + hit);
}

/* Sets byte `i` of a state to `value`, updating its hash. */
static inline void set_byte(Entry *entry, int i, uint8_t value) {
    entry->hash ^= zobrist[i][entry->state[i]] ^ zobrist[i][value];
    entry->state[i] = value;
}

/* Moves one checker from the mover's point src (25: the bar) to dst (0: off), hitting a lone opponent there, and
 * adds the state reached to `out` unless it holds it already. The new entry is built in place as the level's next
 * one (the level always has room for it) and kept only when new. */
static int add_step(Level *out, const Entry *entry, int die, int src, int dst) {
    Entry *next = &out->entries[out->size];
    memcpy(next, entry, sizeof(Entry));
    int from = src == 25 ? BAR : src - 1;
    set_byte(next, from, (uint8_t)(next->state[from] - 1));
    int hit = 0;
    if (dst >= 1) {
        int opp = OPP_BAR - dst;
        hit = next->state[opp] == 1;
        set_byte(next, dst - 1, (uint8_t)(next->state[dst - 1] + 1));
        if (hit) {
            set_byte(next, opp, 0);
            set_byte(next, OPP_BAR, (uint8_t)(next->state[OPP_BAR] + 1));
        }
    }
    Py_ssize_t slot = level_find(out, next);
    if (slot < 0) {
        return 0;
    }
    next->path[next->length] = step_index(src, dst, die, hit);
    next->length++;
    return level_commit(out, slot);
}

/* ShortNardy.successors for every state of `in`, in order: bar entry first, then from the highest point down. */
static int expand(const Level *in, Level *out, int die) {
    for (Py_ssize_t e = 0; e < in->size; e++) {
        const Entry *entry = &in->entries[e];
        const uint8_t *s = entry->state;
        if (s[BAR]) {
            int dst = 25 - die;
            if (s[OPP_BAR - dst] <= 1 && add_step(out, entry, die, 25, dst) < 0) {
                return -1;
            }
            continue;
        }
        int bearing = 1;
        for (int i = 6; i < 24; i++) {
            if (s[i]) {
                bearing = 0;
                break;
            }
        }
        int top = bearing ? 5 : 23;
        int stop = bearing ? -1 : die - 1;
        int highest = 1;
        for (int i = top; i > stop; i--) {
            if (!s[i]) {
                continue;
            }
            int src = i + 1;
            int dst = src - die;
            if (dst >= 1) {
                if (s[OPP_BAR - dst] <= 1 && add_step(out, entry, die, src, dst) < 0) {
                    return -1;
                }
            } else if (dst == 0 || highest) {
                if (add_step(out, entry, die, src, 0) < 0) {
                    return -1;
                }
            }
            highest = 0;
        }
    }
    return 0;
}

static PyObject *step_object(PyObject *table, PyObject *new_step, uint16_t index) {
    PyObject *step = PyList_GET_ITEM(table, index);
    if (step != Py_None) {
        Py_INCREF(step);
        return step;
    }
    int rest = index % 14;
    int route = index / 14;
    return PyObject_CallFunction(new_step, "iiiiO", index, route / 27, route % 27, rest / 2,
                                 (rest % 2) ? Py_True : Py_False);
}

/* The level as a dict {state bytes: tuple of Step}, in insertion order. */
static PyObject *level_dict(const Level *level, PyObject *table, PyObject *new_step) {
    PyObject *result = PyDict_New();
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t e = 0; e < level->size; e++) {
        const Entry *entry = &level->entries[e];
        PyObject *key = PyBytes_FromStringAndSize((const char *)entry->state, STATE_LEN);
        PyObject *path = PyTuple_New(entry->length);
        if (key == NULL || path == NULL) {
            goto fail;
        }
        for (int i = 0; i < entry->length; i++) {
            PyObject *step = step_object(table, new_step, entry->path[i]);
            if (step == NULL) {
                goto fail;
            }
            PyTuple_SET_ITEM(path, i, step);
        }
        int failed = PyDict_SetItem(result, key, path);
        Py_DECREF(key);
        Py_DECREF(path);
        if (failed) {
            Py_DECREF(result);
            return NULL;
        }
        continue;
    fail:
        Py_XDECREF(key);
        Py_XDECREF(path);
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

static int check_dice(int d1, int d2, int count) {
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6 || count < 1 || count > MAX_STEPS) {
        PyErr_Format(PyExc_ValueError, "dice %d-%d played as %d moves is not a roll", d1, d2, count);
        return -1;
    }
    return 0;
}

/* Checks a start state and a roll, as `turns` takes them; -1 with ValueError set when malformed. */
static int check_roll(PyObject *state_obj, int d1, int d2, int count) {
    if (PyBytes_GET_SIZE(state_obj) != STATE_LEN) {
        PyErr_Format(PyExc_ValueError, "a state of short nardy's board has %d bytes, not %zd", STATE_LEN,
                     PyBytes_GET_SIZE(state_obj));
        return -1;
    }
    if (check_dice(d1, d2, count) < 0) {
        return -1;
    }
    const uint8_t *start = (const uint8_t *)PyBytes_AS_STRING(state_obj);
    for (int i = 0; i < STATE_LEN; i++) {
        if (start[i] > 15) {
            PyErr_Format(PyExc_ValueError, "byte %d of the state counts %d checkers", i, start[i]);
            return -1;
        }
    }
    return 0;
}

static int check_step_table(PyObject *table, PyObject *new_step) {
    if (PyList_GET_SIZE(table) != STEP_TABLE_LEN || !PyCallable_Check(new_step)) {
        PyErr_Format(PyExc_ValueError, "the step table must be a list of %d items", STEP_TABLE_LEN);
        return -1;
    }
    return 0;
}

/* The levels of one turn: levels[0] holds the start; a double fills levels[1..count], two dice levels[1] (high),
 * [2] (low), [3] both. */
typedef struct {
    Level levels[MAX_STEPS + 1];
    int made;
    int chosen; /* the level of the legal end states (0: the roll is forfeited) */
    int used;   /* the dice they use */
} Turn;

static void turn_free(Turn *turn) {
    for (int i = 0; i < turn->made; i++) {
        level_free(&turn->levels[i]);
    }
    turn->made = 0;
}

/* Generates the turn of `start` (checked by check_roll); -1 with MemoryError set on failure (then turn_free). */
static int generate(Turn *turn, const uint8_t *start, int d1, int d2, int count) {
    Level *levels = turn->levels;
    turn->made = 0;
    turn->chosen = turn->used = 0;
    for (; turn->made <= MAX_STEPS; turn->made++) {
        level_init(&levels[turn->made]);
    }
    levels[0].entries[0].length = 0;
    memcpy(levels[0].entries[0].state, start, STATE_LEN);
    levels[0].entries[0].hash = zobrist_hash(start);
    levels[0].size = 1;
    if (d1 == d2) {
        for (int k = 1; k <= count; k++) {
            if (expand(&levels[k - 1], &levels[k], d1) < 0) {
                PyErr_NoMemory();
                return -1;
            }
            if (levels[k].size == 0) {
                break;
            }
            turn->chosen = turn->used = k;
        }
    } else {
        int high = d1 > d2 ? d1 : d2, low = d1 > d2 ? d2 : d1;
        if (expand(&levels[0], &levels[1], high) < 0 || expand(&levels[0], &levels[2], low) < 0 ||
            expand(&levels[1], &levels[3], low) < 0 || expand(&levels[2], &levels[3], high) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        if (levels[3].size) {
            turn->chosen = 3, turn->used = 2;
        } else if (levels[1].size) {
            turn->chosen = 1, turn->used = 1;
        } else if (levels[2].size) {
            turn->chosen = 2, turn->used = 1;
        }
    }
    return 0;
}

static PyObject *turns(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *state_obj, *table, *new_step;
    int d1, d2, count;
    if (!PyArg_ParseTuple(args, "O!iiiO!O:turns", &PyBytes_Type, &state_obj, &d1, &d2, &count, &PyList_Type, &table,
                          &new_step)) {
        return NULL;
    }
    if (check_roll(state_obj, d1, d2, count) < 0 || check_step_table(table, new_step) < 0) {
        return NULL;
    }
    Turn turn;
    PyObject *result = NULL;
    if (generate(&turn, (const uint8_t *)PyBytes_AS_STRING(state_obj), d1, d2, count) < 0) {
        goto done;
    }
    PyObject *level = turn.chosen ? level_dict(&turn.levels[turn.chosen], table, new_step) : NULL;
    if (turn.chosen == 0) {
        level = PyDict_New();
        PyObject *empty = PyTuple_New(0);
        if (level == NULL || empty == NULL || PyDict_SetItem(level, state_obj, empty) < 0) {
            Py_XDECREF(level);
            level = NULL;
        }
        Py_XDECREF(empty);
    }
    if (level != NULL) {
        result = Py_BuildValue("(Ni)", level, turn.used);
    }
done:
    turn_free(&turn);
    return result;
}

/* Small ints for the counts 0..15 (owned by the module). */
static PyObject *counts[16];

static PyObject *side_tuple(const uint8_t *side) {
    PyObject *tuple = PyTuple_New(STATE_LEN / 2);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < STATE_LEN / 2; i++) {
        PyObject *count = counts[side[i]];
        Py_INCREF(count);
        PyTuple_SET_ITEM(tuple, i, count);
    }
    PyObject_GC_UnTrack(tuple); /* it holds ints only: as CPython's collector would untrack it at its first pass */
    return tuple;
}

static PyObject *sides(PyObject *module, PyObject *state_obj) {
    (void)module;
    if (!PyBytes_Check(state_obj) || PyBytes_GET_SIZE(state_obj) != STATE_LEN) {
        return PyErr_Format(PyExc_ValueError, "a state of short nardy's board is %d bytes", STATE_LEN);
    }
    const uint8_t *state = (const uint8_t *)PyBytes_AS_STRING(state_obj);
    for (int i = 0; i < STATE_LEN; i++) {
        if (state[i] > 15) {
            return PyErr_Format(PyExc_ValueError, "byte %d of the state counts %d checkers", i, state[i]);
        }
    }
    PyObject *pair = PyTuple_New(2);
    PyObject *me = pair ? side_tuple(state) : NULL;
    PyObject *opp = me ? side_tuple(state + STATE_LEN / 2) : NULL;
    if (opp == NULL) {
        Py_XDECREF(me);
        Py_XDECREF(pair);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, me);
    PyTuple_SET_ITEM(pair, 1, opp);
    return pair;
}

/* The opponent's sides already made in one call of `moves`: most turns hit nothing and leave the opponent's side as it
 * was, so most end states share one tuple (tuples are immutable: sharing them is invisible but to `is`). */
#define OPP_CACHE 8

typedef struct {
    const uint8_t *side[OPP_CACHE];
    PyObject *tuple[OPP_CACHE];
    int size;
} OppCache;

/* Returns a new reference to the tuple of the opponent's side `side` (25 bytes that outlive the cache). */
static PyObject *opp_tuple(OppCache *cache, const uint8_t *side) {
    for (int i = 0; i < cache->size; i++) {
        if (memcmp(cache->side[i], side, STATE_LEN / 2) == 0) {
            Py_INCREF(cache->tuple[i]);
            return cache->tuple[i];
        }
    }
    PyObject *tuple = side_tuple(side);
    if (tuple != NULL && cache->size < OPP_CACHE) {
        Py_INCREF(tuple);
        cache->side[cache->size] = side;
        cache->tuple[cache->size++] = tuple;
    }
    return tuple;
}

/* Reads a Position's side into 25 bytes: 1 when `side` is an exact tuple of 25 ints 0..15 (the very objects of
 * `counts`, CPython's cached small ints, as every side the engine makes holds), else 0 (nothing raised). */
static int plain_side(PyObject *side, uint8_t *out) {
    if (!PyTuple_CheckExact(side) || PyTuple_GET_SIZE(side) != STATE_LEN / 2) {
        return 0;
    }
    for (int i = 0; i < STATE_LEN / 2; i++) {
        PyObject *item = PyTuple_GET_ITEM(side, i);
        int count = 0;
        while (count < 16 && counts[count] != item) {
            count++;
        }
        if (count == 16) {
            return 0;
        }
        out[i] = (uint8_t)count;
    }
    return 1;
}

/* Parses the arguments (me, opp, d1, d2, count, ...) of the entry points that take a Position's sides: 1 with the
 * start state and roll filled in, 0 when a side is not plain (the caller returns None: the Python generator lists
 * that position), -1 with an exception set. */
static int parse_sides(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t wanted, const char *name, uint8_t *start,
                       int *roll) {
    if (nargs != wanted) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, wanted, nargs);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        long value = PyLong_AsLong(args[2 + i]);
        if (value == -1 && PyErr_Occurred()) {
            return -1;
        }
        roll[i] = value < 0 || value > 6 ? 0 : (int)value;
    }
    if (check_dice(roll[0], roll[1], roll[2]) < 0) {
        return -1;
    }
    return plain_side(args[0], start) && plain_side(args[1], start + STATE_LEN / 2);
}

/* moves(me, opp, d1, d2, count, steps, new_step): the legal end states as three parallel lists, the step paths
 * (tuples of Step), the mover's sides and the opponent's sides (tuples of 25 counts, as a Position holds them), in
 * order; empty when the roll is forfeited; None when a side is not plain. */
static PyObject *moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    uint8_t start[STATE_LEN];
    int roll[3];
    int parsed = parse_sides(args, nargs, 7, "moves", start, roll);
    if (parsed <= 0) {
        if (parsed == 0) {
            Py_RETURN_NONE;
        }
        return NULL;
    }
    PyObject *table = args[5], *new_step = args[6];
    if (!PyList_Check(table)) {
        return PyErr_Format(PyExc_TypeError, "the step table must be a list");
    }
    if (check_step_table(table, new_step) < 0) {
        return NULL;
    }
    OppCache cache = {.size = 1};
    Py_INCREF(args[1]);
    cache.side[0] = start + STATE_LEN / 2;
    cache.tuple[0] = args[1];
    Turn turn;
    PyObject *result = NULL, *paths = NULL, *mes = NULL, *opps = NULL;
    if (generate(&turn, start, roll[0], roll[1], roll[2]) < 0) {
        goto done;
    }
    const Level *level = &turn.levels[turn.chosen];
    Py_ssize_t size = turn.chosen ? level->size : 0;
    paths = PyList_New(size);
    mes = PyList_New(size);
    opps = PyList_New(size);
    if (paths == NULL || mes == NULL || opps == NULL) {
        goto done;
    }
    for (Py_ssize_t e = 0; e < size; e++) {
        const Entry *entry = &level->entries[e];
        PyObject *path = PyTuple_New(entry->length);
        if (path == NULL) {
            goto done;
        }
        PyList_SET_ITEM(paths, e, path);
        for (int i = 0; i < entry->length; i++) {
            PyObject *step = step_object(table, new_step, entry->path[i]);
            if (step == NULL) {
                goto done;
            }
            PyTuple_SET_ITEM(path, i, step);
        }
        PyObject *me = side_tuple(entry->state);
        if (me == NULL) {
            goto done;
        }
        PyList_SET_ITEM(mes, e, me);
        PyObject *opp = opp_tuple(&cache, entry->state + STATE_LEN / 2);
        if (opp == NULL) {
            goto done;
        }
        PyList_SET_ITEM(opps, e, opp);
    }
    result = PyTuple_Pack(3, paths, mes, opps);
done:
    Py_XDECREF(paths);
    Py_XDECREF(mes);
    Py_XDECREF(opps);
    for (int i = 0; i < cache.size; i++) {
        Py_DECREF(cache.tuple[i]);
    }
    turn_free(&turn);
    return result;
}

/* states(me, opp, d1, d2, count): the legal end states as a list of 50-byte states, in order (empty when the roll is
 * forfeited); None when a side is not plain. */
static PyObject *states(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    uint8_t start[STATE_LEN];
    int roll[3];
    int parsed = parse_sides(args, nargs, 5, "states", start, roll);
    if (parsed <= 0) {
        if (parsed == 0) {
            Py_RETURN_NONE;
        }
        return NULL;
    }
    Turn turn;
    PyObject *result = NULL;
    if (generate(&turn, start, roll[0], roll[1], roll[2]) < 0) {
        goto done;
    }
    const Level *level = &turn.levels[turn.chosen];
    Py_ssize_t size = turn.chosen ? level->size : 0;
    result = PyList_New(size);
    for (Py_ssize_t e = 0; result != NULL && e < size; e++) {
        PyObject *key = PyBytes_FromStringAndSize((const char *)level->entries[e].state, STATE_LEN);
        if (key == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, e, key);
    }
done:
    turn_free(&turn);
    return result;
}

/* count(me, opp, d1, d2, count): how many legal end states there are (0 when the roll is forfeited); None when a side
 * is not plain. */
static PyObject *count_turns(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    uint8_t start[STATE_LEN];
    int roll[3];
    int parsed = parse_sides(args, nargs, 5, "count", start, roll);
    if (parsed <= 0) {
        if (parsed == 0) {
            Py_RETURN_NONE;
        }
        return NULL;
    }
    Turn turn;
    PyObject *result = NULL;
    if (generate(&turn, start, roll[0], roll[1], roll[2]) == 0) {
        result = PyLong_FromSsize_t(turn.chosen ? turn.levels[turn.chosen].size : 0);
    }
    turn_free(&turn);
    return result;
}

static PyMethodDef methods[] = {
    {"turns", turns, METH_VARARGS,
     "turns(state, d1, d2, count, steps, new_step) -> (level, used)\n\n"
     "Return the legal end states of short nardy's board for the roll d1-d2 (a double played as `count` moves),\n"
     "as a dict {state: tuple of Step} in the Python generator's order, and how many dice they use."},
    {"moves", (PyCFunction)(void (*)(void))moves, METH_FASTCALL,
     "moves(me, opp, d1, d2, count, steps, new_step) -> (paths, mes, opps) or None\n\n"
     "Return the legal end states of `turns` from the Position's sides `me` and `opp` as three parallel lists:\n"
     "their step paths and their two sides as tuples of 25 counts (those whose opponent side is unchanged share\n"
     "`opp`); None when a side is not a tuple of 25 ints 0..15."},
    {"states", (PyCFunction)(void (*)(void))states, METH_FASTCALL,
     "states(me, opp, d1, d2, count) -> list of states or None\n\n"
     "Return the legal end states of `turns` from a Position's sides as 50-byte states, in order (empty when\n"
     "forfeited); None when a side is not a tuple of 25 ints 0..15."},
    {"count", (PyCFunction)(void (*)(void))count_turns, METH_FASTCALL,
     "count(me, opp, d1, d2, count) -> int or None\n\n"
     "Return how many legal end states `turns` lists from a Position's sides (0 when forfeited); None when a side\n"
     "is not a tuple of 25 ints 0..15."},
    {"sides", sides, METH_O,
     "sides(state) -> (me, opp)\n\nReturn the two sides of a 50-byte state as tuples of 25 counts (the Position's)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "nardy._shortgen", "Short nardy's whole-turn move generator in C.", -1, methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__shortgen(void) {
    zobrist_init();
    for (int i = 0; i < 16; i++) {
        if (counts[i] == NULL && (counts[i] = PyLong_FromLong(i)) == NULL) {
            return NULL;
        }
    }
    return PyModule_Create(&module_def);
}
