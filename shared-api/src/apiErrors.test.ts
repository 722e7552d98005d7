import { SlotListError } from './contract/messages';
import { httpStatus, serverMessage, serverRule, slotListErrorKey, slotListErrorMessage } from './apiErrors';

describe('slot list error texts (spec section 8)', () => {
  it.each([
    [{ status: 404, data: {} }, 'No slots found for the requested criteria'],
    [{ status: 400, data: { message: 'limit must be at most 100' } }, 'limit must be at most 100'],
    [{ status: 400, data: {} }, 'Invalid request parameters'],
    [{ status: 401, data: {} }, 'Authentication required. Please log in again.'],
    [{ status: 403, data: {} }, "Access denied. You don't have permission to view slots."],
    [{ status: 500, data: {} }, 'Server error. Please try again later.'],
    [{ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, 'Network error: Cannot connect to server. Please check your connection.'],
    [{ status: 'FETCH_ERROR', error: 'CORS request did not succeed' }, 'CORS error: Backend server is not accessible. Please contact administrator.'],
    [{ status: 'TIMEOUT_ERROR', error: 'AbortError' }, 'Request timeout. Please try again.'],
    [{ status: 'PARSING_ERROR', originalStatus: 200, data: '<html>', error: 'SyntaxError' }, 'Invalid data format received from server'],
    [{ status: 'CUSTOM_ERROR', error: SlotListError.invalidData }, 'Invalid data format received from server'],
    [{ status: 418, data: {} }, 'Failed to fetch slots. Please try again.'],
  ] as const)('maps %j', (error, text) => {
    expect(slotListErrorMessage(error as never)).toBe(text);
  });

  it.each([
    [{ status: 404, data: {} }, 'notFound'],
    [{ status: 400, data: { message: 'limit must be at most 100' } }, 'badRequest'],
    [{ status: 401, data: {} }, 'unauthorized'],
    [{ status: 403, data: {} }, 'forbidden'],
    [{ status: 503, data: {} }, 'server'],
    [{ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, 'network'],
    [{ status: 'FETCH_ERROR', error: 'CORS request did not succeed' }, 'cors'],
    [{ status: 'TIMEOUT_ERROR', error: 'AbortError' }, 'timeout'],
    [{ status: 'PARSING_ERROR', originalStatus: 200, data: '<html>', error: 'SyntaxError' }, 'invalidData'],
    [{ status: 'CUSTOM_ERROR', error: 'something else' }, 'other'],
    [{ name: 'Error', message: 'client side' }, 'other'],
  ] as const)('names the text of %j for a catalogue', (error, key) => {
    expect(slotListErrorKey(error as never)).toBe(key);
  });
});

describe("the server's message from a failed call", () => {
  it('reads the envelope message and the status, and nothing from a blank or missing one', () => {
    expect(serverMessage({ status: 409, data: { success: false, data: null, message: 'Slot already booked' } })).toBe('Slot already booked');
    expect(httpStatus({ status: 409, data: {} })).toBe(409);
    expect(serverMessage({ status: 400, data: { message: '  ' } })).toBeUndefined();
    expect(serverMessage({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError' })).toBeUndefined();
    expect(serverMessage({ name: 'Error', message: 'client side' })).toBeUndefined();
    expect(httpStatus(undefined)).toBeUndefined();
  });
});

describe("the rule the server's reason names", () => {
  it('reads reason.rule from a failed envelope, and nothing from one without, a non-string rule or a client-side error', () => {
    expect(serverRule({ status: 400, data: { success: false, data: null, message: 'x', reason: { rule: 'commonPassword' } } })).toBe('commonPassword');
    expect(serverRule({ status: 400, data: { message: 'x' } })).toBeUndefined();
    expect(serverRule({ status: 400, data: { reason: { rule: 7 } } })).toBeUndefined();
    expect(serverRule({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError' })).toBeUndefined();
    expect(serverRule({ name: 'Error', message: 'client side' })).toBeUndefined();
  });
});
