import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { ErrorCode } from 'shared-api';
import { AccountMessage } from 'shared-api/accounts';
import { API, fail } from '../../../test/handlers';
import { STAFF_EMAIL, db } from '../../../test/db';
import { server, setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';

setupMswServer();

const emailBox = () => screen.getByLabelText('Email');
const sendButton = () => screen.getByRole('button', { name: /send reset link|sending/i });

describe('/forgot-password', () => {
  it('is reached from the login page’s "Forgot password?" link, with no accessibility violations', async () => {
    const user = userEvent.setup();
    const { container } = renderAdminApp('/login');
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(currentPath()).toBe('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Forgot password' })).toBeInTheDocument();
    // The link's lifetime comes from the contract's PASSWORD_RESET_MINUTES.
    expect(screen.getByText('Enter the email of your staff account. We will send a link to set a new password; it works once, within 30 minutes.')).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it("says 'required' for an empty email and sends nothing", async () => {
    const user = userEvent.setup();
    renderAdminApp('/forgot-password');
    await user.click(sendButton());
    expect(await screen.findByText('required')).toBeInTheDocument();
    expect(db.resetRequests).toEqual([]);
  });

  it('answers a known and an unknown address with the same words', async () => {
    const user = userEvent.setup();
    renderAdminApp('/forgot-password');
    await user.type(emailBox(), STAFF_EMAIL);
    await user.click(sendButton());
    expect(await screen.findByRole('status')).toHaveTextContent(AccountMessage.resetRequested);
    expect(db.resetTokens.size).toBe(1);

    await user.clear(emailBox());
    await user.type(emailBox(), 'nobody@seriilmu.edu.my');
    await user.click(sendButton());
    await waitFor(() => expect(db.resetRequests).toEqual([STAFF_EMAIL, 'nobody@seriilmu.edu.my']));
    expect(await screen.findByRole('status')).toHaveTextContent(AccountMessage.resetRequested);
    expect(db.resetTokens.size).toBe(1);
  });

  it('shows the server’s words when too many requests were made', async () => {
    const user = userEvent.setup();
    server.use(http.post(`${API}/auth/password-reset/request`, () => fail(429, ErrorCode.RATE_LIMITED, AccountMessage.resetTooMany)));
    renderAdminApp('/forgot-password');
    await user.type(emailBox(), STAFF_EMAIL);
    await user.click(sendButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(AccountMessage.resetTooMany);
  });
});
