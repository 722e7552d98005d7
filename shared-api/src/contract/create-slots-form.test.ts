import { ValidationMessage } from './booking-messages';
import { SlotAddMessage } from './slot-messages';
import { createSlotsFormSchema } from './schemas';

/** The first error message per field, as the form shows them. */
const errorsOf = (values: { startDate: string; endDate: string; startTime: string }) => {
  const result = createSlotsFormSchema.safeParse(values);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
};

describe('createSlotsFormSchema', () => {
  // Wednesday 2026-11-18, 23:30 in GMT+8 (15:30 UTC): tomorrow is Thursday the 19th.
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-18T15:30:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('accepts a range from tomorrow with a weekday, the same day allowed', () => {
    expect(createSlotsFormSchema.safeParse({ startDate: '2026-11-19', endDate: '2026-11-19', startTime: '08:30' }).success).toBe(true);
    expect(createSlotsFormSchema.safeParse({ startDate: '2026-11-21', endDate: '2026-11-23', startTime: '2:15 PM' }).success).toBe(true);
  });

  it("gives the spec's words for empty fields and an end before the start", () => {
    expect(errorsOf({ startDate: '', endDate: '', startTime: '' })).toEqual({
      startDate: ValidationMessage.startDateRequired,
      endDate: ValidationMessage.endDateRequired,
      startTime: ValidationMessage.startTimeRequired,
    });
    expect(errorsOf({ startDate: '2026-11-20', endDate: '2026-11-19', startTime: '08:30' })).toEqual({
      endDate: ValidationMessage.endBeforeStart,
    });
  });

  it("gives the server's words for today (GMT+8), a weekend-only range, an unreal date and an unreadable time", () => {
    expect(errorsOf({ startDate: '2026-11-18', endDate: '2026-11-19', startTime: '08:30' })).toEqual({ startDate: SlotAddMessage.tooEarly });
    expect(errorsOf({ startDate: '2026-11-21', endDate: '2026-11-22', startTime: '08:30' })).toEqual({ endDate: SlotAddMessage.weekend });
    expect(errorsOf({ startDate: '2026-11-19', endDate: '2026-02-30', startTime: '08:30' })).toEqual({ endDate: SlotAddMessage.badDate });
    expect(errorsOf({ startDate: '2026-11-19', endDate: '2026-11-19', startTime: '25:00' })).toEqual({ startTime: SlotAddMessage.badTime });
  });

  it('takes days up to two years ahead and starts up to 11:29 PM, as /slot/add and /slot/add-many do', () => {
    expect(errorsOf({ startDate: '2028-11-17', endDate: '2028-11-18', startTime: '23:29' })).toEqual({});
    expect(errorsOf({ startDate: '2028-11-17', endDate: '2028-11-20', startTime: '11:30 PM' })).toEqual({
      endDate: SlotAddMessage.tooFar,
      startTime: SlotAddMessage.timeTooLate,
    });
    expect(errorsOf({ startDate: '9999-12-27', endDate: '9999-12-31', startTime: '08:30' })).toEqual({ startDate: SlotAddMessage.tooFar, endDate: SlotAddMessage.tooFar });
    expect(SlotAddMessage.timeTooLate).toBe('The latest start time is 11:29 PM: a slot must end before midnight.');
    expect(SlotAddMessage.tooFar).toBe('Slots can only be created up to 2 years ahead.');
  });
});
