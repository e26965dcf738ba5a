// A player's rating beside their name in a game, and the changes a rated game's
// end brings to it; shared by the game page and its side panel.

import {h} from './kit.js';

/** A seat's rating beside its name: `1500?`, then `1512 +12` once a rated game is rated. */
export function seatRating(seat) {
  const r = seat.rating;
  if (!r) return null;
  const change = r.change ? h('span', {class: `rating-change ${r.change.startsWith('-') ? 'down'
    : 'up'}`, 'data-testid': `rating-change-${seat.seat}`}, ` ${r.change}`) : null;
  const shown = r.change && r.after !== undefined ? `${r.after}${r.provisional ? '?' : ''}` : r.shown;
  return h('span', {class: 'rating', 'data-testid': `rating-${seat.seat}`,
    title: r.provisional ? 'provisional rating' : 'rating'}, ` ${shown}`, change);
}

/** Applies a `game_over` event's rating changes to the game's seats. */
export function applyRatings(g, changes) {
  for (const c of changes || []) {
    const seat = g.seats[c.seat];
    if (seat) {
      seat.rating = {...(seat.rating || {}), change: c.change, after: c.after,
        provisional: c.provisional, shown: c.shown};
    }
  }
}
