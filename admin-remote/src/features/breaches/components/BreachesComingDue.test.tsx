import { screen, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { breachDeadlines, type Breach } from 'shared-api/contract';
import { issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { breachStepsDue } from './BreachesComingDue';

setupMswServer();

// Issue 36: a breach's notifications coming due are on the dashboard (its Commissioner deadline is 72 hours away at most).
const HOUR = 3_600_000;
const breach = (id: number, hoursAgo: number, extra: Partial<Breach> = {}): Breach => {
  const foundAt = new Date(Date.now() - hoursAgo * HOUR);
  const { commissionerDueAt, peopleDueAt } = breachDeadlines(foundAt, null);
  return {
    id,
    foundAt: foundAt.toISOString(),
    whatHappened: 'A staff laptop was stolen.',
    dataAffected: 'Names, emails and phones.',
    whatHappenedMs: null,
    dataAffectedMs: null,
    whatHappenedZh: null,
    dataAffectedZh: null,
    bookedFrom: null,
    bookedTo: null,
    school: 'Seri Ilmu International',
    commissionerDueAt: commissionerDueAt.toISOString(),
    commissionerNotifiedAt: null,
    peopleDueAt: peopleDueAt.toISOString(),
    peopleNotifiedAt: null,
    affected: 4,
    peopleNotified: null,
    recordedBy: 'staff@example.com',
    notifyAskedBy: null,
    notifyAskedAt: null,
    ...extra,
  };
};

it('lists each step still to take within a week, overdue first; a breach fully notified is not listed', () => {
  const fresh = breach(1, 24);
  const late = breach(2, 80);
  const told = breach(3, 10, { commissionerNotifiedAt: new Date().toISOString(), peopleNotifiedAt: new Date().toISOString() });
  // The Commissioner told: the people are due 7 days after that (5 days from now here).
  const commissionerOnly = breach(4, 30, { commissionerNotifiedAt: new Date(Date.now() - 2 * 24 * HOUR).toISOString(), peopleDueAt: new Date(Date.now() + 5 * 24 * HOUR).toISOString() });
  const peopleLater = breach(5, 30, { commissionerNotifiedAt: new Date().toISOString(), peopleDueAt: new Date(Date.now() + 8 * 24 * HOUR).toISOString() });
  expect(breachStepsDue([fresh, late, told, commissionerOnly, peopleLater]).map((d) => [d.breach.id, d.step])).toEqual([
    [2, 'commissioner'],
    [1, 'commissioner'],
    [4, 'people'],
  ]);
});

it('the dashboard shows a breach whose Commissioner deadline is two days away, with the way to the log', async () => {
  Cookies.set('token', issueToken(1), { path: '/' });
  server.use(http.get(`${API}/staff/breaches`, () => HttpResponse.json({ success: true, data: { breaches: [breach(1, 24)] }, message: 'ok' })));
  renderAdminApp('/secured/dashboard');
  const panel = await screen.findByRole('region', { name: 'Breach notifications coming due' });
  expect(within(panel).getByText(/notify the Commissioner by/)).toBeInTheDocument();
  expect(within(panel).getByRole('link', { name: 'Open the breach log' })).toHaveAttribute('href', '/secured/privacy');
  Cookies.remove('token', { path: '/' });
});
