/* Shared by the compiled moves of Ultimate Tic-Tac-Toe and Sansumoku (module.c, uttt.c,
 * sansumoku.c): Python ints as bit masks, the geometry of sections, and what install() binds.
 *
 * The Python engines (sansu/games/uttt.py, sansumoku.py) stay the rules and
 * the reference; this extension gives their states a compiled `play` and
 * `legal_moves` that read and write the very same slots (section-major bit
 * masks held as Python ints, see sansu/core/sections.py), so a state made by
 * either path is the same state. Installed by sansu/games/native.py unless
 * SANSU_PURE_PYTHON is set; a test plays thousands of random games through
 * both paths and requires the same states, moves, results and errors.
 *
 * Illegal moves and moves that are not Place objects go back to the Python
 * methods (`_coerce`, `_why_illegal`), so errors are the engine's own.
 */
#ifndef SANSU_SECTIONS_H
#define SANSU_SECTIONS_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>

typedef unsigned __int128 u128;

#define FULL 0x1FF
#define FREE (-1)
#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* ---- Python ints <-> arrays of 64-bit words -------------------------------- */

#if PY_VERSION_HEX < 0x030C0000
/* CPython 3.11: the digits of a non-negative int are ob_digit[0 .. Py_SIZE). */
#define LONG_NDIGITS(v) Py_SIZE(v)
#define LONG_NEGATIVE(v) (Py_SIZE(v) < 0)
#define LONG_DIGITS(v) (((PyLongObject *)(v))->ob_digit)
#else
/* CPython 3.12 and later: the digit count and sign share lv_tag. */
#define LONG_NDIGITS(v) ((Py_ssize_t)(((PyLongObject *)(v))->long_value.lv_tag >> 3))
#define LONG_NEGATIVE(v) ((((PyLongObject *)(v))->long_value.lv_tag & 3) == 2)
#define LONG_DIGITS(v) (((PyLongObject *)(v))->long_value.ob_digit)
#endif

/* The non-negative int `v` as `n` little-endian 64-bit words; -1 (an error set) if it is none. */
static inline int
read_words(PyObject *v, uint64_t *w, int n)
{
    if (v == NULL) /* a slot not set: get_slot() has said so */
        return -1;
    if (!PyLong_CheckExact(v) || LONG_NEGATIVE(v)) {
        PyErr_SetString(PyExc_TypeError, "a state's mask is not a non-negative int");
        return -1;
    }
    Py_ssize_t nd = LONG_NDIGITS(v);
    const digit *d = LONG_DIGITS(v);
    if ((int64_t)nd * PyLong_SHIFT > (int64_t)n * 64 + PyLong_SHIFT) {
        PyErr_SetString(PyExc_OverflowError, "a state's mask is too wide");
        return -1;
    }
    memset(w, 0, sizeof(uint64_t) * n);
    for (Py_ssize_t i = 0; i < nd; i++) {
        int pos = (int)i * PyLong_SHIFT, k = pos >> 6, o = pos & 63;
        uint64_t x = d[i];
        if (k < n)
            w[k] |= x << o;
        if (o + PyLong_SHIFT > 64 && k + 1 < n)
            w[k + 1] |= x >> (64 - o);
    }
    return 0;
}

/* A new int from `n` little-endian 64-bit words. */
static inline PyObject *
make_words(const uint64_t *w, int n)
{
    int top = n - 1;
    while (top >= 0 && !w[top])
        top--;
    if (top < 0)
        return PyLong_FromLong(0);
    if (top == 0 && w[0] < 257)
        return PyLong_FromLong((long)w[0]); /* the interpreter's shared small ints */
    int bits = 64 * top + 64 - __builtin_clzll(w[top]);
    Py_ssize_t nd = (bits + PyLong_SHIFT - 1) / PyLong_SHIFT;
    PyLongObject *v = _PyLong_New(nd);
    if (v == NULL)
        return NULL;
    digit *d = LONG_DIGITS(v);
    for (Py_ssize_t i = 0; i < nd; i++) {
        int pos = (int)i * PyLong_SHIFT, k = pos >> 6, o = pos & 63;
        uint64_t x = w[k] >> o;
        if (o + PyLong_SHIFT > 64 && k + 1 < n)
            x |= w[k + 1] << (64 - o);
        d[i] = (digit)(x & PyLong_MASK);
    }
    return (PyObject *)v;
}

