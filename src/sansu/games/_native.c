/* The per-move bit work of Ultimate Tic-Tac-Toe and Sansumoku, compiled.
 *
 * The Python engines (sansu/games/uttt.py, sansumoku.py) stay the rules and
 * the reference; this module gives their states a compiled `play` and
 * `legal_moves` that read and write the very same slots (section-major bit
 * masks held as Python ints, see sansu/core/sections.py), so a state made by
 * either path is the same state. Installed by sansu/games/native.py unless
 * SANSU_PURE_PYTHON is set; a test plays thousands of random games through
 * both paths and requires the same states, moves, results and errors.
 *
 * Illegal moves and moves that are not Place objects go back to the Python
 * methods (`_coerce`, `_why_illegal`), so errors are the engine's own.
 */
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
static int
read_words(PyObject *v, uint64_t *w, int n)
{
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
static PyObject *
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

static int
read_u128(PyObject *v, u128 *out)
{
    uint64_t w[2];
    if (read_words(v, w, 2) < 0)
        return -1;
    *out = (u128)w[1] << 64 | w[0];
    return 0;
}

static PyObject *
make_u128(u128 x)
{
    uint64_t w[2] = {(uint64_t)x, (uint64_t)(x >> 64)};
    return make_words(w, 2);
}

/* A small non-negative int (a 9-bit mask, a cell's bit), or -1 with an error set. */
static long
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

static unsigned char has_line[512]; /* HAS_LINE */
static unsigned short allowed[64];   /* sansumoku.ALLOWED */

static void
init_tables(void)
{
    static const int lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    for (int m = 0; m < 512; m++) {
        has_line[m] = 0;
        for (int i = 0; i < 8; i++)
            if ((m & lines[i]) == lines[i])
                has_line[m] = 1;
    }
    for (int rc = 0; rc < 64; rc++) {
        int rows = rc >> 3, cols = rc & 7, out = 0;
        for (int p = 0; p < 9; p++)
            if (!(rows >> (p / 3) & 1) && !(cols >> (p % 3) & 1))
                out |= 1 << p;
        allowed[rc] = (unsigned short)out;
    }
}

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
static const char *slot_names[NSLOTS] = {
    "game", "_marks", "_other_marks", "_won", "_other_won", "_closed", "_legal", "_moves",
    "last_move", "result", "_free", "_digits", "_blocked", "_by_constraint",
};

typedef struct {
    PyTypeObject *cls;           /* the state class */
    Py_ssize_t off[NSLOTS];      /* its slots' offsets (0: the game has no such slot) */
    PyObject *section_places;    /* SECTION_PLACES: tuple of 9 tuples of 512 tuples */
    PyObject *wins;              /* WINS: (result, result) */
    PyObject *draw;              /* DRAW */
} Bound;

static Bound bound[KINDS];
static PyTypeObject *place_cls;
static Py_ssize_t place_bit_off;
static PyObject *places_by_bit[81]; /* PLACES in section-major order */
static PyObject *empty_tuple;
static PyObject *name_coerce, *name_why_illegal;

static Py_ssize_t
slot_offset(PyObject *cls, const char *name)
{
    PyObject *d = PyObject_GetAttrString(cls, name);
    if (d == NULL)
        return -1;
    Py_ssize_t off = -1;
    if (Py_IS_TYPE(d, &PyMemberDescr_Type) &&
        ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX)
        off = ((PyMemberDescrObject *)d)->d_member->offset;
    else
        PyErr_Format(PyExc_TypeError, "%s is not a slot", name);
    Py_DECREF(d);
    return off;
}

/* ---- shared: the start and the end of a move -------------------------------- */

/* `move` as a Place (a new reference), through the state's own `_coerce` when it is none. */
static PyObject *
as_place(PyObject *self, PyObject *move)
{
    if (Py_IS_TYPE(move, place_cls)) {
        Py_INCREF(move);
        return move;
    }
    PyObject *place = PyObject_CallMethodOneArg(self, name_coerce, move);
    if (place != NULL && !Py_IS_TYPE(place, place_cls)) {
        Py_DECREF(place);
        PyErr_SetString(PyExc_TypeError, "_coerce returned no Place");
        return NULL;
    }
    return place;
}

/* Raises the state's own `_why_illegal(move)`; returns NULL. */
static PyObject *
illegal(PyObject *self, PyObject *place)
{
    PyObject *exc = PyObject_CallMethodOneArg(self, name_why_illegal, place);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    Py_DECREF(place);
    return NULL;
}

static PyObject *
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

/* The start of play(move): the move as a Place (a new reference) and its bit, and the
 * state's legal cells; NULL with the engine's own error when the move is not legal (taken,
 * closed, elsewhere than sent to, a repeated digit, or the game is over). */
static PyObject *
start_move(PyObject *self, const Bound *b, PyObject *const *args, Py_ssize_t nargs, long *bit,
           u128 *legal)
{
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "play() takes one move");
        return NULL;
    }
    PyObject *place = as_place(self, args[0]);
    if (place == NULL)
        return NULL;
    PyObject *o_bit = SLOT(place, place_bit_off), *o_legal;
    *bit = o_bit ? read_small(o_bit) : 81;
    if (*bit < 0 || *bit > 80) {
        if (*bit > 80)
            PyErr_SetString(PyExc_ValueError, "no such cell");
        Py_DECREF(place);
        return NULL;
    }
    if (!(o_legal = get_slot(self, b->off[S_LEGAL], "_legal")) || read_u128(o_legal, legal) < 0) {
        Py_DECREF(place);
        return NULL;
    }
    if (!(*legal & (u128)1 << *bit))
        return illegal(self, place);
    return place;
}

