import { contractMismatches, parseContract, type Contract } from './contract';

const provides: Contract = {
  bundle: 'shell',
  shellContract: '1.3.0',
  shared: { react: '19.3.1', 'react-dom': '19.3.1', 'react-router': '7.18.5', 'shared-ui': '0.1.0', 'styled-components': '6.6.0' },
};
const needs = (shellContract: string, shared: Record<string, string> = {}): Contract => ({ bundle: 'booking-remote', shellContract, shared });

describe('the version ranges check between a remote and the shell', () => {
  it('passes when every range is met (a newer minor of the shell or a library is fine)', () => {
    expect(contractMismatches(needs('^1.0.0', { react: '^19.2.0', 'react-router': '^7.9.0', 'shared-ui': '^0.1.0' }), provides)).toEqual([]);
    expect(contractMismatches(needs('>=1.3.0 <2'), provides)).toEqual([]);
  });

  it('names each mismatch: the shell contract, a library too old or too new, one the shell lacks', () => {
    expect(
      contractMismatches(needs('^2.0.0', { react: '^19.4.0', 'styled-components': '^5.3.0', '@reduxjs/toolkit': '^2.0.0', 'shared-ui': '^0.2.0' }), provides),
    ).toEqual([
      'booking-remote needs shell contract ^2.0.0; the shell provides 1.3.0',
      'booking-remote needs react ^19.4.0; the shell provides 19.3.1',
      'booking-remote needs styled-components ^5.3.0; the shell provides 6.6.0',
      'booking-remote needs @reduxjs/toolkit ^2.0.0; the shell provides none',
      // ^0.1.0 means >=0.1.0 <0.2.0: a 0.x minor is a breaking change.
      'booking-remote needs shared-ui ^0.2.0; the shell provides 0.1.0',
    ]);
  });

  it('says when a stated range is not semver', () => {
    expect(contractMismatches(needs('one'), provides)).toEqual(['booking-remote states shell contract "one", which is not a semver range']);
  });

  it('reads only a contract.json that has a contract version and shared versions', () => {
    expect(parseContract({ bundle: 'shell', shellContract: '1.0.0', shared: {} })).toBeDefined();
    expect(parseContract({ bundle: 'shell' })).toBeUndefined();
    expect(parseContract(null)).toBeUndefined();
  });
});
