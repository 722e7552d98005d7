import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import Cookies from 'js-cookie';
import { ErrorCode } from 'shared-api';
import { API, fail } from '../../../test/handlers';
import { db, issueToken } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { LogoutEverywhereText } from './LogoutEverywhereButton';

setupMswServer();

describe('Log out everywhere', () => {
  it('after a confirm, ends every session of the account, forgets the token and opens /login', async () => {
    const user = userEvent.setup();
    const other = issueToken(1);
    Cookies.set('token', issueToken(1), { path: '/' });
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: LogoutEverywhereText.button }));
    const dialog = await screen.findByRole('dialog', { name: LogoutEverywhereText.title });
    expect(dialog).toHaveTextContent(LogoutEverywhereText.message);
    await user.click(within(dialog).getByRole('button', { name: LogoutEverywhereText.confirm }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
    expect(Cookies.get('token')).toBeUndefined();
    expect(db.tokens.has(other)).toBe(false);
    expect(db.tokens.size).toBe(0);
  });

  it('Cancel keeps every session', async () => {
    const user = userEvent.setup();
    Cookies.set('token', issueToken(1), { path: '/' });
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: LogoutEverywhereText.button }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(currentPath()).toBe('/secured/dashboard');
    expect(db.tokens.size).toBe(1);
  });

  it('a failure says so and stays', async () => {
    const user = userEvent.setup();
    server.use(http.post(`${API}/auth/logout-all`, () => fail(500, ErrorCode.INTERNAL, 'Something went wrong.')));
    Cookies.set('token', issueToken(1), { path: '/' });
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('button', { name: LogoutEverywhereText.button }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: LogoutEverywhereText.confirm }));
    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(currentPath()).toBe('/secured/dashboard');
    expect(Cookies.get('token')).toBeDefined();
  });
});
