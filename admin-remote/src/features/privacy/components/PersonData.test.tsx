import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { axe } from '../../../test/axe';
import { issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';

setupMswServer();

// Issue 28 (PDPA access and portability): staff find one parent's records by email or phone and export them. The
// server (tested in server/test/privacy/person.test.ts) answers here as a faithful stand-in.
const EMPTY_SUMMARY = { names: [], emails: [], phones: [], children: [], bookings: [], waitlistEntries: [], consents: [], mails: [] };
// Aisyah booked twice: the first visit was cancelled (its slot is free again, so no booked slot names it), the second is paid.
const AISYAH = {
  person: { email: 'aisyah@example.com', phone: null },
  bookings: [{ bookingReference: 'PAY-2' }],
  payments: [{ id: 'pay_1', reference: 'PAY-1' }, { id: 'pay_2', reference: 'PAY-2' }],
  consents: [{ id: 1, channel: 'web' }],
  mails: [{ id: 1 }, { id: 2 }, { id: 3 }],
  waitlistEntries: [{ id: 4, state: 'booked' }],
  auditEntries: [],
  summary: {
    names: ['Aisyah Rahman'],
    emails: ['aisyah@example.com'],
    phones: ['0123456781'],
    children: [{ name: 'Nur Iman', year: 'Year 2' }],
    bookings: [
      { reference: 'PAY-1', school: 'Seri Ilmu Private Primary', childName: 'Nur Iman', start: '2026-12-03T01:00:00.000Z', end: '2026-12-03T01:30:00.000Z', amountSen: 5000, refundSen: null, state: 'cancelled', cancelledAt: '2026-11-28T02:15:00.000Z', madeAt: '2026-11-20T03:00:00.000Z' },
      { reference: 'PAY-2', school: 'Seri Ilmu Private Primary', childName: 'Nur Iman', start: '2026-12-10T06:30:00.000Z', end: '2026-12-10T07:00:00.000Z', amountSen: 5000, refundSen: null, state: 'paid', cancelledAt: null, madeAt: '2026-11-28T03:00:00.000Z' },
    ],
    waitlistEntries: [{ school: 'Seri Ilmu Private Primary', fromDate: '2026-12-01', toDate: '2026-12-05', partOfDay: 'any', state: 'booked', joinedAt: '2026-11-19T03:00:00.000Z' }],
    consents: [{ noticeVersion: '2026-11-01', language: 'ms', channel: 'web', givenAt: '2026-11-20T03:00:00.000Z' }],
    mails: [
      { subject: 'Booking confirmed', recipient: 'aisyah@example.com', status: 'sent', createdAt: '2026-11-20T03:01:00.000Z', sentAt: '2026-11-20T03:02:00.000Z' },
      { subject: 'Booking cancelled', recipient: 'aisyah@example.com', status: 'failed', createdAt: '2026-11-28T02:16:00.000Z', sentAt: null },
      { subject: 'Booking confirmed', recipient: 'aisyah@example.com', status: 'pending', createdAt: '2026-11-28T03:01:00.000Z', sentAt: null },
    ],
  },
};
const NOBODY = { person: { email: null, phone: '0199999999' }, bookings: [], payments: [], consents: [], mails: [], waitlistEntries: [], auditEntries: [], summary: EMPTY_SUMMARY };
// Only on the waitlist: joined, never booked (the entry and its consent and mail are still held).
const WAITING = {
  ...NOBODY,
  person: { email: null, phone: '0171112222' },
  consents: [{ id: 2, channel: 'web' }],
  mails: [{ id: 5 }],
  waitlistEntries: [{ id: 6, state: 'waiting' }],
  summary: {
    ...EMPTY_SUMMARY,
    names: ['Lim Wei'],
    emails: ['wei@example.com'],
    phones: ['0171112222'],
    waitlistEntries: [{ school: 'Seri Ilmu International', fromDate: '2026-12-01', toDate: '2026-12-05', partOfDay: 'morning', state: 'waiting', joinedAt: '2026-11-19T03:00:00.000Z' }],
  },
};

describe('/secured/privacy', () => {
  let lookups: URLSearchParams[];
  let exports: URLSearchParams[];
  let created: Blob[];
  beforeEach(() => {
    lookups = [];
    exports = [];
    created = [];
    Cookies.set('token', issueToken(1), { path: '/' });
    server.use(
      http.get(`${API}/staff/privacy/person`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        lookups.push(query);
        const data = query.get('email') ? AISYAH : query.get('phone') === '017-111 2222' ? WAITING : NOBODY;
        return HttpResponse.json({ success: true, data, message: 'Person found' });
      }),
      http.get(`${API}/staff/privacy/person/export`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        exports.push(query);
        return query.get('format') === 'html' ? HttpResponse.text('<!doctype html><h1>Your personal data held by Seri Ilmu</h1>') : HttpResponse.text(JSON.stringify(AISYAH));
      }),
    );
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = jest.fn();
  });

  it('is linked from the staff bar, finds a parent by email and shows who they are and each booking with its state, then the counts', async () => {
    const user = userEvent.setup();
    const { container } = renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Privacy' }));
    expect(currentPath()).toBe('/secured/privacy');
    await user.type(screen.getByLabelText('Email address or phone number'), ' aisyah@example.com ');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('region', { name: 'Held about aisyah@example.com' });
    expect(lookups.map((q) => q.toString())).toEqual(['email=aisyah%40example.com']);
    // Who they are, the phone as the staff side writes it.
    expect(within(found).getAllByRole('term').map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`)).toEqual([
      'Name: Aisyah Rahman',
      'Email: aisyah@example.com',
      'Phone: 012-345 6781',
      'Children: Nur Iman (Year 2)',
    ]);
    // Each booking: its school, day and time in GMT+8, amount and state; the cancelled one reads as cancelled.
    const bookings = within(found).getByRole('table', { name: 'Bookings' });
    expect(within(bookings).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['PAY-1', 'Seri Ilmu Private Primary', 'Thu 3 Dec 20269:00 AM – 9:30 AM', 'RM 50', 'Cancelledon 28 Nov 2026, 10:15 AM'],
      ['PAY-2', 'Seri Ilmu Private Primary', 'Thu 10 Dec 20262:30 PM – 3:00 PM', 'RM 50', 'Paid'],
    ]);
    expect(within(found).getByRole('list', { name: 'Waitlist entries' })).toHaveTextContent('Seri Ilmu Private Primary: 1 Dec 2026 to 5 Dec 2026, joined 19 Nov 2026 Booked');
    expect(within(found).getByRole('list', { name: 'Consents' })).toHaveTextContent('Privacy notice version 2026-11-01, read in Malay, agreed 20 Nov 2026, 11:00 AM (on the booking page)');
    expect(within(within(found).getByRole('list', { name: 'Mails' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Booking confirmed, to aisyah@example.com, 20 Nov 2026, 11:02 AM Sent',
      'Booking cancelled, to aisyah@example.com, 28 Nov 2026, 10:16 AM Failed',
      'Booking confirmed, to aisyah@example.com, 28 Nov 2026, 11:01 AM Waiting to be sent',
    ]);
    // The counts come after the person.
    expect(within(within(found).getByRole('list', { name: 'Records held' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Bookings (slots): 1',
      'Payments: 2',
      'Consents: 1',
      'Mails: 3',
      'Waitlist entries: 1',
      'Audit entries: 0',
    ]);
    expect(await axe(container)).toHaveNoViolations();
  });

  it('downloads the readable page for the parent and the full record as JSON', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    await user.type(await screen.findByLabelText('Email address or phone number'), 'aisyah@example.com');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('region', { name: 'Held about aisyah@example.com' });
    await user.click(within(found).getByRole('button', { name: 'Download for the parent (readable)' }));
    await waitFor(() => expect(created).toHaveLength(1));
    await user.click(within(found).getByRole('button', { name: 'Download full record (JSON)' }));
    await waitFor(() => expect(created).toHaveLength(2));
    expect(exports.map((q) => [q.get('email'), q.get('format')])).toEqual([
      ['aisyah@example.com', 'html'],
      ['aisyah@example.com', 'json'],
    ]);
    expect(created[0].type).toBe('text/html;charset=utf-8');
    expect(await created[0].text()).toContain('<h1>Your personal data');
    expect(JSON.parse(await created[1].text())).toEqual(AISYAH);
    expect(within(found).queryByRole('button', { name: /CSV/ })).not.toBeInTheDocument();
  });

  it('finds by phone, says when nothing is held, and asks for a value before searching', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    await user.click(await screen.findByRole('button', { name: 'Find' }));
    expect(await screen.findByText('Enter an email address or a phone number')).toBeInTheDocument();
    expect(lookups).toHaveLength(0);
    await user.selectOptions(screen.getByLabelText('Find by'), 'Phone number');
    await user.type(screen.getByLabelText('Email address or phone number'), '019-999 9999');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('Nothing is held about 019-999 9999.')).toBeInTheDocument();
    expect(lookups[0].get('phone')).toBe('019-999 9999');
    expect(screen.queryByRole('button', { name: 'Download full record (JSON)' })).not.toBeInTheDocument();
  });

  it('shows a parent who only joined the waitlist as someone data is held about, with the export', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    await user.selectOptions(await screen.findByLabelText('Find by'), 'Phone number');
    await user.type(screen.getByLabelText('Email address or phone number'), '017-111 2222');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('region', { name: 'Held about 017-111 2222' });
    expect(within(found).getByRole('list', { name: 'Waitlist entries' })).toHaveTextContent('Seri Ilmu International: 1 Dec 2026 to 5 Dec 2026, joined 19 Nov 2026 Waiting');
    expect(within(found).getByText('No booking.')).toBeInTheDocument();
    expect(within(found).getByText('Waitlist entries: 1')).toBeInTheDocument();
    expect(within(found).getByRole('button', { name: 'Download for the parent (readable)' })).toBeInTheDocument();
  });
});
