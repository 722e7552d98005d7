import { visitorResolver } from './visitorResolver';

const resolve = (values: Record<string, string>) => visitorResolver(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
/** The child's fields (issue 24), valid for the school 'X' of these tests (not one of the group's: any year is taken). */
const child = { childName: 'Nur Iman', childYear: 'Year 1' };

describe('visitor details rules (spec section 5)', () => {
  it('names the rule each empty field breaks, with the contract\'s words', async () => {
    const { errors } = await resolve({ visitorName: ' ', visitorEmail: '', visitorContactNo: '', selectedSchool: '', childName: '', childYear: '' });
    expect(errors.visitorName).toMatchObject({ type: 'nameRequired', message: 'Name is required' });
    expect(errors.visitorEmail).toMatchObject({ type: 'emailRequired', message: 'Email is required' });
    expect(errors.visitorContactNo).toMatchObject({ type: 'contactRequired', message: 'Contact number is required' });
    expect(errors.selectedSchool).toMatchObject({ type: 'schoolRequired', message: 'Please select a school' });
    expect(errors.childName).toMatchObject({ type: 'childNameRequired', message: "Child's name is required" });
    expect(errors.childYear).toMatchObject({ type: 'childYearRequired', message: 'Please select the year or grade applied for' });
  });

  it('rejects a 1-character name, a bad email and a 7-digit phone', async () => {
    const { errors } = await resolve({ visitorName: ' A ', visitorEmail: 'a@b', visitorContactNo: '012 3456', selectedSchool: 'X', ...child });
    expect(errors.visitorName).toMatchObject({ type: 'nameTooShort', message: 'Name must be at least 2 characters' });
    expect(errors.visitorEmail).toMatchObject({ type: 'emailInvalid', message: 'Please enter a valid email address' });
    expect(errors.visitorContactNo).toMatchObject({ type: 'phoneInvalid', message: 'Please enter a valid phone number (8-15 digits)' });
  });

  it("names zod's own check where the contract gives only words (text too long to be a typed value)", async () => {
    const { errors } = await resolve({ visitorName: 'Aisyah', visitorEmail: `${'a'.repeat(1000)}@example.com`, visitorContactNo: '0123456789', selectedSchool: 'X', ...child });
    expect(errors.visitorEmail).toMatchObject({ type: 'too_big', message: 'Please enter a valid email address' });
  });

  it('sanitises valid details: trimmed name cut to 255, lower-case email, phone without spaces', async () => {
    const { values, errors } = await resolve({
      visitorName: `  ${'N'.repeat(300)}  `,
      visitorEmail: '  Aisyah@Example.COM ',
      visitorContactNo: '012 345 6789',
      selectedSchool: ' Seri Ilmu International ',
      childName: `  ${'C'.repeat(300)}  `,
      childYear: 'Year 13',
    });
    expect(errors).toEqual({});
    expect(values).toEqual({
      visitorName: 'N'.repeat(255),
      visitorEmail: 'aisyah@example.com',
      visitorContactNo: '0123456789',
      selectedSchool: 'Seri Ilmu International',
      childName: 'C'.repeat(255),
      childYear: 'Year 13',
    });
  });

  it.each([
    ['+60 12-345 6789', '0123456789'],
    ['+6012 345 6789', '0123456789'],
    ['60123456789', '0123456789'],
    ['0060 12 345 6789', '0123456789'],
    ['+60 (0)3-2123 4567', '0321234567'],
    ['011-2345 6789', '01123456789'],
    ['(03) 2123.4567', '0321234567'],
    ['０１２ ３４５ ６７８９', '0123456789'],
    ['+65 9123 4567', '+6591234567'],
  ])('takes the phone %s and keeps it as %s', async (typed, stored) => {
    const { values, errors } = await resolve({ visitorName: 'Aisyah', visitorEmail: 'a@example.com', visitorContactNo: typed, selectedSchool: 'X', ...child });
    expect(errors).toEqual({});
    expect(values.visitorContactNo).toBe(stored);
  });

  it.each(['+60 12-345', '+60 12 345 6789 0123 45', '012-345-678x', '+', '++60123456789', '60 12'])('refuses the phone %s with the spec\'s words', async (typed) => {
    const { errors } = await resolve({ visitorName: 'Aisyah', visitorEmail: 'a@example.com', visitorContactNo: typed, selectedSchool: 'X', ...child });
    expect(errors.visitorContactNo).toMatchObject({ type: 'phoneInvalid', message: 'Please enter a valid phone number (8-15 digits)' });
  });

  it('strips direction controls and zero-width characters from a name, puts it in NFC, and cuts it by characters', async () => {
    const details = { visitorEmail: 'a@example.com', visitorContactNo: '0123456789', selectedSchool: 'X', ...child };
    const name = async (visitorName: string) => (await resolve({ ...details, visitorName })).values.visitorName;
    // U+202E would show "Invoice\u202Egnp.exe" as "Invoiceexe.png".
    expect(await name('Invoice\u202Egnp.exe')).toBe('Invoicegnp.exe');
    expect(await name('\u2066Nur\u2069 \u200EAina\u200F\u061C \u200B\u200C\u200D\u2060\uFEFFbinti\u202A\u202B\u202C\u202D Ali\u2067\u2068')).toBe('Nur Aina binti Ali');
    // "e" and a combining acute accent become one "é"; a line break or a tab becomes a space.
    expect(await name('Jose\u0301 \n Ramos\tLee')).toBe('José Ramos Lee');
    expect(await name('José')).toHaveLength(4);
    // 300 emoji (600 UTF-16 units) are cut to 255 of them, none split into U+FFFD.
    const cut = await name('😀'.repeat(300));
    expect(Array.from(cut!)).toEqual(Array(255).fill('😀'));
    expect(cut).not.toContain('\uFFFD');
    // Only invisible characters, or one letter and invisible ones: no name.
    expect((await resolve({ ...details, visitorName: '\u202E\u200B' })).errors.visitorName?.message).toBe('Name is required');
    expect((await resolve({ ...details, visitorName: 'A\u200B\u200B' })).errors.visitorName?.message).toBe('Name must be at least 2 characters');
  });

  it('drops invisible characters from an email and from the school', async () => {
    const { values, errors } = await resolve({
      visitorName: 'Aisyah',
      visitorEmail: '\u200Eaisyah@example.com\u200F',
      visitorContactNo: '0123456789',
      selectedSchool: 'Seri\u202E Ilmu',
      ...child,
    });
    expect(errors).toEqual({});
    expect(values).toMatchObject({ visitorEmail: 'aisyah@example.com', selectedSchool: 'Seri Ilmu' });
  });

  it("cleans the child's name as the visitor's and takes only a year the chosen school has", async () => {
    const details = { visitorName: 'Aisyah', visitorEmail: 'a@example.com', visitorContactNo: '0123456789' };
    const primary = await resolve({ ...details, selectedSchool: 'Seri Ilmu Private Primary', childName: ' Nur\u200B  Iman\u202E ', childYear: 'Year 6' });
    expect(primary.errors).toEqual({});
    expect(primary.values).toMatchObject({ childName: 'Nur Iman', childYear: 'Year 6' });
    const formAtPrimary = await resolve({ ...details, selectedSchool: 'Seri Ilmu Private Primary', childName: 'Nur Iman', childYear: 'Form 1' });
    expect(formAtPrimary.errors.childYear).toMatchObject({ type: 'childYearInvalid', message: 'Please select a year or grade the selected school takes' });
    const oneLetter = await resolve({ ...details, selectedSchool: 'Seri Ilmu Private Primary', childName: 'N\u200B', childYear: 'Year 1' });
    expect(oneLetter.errors.childName?.message).toBe("Child's name must be at least 2 characters");
  });
});
