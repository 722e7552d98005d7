import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { todayInMY } from 'shared-api';
import { requestDueOn, type PrivacyRequest } from 'shared-api/contract';
import { axe } from '../../../test/axe';
import { issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { onPhone } from '../../../test/screenWidth';

setupMswServer();

// Issue 28: the request log's screens on /secured/privacy: the list with received and due days (21, or 35 once
// extended), handler and answer; record a new request, an extension, an answer; correct a visitor's details. The
// server (server/test/privacy/requests.test.ts, corrections.test.ts) is stood in for by a faithful msw handler.
const daysAgo = (days: number) => {
  const d = new Date(`${todayInMY()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
};
const label = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

describe('the request log', () => {
  let log: PrivacyRequest[];
  let posted: unknown[];
  let corrections: unknown[];
  let lookups: string[];
  beforeEach(() => {
    lookups = [];
    Cookies.set('token', issueToken(1), { path: '/' });
    posted = [];
    corrections = [];
    const request = (id: number, kind: 'access' | 'correction', person: string, receivedOn: string): PrivacyRequest => ({
      id,
      kind,
      personEmail: person,
      personPhone: null,
      receivedOn,
      dueOn: requestDueOn(receivedOn, false),
      extendedAt: null,
      handledBy: 'staff@example.com',
      answeredAt: null,
      note: '',
    });
    log = [request(1, 'access', 'late@example.com', daysAgo(25)), request(2, 'correction', 'aisyah@example.com', daysAgo(3))];
    const ok = (data: object) => HttpResponse.json({ success: true, data, message: 'ok' });
    server.use(
      http.get(`${API}/staff/privacy/requests`, () => ok({ requests: [...log].sort((a, b) => a.dueOn.localeCompare(b.dueOn)) })),
      http.post(`${API}/staff/privacy/requests`, async ({ request: req }) => {
        const body = (await req.json()) as { kind: 'access' | 'correction'; email: string; receivedOn: string };
        posted.push(body);
        const created = request(log.length + 1, body.kind, body.email, body.receivedOn);
        log.push(created);
        return ok({ request: created });
      }),
      http.post(`${API}/staff/privacy/requests/:id/:change`, ({ params }) => {
        const row = log.find((r) => r.id === Number(params.id))!;
        if (params.change === 'extend') Object.assign(row, { extendedAt: new Date().toISOString(), dueOn: requestDueOn(row.receivedOn, true) });
        else row.answeredAt = '2026-11-20T02:00:00.000Z';
        return ok({ request: row });
      }),
      // The correction form opens with the details held now: the person's look-up (server/test/privacy/readable-export.test.ts).
      http.get(`${API}/staff/privacy/person`, ({ request: req }) => {
        lookups.push(new URL(req.url).searchParams.toString());
        const summary = { names: ['Aisyah Rahman'], emails: ['aisyah@example.com'], phones: ['0123456781'], children: [], bookings: [], waitlistEntries: [], consents: [], mails: [] };
        return ok({ person: { email: 'aisyah@example.com', phone: null }, bookings: [], payments: [], consents: [], mails: [], auditEntries: [], waitlistEntries: [], summary });
      }),
      http.post(`${API}/staff/privacy/corrections`, async ({ request: req }) => {
        corrections.push(await req.json());
        return ok({ payments: 1, bookings: 1, waitlistEntries: 2, mailsRedirected: 1, person: { email: 'aisyah.r@example.com', phone: null } });
      }),
    );
  });

  it('lists each request with received and due days, handler and answer; an overdue one says so', async () => {
    const { container } = renderAdminApp('/secured/privacy');
    const table = await screen.findByRole('table', { name: 'Request log' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(0, 6).map((c) => c.textContent))).toEqual([
      ['Access', 'late@example.com', label(daysAgo(25)), `${label(daysAgo(4))} Overdue`, 'staff@example.com', 'Not yet'],
      ['Correction', 'aisyah@example.com', label(daysAgo(3)), label(daysAgo(3 - 21)), 'staff@example.com', 'Not yet'],
    ]);
    expect(await axe(container)).toHaveNoViolations();
  });

  it('on a phone, shows each request as a card, its actions and its correction form inside it', async () => {
    onPhone();
    const user = userEvent.setup();
    const { container } = renderAdminApp('/secured/privacy');
    const log = await screen.findByRole('list', { name: 'Request log' });
    expect(screen.queryByRole('table', { name: 'Request log' })).not.toBeInTheDocument();
    const cards = within(log).getAllByRole('listitem');
    const fields = (card: HTMLElement) => within(card).getAllByRole('term').map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(fields(cards[0])).toEqual([
      'Kind: Access',
      "Parent's email or phone: late@example.com",
      `Received: ${label(daysAgo(25))}`,
      `Due: ${label(daysAgo(4))} Overdue`,
      'Handled by: staff@example.com',
      'Answered: Not yet',
    ]);
    // Each button's name starts with the words it shows (WCAG 2.5.3: "Correct details" is said as it is seen).
    for (const button of within(log).getAllByRole('button')) expect(button.getAttribute('aria-label')).toMatch(new RegExp(`^${button.textContent}`));
    await user.click(within(cards[1]).getByRole('button', { name: 'Correct details of aisyah@example.com' }));
    expect(within(cards[1]).getByRole('form', { name: 'Correct the details of aisyah@example.com' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('records a new request, an extension (due 35 days after receipt) and an answer', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    const form = await screen.findByRole('form', { name: 'Record a new request' });
    await user.click(within(form).getByRole('button', { name: 'Record request' }));
    expect(await within(form).findByText('Enter an email address or a phone number')).toBeInTheDocument();
    expect(posted).toHaveLength(0);
    await user.type(within(form).getByLabelText("Parent's email or phone"), ' new@example.com ');
    await user.clear(within(form).getByLabelText('Received'));
    await user.type(within(form).getByLabelText('Received'), daysAgo(2));
    await user.click(within(form).getByRole('button', { name: 'Record request' }));
    await waitFor(() => expect(posted).toEqual([{ kind: 'access', email: 'new@example.com', receivedOn: daysAgo(2), note: '' }]));
    // The address whole, breakable only after its @ and before its dots (never a letter a line on a phone).
    const cell = await screen.findByText((_, element) => element?.tagName === 'TD' && element.textContent === 'new@example.com');
    expect(cell.querySelectorAll('wbr')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Record extension for aisyah@example.com' }));
    const row = (await screen.findByRole('cell', { name: /Extended/ })).closest('tr')!;
    expect(row).toHaveTextContent(label(daysAgo(3 - 35)));
    expect(within(row).queryByRole('button', { name: /Record extension/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Record answer to late@example.com' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Record answer to late@example.com' })).not.toBeInTheDocument());
    expect(screen.getByText((_, element) => element?.tagName === 'TD' && element.textContent === 'late@example.com').closest('tr')).toHaveTextContent('20 Nov 2026');
  });

  it("corrects a visitor's details from a correction request: the form shows the details held, and only what changed is sent", async () => {
    const user = userEvent.setup();
    const { container } = renderAdminApp('/secured/privacy');
    await user.click(await screen.findByRole('button', { name: 'Correct details of aisyah@example.com' }));
    const form = screen.getByRole('form', { name: 'Correct the details of aisyah@example.com' });
    // Prefilled from the person found: the name, email and phone held now (the phone as staff write it).
    await waitFor(() => expect(within(form).getByLabelText('Name')).toHaveValue('Aisyah Rahman'));
    expect(within(form).getByLabelText('Email')).toHaveValue('aisyah@example.com');
    expect(within(form).getByLabelText('Phone')).toHaveValue('012-345 6781');
    expect(lookups).toEqual(['email=aisyah%40example.com']);
    await user.click(within(form).getByRole('button', { name: 'Save correction' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Nothing changed');
    expect(corrections).toEqual([]);
    expect(await axe(container)).toHaveNoViolations();
    // The same number spaced otherwise is no change; the corrected name is the only thing sent.
    await user.clear(within(form).getByLabelText('Phone'));
    await user.type(within(form).getByLabelText('Phone'), '0123456781');
    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'Aisyah binti Rahman');
    await user.click(within(form).getByRole('button', { name: 'Save correction' }));
    await waitFor(() => expect(corrections).toEqual([{ email: 'aisyah@example.com', requestId: 2, visitorName: 'Aisyah binti Rahman' }]));
    expect(await screen.findByText('Corrected 1 booking, 1 payment and 2 waitlist entries')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /Correct the details/ })).not.toBeInTheDocument();
  });
});
