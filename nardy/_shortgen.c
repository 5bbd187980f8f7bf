/*
 * nardy._shortgen: the whole-turn move generator of short nardy's board (short nardy, Hypergammon, Nackgammon,
 * Portes, Misère), in C. It does what nardy/movegen.py's _turns_in_context does with ShortNardy.successors and the
 * default turn context, in the same order, and returns the same values: optional, built by setup.py beside the
 * mypyc modules, used only when their manifest matches (nardy/_build.py), and compared with the Python generator
 * in tests/nardy/test_shortgen.py.
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
    uint8_t state[STATE_LEN];
    uint8_t length;
    uint16_t path[MAX_STEPS];
} Entry;

/* The states of one level in insertion order, with an open-addressing index (slots hold entry + 1; 0 is empty). */
typedef struct {
    Entry *entries;
    Py_ssize_t size;
    Py_ssize_t capacity;
    Py_ssize_t *slots;
    Py_ssize_t mask;
} Level;

static uint64_t state_hash(const uint8_t *state) {
    uint64_t hash = 1469598103934665603ULL, word;
    for (int i = 0; i + 8 <= STATE_LEN; i += 8) {
        memcpy(&word, state + i, 8);
        hash = (hash ^ word) * 0x9E3779B97F4A7C15ULL;
        hash ^= hash >> 31;
    }
    hash = (hash ^ ((uint64_t)state[48] << 8 | state[49])) * 0x9E3779B97F4A7C15ULL;
    return hash ^ (hash >> 29);
}

static int level_init(Level *level) {
    level->size = 0;
    level->capacity = 16;
    level->mask = 31;
    level->entries = PyMem_Malloc(sizeof(Entry) * (size_t)level->capacity);
    level->slots = PyMem_Calloc((size_t)level->mask + 1, sizeof(Py_ssize_t));
    if (level->entries == NULL || level->slots == NULL) {
        PyMem_Free(level->entries);
        PyMem_Free(level->slots);
        level->entries = NULL;
        level->slots = NULL;
        return -1;
    }
    return 0;
}

static void level_free(Level *level) {
    PyMem_Free(level->entries);
    PyMem_Free(level->slots);
    level->entries = NULL;
    level->slots = NULL;
}

static int level_reindex(Level *level) {
    Py_ssize_t mask = level->mask * 2 + 1;
    Py_ssize_t *slots = PyMem_Calloc((size_t)mask + 1, sizeof(Py_ssize_t));
    if (slots == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < level->size; i++) {
        Py_ssize_t slot = (Py_ssize_t)(state_hash(level->entries[i].state) & (uint64_t)mask);
        while (slots[slot]) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = i + 1;
    }
    PyMem_Free(level->slots);
    level->slots = slots;
    level->mask = mask;
    return 0;
}

/* Adds a state reached by `path` + `step` unless the level holds it already (the first path found is kept). */
static int level_add(Level *level, const uint8_t *state, const Entry *from, uint16_t step) {
    Py_ssize_t slot = (Py_ssize_t)(state_hash(state) & (uint64_t)level->mask);
    while (level->slots[slot]) {
        if (memcmp(level->entries[level->slots[slot] - 1].state, state, STATE_LEN) == 0) {
            return 0;
        }
        slot = (slot + 1) & level->mask;
    }
    if (level->size == level->capacity) {
        Entry *entries = PyMem_Realloc(level->entries, sizeof(Entry) * (size_t)level->capacity * 2);
        if (entries == NULL) {
            return -1;
        }
        level->entries = entries;
        level->capacity *= 2;
    }
    Entry *entry = &level->entries[level->size];
    memcpy(entry->state, state, STATE_LEN);
    memcpy(entry->path, from->path, sizeof(uint16_t) * from->length);
    entry->path[from->length] = step;
    entry->length = (uint8_t)(from->length + 1);
    level->size++;
    level->slots[slot] = level->size;
    if (level->size * 2 > level->mask) {
        return level_reindex(level);
    }
    return 0;
}

static inline uint16_t step_index(int src, int dst, int die, int hit) {
    return (uint16_t)((src * 27 + dst) * 14 + die * 2 + hit);
}

