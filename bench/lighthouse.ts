// Lighthouse (12.x: runs on Node 20) in its default mobile preset against one URL, on Debian's Chromium.
import { chromiumPath } from '../e2e/support/browser';
import { median } from './doc';

type Scores = { score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number };
export type LighthouseResult = { version: string; runs: Scores[]; median: Scores };

const lighthouseRuns = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS) || 3);

// Both packages are ESM only; this file is compiled as CommonJS, so they are loaded with a real import().
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

type LighthouseModule = {
  default: (
    url: string,
    flags: Record<string, unknown>,
  ) => Promise<{ lhr: { lighthouseVersion: string; categories: { performance: { score: number } }; audits: Record<string, { numericValue?: number }> } } | undefined>;
};
type ChromeLauncherModule = {
  launch: (options: { chromePath: string; chromeFlags: string[] }) => Promise<{ port: number; kill: () => Promise<void> | void }>;
};

/** The median of a few runs, or a sentence saying why Lighthouse could not run. */
export async function runLighthouse(url: string): Promise<LighthouseResult | string> {
  if (process.env.BENCH_LIGHTHOUSE === '0') return 'skipped (BENCH_LIGHTHOUSE=0).';
  let lighthouse: LighthouseModule['default'];
  let launcher: ChromeLauncherModule;
  try {
    lighthouse = (await importEsm<LighthouseModule>('lighthouse')).default;
    launcher = await importEsm<ChromeLauncherModule>('chrome-launcher');
  } catch (error) {
    return `not installed (${error instanceof Error ? error.message.split('\n')[0] : error}); the DevTools figures above stand alone.`;
  }
  const runs: Scores[] = [];
  let version = '';
  for (let i = 0; i < lighthouseRuns; i++) {
    const chrome = await launcher.launch({
      chromePath: chromiumPath,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic'],
    });
    try {
      // Default config = mobile preset: Moto G Power screen, simulated slow 4G (150 ms RTT, 1.6 Mbps) and 4x CPU.
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      if (!result) throw new Error('Lighthouse returned no result');
      const { lhr } = result;
      version = lhr.lighthouseVersion;
      const audit = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
      runs.push({
        score: Math.round(lhr.categories.performance.score * 100),
        fcp: audit('first-contentful-paint'),
        lcp: audit('largest-contentful-paint'),
        tbt: audit('total-blocking-time'),
        cls: Math.round((lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
        si: audit('speed-index'),
      });
      console.log(`Lighthouse run ${i + 1}: performance ${runs[runs.length - 1].score}`);
    } finally {
      await chrome.kill();
    }
  }
  const pick = (key: keyof Scores) => median(runs.map((r) => r[key]));
  return {
    version,
    runs,
    median: { score: pick('score'), fcp: pick('fcp'), lcp: pick('lcp'), tbt: pick('tbt'), cls: pick('cls'), si: pick('si') },
  };
}
