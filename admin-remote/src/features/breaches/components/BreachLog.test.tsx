import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { breachDeadlines, type Breach } from 'shared-api/contract';
import { axe } from '../../../test/axe';
import { AccountMessage } from 'shared-api/accounts';
import { db, issueToken, STAFF_EMAIL } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdmin, renderAdminApp } from '../../../test/render';
import { BreachLog } from './BreachLog';

setupMswServer();

// Issue 28 (PDPA s. 12B): the breach log's screens on /secured/privacy. The server (server/test/privacy/breaches.test.ts)
// is stood in for by a faithful msw handler; times are built relative to now.
const HOUR = 3_600_000;
const breachFound = (id: number, hoursAgo: number, extra: Partial<Breach> = {}): Breach => {
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
    bookedFrom: '2026-10-02',
    bookedTo: '2026-10-10',
    school: null,
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

describe('the breach log', () => {
  let log: Breach[];
  let logged: unknown[];
  let steps: string[];
  let exports: string[];
  let created: Blob[];
  beforeEach(() => {
    Cookies.set('token', issueToken(1), { path: '/' });
    log = [breachFound(1, 80)];
    logged = [];
    steps = [];
    exports = [];
    created = [];
    const ok = (data: object) => HttpResponse.json({ success: true, data, message: 'ok' });
    server.use(
      http.get(`${API}/staff/privacy/requests`, () => ok({ requests: [] })),
      http.get(`${API}/staff/breaches`, () => ok({ breaches: log })),
      http.post(`${API}/staff/breaches`, async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        logged.push(body);
        const breach = breachFound(log.length + 1, 0, { foundAt: new Date(body.foundAt).toISOString(), school: body.school ?? null, affected: 2 });
        log = [breach, ...log];
        return ok({ breach });
      }),
      http.post(`${API}/staff/breaches/:id/:step`, ({ request, params }) => {
        steps.push(`${params.id} ${params.step}`);
        const row = log.find((b) => b.id === Number(params.id))!;
        const at = new Date().toISOString();
        if (params.step === 'notify') {
          // As the server: with two enabled admins or more, the first press asks (202) and another admin's sends.
          const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
          const actor = db.accounts.find((a) => a.id === db.tokens.get(token))?.email ?? null;
          const admins = db.accounts.filter((a) => a.role === 'admin' && !a.disabledAt).map((a) => a.email);
          const askedByAnAdmin = row.notifyAskedBy !== null && admins.includes(row.notifyAskedBy);
          if (admins.length >= 2 && !(askedByAnAdmin && row.notifyAskedBy !== actor)) {
            if (askedByAnAdmin) {
              return HttpResponse.json(
                { success: false, data: null, message: AccountMessage.notifyNeedsAnotherAdmin, error: 'FORBIDDEN', reason: { rule: 'secondAdmin' } },
                { status: 409 },
              );
            }
            Object.assign(row, { notifyAskedBy: actor, notifyAskedAt: at });
            return HttpResponse.json({ success: true, data: { breach: row }, message: AccountMessage.notifyAsked }, { status: 202 });
          }
          Object.assign(row, { peopleNotifiedAt: at, peopleNotified: row.affected });
        }
        else Object.assign(row, { commissionerNotifiedAt: at, peopleDueAt: new Date(Date.now() + 7 * 24 * HOUR).toISOString() });
        return ok({ breach: row });
      }),
      http.get(`${API}/staff/breaches/:id/people`, ({ request, params }) => {
        const format = new URL(request.url).searchParams.get('format')!;
        exports.push(`${params.id} ${format}`);
        return format === 'csv' ? HttpResponse.text('name,email\r\nAisyah,aisyah@example.com\r\n') : HttpResponse.text('{"people":[]}');
      }),
    );
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = jest.fn();
  });

  it('shows each breach with its people and both deadlines, the Commissioner’s overdue after 72 hours, and records it', async () => {
    const user = userEvent.setup();
    const { container } = renderAdminApp('/secured/privacy');
    const table = await screen.findByRole('table', { name: 'Breach log' });
    const row = within(table).getAllByRole('row')[1];
    const cells = within(row).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent('Booked 2 Oct 2026 – 10 Oct 2026');
    expect(cells[2]).toHaveTextContent('4 people');
    expect(cells[3]).toHaveTextContent('Overdue');
    expect(cells[4]).not.toHaveTextContent('Overdue');
    expect(await axe(container)).toHaveNoViolations();

    await user.click(within(row).getByRole('button', { name: 'Record that the Commissioner was notified of breach 1' }));
    await waitFor(() => expect(steps).toEqual(['1 commissioner-notified']));
    expect(await within(table).findByText(/^Notified /)).toBeInTheDocument();
  });

  it('mails the people after a confirm, and exports their contacts as JSON and CSV in one click each', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    await user.click(await screen.findByRole('button', { name: 'Email the people affected by breach 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email the people affected?' });
    expect(dialog).toHaveTextContent('Each of the 4 people this breach touches gets the notice in the language they booked in.');
    await user.click(within(dialog).getByRole('button', { name: 'Send notices' }));
    await waitFor(() => expect(steps).toEqual(['1 notify']));
    expect(await screen.findByText(/^4 notices queued/, { selector: 'td' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export the contacts of breach 1 as CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export the contacts of breach 1 as JSON' }));
    await waitFor(() => expect(created).toHaveLength(2));
    expect(exports).toEqual(['1 csv', '1 json']);
    expect(await created[0].text()).toContain('aisyah@example.com');
  });

  it('logs a new breach: found at in GMT+8, what and which data required, the school narrowing who', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    const form = await screen.findByRole('form', { name: 'Log a breach' });
    await user.click(within(form).getByRole('button', { name: 'Log breach' }));
    expect(await within(form).findByText('Enter when the breach was found')).toBeInTheDocument();
    expect(logged).toHaveLength(0);
    await user.type(within(form).getByLabelText('Found at (GMT+8)'), '2026-11-02T09:30');
    await user.type(within(form).getByLabelText('What happened'), 'Mail sent to the wrong list.');
    await user.type(within(form).getByLabelText('Which data'), 'Names and emails.');
    await user.selectOptions(within(form).getByLabelText('School'), 'Seri Ilmu International');
    await user.click(within(form).getByRole('button', { name: 'Log breach' }));
    await waitFor(() =>
      expect(logged).toEqual([{ foundAt: '2026-11-02T09:30:00+08:00', whatHappened: 'Mail sent to the wrong list.', dataAffected: 'Names and emails.', school: 'Seri Ilmu International' }]),
    );
    expect(await screen.findByText('Breach logged: 2 people affected')).toBeInTheDocument();
  });

  describe('where the school has two admins', () => {
    const OTHER_ADMIN = 'farid@seriilmu.edu.my';
    beforeEach(() => {
      db.accounts.push({ id: 2, email: OTHER_ADMIN, username: 'farid', password: 'farid-pass', role: 'admin' });
    });

    it('asks for the mailing first: nothing is sent, and the one who asked waits for a second admin', async () => {
      const user = userEvent.setup();
      const { container } = renderAdmin(<BreachLog currentUserEmail={STAFF_EMAIL} />);
      await user.click(await screen.findByRole('button', { name: 'Email the people affected by breach 1' }));
      const dialog = await screen.findByRole('dialog', { name: 'Email the people affected?' });
      await user.click(within(dialog).getByRole('button', { name: 'Send notices' }));
      const waiting = new RegExp(`^Waiting for a second admin to confirm the mailing \\(asked by ${STAFF_EMAIL}, .+\\)$`);
      // Said at once (a toast) and in the row.
      await waitFor(() => expect(screen.getAllByText(waiting)).toHaveLength(2));
      expect(steps).toEqual(['1 notify']);
      expect(log[0]).toMatchObject({ peopleNotifiedAt: null, notifyAskedBy: STAFF_EMAIL });

      const table = screen.getByRole('table', { name: 'Breach log' });
      expect(await within(table).findByText(waiting)).toBeInTheDocument();
      const button = within(table).getByRole('button', { name: 'Email the people affected by breach 1' });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription('A second admin must confirm this mailing.');
      expect(await axe(container)).toHaveNoViolations();
    });

    it('lets a second admin confirm another admin’s ask, and mails everyone', async () => {
      const user = userEvent.setup();
      log = [breachFound(1, 80, { notifyAskedBy: OTHER_ADMIN, notifyAskedAt: new Date(Date.now() - HOUR).toISOString() })];
      renderAdmin(<BreachLog currentUserEmail={STAFF_EMAIL} />);
      const table = await screen.findByRole('table', { name: 'Breach log' });
      expect(await within(table).findByText(new RegExp(`asked by ${OTHER_ADMIN}`))).toBeInTheDocument();
      const confirm = within(table).getByRole('button', { name: 'Confirm the mailing to the people affected by breach 1' });
      expect(confirm).toHaveTextContent('Confirm and mail everyone');
      await user.click(confirm);
      const dialog = await screen.findByRole('dialog', { name: 'Email the people affected?' });
      await user.click(within(dialog).getByRole('button', { name: 'Send notices' }));
      expect(await screen.findByText(/^4 notices queued/, { selector: 'td' })).toBeInTheDocument();
      expect(steps).toEqual(['1 notify']);
    });

    it('shows the server’s refusal when the admin who asked presses again', async () => {
      const user = userEvent.setup();
      log = [breachFound(1, 80, { notifyAskedBy: STAFF_EMAIL, notifyAskedAt: new Date().toISOString() })];
      // Without the signed-in admin's email the log cannot tell its own ask: the server says no.
      renderAdmin(<BreachLog />);
      await user.click(await screen.findByRole('button', { name: 'Confirm the mailing to the people affected by breach 1' }));
      const dialog = await screen.findByRole('dialog', { name: 'Email the people affected?' });
      await user.click(within(dialog).getByRole('button', { name: 'Send notices' }));
      expect(await screen.findByText(AccountMessage.notifyNeedsAnotherAdmin)).toBeInTheDocument();
      expect(log[0].peopleNotifiedAt).toBeNull();
    });
  });
});
