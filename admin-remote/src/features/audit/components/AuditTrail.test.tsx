import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http } from 'msw';
import { ValidationMessage } from 'shared-api/messages';
import { axe } from '../../../test/axe';
import { issueToken } from '../../../test/db';
import { API, fail } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { onPhone } from '../../../test/screenWidth';
import { auditHandlers, auditRecord, auditRequests, resetAudit } from '../../../test/audit-handlers';
import { AUDIT_PAGE_SIZE, AuditText } from './AuditTrail';

setupMswServer();

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1]).queryAllByRole('row');
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

// 2026-03-02 09:05:09 GMT+8 is 01:05:09 UTC.
const LOGIN = auditRecord({ at: '2026-03-02T01:05:09.000Z', actor: 'staff@seriilmu.edu.my', action: 'login', ip: '203.0.113.7' });
const FAILED = auditRecord({ at: '2026-03-02T01:04:00.000Z', actor: 'intruder@example.com', action: 'login_failed', ip: '198.51.100.9' });
const CANCELLED = auditRecord({
  at: '2026-03-03T02:00:00.000Z',
  actor: 'parent',
  action: 'parent_cancelled',
  target: 'PAY-ABC123',
  detail: { refundSen: 7500 },
  ip: '10.7.7.7',
});
// 23:59 GMT+8 on Mar 1 (still Mar 1 there, Mar 1 in UTC too) and 00:30 GMT+8 on Mar 4 (Mar 3 in UTC).
const SLOT = auditRecord({
  at: '2026-03-01T15:59:00.000Z',
  action: 'slot_created',
  target: '42',
  detail: { start: '2026-03-10T00:30:00.000Z', end: '2026-03-10T01:00:00.000Z' },
});
const LATE = auditRecord({ at: '2026-03-03T16:30:00.000Z', action: 'slot_deleted', target: '=HYPERLINK("x")', ip: null });

