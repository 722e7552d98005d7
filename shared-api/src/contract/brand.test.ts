import brandConfig from '../../../brand.config.json';
import { schoolFeeSen } from './brand';

describe('the fee lookup', () => {
  it('reads each school’s fee from brand.config.json, the price list the server charges', () => {
    for (const school of brandConfig.schools) expect(schoolFeeSen(school.name)).toBe(school.feeSen);
    expect(schoolFeeSen('Seri Ilmu International')).toBe(10_000);
    expect(schoolFeeSen('A school not on the list')).toBeUndefined();
  });
});
