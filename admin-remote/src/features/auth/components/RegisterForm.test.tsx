import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { db, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { COMMON_PASSWORD_MESSAGE } from './RegisterForm';

setupMswServer();

const fill = async (user: ReturnType<typeof userEvent.setup>, email: string, password: string, username = '') => {
  // The form shows once the page has checked the admin and the second factor.
  await user.type(await screen.findByLabelText('Email'), email);
  if (username) await user.type(screen.getByLabelText('Username (optional)'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Register' }));
};

describe('/register', () => {
  it('has email, username and password fields with no accessibility violations', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    const { container } = renderAdminApp('/register');
    expect(screen.getByRole('heading', { name: 'Register a staff account' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Username (optional)')).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it("checks the email and says 'min length is 5' for a short password, sending nothing", async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/register');
    await fill(user, 'colleague@school', '1234');
    expect(await screen.findByText('Entered value does not match email format')).toBeInTheDocument();
    expect(screen.getByText('min length is 5')).toBeInTheDocument();
    expect(db.accounts).toHaveLength(1);
  });

  it('shows only the message and the login link when nobody is logged in: no form to fill in and be refused', async () => {
    const { container } = renderAdminApp('/register');
    expect(screen.getByRole('heading', { name: 'Register a staff account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in first' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('the session ended meanwhile: the 401 ends it here too, back to the staff login, and no account is created', async () => {
    const token = issueToken();
    Cookies.set('token', token, { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/register');
    await screen.findByLabelText('Email');
    db.tokens.delete(token);
    await fill(user, 'colleague@seriilmu.edu.my', 'secret-pass');
    // The form's own refusal line may show for an instant before the page leaves: what stays is the login.
    expect(await screen.findByRole('heading', { name: 'Staff login' })).toBeInTheDocument();
    expect(Cookies.get('token')).toBeUndefined();
    expect(db.accounts.map((a) => a.email)).not.toContain('colleague@seriilmu.edu.my');
  });

  it('lets a logged-in staff member add a colleague', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/register');
    await fill(user, 'Colleague@SeriIlmu.edu.my', 'secret-pass', 'cikgu');
    expect(await screen.findByRole('status')).toHaveTextContent('Account created for Colleague@SeriIlmu.edu.my.');
    expect(db.accounts.find((a) => a.email === 'colleague@seriilmu.edu.my')?.username).toBe('cikgu');
  });

  it("shows the server's message when it turns the account down", async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/register');
    await fill(user, 'staff@seriilmu.edu.my', 'secret-pass');
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
  });

  it('adds a colleague as staff unless Admin is chosen', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/register');
    const role = await screen.findByRole('group', { name: 'Role' });
    expect(within(role).getByRole('radio', { name: /^Staff/ })).toBeChecked();
    await fill(user, 'guru@seriilmu.edu.my', 'secret-pass');
    expect(await screen.findByRole('status')).toHaveTextContent('Account created for guru@seriilmu.edu.my.');
    expect(db.accounts.find((a) => a.email === 'guru@seriilmu.edu.my')?.role).toBe('staff');

    await user.click(within(role).getByRole('radio', { name: /^Admin/ }));
    await fill(user, 'pengetua@seriilmu.edu.my', 'secret-pass');
    expect(await screen.findByRole('status')).toHaveTextContent('Account created for pengetua@seriilmu.edu.my.');
    expect(db.accounts.find((a) => a.email === 'pengetua@seriilmu.edu.my')?.role).toBe('admin');
    // The form is ready for the next colleague, as staff again.
    expect(within(role).getByRole('radio', { name: /^Staff/ })).toBeChecked();
  });

  it('says under the password field that one of the most common passwords is refused, creating no account', async () => {
    Cookies.set('token', issueToken(), { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/register');
    await fill(user, 'guru@seriilmu.edu.my', 'Password');
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveAccessibleDescription(COMMON_PASSWORD_MESSAGE));
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(db.accounts.map((a) => a.email)).not.toContain('guru@seriilmu.edu.my');
  });
});
