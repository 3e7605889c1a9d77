// axe-core (from npm, its script injected into the page) run on the page as
// it stands: the violations of the given impacts, one line each, naming the
// rule, the impact and the first elements it found.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

export async function axeViolations(page: Page, impacts: Impact[]): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 4).map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ').slice(0, 160)})` : ''}`),
      count: violation.nodes.length,
    }));
  });
  return violations
    .filter((violation) => impacts.includes(violation.impact as Impact))
    .map((violation) => `${violation.id} [${violation.impact}] ${violation.help}: ${violation.count} element(s), e.g. ${violation.nodes.join('; ')}`);
}
