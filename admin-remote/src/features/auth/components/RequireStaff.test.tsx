import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import Cookies from 'js-cookie';
import { ErrorCode } from 'shared-api';
import { API, fail } from '../../../test/handlers';
import { db, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';

setupMswServer();

describe('the secured area', () => {
  it('sends a visitor without a token to /login without asking the server', async () => {
    let calls = 0;
    server.events.on('request:start', () => void calls++);
    renderAdminApp('/secured/dashboard');
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(screen.getByRole('heading', { name: 'Staff login' })).toBeInTheDocument();
    expect(calls).toBe(0);
    server.events.removeAllListeners();
  });

  it('opens the dashboard for a token that resolves to a staff member', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    renderAdminApp('/secured/dashboard');
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('staff')).toBeInTheDocument();
  });

  it("asks the dashboard's first page beside the current user, not after it", async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    let releaseUser!: () => void;
    const userHeld = new Promise<void>((resolve) => (releaseUser = resolve));
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => void asked.push(new URL(request.url).pathname));
    // /user answers only once the slot page has been asked for.
    server.use(http.get(`${API}/user`, async () => void (await userHeld)));
    renderAdminApp('/secured/dashboard');
    await waitFor(() => expect(asked).toContain('/slot/list'));
    expect(screen.queryByRole('heading', { name: 'Assessment Dashboard' })).not.toBeInTheDocument();
    releaseUser();
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(asked.filter((path) => path === '/slot/list')).toHaveLength(1);
    server.events.removeAllListeners();
  });

  it('sends /secured to the dashboard', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    renderAdminApp('/secured');
    await waitFor(() => expect(currentPath()).toBe('/secured/dashboard'));
  });

  it('removes a token the server does not know and goes to /login', async () => {
    Cookies.set('token', 'revoked-token', { path: '/' });
    renderAdminApp('/secured/dashboard');
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(Cookies.get('token')).toBeUndefined();
  });

  it('keeps the session when the current user cannot be read for another reason (500, no answer): says so, and Retry gets in', async () => {
    let failing = true;
    server.use(http.get(`${API}/user`, () => (failing ? fail(500, ErrorCode.INTERNAL, 'Internal error') : undefined)));
    const token = issueToken();
    Cookies.set('token', token, { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    expect(await screen.findByText('The server cannot be reached')).toBeInTheDocument();
    expect(currentPath()).toBe('/secured/dashboard');
    expect(Cookies.get('token')).toBe(token);
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
  });

  it('ends the session on a later 401: the slot list refuses the token, the cookie goes, the page shows /login', async () => {
    const token = issueToken();
    Cookies.set('token', token, { path: '/' });
    server.use(
      http.get(`${API}/slot/list`, () => {
        db.tokens.delete(token);
        return fail(401, ErrorCode.UNAUTHORIZED, 'Token expired');
      }),
    );
    renderAdminApp('/secured/dashboard');
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(Cookies.get('token')).toBeUndefined();
    expect(await screen.findByRole('heading', { name: 'Staff login' })).toBeInTheDocument();
  });

  it('logs out: revokes the token on the server, removes the cookie and goes to /login', async () => {
    const token = issueToken();
    Cookies.set('token', token, { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(Cookies.get('token')).toBeUndefined();
    expect(db.tokens.has(token)).toBe(false);
  });
});
