// Applies the saved (or the system's) theme, the board's look and zen mode before the
// first paint: a classic script in the head, from a file, since the page's security
// policy runs no inline script. The settings page (js/settings.js) changes them.
(() => {
  const root = document.documentElement;
  const saved = localStorage.getItem('sansu.theme');
  const dark = saved ? saved === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  root.dataset.theme = dark ? 'dark' : 'light';
  root.dataset.board = localStorage.getItem('sansu.board') || 'plain';
  root.dataset.zen = localStorage.getItem('sansu.zen') === 'on' ? 'on' : 'off';
})();
