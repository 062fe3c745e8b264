// @ts-check
// train/curve-view.js: the loss curve, drawn from lossCurve()'s geometry (web/train/words.js).
import { svgEl } from '../blocks/svg.js';

/**
 * Redraws the curve in `svg` (keeping its <title>).
 * @param {SVGSVGElement} svg @param {ReturnType<typeof import('./words.js').lossCurve>} g
 * @param {{ width: number, height: number }} size
 */
export function drawCurve(svg, g, size) {
  svg.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
  for (const c of Array.from(svg.children)) if (c.tagName !== 'title') c.remove();
  const { x, y, w, h } = g.plot;
  for (const tk of g.yTicks) {
    svgEl(svg, 'line', { x1: x, x2: x + w, y1: tk.pos, y2: tk.pos, class: 'grid' });
    svgEl(svg, 'text', { x: x - 4, y: tk.pos + 4, 'text-anchor': 'end', class: 'tick' }, tk.label);
  }
  for (const tk of g.xTicks) svgEl(svg, 'text', { x: tk.pos, y: y + h + 14, 'text-anchor': 'middle', class: 'tick' }, tk.label);
  svgEl(svg, 'line', { x1: x, x2: x, y1: y, y2: y + h, class: 'axis' });
  svgEl(svg, 'line', { x1: x, x2: x + w, y1: y + h, y2: y + h, class: 'axis' });
  svgEl(svg, 'text', { x: x + w / 2, y: y + h + 30, 'text-anchor': 'middle', class: 'axis-title' }, 'training step');
  svgEl(svg, 'text', { x: 12, y: y + h / 2, 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 12 ${y + h / 2})` }, 'loss');
  if (g.path) svgEl(svg, 'path', { d: g.path, class: 'loss-line' });
  if (g.last) svgEl(svg, 'circle', { cx: g.last.x, cy: g.last.y, r: 3, class: 'loss-dot' });
}
