import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { addDays, DASHBOARD_FILTER_STORAGE_KEY, todayInMY } from 'shared-api';
import { addSlot, db, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';

setupMswServer();

const REFERENCE = 'BK-2026-0031';

/** Slot #31, booked and paid three days ahead; the booking's messages and answer as the test gives them. */
function seed(booking: Partial<(typeof db.bookings)[number]>) {
  addSlot({
    id: 31,
    date: addDays(todayInMY(), 3),
    startTime: '09:00',
    endTime: '09:30',
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.my',
    visitorContactNo: '0123456789',
    selectedSchool: 'Seri Ilmu International',
    bookingReference: REFERENCE,
    amountSen: 10000,
  });
  Object.assign(
    db.bookings.find((b) => b.reference === REFERENCE)!,
    booking,
  );
}

async function openDetails() {
  Cookies.set('token', issueToken(), { path: '/' });
  window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, 'booked');
  const user = userEvent.setup();
  const view = renderAdminApp('/secured/dashboard');
  await user.click(await screen.findByRole('button', { name: 'View Details of slot #31' }));
  const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
  const messages = await within(dialog).findByRole('region', { name: 'Messages' });
  return { dialog, messages, view };
}

const detail = (dialog: HTMLElement, label: string) =>
  within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling;

describe('Appointment Details: the messages to the parent and their answer (issue 38)', () => {
  it('lists each message newest first: channel in words, what it was, its state, when (GMT+8) and why one failed', async () => {
    seed({
      messages: [
        {
          channel: 'whatsapp',
          kind: 'reminder',
          state: 'failed',
          at: '2026-11-26T01:00:02.000Z',
          reason: '131026 Message undeliverable',
        },
        {
          channel: 'email',
          kind: 'reminder',
          state: 'queued',
          at: '2026-11-26T01:00:00.000Z',
          reason: 'The mail server could not be reached (connect ECONNREFUSED)',
        },
        {
          channel: 'whatsapp',
          kind: 'confirmation',
          state: 'read',
          at: '2026-11-20T03:10:00.000Z',
          reason: null,
        },
        {
          channel: 'email',
          kind: 'confirmation',
          state: 'sent',
          at: '2026-11-20T02:00:00.000Z',
          reason: null,
        },
      ],
      whatsapp: { state: 'opted_in', at: '2026-11-20T01:59:00.000Z' },
    });
    const { dialog, messages, view } = await openDetails();
    const items = within(messages).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '26 Nov 2026, 9:00 AMWhatsApp: ReminderFailedWhy: 131026 Message undeliverable',
      '26 Nov 2026, 9:00 AMEmail: ReminderQueuedStill trying. Last error: The mail server could not be reached (connect ECONNREFUSED)',
      '20 Nov 2026, 11:10 AMWhatsApp: Booking confirmationRead',
      '20 Nov 2026, 10:00 AMEmail: Booking confirmationSent',
    ]);
    // The channel is said in words; its icon is decoration only.
    expect(items[0].querySelector('svg[data-icon="whatsapp"]')).toHaveAttribute('aria-hidden', 'true');
    expect(within(messages).getByText(/Times are in GMT\+8/)).toBeInTheDocument();
    expect(detail(dialog, "Parent's answer")).toHaveTextContent('Not confirmed yet');
    expect(detail(dialog, 'WhatsApp')).toHaveTextContent('Opted in on 20 Nov 2026, 9:59 AM');
    expect(await axe(view.container)).toHaveNoViolations();
  });

  it('shows "Confirmed by parent" as a badge with the time (GMT+8), and a withdrawn WhatsApp choice', async () => {
    seed({
      confirmedByParentAt: '2026-11-27T03:04:05.000Z',
      whatsapp: { state: 'withdrawn', at: '2026-11-27T05:00:00.000Z' },
    });
    const { dialog, messages } = await openDetails();
    const answer = detail(dialog, "Parent's answer")!;
    expect(within(answer as HTMLElement).getByText('Confirmed by parent')).toBeInTheDocument();
    expect(answer).toHaveTextContent('Confirmed by parent on 27 Nov 2026, 11:04 AM');
    expect(within(answer as HTMLElement).getByText('on 27 Nov 2026, 11:04 AM')).toHaveAttribute(
      'dateTime',
      '2026-11-27T03:04:05.000Z',
    );
    expect(detail(dialog, 'WhatsApp')).toHaveTextContent('Withdrawn on 27 Nov 2026, 1:00 PM');
    expect(messages).toHaveTextContent('Nothing has been sent to the parent yet.');
  });

  it('a booking staff made with no payment has no WhatsApp row (nothing was asked)', async () => {
    seed({ paymentId: null });
    const { dialog } = await openDetails();
    expect(within(dialog).queryByText('WhatsApp', { selector: 'dt' })).not.toBeInTheDocument();
    expect(detail(dialog, "Parent's answer")).toHaveTextContent('Not confirmed yet');
  });
});
