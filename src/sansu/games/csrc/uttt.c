/* Ultimate Tic-Tac-Toe's compiled play(): sansu/games/uttt.py's UTTTState.play, bit for bit. */
#include "sections.h"

/* ---- Ultimate Tic-Tac-Toe: UTTTState.play --------------------------------- */

PyObject *
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