/* The state after a move, with the slots both games set alike: the players swap roles
 * (the mover's new `marks` and won sections become the other player's), `place` (whose
 * reference it takes) is the last move. NULL with an error set. */
static PyObject *
new_state(PyObject *self, const Bound *b, PyObject *place, PyObject *o_other, PyObject *o_owon,
          PyObject *result, u128 marks, long won, long closed)
{
    const Py_ssize_t *off = b->off;
    PyObject *new = b->cls->tp_alloc(b->cls, 0);
    if (new == NULL) {
        Py_DECREF(place);
        return NULL;
    }
    SLOT(new, off[S_LAST]) = place;
    put_ref(new, off[S_GAME], SLOT(self, off[S_GAME]));
    put_ref(new, off[S_MARKS], o_other); /* the next mover's */
    put_ref(new, off[S_WON], o_owon);
    put_ref(new, off[S_RESULT], result);
    if (put(new, off[S_OTHER_MARKS], make_u128(marks)) < 0 ||
        put(new, off[S_OTHER_WON], PyLong_FromLong(won)) < 0 ||
        put(new, off[S_CLOSED], PyLong_FromLong(closed)) < 0) {
        Py_DECREF(new);
        return NULL;
    }
    return new;
}

/* SECTION_PLACES[section][field], a borrowed reference. */
static inline PyObject *
section_moves(const Bound *b, int section, int field)
{
    return PyTuple_GET_ITEM(PyTuple_GET_ITEM(b->section_places, section), field);
}

/* ---- legal_moves(): the same list for both games -------------------------- */

