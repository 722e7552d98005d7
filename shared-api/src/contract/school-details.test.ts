import { brand } from './brand';
import { isSchoolYear, schoolDetails, schoolYearName, schoolYears, telHref } from './school-details';

// brand.config.json's schoolDetails, per school (issue 24): each school the group has is there with a place and its
// years, and nothing else is; a wrong key or a missing language fails here, not in a parent's form.
describe("the schools' details", () => {
  it('has an address, a map link, a phone and years for every school, and for no other', () => {
    for (const school of brand.schools) {
      const details = schoolDetails(school.name);
      expect(details).toEqual({ address: expect.any(String), mapUrl: expect.stringMatching(/^https:\/\//), phone: expect.stringMatching(/^0\d-?\d/), years: expect.any(Array) });
      expect(details!.years.length).toBeGreaterThan(0);
      // Each year says itself in Malay and Chinese too.
      for (const year of details!.years) expect(year.names).toEqual({ ms: expect.any(String), zh: expect.any(String) });
    }
    expect(schoolDetails('Another School')).toBeUndefined();
    expect(schoolDetails('constructor')).toBeUndefined();
  });

  it("knows each school's years and names them per language", () => {
    expect(schoolYears('Seri Ilmu Private Secondary').map((y) => y.name)).toEqual(['Form 1', 'Form 2', 'Form 3', 'Form 4', 'Form 5']);
    expect(isSchoolYear('Seri Ilmu Private Primary', 'Year 6')).toBe(true);
    expect(isSchoolYear('Seri Ilmu Private Primary', 'Form 1')).toBe(false);
    expect(isSchoolYear('Another School', 'Year 1')).toBe(false);
    expect(schoolYearName('Seri Ilmu Private Secondary', 'Form 3', 'ms')).toBe('Tingkatan 3');
    expect(schoolYearName('Seri Ilmu Private Secondary', 'Form 3', 'zh')).toBe('中三');
    expect(schoolYearName('Seri Ilmu Private Secondary', 'Form 3')).toBe('Form 3');
    // A year no longer offered (brand.config.json changed after the booking) is shown as stored.
    expect(schoolYearName('Seri Ilmu Private Secondary', 'Form 6', 'ms')).toBe('Form 6');
  });

  it('dials a Malaysian office number with its calling code', () => {
    expect(telHref('03-7726 4100')).toBe('tel:+60377264100');
    expect(telHref('+65 6123 4567')).toBe('tel:+6561234567');
  });
});