describe('/secured/audit', () => {
  beforeEach(() => {
    server.use(...auditHandlers);
    resetAudit([LOGIN, FAILED, CANCELLED, SLOT, LATE]);
    Cookies.set('token', issueToken(1), { path: '/' });
  });

  it('is linked from the staff bar and lists the records newest first: time in GMT+8, who, action, target, from where', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Audit trail' }));
    expect(currentPath()).toBe('/secured/audit');
    expect(await screen.findByRole('heading', { name: 'Audit trail' })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(bodyRows().map(cellsOf)).toEqual([
      ['4 Mar 2026 12:30:00 AM', 'staff@seriilmu.edu.my', 'Slot deleted', '=HYPERLINK("x")', ''],
      ['3 Mar 2026 10:00:00 AM', 'parent', 'Parent cancelled', 'PAY-ABC123RM 75', '10.7.7.7'],
      ['2 Mar 2026 9:05:09 AM', 'staff@seriilmu.edu.my', 'Signed in', '', '203.0.113.7'],
      ['2 Mar 2026 9:04:00 AM', 'intruder@example.com', 'Failed sign-in', '', '198.51.100.9'],
      ['1 Mar 2026 11:59:00 PM', 'staff@seriilmu.edu.my', 'Slot created', '4210 Mar 2026, 8:30 AM', '10.0.0.1'],
    ]);
    expect(screen.getByText('Page 1 of 1 (5 records)')).toBeInTheDocument();
    expect(auditRequests[0].get('page')).toBe('1');
    expect(auditRequests[0].get('limit')).toBe(String(AUDIT_PAGE_SIZE));
  });

  it('filters by person, action and GMT+8 dates (both inclusive), and clears them', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/audit');
    await waitFor(() => expect(bodyRows()).toHaveLength(5));

    await user.type(screen.getByLabelText('Person'), 'SEriilmu');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(auditRequests.at(-1)!.get('actor')).toBe('SEriilmu');

    await user.selectOptions(screen.getByLabelText('Action'), 'Slot created');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(auditRequests.at(-1)!.get('action')).toBe('slot_created');

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(screen.getByLabelText('Person')).toHaveValue('');

    // Mar 2 to Mar 3 in GMT+8: not 23:59 on Mar 1, not 00:30 on Mar 4.
    await user.type(screen.getByLabelText('From'), '2026-03-02');
    await user.type(screen.getByLabelText('To'), '2026-03-03');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(bodyRows().map((r) => cellsOf(r)[2])).toEqual(['Parent cancelled', 'Signed in', 'Failed sign-in']);
    expect(Object.fromEntries(auditRequests.at(-1)!)).toEqual({ from: '2026-03-02', to: '2026-03-03', page: '1', limit: String(AUDIT_PAGE_SIZE) });

    await user.selectOptions(screen.getByLabelText('Action'), 'Refund');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText(AuditText.empty)).toBeInTheDocument();
  });

  it('below the desk (a tablet), shows each record as a card: time, who, action, target and address beside their names', async () => {
    onPhone();
    const { container } = renderAdminApp('/secured/audit');
    const trail = await screen.findByRole('list', { name: /^Audit trail/ });
    // The records, not the five skeleton rows shown while they load.
    const cancelled = (await within(trail).findByText('Parent cancelled')).closest('li')!;
    expect(within(trail).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(cancelled).getAllByRole('term').map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`)).toEqual([
      'Time: 3 Mar 2026 10:00:00 AM',
      'Who: parent',
      'Action: Parent cancelled',
      'Target: PAY-ABC123RM 75',
      'From: 10.7.7.7',
    ]);
    // A sign-in touches nothing: its card has no Target line.
    const login = within(trail).getAllByText('Signed in')[0].closest('li')!;
    expect(within(login).getAllByRole('term').map((dt) => dt.textContent)).toEqual(['Time', 'Who', 'Action', 'From']);
    await waitFor(() => expect(trail).not.toHaveAttribute('aria-busy'));
    expect(await axe(container)).toHaveNoViolations();
  });

  it('on a phone (below 640 px, set by CSS) shows each record as a card, and an email never breaks letter by letter', async () => {
    renderAdminApp('/secured/audit');
    expect(await screen.findByText('Page 1 of 1 (5 records)')).toBeInTheDocument();
    // jsdom applies no media query: the desk's table shows, and its phone counterpart is in the page, hidden.
    expect(screen.getByRole('table')).toBeVisible();
    const trail = screen.getByRole('list', { name: /^Audit trail/, hidden: true });
    expect(trail).not.toBeVisible();
    const cards = within(trail).getAllByRole('listitem', { hidden: true });
    expect(cards).toHaveLength(5);
    const fields = (card: HTMLElement) =>
      within(card)
        .getAllByRole('term', { hidden: true })
        .map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(fields(cards[1])).toEqual([
      'Time: 3 Mar 2026 10:00:00 AM',
      'Who: parent',
      'Action: Parent cancelled',
      'Target: PAY-ABC123RM 75',
      'From: 10.7.7.7',
    ]);
    // A sign-in touches nothing: its card has no Target line.
    expect(fields(cards[2]).map((line) => line.split(':')[0])).toEqual(['Time', 'Who', 'Action', 'From']);

    // An email wraps only after its @ or before a dot, on a card and in the table, whose Who column keeps its width.
    expect(within(cards[0]).getByText('staff@seriilmu.edu.my').querySelectorAll('wbr')).toHaveLength(3);
    const who = within(bodyRows()[0]).getAllByRole('cell')[1];
    expect(who.querySelectorAll('wbr')).toHaveLength(3);
    expect(getComputedStyle(who).overflowWrap).toBe('break-word');
    expect(getComputedStyle(who).minWidth).toBe('12rem');
  });

  it('has no accessibility violations', async () => {
    const { container } = renderAdminApp('/secured/audit');
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    await waitFor(() => expect(screen.getByRole('table')).not.toHaveAttribute('aria-busy'));
    expect(await axe(container)).toHaveNoViolations();
  });

  it('summarises slots created at once (how many, which days, which times) with each slot behind a disclosure', async () => {
    const slots = Array.from({ length: 30 }, (_, i) => ({
      id: 500 + i,
      start: new Date(Date.UTC(2026, 11, 21 + Math.floor(i / 3), i % 3, 30)).toISOString(),
      end: new Date(Date.UTC(2026, 11, 21 + Math.floor(i / 3), i % 3, 59)).toISOString(),
    }));
    resetAudit([
      auditRecord({
        at: '2026-12-01T02:00:00.000Z',
        action: 'slot_created',
        target: slots.map((s) => s.id).join(','),
        detail: { count: 30, fromDate: '2026-12-21', toDate: '2027-01-01', startTimes: ['08:30', '09:30', '10:30'], slots },
        ip: '10.0.0.1',
      }),
    ]);
    const user = userEvent.setup();
    const { container } = renderAdminApp('/secured/audit');
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const target = within(bodyRows()[0]).getAllByRole('cell')[3];
    expect(target.firstChild).toHaveProperty('textContent', '30 slots, 21 Dec 2026 – 1 Jan 2027 at 8:30 AM, 9:30 AM, 10:30 AM');
    // No raw list of ids: each slot is a line of the disclosure, closed until asked for.
    expect(target).not.toHaveTextContent('500,501');
    const first = within(target).getAllByRole('listitem', { hidden: true })[0];
    expect(first).not.toBeVisible();
    await user.click(within(target).getByText('Show the 30 slots'));
    expect(first).toBeVisible();
    expect(within(target).getAllByRole('listitem')).toHaveLength(30);
    expect(within(target).getAllByRole('listitem')[0]).toHaveTextContent('#500 · Mon 21 Dec 2026, 8:30 AM – 8:59 AM');
    expect(await axe(container)).toHaveNoViolations();
  });

  it('refuses an end date before the start date', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/audit');
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    const requests = auditRequests.length;
    await user.type(screen.getByLabelText('From'), '2026-03-05');
    await user.type(screen.getByLabelText('To'), '2026-03-01');
    expect(screen.getByText(ValidationMessage.endBeforeStart)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply filters' })).toBeDisabled();
    expect(auditRequests).toHaveLength(requests);
  });

  it('pages through the records', async () => {
    resetAudit(
      Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, i) =>
        auditRecord({ at: new Date(Date.UTC(2026, 2, 2, 0, i)).toISOString(), action: 'slot_created', target: String(i) }),
      ),
    );
    const user = userEvent.setup();
    renderAdminApp('/secured/audit');
    await waitFor(() => expect(bodyRows()).toHaveLength(AUDIT_PAGE_SIZE));
    expect(screen.getByText(`Page 1 of 2 (${AUDIT_PAGE_SIZE + 5} records)`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(cellsOf(bodyRows()[0])[3]).toMatch(new RegExp(`^${AUDIT_PAGE_SIZE + 4}`));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    expect(screen.getByText(`Page 2 of 2 (${AUDIT_PAGE_SIZE + 5} records)`)).toBeInTheDocument();
    expect(bodyRows().map((r) => cellsOf(r)[3]!.split('Mar')[0])).toEqual(['4', '3', '2', '1', '0']);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(AUDIT_PAGE_SIZE));
  });

  it('exports every matching record as CSV (all pages of 100, RFC 4180 quoting, formulas guarded)', async () => {
    const many = Array.from({ length: 130 }, (_, i) =>
      auditRecord({ at: new Date(Date.UTC(2026, 1, 1, 0, i)).toISOString(), actor: 'bulk@seriilmu.edu.my', action: 'slot_created', target: String(i) }),
    );
    resetAudit([LOGIN, FAILED, CANCELLED, SLOT, LATE, ...many]);
    const blobs: Blob[] = [];
    Object.assign(URL, { createObjectURL: jest.fn((blob: Blob) => (blobs.push(blob), 'blob:audit')), revokeObjectURL: jest.fn() });
    const clicked = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderAdminApp('/secured/audit');
    await waitFor(() => expect(bodyRows()).toHaveLength(AUDIT_PAGE_SIZE));

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(AuditText.exported(135))).toBeInTheDocument();
    expect(clicked).toHaveBeenCalledTimes(1);
    const exportRequests = auditRequests.filter((q) => q.get('limit') === '100');
    expect(exportRequests.map((q) => q.get('page'))).toEqual(['1', '2']);
    const lines = (await blobs[0].text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines).toHaveLength(1 + 135 + 1);
    expect(lines.slice(0, 4)).toEqual([
      'Time (GMT+8),Who,Action,Target,Detail,From',
      `"4 Mar 2026, 12:30:00 AM",staff@seriilmu.edu.my,Slot deleted,"'=HYPERLINK(""x"")",,`,
      '"3 Mar 2026, 10:00:00 AM",parent,Parent cancelled,PAY-ABC123,RM 75,10.7.7.7',
      '"2 Mar 2026, 9:05:09 AM",staff@seriilmu.edu.my,Signed in,,,203.0.113.7',
    ]);
    expect(lines.at(-1)).toBe('');

    // The export follows the applied filters.
    await user.type(screen.getByLabelText('Person'), 'intruder');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(AuditText.exported(1))).toBeInTheDocument();
    expect((await blobs[1].text()).split('\r\n')[1]).toBe('"2 Mar 2026, 9:04:00 AM",intruder@example.com,Failed sign-in,,,198.51.100.9');
    clicked.mockRestore();
  });

  it('says when nothing matches, and shows the server’s refusal when the trail cannot be read', async () => {
    resetAudit([]);
    const first = renderAdminApp('/secured/audit');
    expect(await screen.findByText(AuditText.empty)).toBeInTheDocument();
    first.unmount();
    server.use(http.get(`${API}/staff/audit`, () => fail(503, 'SERVICE_UNAVAILABLE', 'The service is busy. Please try again.')));
    renderAdminApp('/secured/audit');
    expect(await screen.findByText('The service is busy. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