static PyObject *
legal_moves(PyObject *self, int kind)
{
    const Bound *b = &bound[kind];
    PyObject *moves = get_slot(self, b->off[S_MOVES], "_moves");
    if (moves == NULL)
        return NULL;
    if (moves != Py_None)
        return PySequence_List(moves);
    /* A free move (a wildcard): the legal cells of the open sections, section by section. */
    u128 legal;
    PyObject *c = get_slot(self, b->off[S_CLOSED], "_closed");
    if (c == NULL || read_u128(get_slot(self, b->off[S_LEGAL], "_legal"), &legal) < 0)
        return NULL;
    long closed = read_small(c);
    if (closed < 0)
        return NULL;
    legal &= open_cells((int)closed);
    PyObject *list = PyList_New(popcount128(legal));
    if (list == NULL)
        return NULL;
    Py_ssize_t i = 0;
    for (int bit = 0; bit < 81; bit++)
        if (legal >> bit & 1) {
            Py_INCREF(places_by_bit[bit]);
            PyList_SET_ITEM(list, i++, places_by_bit[bit]);
        }
    return list;
}

static PyObject *
uttt_legal_moves(PyObject *self, PyObject *unused) { return legal_moves(self, UTTT); }

static PyObject *
sansumoku_legal_moves(PyObject *self, PyObject *unused) { return legal_moves(self, SANSUMOKU); }

/* ---- Ultimate Tic-Tac-Toe: UTTTState.play --------------------------------- */

static PyObject *
uttt_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Bound *b = &bound[UTTT];
    const Py_ssize_t *off = b->off;
    long bit;
    u128 legal, free, marks, other;
    PyObject *place = start_move(self, b, args, nargs, &bit, &legal);
    if (place == NULL)
        return NULL;
    int section = (int)bit / 9, position = (int)bit % 9, shift = 9 * section;
    u128 mask = (u128)1 << bit;
    PyObject *o_free, *o_marks, *o_other, *o_won, *o_closed, *o_moves, *o_owon;
    if (!(o_free = get_slot(self, off[S_FREE], "_free")) || read_u128(o_free, &free) < 0 ||
        !(o_marks = get_slot(self, off[S_MARKS], "_marks")) || read_u128(o_marks, &marks) < 0 ||
        !(o_other = get_slot(self, off[S_OTHER_MARKS], "_other_marks")) ||
        read_u128(o_other, &other) < 0 || !(o_won = get_slot(self, off[S_WON], "_won")) ||
        !(o_owon = get_slot(self, off[S_OTHER_WON], "_other_won")) ||
        !(o_closed = get_slot(self, off[S_CLOSED], "_closed")) ||
        !(o_moves = get_slot(self, off[S_MOVES], "_moves")))
        goto fail;
    long won = read_small(o_won), closed = read_small(o_closed);
    if (won < 0 || closed < 0)
        goto fail;
    int mover = popcount128(marks | other) & 1;
    free ^= mask;
    marks |= mask;
    PyObject *result = Py_None;
    int field = (int)(marks >> shift) & FULL;
    if (has_line[field] || legal == mask || (o_moves == Py_None && !((int)(free >> shift) & FULL))) {
        /* the section closes: won, or full */
        closed |= 1L << section;
        if (has_line[field]) {
            won |= 1L << section;
            if (has_line[won])
                result = PyTuple_GET_ITEM(b->wins, mover);
        }
        if (result == Py_None && closed == FULL)
            result = b->draw;
    }
    PyObject *new = new_state(self, b, place, o_other, o_owon, result, marks, won, closed);
    if (new == NULL)
        return NULL;
    if (put(new, off[S_FREE], make_u128(free)) < 0)
        goto fail_new;
    if (result != Py_None) {
        put(new, off[S_LEGAL], PyLong_FromLong(0));
        put_ref(new, off[S_MOVES], empty_tuple);
    }
    else if (closed >> position & 1) { /* sent to a closed section: a free move */
        if (put(new, off[S_LEGAL], make_u128(free & open_cells((int)closed))) < 0)
            goto fail_new;
        put_ref(new, off[S_MOVES], Py_None);
    }
    else {
        u128 next = free & section_cells(position);
        if (put(new, off[S_LEGAL], make_u128(next)) < 0)
            goto fail_new;
        put_ref(new, off[S_MOVES],
                section_moves(b, position, (int)(next >> (9 * position)) & FULL));
    }
    return new;
