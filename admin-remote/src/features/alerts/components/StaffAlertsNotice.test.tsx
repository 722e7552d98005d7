import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import type { FailingRefund, StuckMail } from 'shared-api';
import { db, issueToken, setAlerts } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { STAFF_ALERTS_POLL_MS } from '../api/staffAlertsApi';

setupMswServer();

const XSS = '<img src=x onerror=alert(1)>';

const lateConfirmation: StuckMail = {
  id: 7,
  kind: 'visitor_confirmation',
  status: 'pending',
  paymentReference: 'PAY-LATE-0007',
  recipient: 'aisyah@example.my',
  attempts: 5,
  lastError: `421 Service not available ${XSS}`,
  ageMinutes: 65,
};
const givenUpNotice: StuckMail = {
  id: 3,
  kind: 'admin_notification',
  status: 'failed',
  paymentReference: 'PAY-LOST-0003',
  recipient: 'office@seriilmu.edu.my',
  attempts: 150,
  lastError: null,
  ageMinutes: 4330,
};
const failingRefund: FailingRefund = {
  paymentId: 'pay_9',
  reference: 'PAY-REFUND-0009',
  visitorName: 'Siti Refund',
  amountSen: 7000,
  refundAttempts: 3,
  lastError: 'Gateway refused the refund',
  nextRefundAt: '2030-01-07T10:00:00+08:00',
};

/** Resolves when the next answer to GET /staff/alerts has been sent. */
function nextAlertsAnswer(): Promise<void> {
  return new Promise((resolve) => {
    const listener = ({ request }: { request: Request }) => {
      if (new URL(request.url).pathname !== '/staff/alerts') return;
      server.events.removeListener('response:mocked', listener);
      resolve();
    };
    server.events.on('response:mocked', listener);
  });
}

async function openDashboard() {
  Cookies.set('token', issueToken(), { path: '/' });
  const view = renderAdminApp('/secured/dashboard');
  await screen.findByRole('heading', { name: 'Assessment Dashboard' });
  return view;
}

const notice = () => screen.queryByRole('region', { name: 'Needs attention' });

