// The server's catalogue of games (ids, titles, players, options) and computer
// levels with their published ratings, read once and shared by every page that
// lists or starts games.

import {api} from './api.js';
import {KNOWN_GAMES} from './games.js';

let catalogue = null;

/** The server's catalogue: {games: [{id, title, players, options}], levels}; a fallback offline. */
export async function catalog() {
  if (!catalogue) {
    catalogue = api.catalog().catch(() => ({
      games: KNOWN_GAMES.map((id) => ({id, options: []})),
      levels: ['beginner', 'easy', 'medium', 'hard', 'max'],
    }));
  }
  return catalogue;
}

/** Every game, in the order the home page shows them. */
export async function games() {
  const list = (await catalog()).games;
  const order = (g) => {
    const k = KNOWN_GAMES.indexOf(g.id);
    return k < 0 ? KNOWN_GAMES.length : k;
  };
  return [...list].sort((a, b) => order(a) - order(b));
}

export async function gameInfo(id) {
  return (await games()).find((g) => g.id === id || (g.aliases || []).includes(id)) || {id, options: []};
}

/** The computer levels' published ratings in `game` ({level: rating}), or {}. */
export function levelRatings(catalog, game) {
  return catalog?.level_ratings?.[game] || {};
}
