import fs from 'node:fs';
import path from 'node:path';

// At run time every app gets `react-router-dom` from the shell: a subset of the router (scripts/federation/react-router-dom.ts).
// Each app's own build and its tests use the whole package, so a name outside the subset (useParams, for one)
// builds and passes there, then is undefined in the product. This keeps every app's imports within the subset.
const repoRoot = path.resolve(__dirname, '..');
const subsetFile = fs.readFileSync(path.join(repoRoot, 'scripts/federation/react-router-dom.ts'), 'utf8');
const shared = new Set(
  (/export\s*\{([^}]*)\}\s*from\s*'react-router'/.exec(subsetFile)?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
);

const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    // booking-remote's server render entry (src/server) is a Node bundle of its own with the whole router, never federated.
    const federated = !file.includes(`${path.sep}test${path.sep}`) && !file.includes(`booking-remote${path.sep}src${path.sep}server${path.sep}`);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && federated ? [file] : [];
  });

describe('the shared router', () => {
  it('offers every name the shell and the remotes import from react-router-dom', () => {
    expect(shared.has('Link')).toBe(true);
    const missing: string[] = [];
    for (const file of ['shell', 'booking-remote', 'admin-remote'].flatMap((app) => sources(path.join(repoRoot, app, 'src')))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, names] of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'react-router-dom'/g)) {
        for (const raw of names.split(',')) {
          const name = raw.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
          if (name && !raw.trim().startsWith('type ') && !shared.has(name)) missing.push(`${path.relative(repoRoot, file)}: ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
