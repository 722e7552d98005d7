import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, delay } from 'msw';
import Cookies from 'js-cookie';
import { ErrorCode, LOGIN_REDIRECT_MS, LOGIN_SUCCESS_SHOWN_MS } from 'shared-api';
import { inMY } from 'shared-api/time';
import { API, fail } from '../../../test/handlers';
import { STAFF_EMAIL, STAFF_PASSWORD, addSlot, db } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { LOGIN_FAILED_MESSAGE, LOGIN_SUCCESS_MESSAGE } from './LoginForm';

setupMswServer();

const emailBox = () => screen.getByLabelText('Email');
const passwordBox = () => screen.getByLabelText('Password');
const loginButton = () => screen.getByRole('button', { name: /login|loading/i });

/** With fake timers: the staff member signs in on /login and the API answers the login after `ms`. */
async function signInAnsweredAfter(ms: number) {
  server.use(
    http.post(`${API}/auth/login`, async () => {
      await delay(ms);
      return undefined;
    }),
  );
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  renderAdminApp('/login');
  await user.type(emailBox(), STAFF_EMAIL);
  await user.type(passwordBox(), STAFF_PASSWORD);
  await user.click(loginButton());
}

describe('/login', () => {
  it('shows the login form with no accessibility violations', async () => {
    const { container } = renderAdminApp('/login');
    expect(screen.getByRole('heading', { name: 'Staff login' })).toBeInTheDocument();
    expect(loginButton()).toHaveTextContent('Login');
    expect(await axe(container)).toHaveNoViolations();
  });

  it("says 'required' for an empty email and sends nothing", async () => {
    const user = userEvent.setup();
    let calls = 0;
    server.events.on('request:start', () => void calls++);
    renderAdminApp('/login');
    await user.click(loginButton());
    expect(await screen.findByText('required')).toBeInTheDocument();
    expect(emailBox()).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toBe(0);
    server.events.removeAllListeners();
  });

  it("says 'Entered value does not match email format' for a malformed email", async () => {
    const user = userEvent.setup();
    renderAdminApp('/login');
    await user.type(emailBox(), 'staff@school');
    await user.type(passwordBox(), 'whatever');
    await user.click(loginButton());
    expect(await screen.findByText('Entered value does not match email format')).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('says the email or password is wrong, the same words for a wrong password and an unknown email', async () => {
    const user = userEvent.setup();
    renderAdminApp('/login');
    await user.type(emailBox(), STAFF_EMAIL);
    await user.type(passwordBox(), 'wrong-password');
    await user.click(loginButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(LOGIN_FAILED_MESSAGE);

    await user.clear(emailBox());
    await user.type(emailBox(), 'nobody@seriilmu.edu.my');
    await user.clear(passwordBox());
    await user.type(passwordBox(), STAFF_PASSWORD);
    await user.click(loginButton());
    await waitFor(() => expect(loginButton()).toHaveTextContent('Login'));
    expect(screen.getByRole('alert')).toHaveTextContent(LOGIN_FAILED_MESSAGE);
    expect(Cookies.get('token')).toBeUndefined();
    expect(currentPath()).toBe('/login');
  });

  it("shows the server's words when it is rate limited", async () => {
    server.use(
      http.post(`${API}/auth/login`, () => fail(429, ErrorCode.RATE_LIMITED, 'Too many login attempts. Please wait 15 minutes.')),
    );
    const user = userEvent.setup();
    renderAdminApp('/login');
    await user.type(emailBox(), STAFF_EMAIL);
    await user.type(passwordBox(), STAFF_PASSWORD);
    await user.click(loginButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many login attempts. Please wait 15 minutes.');
  });

  it('asks with credentials, so the API can recognise this browser by its known-device cookie under a login flood', async () => {
    let credentials: RequestCredentials | undefined;
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/auth/login')) credentials = request.credentials;
    });
    const user = userEvent.setup();
    renderAdminApp('/login');
    await user.type(emailBox(), STAFF_EMAIL);
    await user.type(passwordBox(), STAFF_PASSWORD);
    await user.click(loginButton());
    expect(await screen.findByText(LOGIN_SUCCESS_MESSAGE)).toBeInTheDocument();
    expect(credentials).toBe('include');
    server.events.removeAllListeners();
  });

  it("shows 'Loading...' while busy, stores the token, and opens the dashboard 1.5 seconds after Login was pressed", async () => {
    jest.useFakeTimers();
    try {
      await signInAnsweredAfter(200);
      await waitFor(() => expect(loginButton()).toHaveTextContent('Loading...'));
      expect(loginButton()).toBeDisabled();

      expect(await screen.findByText(LOGIN_SUCCESS_MESSAGE)).toBeInTheDocument();
      const token = Cookies.get('token');
      expect(token).toBeTruthy();
      expect(db.tokens.has(token!)).toBe(true);
      expect(currentPath()).toBe('/login');

      // The answer took 200 ms of the 1.5 s; waiting for the message may itself move the fake clock a little.
      act(() => jest.advanceTimersByTime(LOGIN_REDIRECT_MS - 200 - 250));
      expect(currentPath()).toBe('/login');
      act(() => jest.advanceTimersByTime(300));
      await waitFor(() => expect(currentPath()).toBe('/secured/dashboard'));
      expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('after a slow answer, still shows the success for half a second before the dashboard opens', async () => {
    jest.useFakeTimers();
    try {
      await signInAnsweredAfter(LOGIN_REDIRECT_MS - 100);
      expect(await screen.findByText(LOGIN_SUCCESS_MESSAGE)).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(LOGIN_SUCCESS_SHOWN_MS - 100));
      expect(currentPath()).toBe('/login');
      expect(screen.getByText(LOGIN_SUCCESS_MESSAGE)).toBeVisible();
      act(() => jest.advanceTimersByTime(150));
      await waitFor(() => expect(currentPath()).toBe('/secured/dashboard'));
    } finally {
      jest.useRealTimers();
    }
  });

  it("while the success shows, fetches the current user and the first page of the dashboard's view and draws the dashboard hidden; it then shows its row at once, asking nothing again", async () => {
    addSlot({ id: 7, date: inMY().add(3, 'day').format('YYYY-MM-DD'), startTime: '09:00', endTime: '09:30' });
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      if (url.pathname === '/user' || url.pathname === '/slot/list') asked.push(`${url.pathname}${url.search}`);
    });
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      renderAdminApp('/login');
      await user.type(emailBox(), STAFF_EMAIL);
      await user.type(passwordBox(), STAFF_PASSWORD);
      await user.click(loginButton());
      expect(await screen.findByText(LOGIN_SUCCESS_MESSAGE)).toBeInTheDocument();
      // Still on /login, the success showing: what the dashboard needs first has been asked for.
      await waitFor(() => expect([...asked].sort()).toEqual(['/slot/list?isBooked=false&view=upcoming&page=1', '/user']));
      expect(currentPath()).toBe('/login');
      // Drawn ahead, hidden: its table is in the page but nobody sees it yet, and the login form is what shows.
      const hiddenTable = await screen.findByRole('table', { hidden: true });
      expect(hiddenTable).not.toBeVisible();
      expect(screen.queryByRole('heading', { name: 'Assessment Dashboard' })).toBeNull();
      expect(loginButton()).toBeVisible();

      act(() => jest.advanceTimersByTime(LOGIN_REDIRECT_MS));
      await waitFor(() => expect(currentPath()).toBe('/secured/dashboard'));
      // The dashboard opens on its upcoming available slots: the one slot is its one row.
      const table = await screen.findByRole('table');
      expect(table).toBe(hiddenTable);
      await waitFor(() => expect(within(table).getAllByRole('row').slice(1)).toHaveLength(1));
      expect(asked).toHaveLength(2);
    } finally {
      server.events.removeAllListeners();
      jest.useRealTimers();
    }
  });

  it('works from the keyboard alone: Tab between fields, Enter submits', async () => {
    const user = userEvent.setup();
    renderAdminApp('/login');
    await user.tab();
    expect(emailBox()).toHaveFocus();
    await user.keyboard(STAFF_EMAIL);
    await user.tab();
    expect(passwordBox()).toHaveFocus();
    await user.keyboard(`${STAFF_PASSWORD}{Enter}`);
    expect(await screen.findByText(LOGIN_SUCCESS_MESSAGE)).toBeInTheDocument();
  });
});
