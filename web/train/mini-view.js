// @ts-check
// train/mini-view.js: the small copy of A with the cells training should fill outlined, drawn
// from miniGrid()'s geometry (web/train/words.js) in the page's colours.
import { cellRgb, maskedRgb, css } from '../blocks/colors.js';
import { svgEl } from '../blocks/svg.js';

/**
 * @param {SVGSVGElement} svg @param {ReturnType<typeof import('./words.js').miniGrid>} g
 * @param {import('../blocks/colors.js').Theme} theme 'light' or 'dark'
 */
export function drawMini(svg, g, theme) {
  svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
  svg.setAttribute('width', String(g.width));
  svg.textContent = '';
  for (const c of g.cells) {
    const fill = c.masked ? maskedRgb(theme) : cellRgb('sequential', c.v, 1, theme);
    svgEl(svg, 'rect', { x: c.x, y: c.y, width: c.size - 1, height: c.size - 1, fill: css(fill), class: c.masked ? 'masked' : '' });
  }
  for (const t of g.targets) svgEl(svg, 'rect', { x: t.x - 0.5, y: t.y - 0.5, width: t.size, height: t.size, class: 'target' });
  for (const l of g.rowLabels) svgEl(svg, 'text', { x: l.x, y: l.y + 4, 'text-anchor': 'end', class: 'tick' }, l.text);
  for (const l of g.colLabels) svgEl(svg, 'text', { x: l.x, y: l.y, 'text-anchor': 'start', class: 'tick', transform: `rotate(-55 ${l.x} ${l.y})` }, l.text);
}
