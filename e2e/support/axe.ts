// axe-core in a real page: its source evaluated through the DevTools protocol (the page's Content-Security-Policy
// forbids injected script tags, and is right to), then a full run; the violations, worded for a failing test.
import fs from 'node:fs';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js', { paths: [__dirname] }), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[]; failureSummary?: string }> };

/** Runs axe on the page as it is now (WCAG 2.x A and AA and axe's best practices); the violations found. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact: impact ?? null,
      help,
      nodes: nodes.map((n) => ({ target: n.target as string[], failureSummary: n.failureSummary })),
    }));
  });
}

/** One line per violation and node, for the test's failure message. */
export const describeViolations = (violations: AxeViolation[]): string[] =>
  violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`));
