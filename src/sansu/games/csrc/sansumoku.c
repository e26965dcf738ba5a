/* Sansumoku's compiled play(): sansu/games/sansumoku.py's SansumokuState.play, bit for bit. */
#include "sections.h"

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

PyObject *
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
