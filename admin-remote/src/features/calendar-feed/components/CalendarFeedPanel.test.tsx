import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import Cookies from 'js-cookie';
import { ErrorCode } from 'shared-api';
import { API, fail } from '../../../test/handlers';
import { db, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { CalendarFeedText } from './CalendarFeedPanel';

setupMswServer();

const FEED_URL = new RegExp(`^${API}/calendar/[A-Za-z0-9_-]{43}\\.ics$`);

async function openPanel() {
  Cookies.set('token', issueToken(), { path: '/' });
  const view = renderAdminApp('/secured/dashboard');
  const panel = await screen.findByRole('region', { name: CalendarFeedText.title });
  return { view, panel };
}

const urlField = (panel: HTMLElement) =>
  within(panel).getByLabelText(CalendarFeedText.urlLabel) as HTMLInputElement;

describe('Calendar feed panel', () => {
  it('creates a link, shows it once with Copy and how to subscribe in Google Calendar and Outlook', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { view, panel } = await openPanel();
    expect(await within(panel).findByText(CalendarFeedText.none)).toBeInTheDocument();
    expect(
      within(panel).queryByRole('button', { name: CalendarFeedText.regenerate }),
    ).not.toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: CalendarFeedText.create }));
    const field = await waitFor(() => urlField(panel));
    expect(field.value).toMatch(FEED_URL);
    expect(field).toHaveAttribute('readonly');
    expect(db.calendarFeeds.get(1)?.token).toBe(field.value.slice(`${API}/calendar/`.length, -'.ics'.length));
    expect(within(panel).getByText(/"From URL"/)).toBeInTheDocument();
    expect(within(panel).getByText(/"Subscribe from web"/)).toBeInTheDocument();
    expect(within(panel).getByText(/was made on/)).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: CalendarFeedText.copy }));
    expect(writeText).toHaveBeenCalledWith(field.value);
    expect(await within(panel).findByText(CalendarFeedText.copiedStatus)).toBeInTheDocument();
    expect(await axe(view.container)).toHaveNoViolations();
  });

  it('an existing link is not shown again (only its date); Regenerate asks first and then shows a new link', async () => {
    const user = userEvent.setup();
    db.calendarFeeds.set(1, { createdAt: '2026-11-20T01:30:00.000Z', token: 'old'.padEnd(43, 'o') });
    const { panel } = await openPanel();
    expect(await within(panel).findByText(/20 Nov 2026, 9:30 AM \(GMT\+8\)/)).toBeInTheDocument();
    expect(within(panel).queryByLabelText(CalendarFeedText.urlLabel)).not.toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: CalendarFeedText.regenerate }));
    const dialog = await screen.findByRole('dialog', { name: CalendarFeedText.regenerateTitle });
    expect(within(dialog).getByText(CalendarFeedText.regenerateMessage)).toBeInTheDocument();
    // Cancelling keeps the old link.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(db.calendarFeeds.get(1)?.token).toBe('old'.padEnd(43, 'o'));

    await user.click(within(panel).getByRole('button', { name: CalendarFeedText.regenerate }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: CalendarFeedText.regenerate }),
    );
    const field = await waitFor(() => urlField(panel));
    expect(field.value).toMatch(FEED_URL);
    expect(field.value).not.toContain('old');
    expect(db.calendarFeeds.get(1)?.token).not.toBe('old'.padEnd(43, 'o'));
  });

  it('Turn off asks first, ends the link and offers to create one again', async () => {
    const user = userEvent.setup();
    db.calendarFeeds.set(1, { createdAt: '2026-11-20T01:30:00.000Z', token: 'old'.padEnd(43, 'o') });
    const { panel } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: CalendarFeedText.turnOff }));
    const dialog = await screen.findByRole('dialog', { name: CalendarFeedText.turnOffTitle });
    await user.click(within(dialog).getByRole('button', { name: CalendarFeedText.turnOff }));
    expect(await within(panel).findByText(CalendarFeedText.turnedOff)).toBeInTheDocument();
    expect(within(panel).getByText(CalendarFeedText.none)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: CalendarFeedText.create })).toBeInTheDocument();
    expect(db.calendarFeeds.has(1)).toBe(false);
  });

  it("shows the server's refusal and no link", async () => {
    const user = userEvent.setup();
    server.use(
      http.post(`${API}/staff/calendar-feed`, () =>
        fail(503, ErrorCode.INTERNAL, 'The database is busy. Please try again.'),
      ),
    );
    const { panel } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: CalendarFeedText.create }));
    expect(await within(panel).findByText('The database is busy. Please try again.')).toBeInTheDocument();
    expect(within(panel).queryByLabelText(CalendarFeedText.urlLabel)).not.toBeInTheDocument();
  });

  it('a failed load offers Retry', async () => {
    const user = userEvent.setup();
    let failing = true;
    server.use(
      http.get(`${API}/staff/calendar-feed`, () =>
        failing ? fail(500, ErrorCode.INTERNAL, 'Something went wrong.') : undefined,
      ),
    );
    const { panel } = await openPanel();
    expect(await within(panel).findByText(CalendarFeedText.loadFailed)).toBeInTheDocument();
    failing = false;
    await user.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByRole('button', { name: CalendarFeedText.create })).toBeInTheDocument();
  });
});