fail_new:
    Py_DECREF(new);
    return NULL;
fail:
    Py_DECREF(place);
    return NULL;
}

/* ---- Sansumoku: SansumokuState.play --------------------------------------- */

/* Where `blocked` (bits 54*section + 6*(digit-1) + 0..5, see sansumoku.py) gets
 * a digit on `bit` counted `count` (digit - 1): its board row in the three
 * sections of its band (bits 3..5), its column in those of its stack (0..2). */
static void
block(uint64_t *blocked, int bit, int count, int set)
{
    int section = bit / 9, position = bit % 9;
    int row = 3 * (section / 3) + position / 3, col = 3 * (section % 3) + position % 3;
    for (int k = 0; k < 3; k++) {
        int r = 54 * (3 * (row / 3) + k) + 6 * count + 3 + row % 3;
        int c = 54 * (3 * k + col / 3) + 6 * count + col % 3;
        if (set) {
            set_bit(blocked, r);
            set_bit(blocked, c);
        }
        else {
            clear_bit(blocked, r);
            clear_bit(blocked, c);
        }
    }
}

/* `blocked` without the digits of `section`, just won (sansumoku._unblock). */
static void
unblock(int section, u128 occupied, const uint64_t *digits, uint64_t *blocked)
{
    for (int p = 0; p < 9; p++) {
        int bit = 9 * section + p;
        if (occupied >> bit & 1)
            block(blocked, bit, (int)get_bits(digits, 4 * bit, 4) - 1, 0);
    }
}

/* The legal cells of a section (sansumoku._legal_in, for one section). */
static inline u128
legal_in(int s, u128 occupied, const uint64_t *blocked)
{
    int field = (int)(occupied >> (9 * s)) & FULL;
    int cells = allowed[get_bits(blocked, 54 * s + 6 * __builtin_popcount(field), 6)] & ~field;
    return (u128)cells << (9 * s);
}

