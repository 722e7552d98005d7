// Writes one section of docs/PERFORMANCE.md, leaving the other sections (which belong to others) as they are.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../scripts/bundles';

export const performanceDoc = path.join(repoRoot, 'docs', 'PERFORMANCE.md');

/** Replaces the section that starts with `heading` (up to the next `## `), or appends it. */
export function writeDocSection(heading: string, markdown: string): string {
  fs.mkdirSync(path.dirname(performanceDoc), { recursive: true });
  const existing = fs.existsSync(performanceDoc) ? fs.readFileSync(performanceDoc, 'utf8') : '# Performance\n';
  const start = existing.indexOf(`${heading}\n`);
  let next: string;
  if (start < 0) {
    next = `${existing.trimEnd()}\n\n${markdown}`;
  } else {
    const after = existing.indexOf('\n## ', start + heading.length);
    next = existing.slice(0, start) + markdown.trimEnd() + '\n' + (after < 0 ? '' : `\n${existing.slice(after + 1)}`);
  }
  fs.writeFileSync(performanceDoc, next.trimEnd() + '\n');
  return performanceDoc;
}

/** The machine is shared: every figure is printed with the load average it was taken under. */
export const loadAverage = () => os.loadavg().map((n) => n.toFixed(1)).join(' / ');

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The nearest-rank percentile `p` (0–100) of `values`; NaN for none. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};

export const today = () => new Date().toISOString().slice(0, 10);
