// The contract between the shell and a remote (docs/ARCHITECTURE.md, "Releases and the shell contract"): each build
// writes `contract.json` beside its code; a remote's says what it needs from the host, the shell's what it provides.
// Checked by the shell's server before it points a page at a remote's version, and by `npm run release`.
import semver from 'semver';

/** The shared singletons whose versions a remote needs and the shell provides. */
export const CONTRACT_PACKAGES = [
  'react',
  'react-dom',
  'react-router',
  'react-redux',
  '@reduxjs/toolkit',
  'styled-components',
  'shared-ui',
  'shared-api',
] as const;

/** What a build states: a remote its needs (semver ranges), the shell what it provides (versions). */
export type Contract = {
  bundle: string;
  /** Shell: the contract version it implements (`1.0.0`); remote: the range it needs (`^1.0.0`). */
  shellContract: string;
  /** Shell: the version it provides of each shared singleton; remote: the range it needs. */
  shared: Record<string, string>;
};

export const CONTRACT_FILE = 'contract.json';

const isContract = (value: unknown): value is Contract => {
  const record = value as Partial<Contract> | null;
  return Boolean(record && typeof record.shellContract === 'string' && record.shared && typeof record.shared === 'object');
};

/** A parsed contract.json, or undefined when it is not one. */
export function parseContract(raw: unknown): Contract | undefined {
  return isContract(raw) ? raw : undefined;
}

/**
 * What the shell (`provides`) lacks for a remote (`needs`), one sentence per mismatch; empty when compatible. A need
 * the shell does not state is a mismatch; what the shell provides beyond the needs is not.
 */
export function contractMismatches(needs: Contract, provides: Contract): string[] {
  const problems: string[] = [];
  const check = (what: string, range: string, version: string | undefined) => {
    if (version === undefined) problems.push(`${needs.bundle} needs ${what} ${range}; the shell provides none`);
    else if (!semver.validRange(range)) problems.push(`${needs.bundle} states ${what} "${range}", which is not a semver range`);
    else if (!semver.valid(version) || !semver.satisfies(version, range, { includePrerelease: true }))
      problems.push(`${needs.bundle} needs ${what} ${range}; the shell provides ${version}`);
  };
  check('shell contract', needs.shellContract, provides.shellContract);
  for (const [name, range] of Object.entries(needs.shared)) check(name, range, provides.shared[name]);
  return problems;
}