static PyObject *
sansumoku_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Bound *b = &bound[SANSUMOKU];
    const Py_ssize_t *off = b->off;
    long bit;
    u128 legal, marks, other;
    PyObject *place = start_move(self, b, args, nargs, &bit, &legal);
    if (place == NULL)
        return NULL;
    int section = (int)bit / 9, position = (int)bit % 9, shift = 9 * section;
    u128 mask = (u128)1 << bit;
    uint64_t digits[6], blocked[8];
    PyObject *o_marks, *o_other, *o_won, *o_owon, *o_closed, *o_digits, *o_blocked, *o_bc;
    if (!(o_marks = get_slot(self, off[S_MARKS], "_marks")) || read_u128(o_marks, &marks) < 0 ||
        !(o_other = get_slot(self, off[S_OTHER_MARKS], "_other_marks")) ||
        read_u128(o_other, &other) < 0 ||
        !(o_digits = get_slot(self, off[S_DIGITS], "_digits")) ||
        read_words(o_digits, digits, 6) < 0 ||
        !(o_blocked = get_slot(self, off[S_BLOCKED], "_blocked")) ||
        read_words(o_blocked, blocked, 8) < 0 || !(o_won = get_slot(self, off[S_WON], "_won")) ||
        !(o_owon = get_slot(self, off[S_OTHER_WON], "_other_won")) ||
        !(o_closed = get_slot(self, off[S_CLOSED], "_closed")) ||
        !(o_bc = get_slot(self, off[S_BY_CONSTRAINT], "_by_constraint")))
        goto fail;
    long won = read_small(o_won), closed = read_small(o_closed), by_constraint = read_small(o_bc);
    if (won < 0 || closed < 0 || by_constraint < 0)
        goto fail;
    int mover = popcount128(marks | other) & 1;
    marks |= mask;
    u128 occupied = marks | other;
    int count = __builtin_popcount((int)(occupied >> shift) & FULL) - 1; /* digits already there */
    digits[bit >> 4] |= (uint64_t)(count + 1) << (4 * bit & 63);
    block(blocked, (int)bit, count, 1);
    PyObject *result = Py_None;
    if (has_line[(int)(marks >> shift) & FULL]) {
        closed |= 1L << section;
        won |= 1L << section;
        unblock(section, occupied, digits, blocked);
        if (has_line[won])
            result = PyTuple_GET_ITEM(b->wins, mover);
    }
    else if (count == 8)
        closed |= 1L << section;
    PyObject *moves = NULL; /* borrowed */
    legal = 0;
    if (result == Py_None && !(closed >> position & 1))
        legal = legal_in(position, occupied, blocked); /* sent to an open section */
    if (legal)
        moves = section_moves(b, position, (int)(legal >> (9 * position)) & FULL);
    else if (result == Py_None) {
        /* A wildcard, wins by constraint (each to the mover), or the end (sansumoku._route). */
        int target = position;
        for (;;) {
            if (closed == FULL) {
                result = b->draw;
                break;
            }
            int sections;
            if (target != FREE && !(closed >> target & 1))
                sections = 1 << target;
            else {
                target = FREE;
                sections = FULL & ~(int)closed;
            }
            for (int s = 0; s < 9; s++)
                if (sections >> s & 1)
                    legal |= legal_in(s, occupied, blocked);
            if (legal)
                break;
            for (int s = 0; s < 9; s++) /* every section the next player may use is blocked */
                if (sections >> s & 1)
                    unblock(s, occupied, digits, blocked);
            closed |= sections;
            by_constraint |= sections;
            won |= sections;
            target = FREE;
            if (has_line[won]) {
                result = PyTuple_GET_ITEM(b->wins, mover);
                break;
            }
        }
        if (result != Py_None)
            legal = 0;
        moves = result != Py_None ? empty_tuple : Py_None;
    }
    else
        moves = empty_tuple;
    PyObject *new = new_state(self, b, place, o_other, o_owon, result, marks, won, closed);
    if (new == NULL)
        return NULL;
    put_ref(new, off[S_MOVES], moves);
    if (put(new, off[S_DIGITS], make_words(digits, 6)) < 0 ||
        put(new, off[S_BLOCKED], make_words(blocked, 8)) < 0 ||
        put(new, off[S_BY_CONSTRAINT], PyLong_FromLong(by_constraint)) < 0 ||
        put(new, off[S_LEGAL], make_u128(legal)) < 0) {
        Py_DECREF(new);
        return NULL;
    }
    return new;
fail:
    Py_DECREF(place);
    return NULL;
}

/* ---- install(): bind a state class ---------------------------------------- */

static PyMethodDef state_methods[KINDS][2] = {
    {{"play", (PyCFunction)(void (*)(void))uttt_play, METH_FASTCALL,
      "The position after `move` (compiled; the rules are UTTTState's)."},
     {"legal_moves", uttt_legal_moves, METH_NOARGS, "The legal moves (compiled)."}},
    {{"play", (PyCFunction)(void (*)(void))sansumoku_play, METH_FASTCALL,
      "The position after `move` (compiled; the rules are SansumokuState's)."},
     {"legal_moves", sansumoku_legal_moves, METH_NOARGS, "The legal moves (compiled)."}},
};

