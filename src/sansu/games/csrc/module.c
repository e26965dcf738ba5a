/* The module sansu.games._native: install() binds a state class's compiled play and
 * legal_moves (see sections.h), and the parts every move shares. */
#include "sections.h"

unsigned char has_line[512];
unsigned short allowed[64];
Bound bound[KINDS];
PyObject *places_by_bit[81];
PyObject *empty_tuple;
static PyTypeObject *place_cls;
static Py_ssize_t place_bit_off;
static PyObject *name_coerce, *name_why_illegal;
static const char *slot_names[NSLOTS] = {
    "game", "_marks", "_other_marks", "_won", "_other_won", "_closed", "_legal", "_moves",
    "last_move", "result", "_free", "_digits", "_blocked", "_by_constraint",
};

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

/* The start of play(move): the move as a Place (a new reference) and its bit, and the
 * state's legal cells; NULL with the engine's own error when the move is not legal (taken,
 * closed, elsewhere than sent to, a repeated digit, or the game is over). */
PyObject *
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
PyObject *
new_state(PyObject *self, const Bound *b, PyObject *place, PyObject *o_other, PyObject *o_owon,
          PyObject *result, u128 marks, long won, long closed)
{
    const Py_ssize_t *off = b->off;
    PyObject *game = get_slot(self, off[S_GAME], "game");
    PyObject *new = game == NULL ? NULL : b->cls->tp_alloc(b->cls, 0);
    if (new == NULL) {
        Py_DECREF(place);
        return NULL;
    }
    SLOT(new, off[S_LAST]) = place;
    put_ref(new, off[S_GAME], game);
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

/* ---- legal_moves() and legal_cells(): the same for both games --------------------- */

/* The legal cells of the open sections (section-major), into `legal`; -1 with an error set. */
static int
read_legal(PyObject *self, const Bound *b, u128 *legal)
{
    PyObject *c = get_slot(self, b->off[S_CLOSED], "_closed");
    PyObject *l = get_slot(self, b->off[S_LEGAL], "_legal");
    if (c == NULL || l == NULL || read_u128(l, legal) < 0)
        return -1;
    long closed = read_small(c);
    if (closed < 0)
        return -1;
    *legal &= open_cells((int)closed);
    return 0;
}

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
    if (read_legal(self, b, &legal) < 0)
        return NULL;
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

/* SectionsView.legal_cells: 81 bytes, row-major, 1 on each cell a legal move takes. */
static PyObject *
legal_cells(PyObject *self, int kind)
{
    u128 legal;
    if (read_legal(self, &bound[kind], &legal) < 0)
        return NULL;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, 81);
    if (out == NULL)
        return NULL;
    char *cells = PyByteArray_AS_STRING(out);
    memset(cells, 0, 81);
    for (int bit = 0; bit < 81; bit++)
        if (legal >> bit & 1) {
            int section = bit / 9, position = bit % 9;
            cells[9 * (3 * (section / 3) + position / 3) + 3 * (section % 3) + position % 3] = 1;
        }
    return out;
}

static PyObject *
uttt_legal_moves(PyObject *self, PyObject *unused) { return legal_moves(self, UTTT); }

static PyObject *
sansumoku_legal_moves(PyObject *self, PyObject *unused) { return legal_moves(self, SANSUMOKU); }

static PyObject *
uttt_legal_cells(PyObject *self, PyObject *unused) { return legal_cells(self, UTTT); }

static PyObject *
sansumoku_legal_cells(PyObject *self, PyObject *unused) { return legal_cells(self, SANSUMOKU); }

/* ---- ply and to_move: SectionsView's, read off the masks -------------------------- */

/* How many moves led here: each one marks a cell. -1 with an error set. */
static int
ply_of(PyObject *self, const Bound *b)
{
    u128 marks, other;
    if (read_u128(get_slot(self, b->off[S_MARKS], "_marks"), &marks) < 0 ||
        read_u128(get_slot(self, b->off[S_OTHER_MARKS], "_other_marks"), &other) < 0)
        return -1;
    return popcount128(marks | other);
}

static PyObject *
get_ply(PyObject *self, void *bound_kind)
{
    int ply = ply_of(self, bound_kind);
    return ply < 0 ? NULL : PyLong_FromLong(ply);
}

static PyObject *
get_to_move(PyObject *self, void *bound_kind)
{
    const Bound *b = bound_kind;
    PyObject *result = get_slot(self, b->off[S_RESULT], "result");
    if (result == NULL)
        return NULL;
    if (result != Py_None)
        Py_RETURN_NONE;
    int ply = ply_of(self, b);
    return ply < 0 ? NULL : PyLong_FromLong(ply & 1);
}

#define GETSETS 2
static PyGetSetDef state_getsets[KINDS][GETSETS] = {
    {{"ply", get_ply, NULL, "How many moves led here (compiled).", &bound[UTTT]},
     {"to_move", get_to_move, NULL, "The player to move, or None (compiled).", &bound[UTTT]}},
    {{"ply", get_ply, NULL, "How many moves led here (compiled).", &bound[SANSUMOKU]},
     {"to_move", get_to_move, NULL, "The player to move, or None (compiled).", &bound[SANSUMOKU]}},
};

/* ---- install(): bind a state class ---------------------------------------- */

#define METHODS 3
static PyMethodDef state_methods[KINDS][METHODS] = {
    {{"play", (PyCFunction)(void (*)(void))uttt_play, METH_FASTCALL,
      "The position after `move` (compiled; the rules are UTTTState's)."},
     {"legal_moves", uttt_legal_moves, METH_NOARGS, "The legal moves (compiled)."},
     {"legal_cells", uttt_legal_cells, METH_NOARGS, "The legal cells' flags (compiled)."}},
    {{"play", (PyCFunction)(void (*)(void))sansumoku_play, METH_FASTCALL,
      "The position after `move` (compiled; the rules are SansumokuState's)."},
     {"legal_moves", sansumoku_legal_moves, METH_NOARGS, "The legal moves (compiled)."},
     {"legal_cells", sansumoku_legal_cells, METH_NOARGS, "The legal cells' flags (compiled)."}},
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
    /* install(kind, cls, PLACES, BIT_OF_CELL, SECTION_PLACES, WINS, DRAW) -> {name: method} */
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
    PyObject *out = PyDict_New();
    for (int i = 0; out != NULL && i < METHODS; i++) {
        PyObject *method = PyDescr_NewMethod(b->cls, &state_methods[kind][i]);
        if (method == NULL || PyDict_SetItemString(out, state_methods[kind][i].ml_name, method) < 0)
            Py_CLEAR(out);
        Py_XDECREF(method);
    }
    for (int i = 0; out != NULL && i < GETSETS; i++) {
        PyObject *getset = PyDescr_NewGetSet(b->cls, &state_getsets[kind][i]);
        if (getset == NULL || PyDict_SetItemString(out, state_getsets[kind][i].name, getset) < 0)
            Py_CLEAR(out);
        Py_XDECREF(getset);
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"install", (PyCFunction)(void (*)(void))install, METH_FASTCALL,
     "install(kind, cls, PLACES, BIT_OF_CELL, SECTION_PLACES, WINS, DRAW): "
     "the compiled methods and properties of a state class (play, legal_moves, legal_cells, "
     "ply, to_move), by name."},
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
