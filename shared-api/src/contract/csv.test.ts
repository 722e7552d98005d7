import { CSV_BOM, csvFile, csvText, phoneCell } from './csv';

describe('shared-api/csv, the one CSV writer', () => {
  it('a file is the BOM then the text: a Chinese name reads right in Excel, a phone keeps its 0', () => {
    const file = csvFile(['name', 'phone'], [['陈美玲', phoneCell('0123456789')]]);
    expect(file).toBe(`${CSV_BOM}name,phone\r\n陈美玲,\t0123456789\r\n`);
    expect(file.slice(1)).toBe(csvText(['name', 'phone'], [['陈美玲', phoneCell('0123456789')]]));
  });

  it('guards a formula in any cell, header included', () => {
    expect(csvFile(['=x'], [['+1', true, 2]])).toBe(`${CSV_BOM}'=x\r\n'+1,true,2\r\n`);
  });
});
