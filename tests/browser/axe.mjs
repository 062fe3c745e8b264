// axe-core (the npm package) run inside a page the browser tests opened. The script is
// evaluated through the driver, not added as a <script>, so it works under the strict CSP the
// element is tested with. Rule tags: WCAG 2.0 A/AA, 2.1 AA, 2.2 AA and best practice.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * Runs axe on `page` (a Playwright page) and returns its violations as short lines,
 * "rule-id (impact): target … — help", one per failing node, so an assertion message says
 * what to fix. `disable` maps a rule id to the one-line reason it is off; a rule without a
 * reason cannot be disabled.
 */
export async function axeViolations(page, { include = null, disable = {} } = {}) {
  for (const [rule, why] of Object.entries(disable)) {
    if (typeof why !== 'string' || why.length < 10) throw new Error(`axe rule ${rule} is disabled without a reason`);
  }
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ tags, off, include }) => {
      const rules = Object.fromEntries(off.map((id) => [id, { enabled: false }]));
      const res = await window.axe.run(include ? { include: [include] } : document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
      return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((nd) => nd.target.join(' ')) }));
    },
    { tags: AXE_TAGS, off: Object.keys(disable), include },
  );
  return violations.flatMap((v) => v.targets.map((t) => `${v.id} (${v.impact}): ${t} — ${v.help}`));
}
