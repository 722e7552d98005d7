import { csvCell, csvRow, csvText, guardFormula } from './csv';

describe('lib/csv', () => {
  it('guards formulas and quotes per RFC 4180', () => {
    expect(guardFormula('=1+1')).toBe("'=1+1");
    expect(guardFormula('plain')).toBe('plain');
    expect(csvCell('-2, "x"\r\nnext')).toBe(`"'-2, ""x""\r\nnext"`);
    expect(csvRow(['a', 1, null, undefined, '@b'])).toBe("a,1,,,'@b");
  });

  it('writes a header, the rows and CRLF line ends, one after the last row', () => {
    expect(csvText(['A', 'B'], [['1', 'x,y'], [2, null]])).toBe('A,B\r\n1,"x,y"\r\n2,\r\n');
    expect(csvText(['A'], [])).toBe('A\r\n');
  });
});
