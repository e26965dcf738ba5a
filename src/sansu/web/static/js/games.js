// The games the app knows and how to draw them. The list comes from the
// server when it answers; each game's board is the module boards/<id>.js,
// loaded on demand, so a new game needs only its board module.

export const KNOWN_GAMES = ['uttt', 'sansumoku', 'sumodoku', 'challenge', 'thirtyfive'];

const modules = new Map();

/** The board module of a game (`meta`, `createBoard`), or a plain fallback. */
export async function boardModule(id) {
  if (!modules.has(id)) {
    modules.set(id, import(`../boards/${id}.js`).catch(() => import('../boards/generic.js')));
  }
  return modules.get(id);
}
