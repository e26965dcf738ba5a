// Page-wide services: the screen-reader announcer, sounds (on by default; the
// header's switch turns them off), the theme switch and small formatting helpers.

import {h} from './kit.js';

/** Says `text` to screen readers through the polite live region. */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region || !text) return;
  region.textContent = '';
  // A fresh text node after a tick makes repeated messages be read again.
  setTimeout(() => { region.textContent = text; }, 30);
}

let audio = null;

export function soundOn() {
  return localStorage.getItem('sansu.sound') !== 'off';
}

/** A short tone (`kind`: 'move', 'mine', 'turn', 'low', 'end', 'error'); silent when turned off. */
export function playSound(kind = 'move') {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const tones = {move: [520, 0.06], mine: [660, 0.06], turn: [784, 0.09], low: [880, 0.25],
      end: [392, 0.35], error: [180, 0.12]};
    const [freq, length] = tones[kind] || tones.move;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    osc.type = 'sine';
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + length);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + length + 0.02);
  } catch {
    // No audio device: sounds are a nicety.
  }
}

export function setupToggles() {
  const theme = document.getElementById('theme-toggle');
  const sound = document.getElementById('sound-toggle');
  const showTheme = () => {
    // The button names the theme it switches to, seen and heard alike (a name that
    // changes with the state, so no aria-pressed beside it).
    const other = document.documentElement.dataset.theme === 'dark' ? 'Light theme' : 'Dark theme';
    theme.querySelector('.label').textContent = other;
    theme.setAttribute('aria-label', other);
    theme.title = other;  // the name shows on hover where the header shows icons alone
    theme.removeAttribute('aria-pressed');
  };
  theme.addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    localStorage.setItem('sansu.theme', dark ? 'dark' : 'light');
    showTheme();
  });
  const showSound = () => {
    // The name stays "Sounds" (a toggle's name must not change); aria-pressed and
    // the speaker's waves tell whether they are on.
    sound.querySelector('.wave').style.opacity = soundOn() ? '1' : '.25';
    sound.setAttribute('aria-pressed', String(soundOn()));
    sound.title = soundOn() ? 'Sounds (on)' : 'Sounds (off)';
  };
  sound.addEventListener('click', () => {
    localStorage.setItem('sansu.sound', soundOn() ? 'off' : 'on');
    showSound();
    playSound('move');
  });
  showTheme();
  showSound();
}

/** A relative time like "3 min ago" for an ISO date or epoch seconds. */
export function ago(when) {
  if (when === null || when === undefined) return '';
  const t = typeof when === 'number' ? when * (when < 1e12 ? 1000 : 1) : Date.parse(when);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

/** An error notice element. */
export function errorNotice(text) {
  return h('p', {class: 'notice error', role: 'alert'}, text);
}

/** Copies `text` to the clipboard; falls back to selecting `input`. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try { return document.execCommand('copy'); } catch { return false; }
    }
    return false;
  }
}