describe('staff alerts on the Assessment Dashboard', () => {
  it('shows nothing while no mail is stuck and no refund is failing', async () => {
    const answered = nextAlertsAnswer();
    await openDashboard();
    await answered;
    await act(async () => {});
    expect(notice()).not.toBeInTheDocument();
  });

  it('says what is wrong above the counts, and expands to the list (visitor data as text only)', async () => {
    setAlerts({ stuckMail: [givenUpNotice, lateConfirmation], failingRefunds: [failingRefund] });
    const user = userEvent.setup();
    const { container } = await openDashboard();

    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(region).getByRole('status')).toHaveTextContent('2 emails have not been sent for over an hour1 refund keeps failing');
    const counts = screen.getByRole('list', { name: 'Slot statistics' });
    expect(region.compareDocumentPosition(counts) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const toggle = within(region).getByRole('button', { name: 'Show details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(region).queryByText(/aisyah@example\.my/)).not.toBeVisible();
    expect(await axe(container)).toHaveNoViolations();

    await user.click(toggle);
    expect(within(region).getByRole('button', { name: 'Hide details' })).toHaveAttribute('aria-expanded', 'true');
    const [mailList, refundList] = within(region).getAllByRole('list').slice(1);
    const mailItems = within(mailList).getAllByRole('listitem');
    expect(mailItems.map((li) => li.textContent)).toEqual([
      'New-booking notice to the school to office@seriilmu.edu.my · PAY-LOST-0003 · waiting 3 days 0 h · given up',
      `Booking confirmation to aisyah@example.my · PAY-LATE-0007 · waiting 1 h 5 min · retrying, 5 attemptsLast error: 421 Service not available ${XSS}`,
    ]);
    expect(within(refundList).getByRole('listitem')).toHaveTextContent(
      'PAY-REFUND-0009 · Siti Refund · RM 70 · 3 attempts failed · next try 7 Jan 2030, 10:00 AM (GMT+8)Last error: Gateway refused the refund',
    );
    expect(within(region).getByRole('heading', { name: 'Emails not sent' })).toBeVisible();
    expect(within(region).getByRole('heading', { name: 'Refunds that keep failing' })).toBeVisible();
    expect(container.querySelector('img')).toBeNull();
    expect(await axe(container)).toHaveNoViolations();

    await user.click(within(region).getByRole('button', { name: 'Hide details' }));
    expect(within(region).queryByText(/aisyah@example\.my/)).not.toBeVisible();
  });

  it("names the child whose share of a booking of several keeps failing to refund, beside that booking's own refund", async () => {
    const childShare: FailingRefund = { ...failingRefund, amountSen: 4500, refundAttempts: 2, child: { position: 2, name: 'Siti Hajar' } };
    setAlerts({ failingRefunds: [failingRefund, childShare] });
    await openDashboard();
    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(region).getByRole('status')).toHaveTextContent(/^2 refunds keep failing$/);
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Show details' }));
    expect(within(region).getByText(/^PAY-REFUND-0009 · Siti Refund \(for Siti Hajar\) · RM\s?45(\.00)? · 2 attempts failed/)).toBeVisible();
    expect(within(region).getByText(/^PAY-REFUND-0009 · Siti Refund · RM\s?70(\.00)? · 3 attempts failed/)).toBeVisible();
  });

  it('words one of each in the singular, and shows only what there is', async () => {
    setAlerts({ failingRefunds: [failingRefund] });
    await openDashboard();
    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(region).getByRole('status')).toHaveTextContent(/^1 refund keeps failing$/);

    setAlerts({ stuckMail: [lateConfirmation] });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(within(region).getByRole('status')).toHaveTextContent(/^1 email has not been sent for over an hour$/));
  });

  it('counts everything stuck, and says when the list holds only the oldest', async () => {
    db.alerts = { stuckMail: { total: 60, items: [givenUpNotice] }, failingRefunds: { total: 0, items: [] }, failedJobs: [], chargebacks: { total: 0, items: [] } };
    await openDashboard();
    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(region).getByRole('status')).toHaveTextContent(/^60 emails have not been sent for over an hour$/);
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Show details' }));
    expect(within(region).getByText('Showing the oldest 1 of 60.')).toBeVisible();
  });

  it('names background work whose jobs gave up, with the last error, in staff words', async () => {
    setAlerts({
      failedJobs: [
        { queue: 'reminders', failed: 2, lastFailedAt: '2030-01-07T03:30:00+08:00', lastError: 'connection terminated' },
        { queue: 'refund', failed: 1, lastFailedAt: '2030-01-06T22:15:00+08:00', lastError: null },
      ],
    });
    await openDashboard();
    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(region).getByRole('status')).toHaveTextContent(/^3 background jobs failed in the last 7 days$/);
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Show details' }));
    expect(within(region).getByRole('heading', { name: 'Background work that failed' })).toBeVisible();
    const items = within(region).getAllByRole('listitem').slice(1).map((li) => li.textContent);
    expect(items).toEqual([
      'Visit reminders · 2 failed · last 7 Jan 2030, 3:30 AM (GMT+8)Last error: connection terminated',
      'Refunds · 1 failed · last 6 Jan 2030, 10:15 PM (GMT+8)',
    ]);
  });

  it('names each payment the bank charged back, how much, when (GMT+8) and that its booking was left as it is', async () => {
    setAlerts({
      chargebacks: [
        { paymentId: 'pay_5', reference: 'PAY-CB-0005', visitorName: `Nurul ${XSS}`, amountSen: 7500, at: '2030-01-07T09:05:00+08:00', bookingStatus: 'booked' },
        { paymentId: 'pay_4', reference: 'PAY-CB-0004', visitorName: 'Lim Wei', amountSen: 2500, at: '2030-01-05T18:00:00+08:00', bookingStatus: null },
      ],
    });
    const { container } = await openDashboard();
    const region = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(region).getByRole('status')).toHaveTextContent(/^2 payments were charged back by the bank$/);
    await userEvent.setup().click(within(region).getByRole('button', { name: 'Show details' }));
    expect(within(region).getByRole('heading', { name: 'Payments charged back' })).toBeVisible();
    expect(within(region).getByText(/^PAY-CB-0005 · Nurul <img src=x onerror=alert\(1\)> · RM\s?75(\.00)? taken back · 7 Jan 2030, 9:05 AM \(GMT\+8\) · still booked$/)).toBeVisible();
    expect(within(region).getByText(/^PAY-CB-0004 · Lim Wei · RM\s?25(\.00)? taken back · 5 Jan 2030, 6:00 PM \(GMT\+8\) · nothing booked$/)).toBeVisible();
    expect(container.querySelector('img')).toBeNull();
  });

  it('appears on the dashboard’s Refresh, and goes once nothing is left', async () => {
    const user = userEvent.setup();
    const answered = nextAlertsAnswer();
    await openDashboard();
    await answered;
    expect(notice()).not.toBeInTheDocument();

    setAlerts({ stuckMail: [lateConfirmation] });
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('region', { name: 'Needs attention' })).toHaveTextContent('1 email has not been sent for over an hour');

    setAlerts({});
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(notice()).not.toBeInTheDocument());
  });

  it('asks again every minute while the dashboard is open', async () => {
    jest.useFakeTimers({ advanceTimers: true, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      const answered = nextAlertsAnswer();
      await openDashboard();
      await answered;
      setAlerts({ failingRefunds: [failingRefund] });

      const polled = nextAlertsAnswer();
      // Half a minute on (with room for the real time the fake clock also follows): not asked yet.
      await act(async () => {
        jest.advanceTimersByTime(STAFF_ALERTS_POLL_MS / 2);
      });
      expect(notice()).not.toBeInTheDocument();
      await act(async () => {
        jest.advanceTimersByTime(STAFF_ALERTS_POLL_MS / 2);
      });
      await polled;
      expect(await screen.findByRole('region', { name: 'Needs attention' })).toHaveTextContent('1 refund keeps failing');
    } finally {
      jest.useRealTimers();
    }
  });
});