static int
bind_places(PyObject *places, PyObject *bit_of_cell)
{
    if (!PyTuple_Check(places) || PyTuple_GET_SIZE(places) != 81 || !PyTuple_Check(bit_of_cell) ||
        PyTuple_GET_SIZE(bit_of_cell) != 81) {
        PyErr_SetString(PyExc_TypeError, "PLACES and BIT_OF_CELL must be tuples of 81");
        return -1;
    }
    for (int cell = 0; cell < 81; cell++) {
        long bit = PyLong_AsLong(PyTuple_GET_ITEM(bit_of_cell, cell));
        if (bit < 0 || bit > 80) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "BIT_OF_CELL out of range");
            return -1;
        }
        PyObject *place = PyTuple_GET_ITEM(places, cell);
        Py_INCREF(place);
        Py_XSETREF(places_by_bit[bit], place);
    }
    PyTypeObject *cls = Py_TYPE(PyTuple_GET_ITEM(places, 0));
    Py_ssize_t off = slot_offset((PyObject *)cls, "bit");
    if (off < 0)
        return -1;
    Py_INCREF(cls);
    Py_XSETREF(place_cls, cls);
    place_bit_off = off;
    return 0;
}

static PyObject *
install(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    /* install(kind, cls, PLACES, BIT_OF_CELL, SECTION_PLACES, WINS, DRAW) -> (play, legal_moves) */
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "install() takes 7 arguments");
        return NULL;
    }
    const char *name = PyUnicode_AsUTF8(args[0]);
    if (name == NULL)
        return NULL;
    int kind = strcmp(name, "uttt") == 0 ? UTTT : strcmp(name, "sansumoku") == 0 ? SANSUMOKU : -1;
    if (kind < 0 || !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_ValueError, "install() binds 'uttt' or 'sansumoku' to a class");
        return NULL;
    }
    PyObject *sp = args[4];
    if (!PyTuple_Check(sp) || PyTuple_GET_SIZE(sp) != 9 || !PyTuple_Check(args[5]) ||
        PyTuple_GET_SIZE(args[5]) != 2) {
        PyErr_SetString(PyExc_TypeError, "SECTION_PLACES must be 9 tuples, WINS two results");
        return NULL;
    }
    for (int s = 0; s < 9; s++) {
        PyObject *t = PyTuple_GET_ITEM(sp, s);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 512) {
            PyErr_SetString(PyExc_TypeError, "SECTION_PLACES[s] must be a tuple of 512");
            return NULL;
        }
    }
    if (bind_places(args[2], args[3]) < 0)
        return NULL;
    Bound *b = &bound[kind];
    for (int i = 0; i < NSLOTS; i++) {
        int wanted = i < S_FREE || (kind == UTTT ? i == S_FREE : i != S_FREE);
        b->off[i] = 0;
        if (wanted && (b->off[i] = slot_offset(args[1], slot_names[i])) < 0)
            return NULL;
    }
    Py_INCREF(args[1]);
    Py_XSETREF(b->cls, (PyTypeObject *)args[1]);
    Py_INCREF(sp);
    Py_XSETREF(b->section_places, sp);
    Py_INCREF(args[5]);
    Py_XSETREF(b->wins, args[5]);
    Py_INCREF(args[6]);
    Py_XSETREF(b->draw, args[6]);
    PyObject *play = PyDescr_NewMethod(b->cls, &state_methods[kind][0]);
    PyObject *moves = PyDescr_NewMethod(b->cls, &state_methods[kind][1]);
    PyObject *out = (play && moves) ? PyTuple_Pack(2, play, moves) : NULL;
    Py_XDECREF(play);
    Py_XDECREF(moves);
    return out;
}

static PyMethodDef module_methods[] = {
    {"install", (PyCFunction)(void (*)(void))install, METH_FASTCALL,
     "install(kind, cls, PLACES, BIT_OF_CELL, SECTION_PLACES, WINS, DRAW): "
     "the compiled (play, legal_moves) methods of a state class."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "sansu.games._native",
    "The per-move bit work of Ultimate Tic-Tac-Toe and Sansumoku, compiled.", -1, module_methods,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    init_tables();
    empty_tuple = PyTuple_New(0);
    name_coerce = PyUnicode_InternFromString("_coerce");
    name_why_illegal = PyUnicode_InternFromString("_why_illegal");
    if (empty_tuple == NULL || name_coerce == NULL || name_why_illegal == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
