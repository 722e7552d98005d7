import { validationToastMessages } from './validationToasts';
import { visitorResolver } from './visitorResolver';

const resolve = (values: Record<string, string>) => visitorResolver(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('visitor details rules (spec section 5)', () => {
  it('gives field messages for empty fields and the rule toasts', async () => {
    const { errors } = await resolve({ visitorName: ' ', visitorEmail: '', visitorContactNo: '', selectedSchool: '' });
    expect(errors.visitorName?.message).toBe('Name is required');
    expect(errors.visitorEmail?.message).toBe('Email is required');
    expect(errors.visitorContactNo?.message).toBe('Contact number is required');
    expect(errors.selectedSchool?.message).toBe('Please select a school');
    expect(validationToastMessages(errors)).toEqual([
      'Name must be at least 2 characters',
      'Please enter a valid email address',
      'Please enter a valid phone number (8-15 digits)',
      'Please select a school',
    ]);
  });

  it('rejects a 1-character name, a bad email and a 7-digit phone', async () => {
    const { errors } = await resolve({ visitorName: ' A ', visitorEmail: 'a@b', visitorContactNo: '012 3456', selectedSchool: 'X' });
    expect(validationToastMessages(errors)).toEqual([
      'Name must be at least 2 characters',
      'Please enter a valid email address',
      'Please enter a valid phone number (8-15 digits)',
    ]);
  });

  it('sanitises valid details: trimmed name cut to 255, lower-case email, phone without spaces', async () => {
    const { values, errors } = await resolve({
      visitorName: `  ${'N'.repeat(300)}  `,
      visitorEmail: '  Aisyah@Example.COM ',
      visitorContactNo: '012 345 6789',
      selectedSchool: ' Seri Ilmu International ',
    });
    expect(errors).toEqual({});
    expect(values).toEqual({
      visitorName: 'N'.repeat(255),
      visitorEmail: 'aisyah@example.com',
      visitorContactNo: '0123456789',
      selectedSchool: 'Seri Ilmu International',
    });
  });
});
