import { visitorResolver } from '../../../lib/visitor-fields/visitorResolver';
import { validationToastErrors } from './validationToasts';

const resolve = (values: Record<string, string>) => visitorResolver(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
const toasted = async (values: Record<string, string>) => validationToastErrors((await resolve(values)).errors).map(({ type, message }) => [type, message]);

describe('the toasts of a refused submit (spec section 5)', () => {
  it('toasts each field in the form’s order, an empty one with the rule it breaks', async () => {
    expect(await toasted({ visitorName: ' ', visitorEmail: '', visitorContactNo: '', selectedSchool: '', childName: '', childYear: '' })).toEqual([
      ['nameTooShort', 'Name must be at least 2 characters'],
      ['emailInvalid', 'Please enter a valid email address'],
      ['phoneInvalid', 'Please enter a valid phone number (8-15 digits)'],
      ['childNameTooShort', "Child's name must be at least 2 characters"],
      ['schoolRequired', 'Please select a school'],
      ['childYearRequired', 'Please select the year or grade applied for'],
    ]);
  });

  it('toasts a broken rule as it is', async () => {
    const child = { childName: 'Nur Iman', childYear: 'Year 1' };
    expect(await toasted({ visitorName: ' A ', visitorEmail: 'a@b', visitorContactNo: '012 3456', selectedSchool: 'X', ...child })).toEqual([
      ['nameTooShort', 'Name must be at least 2 characters'],
      ['emailInvalid', 'Please enter a valid email address'],
      ['phoneInvalid', 'Please enter a valid phone number (8-15 digits)'],
    ]);
  });
});