/* Moves one checker from byte `from` (or none when from < 0) to the mover's point dst, hitting a lone opponent. */
static int add_step(Level *out, const Entry *entry, int die, int src, int dst) {
    uint8_t next[STATE_LEN];
    memcpy(next, entry->state, STATE_LEN);
    next[src == 25 ? BAR : src - 1]--;
    int hit = 0;
    if (dst >= 1) {
        int opp = OPP_BAR - dst;
        hit = next[opp] == 1;
        next[dst - 1]++;
        if (hit) {
            next[opp] = 0;
            next[OPP_BAR]++;
        }
    }
    return level_add(out, next, entry, step_index(src, dst, die, hit));
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

static PyObject *turns(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *state_obj, *table, *new_step;
    int d1, d2, count;
    if (!PyArg_ParseTuple(args, "O!iiiO!O:turns", &PyBytes_Type, &state_obj, &d1, &d2, &count, &PyList_Type, &table,
                          &new_step)) {
        return NULL;
    }
    if (PyBytes_GET_SIZE(state_obj) != STATE_LEN) {
        return PyErr_Format(PyExc_ValueError, "a state of short nardy's board has %d bytes, not %zd", STATE_LEN,
                            PyBytes_GET_SIZE(state_obj));
    }
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6 || count < 1 || count > MAX_STEPS) {
        return PyErr_Format(PyExc_ValueError, "dice %d-%d played as %d moves is not a roll", d1, d2, count);
    }
    if (PyList_GET_SIZE(table) != STEP_TABLE_LEN || !PyCallable_Check(new_step)) {
        return PyErr_Format(PyExc_ValueError, "the step table must be a list of %d items", STEP_TABLE_LEN);
    }
    const uint8_t *start = (const uint8_t *)PyBytes_AS_STRING(state_obj);
    for (int i = 0; i < STATE_LEN; i++) {
        if (start[i] > 15) {
            return PyErr_Format(PyExc_ValueError, "byte %d of the state counts %d checkers", i, start[i]);
        }
    }
    /* levels[0] holds the start; a double fills levels[1..count], two dice levels[1] (high), [2] (low), [3] both */
    Level levels[MAX_STEPS + 1];
    int made = 0;
    PyObject *result = NULL;
    for (; made <= MAX_STEPS; made++) {
        if (level_init(&levels[made]) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    levels[0].entries[0].length = 0;
    memcpy(levels[0].entries[0].state, start, STATE_LEN);
    levels[0].size = 1;
    int chosen = 0, used = 0;
    if (d1 == d2) {
        for (int k = 1; k <= count; k++) {
            if (expand(&levels[k - 1], &levels[k], d1) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            if (levels[k].size == 0) {
                break;
            }
            chosen = used = k;
        }
    } else {
        int high = d1 > d2 ? d1 : d2, low = d1 > d2 ? d2 : d1;
        if (expand(&levels[0], &levels[1], high) < 0 || expand(&levels[0], &levels[2], low) < 0 ||
            expand(&levels[1], &levels[3], low) < 0 || expand(&levels[2], &levels[3], high) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        if (levels[3].size) {
            chosen = 3, used = 2;
        } else if (levels[1].size) {
            chosen = 1, used = 1;
        } else if (levels[2].size) {
            chosen = 2, used = 1;
        }
    }
    PyObject *level = chosen ? level_dict(&levels[chosen], table, new_step) : NULL;
    if (chosen == 0) {
        level = PyDict_New();
        PyObject *empty = PyTuple_New(0);
        if (level == NULL || empty == NULL || PyDict_SetItem(level, state_obj, empty) < 0) {
            Py_XDECREF(level);
            level = NULL;
        }
        Py_XDECREF(empty);
    }
    if (level != NULL) {
        result = Py_BuildValue("(Ni)", level, used);
    }
done:
    for (int i = 0; i < made; i++) {
        level_free(&levels[i]);
    }
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

static PyMethodDef methods[] = {
    {"turns", turns, METH_VARARGS,
     "turns(state, d1, d2, count, steps, new_step) -> (level, used)\n\n"
     "Return the legal end states of short nardy's board for the roll d1-d2 (a double played as `count` moves),\n"
     "as a dict {state: tuple of Step} in the Python generator's order, and how many dice they use."},
    {"sides", sides, METH_O,
     "sides(state) -> (me, opp)\n\nReturn the two sides of a 50-byte state as tuples of 25 counts (the Position's)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "nardy._shortgen", "Short nardy's whole-turn move generator in C.", -1, methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__shortgen(void) {
    for (int i = 0; i < 16; i++) {
        if (counts[i] == NULL && (counts[i] = PyLong_FromLong(i)) == NULL) {
            return NULL;
        }
    }
    return PyModule_Create(&module_def);
}
