// One msw server per test file, listening for the whole file and reset between tests.
import { configure } from '@testing-library/react';
import { setupServer } from 'msw/node';
import Cookies from 'js-cookie';
import { handlers } from './handlers';
import { addManyRequests, slotPlanningHandlers, testHolidays } from './slot-planning-handlers';
import { resetDb } from './db';
import { visitDayHandlers } from '../features/visit-day/testing/handlers';

export const server = setupServer(...handlers, ...slotPlanningHandlers, ...visitDayHandlers);

// Two shared CPU cores: give findBy/waitFor more than the default second before calling a screen missing.
configure({ asyncUtilTimeout: 5000 });
jest.setTimeout(30_000);

/** Call at the top of a test file: starts msw, fails on unhandled requests, resets data and cookies per test. */
export function setupMswServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    resetDb();
    addManyRequests.length = 0;
    testHolidays.clear();
    Cookies.remove('token', { path: '/' });
    window.localStorage.clear();
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}
