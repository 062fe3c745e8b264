// @ts-check
// colors.js: colour scales for the heatmaps, chosen to stay readable with colour-vision
// deficiencies (blue/orange diverging, a blue sequential scale: no red/green contrast).
// Blue means the same in both themes: a positive number, and a weight that stands out from the
// page (A's 0 is the page's own tone, near white in light and near black in dark; 1 is the deep
// blue in light and the bright blue in dark). A theme change never turns 0's colour into 1's.
// Pure: every function takes the theme; nothing reads the DOM.

/** @typedef {'light' | 'dark'} Theme */
/** @typedef {[number, number, number]} Rgb red, green, blue in 0..255 */
/** @typedef {'diverging' | 'sequential' | 'mask'} ScaleKind */

const THEMES = {
  light: {
    // negative (orange) ... 0 (near white) ... positive (blue)
    diverging: ['#b35806', '#e08214', '#fdb863', '#fee0b6', '#f7f7f7', '#d1e5f0', '#92c5de', '#4393c3', '#2166ac'],
    sequential: ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'],
    masked: '#5c5c5c',
  },
  dark: {
    diverging: ['#fdb863', '#e08214', '#a85a12', '#5a3a1e', '#262a30', '#1f3f5c', '#2f6fa3', '#67a9cf', '#b7dcf0'],
    sequential: ['#1a1d2e', '#1b2a44', '#1d3a5e', '#21507f', '#2a69a0', '#3b84bd', '#5ea3d3', '#8dc1e3', '#c6dff2'],
    masked: '#8a8a8a',
  },
};

/** @type {Map<string, Rgb>} */
const cache = new Map();
/** @param {string} hex "#rrggbb" @returns {Rgb} */
function rgbOf(hex) {
  let c = cache.get(hex);
  if (!c) {
    c = /** @type {Rgb} */ ([1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)));
    cache.set(hex, c);
  }
  return c;
}

/** @param {readonly string[]} stops @param {number} t in [0, 1] @returns {Rgb} */
function lerpStops(stops, t) {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(x));
  const f = x - k;
  const a = rgbOf(stops[k]), b = rgbOf(stops[k + 1]);
  // written out (no map, no closure): a heatmap of 256 × 256 cells asks this 65,536 times a frame
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)];
}

/**
 * The colour of value v on a diverging scale centred on 0 that spans [-maxAbs, maxAbs].
 * @param {number} v @param {number} maxAbs @param {Theme} [theme] @returns {Rgb}
 */
export function divergingRgb(v, maxAbs, theme = 'light') {
  const s = maxAbs > 0 ? v / maxAbs : 0;
  return lerpStops(THEMES[theme].diverging, 0.5 + 0.5 * s);
}

/** The colour of a weight in [0, 1] on the sequential scale. @param {number} v @param {Theme} [theme] @returns {Rgb} */
export function sequentialRgb(v, theme = 'light') {
  return lerpStops(THEMES[theme].sequential, v);
}

/** The colour of a masked cell (−∞). @param {Theme} [theme] @returns {Rgb} */
export function maskedRgb(theme = 'light') {
  return rgbOf(THEMES[theme].masked);
}

/** Scale kinds per matrix: A holds weights in [0, 1]; every other matrix is signed. @param {string} name @returns {ScaleKind} */
export function scaleKind(name) {
  return name === 'A' ? 'sequential' : name === 'M' ? 'mask' : 'diverging';
}

/**
 * Colour for one value of a matrix; -Infinity (masked) has its own colour.
 * @param {ScaleKind} kind @param {number} v @param {number} maxAbs @param {Theme} theme @returns {Rgb}
 */
export function cellRgb(kind, v, maxAbs, theme) {
  if (v === -Infinity) return maskedRgb(theme);
  if (kind === 'sequential') return sequentialRgb(v, theme);
  if (kind === 'mask') return rgbOf(THEMES[theme].diverging[4]); // 0: may look
  return divergingRgb(v, maxAbs, theme);
}

// WCAG relative luminance and contrast ratio.
/** @param {Rgb} rgb */
function lum([r, g, b]) {
  /** @param {number} c */
  const f = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
/** @param {Rgb} rgb1 @param {Rgb} rgb2 @returns {number} from 1 to 21 */
export function contrast(rgb1, rgb2) {
  const a = lum(rgb1), b = lum(rgb2);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Black or white text, whichever contrasts more with the background (always >= 4.5:1). @param {Rgb} rgb @returns {'#000' | '#fff'} */
export function textOn(rgb) {
  return contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000' : '#fff';
}

/** @param {Rgb} rgb @returns {string} "rgb(r,g,b)" */
export function css([r, g, b]) {
  return 'rgb(' + r + ',' + g + ',' + b + ')';
}

/** CSS gradient for a legend bar. @param {ScaleKind} kind @param {Theme} [theme] @returns {string} */
export function legendGradient(kind, theme = 'light') {
  const stops = kind === 'sequential' ? THEMES[theme].sequential : THEMES[theme].diverging;
  return 'linear-gradient(to right,' + stops.join(',') + ')';
}

/** Largest |v| over the finite values (the half-width of a diverging scale). @param {ArrayLike<number>} arr @returns {number} */
export function maxAbsFinite(arr) {
  let m = 0;
  for (let k = 0; k < arr.length; k++) {
    const a = Math.abs(arr[k]);
    if (a > m && a !== Infinity) m = a;
  }
  return m;
}
