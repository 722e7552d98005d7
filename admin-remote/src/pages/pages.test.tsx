import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { activateLocale } from 'shared-ui';
import { issueToken } from '../test/db';
import { setupMswServer } from '../test/server';
import { currentPath, renderAdminApp } from '../test/render';

setupMswServer();

describe("the staff pages' words (admin.pages catalogue)", () => {
  afterEach(async () => {
    await act(() => activateLocale('en'));
  });

  it('tells a visitor who is not logged in to log in first, the link inside the sentence', async () => {
    const user = userEvent.setup();
    renderAdminApp('/register');
    expect(screen.getByText(/Only a logged-in staff member can add a colleague\./)).toHaveTextContent(
      'Only a logged-in staff member can add a colleague. Log in first.',
    );
    await user.click(screen.getByRole('link', { name: 'Log in first' }));
    expect(currentPath()).toBe('/login');
  });

  it('names the signed-in staff member in bold', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    renderAdminApp('/secured/dashboard');
    const name = await screen.findByText('staff');
    expect(name.tagName).toBe('STRONG');
    expect(name.parentElement).toHaveTextContent('Signed in as staff');
  });

  it('stays English when the page is in Bahasa Melayu (the staff catalogues have only English)', async () => {
    await act(() => activateLocale('ms'));
    renderAdminApp('/login');
    expect(screen.getByRole('heading', { name: 'Staff login' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement.lang).toBe('ms'));
  });
});
