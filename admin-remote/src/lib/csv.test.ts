import { csvCell, csvRow, csvText, guardFormula, phoneCell } from './csv';

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

  it('writes phone numbers as text cells that keep their leading zero, agreeing with the formula guard', () => {
    // As Malaysians write them: text to Excel and LibreOffice (a space and a hyphen), written as is.
    expect(csvCell(phoneCell('016-577 3086'))).toBe('016-577 3086');
    // Digits only would become 165773086, '+' a formula: a leading tab keeps them text and shows nothing; no apostrophe.
    expect(csvCell(phoneCell('0165773086'))).toBe('\t0165773086');
    expect(csvCell(phoneCell('+6591234567'))).toBe('\t+6591234567');
    expect(csvRow(['a', phoneCell('+6591234567'), '=1'])).toBe("a,\t+6591234567,'=1");
    // Anything that is not a phone number is guarded like any cell, so a formula never rides on the phone column.
    expect(csvCell(phoneCell('=HYPERLINK("http://x")'))).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell(phoneCell('+1+cmd|x'))).toBe("'+1+cmd|x");
    expect(csvCell(phoneCell(null))).toBe('');
  });
});
