import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AccountMessage } from 'shared-api/accounts';
import { STAFF_EMAIL, STAFF_PASSWORD, db, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { COMMON_PASSWORD_MESSAGE } from './RegisterForm';

setupMswServer();

const TOKEN = 'reset-token-for-the-staff-account-000000000';
const passwordBox = () => screen.getByLabelText('New password');
const confirmBox = () => screen.getByLabelText('New password again');
const saveButton = () => screen.getByRole('button', { name: /set new password|saving/i });

describe('/reset-password/:token', () => {
  it('checks the link first, then shows the form with no accessibility violations', async () => {
    db.resetTokens.set(TOKEN, 1);
    const { container } = renderAdminApp(`/reset-password/${TOKEN}`);
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your link...');
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    expect(screen.getByText('Setting a new password logs your account out on every device.')).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('says a used, expired or unknown link is no good before the form, with a way to ask for a new one', async () => {
    const user = userEvent.setup();
    const { container } = renderAdminApp(`/reset-password/${TOKEN}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(AccountMessage.resetInvalid);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByText('Setting a new password logs your account out on every device.')).not.toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
    await user.click(screen.getByRole('link', { name: 'Ask for a new link' }));
    expect(currentPath()).toBe('/forgot-password');
  });

  it('asks for the register form’s password rules and the same password twice, sending nothing until then', async () => {
    const user = userEvent.setup();
    db.resetTokens.set(TOKEN, 1);
    renderAdminApp(`/reset-password/${TOKEN}`);
    await screen.findByLabelText('New password');
    await user.type(passwordBox(), 'abc');
    await user.type(confirmBox(), 'abc');
    await user.click(saveButton());
    expect(await screen.findByText('min length is 5')).toBeInTheDocument();

    await user.clear(passwordBox());
    await user.type(passwordBox(), 'new-password-1');
    await user.clear(confirmBox());
    await user.type(confirmBox(), 'new-password-2');
    await user.click(saveButton());
    expect(await screen.findByText(AccountMessage.passwordsDiffer)).toBeInTheDocument();
    expect(db.resetTokens.has(TOKEN)).toBe(true);
    expect(db.accounts[0].password).toBe(STAFF_PASSWORD);
  });

  it('sets the new password, ends the account’s sessions, and leads to the login', async () => {
    const user = userEvent.setup();
    db.resetTokens.set(TOKEN, 1);
    issueToken(1);
    renderAdminApp(`/reset-password/${TOKEN}`);
    await screen.findByLabelText('New password');
    await user.type(passwordBox(), 'new-password-1');
    await user.type(confirmBox(), 'new-password-1');
    await user.click(saveButton());
    expect(await screen.findByRole('status')).toHaveTextContent(AccountMessage.resetDone);
    expect(db.accounts.find((a) => a.email === STAFF_EMAIL)!.password).toBe('new-password-1');
    expect(db.tokens.size).toBe(0);
    await user.click(screen.getByRole('link', { name: 'Go to the login' }));
    await waitFor(() => expect(currentPath()).toBe('/login'));
  });

  it('says so when the link was used elsewhere after the page opened', async () => {
    const user = userEvent.setup();
    db.resetTokens.set(TOKEN, 1);
    renderAdminApp(`/reset-password/${TOKEN}`);
    await screen.findByLabelText('New password');
    db.resetTokens.delete(TOKEN);
    await user.type(passwordBox(), 'new-password-1');
    await user.type(confirmBox(), 'new-password-1');
    await user.click(saveButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(AccountMessage.resetInvalid);
    await user.click(screen.getByRole('link', { name: 'Ask for a new link' }));
    expect(currentPath()).toBe('/forgot-password');
    expect(db.accounts[0].password).toBe(STAFF_PASSWORD);
  });

  it('says under the new password that one of the most common passwords is refused, keeping the link', async () => {
    const user = userEvent.setup();
    db.resetTokens.set(TOKEN, 1);
    renderAdminApp(`/reset-password/${TOKEN}`);
    await screen.findByLabelText('New password');
    await user.type(passwordBox(), 'qwerty123');
    await user.type(confirmBox(), 'qwerty123');
    await user.click(saveButton());
    await waitFor(() => expect(passwordBox()).toHaveAccessibleDescription(COMMON_PASSWORD_MESSAGE));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(db.resetTokens.has(TOKEN)).toBe(true);
    expect(db.accounts[0].password).toBe(STAFF_PASSWORD);

    await user.clear(passwordBox());
    await user.type(passwordBox(), 'kopi-o-kosong-7');
    await user.clear(confirmBox());
    await user.type(confirmBox(), 'kopi-o-kosong-7');
    await user.click(saveButton());
    expect(await screen.findByRole('status')).toHaveTextContent(AccountMessage.resetDone);
    expect(db.accounts[0].password).toBe('kopi-o-kosong-7');
  });
});
