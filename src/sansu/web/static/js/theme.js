// Applies the saved (or the system's) theme before the first paint: a classic
// script in the head, from a file, since the page's security policy runs no inline script.
(() => {
  const saved = localStorage.getItem('sansu.theme');
  const dark = saved ? saved === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
})();