static inline int
read_u128(PyObject *v, u128 *out)
{
    uint64_t w[2];
    if (read_words(v, w, 2) < 0)
        return -1;
    *out = (u128)w[1] << 64 | w[0];
    return 0;
}

static inline PyObject *
make_u128(u128 x)
{
    uint64_t w[2] = {(uint64_t)x, (uint64_t)(x >> 64)};
    return make_words(w, 2);
}

/* A small non-negative int (a 9-bit mask, a cell's bit), or -1 with an error set. */
static inline long
read_small(PyObject *v)
{
    if (!PyLong_CheckExact(v) || LONG_NEGATIVE(v) || LONG_NDIGITS(v) > 1) {
        PyErr_SetString(PyExc_TypeError, "a state's small mask is not a small int");
        return -1;
    }
    return LONG_NDIGITS(v) ? (long)LONG_DIGITS(v)[0] : 0;
}

static inline uint64_t
get_bits(const uint64_t *w, int pos, int n)
{
    int k = pos >> 6, o = pos & 63;
    uint64_t x = w[k] >> o;
    if (o + n > 64)
        x |= w[k + 1] << (64 - o);
    return x & ((1ULL << n) - 1);
}

static inline void
set_bit(uint64_t *w, int pos) { w[pos >> 6] |= 1ULL << (pos & 63); }

static inline void
clear_bit(uint64_t *w, int pos) { w[pos >> 6] &= ~(1ULL << (pos & 63)); }

/* ---- geometry (sansu/core/sections.py) ------------------------------------- */

extern unsigned char has_line[512]; /* HAS_LINE */
extern unsigned short allowed[64]; /* sansumoku.ALLOWED */

static inline u128
section_cells(int s) { return (u128)FULL << (9 * s); }

static inline u128
open_cells(int closed)
{
    u128 out = 0;
    for (int s = 0; s < 9; s++)
        if (!(closed >> s & 1))
            out |= section_cells(s);
    return out;
}

static inline int
popcount128(u128 x) { return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64)); }

/* ---- what install() binds ------------------------------------------------- */

enum { UTTT, SANSUMOKU, KINDS };
enum {
    S_GAME, S_MARKS, S_OTHER_MARKS, S_WON, S_OTHER_WON, S_CLOSED, S_LEGAL, S_MOVES, S_LAST, S_RESULT,
    S_FREE, S_DIGITS, S_BLOCKED, S_BY_CONSTRAINT, NSLOTS
};
typedef struct {
    PyTypeObject *cls;           /* the state class */
    Py_ssize_t off[NSLOTS];      /* its slots' offsets (0: the game has no such slot) */
    PyObject *section_places;    /* SECTION_PLACES: tuple of 9 tuples of 512 tuples */
    PyObject *wins;              /* WINS: (result, result) */
    PyObject *draw;              /* DRAW */
} Bound;

extern Bound bound[KINDS];
extern PyObject *places_by_bit[81]; /* PLACES in section-major order */
extern PyObject *empty_tuple;

static inline PyObject *
get_slot(PyObject *obj, Py_ssize_t off, const char *name)
{
    PyObject *v = SLOT(obj, off);
    if (v == NULL)
        PyErr_Format(PyExc_AttributeError, "the state has no %s", name);
    return v;
}

/* Sets a slot of a fresh state, stealing `v` (NULL: an error is set). */
static inline int
put(PyObject *obj, Py_ssize_t off, PyObject *v)
{
    if (v == NULL)
        return -1;
    SLOT(obj, off) = v;
    return 0;
}

static inline int
put_ref(PyObject *obj, Py_ssize_t off, PyObject *v)
{
    Py_INCREF(v);
    SLOT(obj, off) = v;
    return 0;
}

/* SECTION_PLACES[section][field], a borrowed reference. */
static inline PyObject *
section_moves(const Bound *b, int section, int field)
{
    return PyTuple_GET_ITEM(PyTuple_GET_ITEM(b->section_places, section), field);
}

/* module.c: the start and the end of every play(move). */
PyObject *start_move(PyObject *self, const Bound *b, PyObject *const *args, Py_ssize_t nargs,
                     long *bit, u128 *legal);
PyObject *new_state(PyObject *self, const Bound *b, PyObject *place, PyObject *o_other,
                    PyObject *o_owon, PyObject *result, u128 marks, long won, long closed);
PyObject *uttt_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *sansumoku_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

#endif
