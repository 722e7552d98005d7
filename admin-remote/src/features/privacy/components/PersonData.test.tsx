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
const AISYAH = {
  person: { email: 'aisyah@example.com', phone: null },
  bookings: [{ bookingReference: 'BK-1' }],
  payments: [{ id: 'pay_1', reference: 'PAY-1' }, { id: 'pay_2', reference: 'PAY-2' }],
  consents: [{ id: 1, channel: 'web' }],
  mails: [{ id: 1 }, { id: 2 }, { id: 3 }],
  waitlistEntries: [{ id: 4, state: 'booked' }],
  auditEntries: [],
};
const NOBODY = { person: { email: null, phone: '0199999999' }, bookings: [], payments: [], consents: [], mails: [], waitlistEntries: [], auditEntries: [] };
// Only on the waitlist: joined, never booked (the entry and its consent and mail are still held).
const WAITING = { ...NOBODY, person: { email: null, phone: '0171112222' }, consents: [{ id: 2, channel: 'web' }], mails: [{ id: 5 }], waitlistEntries: [{ id: 6, state: 'waiting' }] };

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
        return query.get('format') === 'csv' ? HttpResponse.text('record,id\r\npayments,pay_1\r\n') : HttpResponse.text(JSON.stringify(AISYAH));
      }),
    );
    URL.createObjectURL = jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = jest.fn();
  });

  it('is linked from the staff bar, finds a parent by email and shows what is held, then exports JSON and CSV', async () => {
    const user = userEvent.setup();
    const { container } = renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Privacy' }));
    expect(currentPath()).toBe('/secured/privacy');
    await user.type(screen.getByLabelText('Email address or phone number'), ' aisyah@example.com ');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('region', { name: 'Held about aisyah@example.com' });
    expect(lookups.map((q) => q.toString())).toEqual(['email=aisyah%40example.com']);
    expect(within(found).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Bookings (slots): 1',
      'Payments: 2',
      'Consents: 1',
      'Mails: 3',
      'Waitlist entries: 1',
      'Audit entries: 0',
    ]);
    expect(await axe(container)).toHaveNoViolations();

    await user.click(within(found).getByRole('button', { name: 'Export JSON' }));
    await waitFor(() => expect(created).toHaveLength(1));
    await user.click(within(found).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(created).toHaveLength(2));
    expect(exports.map((q) => [q.get('email'), q.get('format')])).toEqual([
      ['aisyah@example.com', 'json'],
      ['aisyah@example.com', 'csv'],
    ]);
    expect(JSON.parse(await created[0].text())).toEqual(AISYAH);
    expect(await created[1].text()).toContain('payments,pay_1');
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
    expect(screen.queryByRole('button', { name: 'Export JSON' })).not.toBeInTheDocument();
  });

  it('shows a parent who only joined the waitlist as someone data is held about, with the export', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/privacy');
    await user.selectOptions(await screen.findByLabelText('Find by'), 'Phone number');
    await user.type(screen.getByLabelText('Email address or phone number'), '017-111 2222');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('region', { name: 'Held about 017-111 2222' });
    expect(within(found).getByText('Waitlist entries: 1')).toBeInTheDocument();
    expect(within(found).getByRole('button', { name: 'Export JSON' })).toBeInTheDocument();
  });
});
