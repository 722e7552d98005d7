import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { db, issueToken, TEST_RECOVERY_CODES, TEST_TOTP_CODE } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';
import { SecondFactorText } from './SecondFactorGate';

setupMswServer();

const CLERK = { id: 2, email: 'clerk@seriilmu.edu.my', username: 'clerk', password: 'clerk-pass', role: 'staff' as const };

describe('roles in the secured area', () => {
  it('a staff member sees the day’s work only: no admin links or panels, and an admin page says who looks after it', async () => {
    db.accounts.push({ ...CLERK });
    Cookies.set('token', issueToken(2), { path: '/' });
    const view = renderAdminApp('/secured/dashboard');
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Waitlist' }).length).toBeGreaterThan(0);
    for (const name of ['Colleagues', 'Audit trail', 'Privacy', 'Add a colleague']) expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Calendar feed' })).not.toBeInTheDocument();
    view.unmount();

    renderAdminApp('/secured/privacy');
    expect(await screen.findByRole('heading', { name: 'This page is for admins' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/secured/dashboard');
  });

  it('an admin who has not given the second factor sees the dashboard as always; the calendar feed asks first', async () => {
    Cookies.set('token', issueToken(1, { steppedUp: false }), { path: '/' });
    renderAdminApp('/secured/dashboard');
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Privacy' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: SecondFactorText.secondFactorContinue })).toBeInTheDocument();
  });
});

describe('the second factor', () => {
  it('asks an enrolled admin for the code before an admin page; a wrong code is said and the form stays; the right one opens it', async () => {
    const user = userEvent.setup();
    Cookies.set('token', issueToken(1, { steppedUp: false }), { path: '/' });
    renderAdminApp('/secured/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: SecondFactorText.secondFactorTitle })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Privacy (PDPA)' })).not.toBeInTheDocument();
    const code = screen.getByLabelText(SecondFactorText.secondFactorCode);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: SecondFactorText.secondFactorVerify }));
    expect(await screen.findByText(SecondFactorText.secondFactorWrong)).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, TEST_TOTP_CODE);
    await user.click(screen.getByRole('button', { name: SecondFactorText.secondFactorVerify }));
    expect(await screen.findByRole('heading', { name: 'Privacy (PDPA)' })).toBeInTheDocument();
  });

  it('an empty code is refused in the form, without a call', async () => {
    const user = userEvent.setup();
    Cookies.set('token', issueToken(1, { steppedUp: false }), { path: '/' });
    renderAdminApp('/secured/colleagues');
    await user.click(await screen.findByRole('button', { name: SecondFactorText.secondFactorVerify }));
    expect(await screen.findByText('Enter the code.')).toBeInTheDocument();
  });

  it('sets up on first use: the QR code and its key, the app’s first code, then the 10 recovery codes once, then the page', async () => {
    const user = userEvent.setup();
    db.enrolled.clear();
    Cookies.set('token', issueToken(1, { steppedUp: false }), { path: '/' });
    renderAdminApp('/secured/colleagues');
    expect(await screen.findByRole('heading', { level: 1, name: SecondFactorText.secondFactorSetUpTitle })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: SecondFactorText.secondFactorStart }));
    expect(await screen.findByRole('img', { name: /QR code/ })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await user.type(screen.getByLabelText(SecondFactorText.secondFactorCode), TEST_TOTP_CODE);
    await user.click(screen.getByRole('button', { name: SecondFactorText.secondFactorConfirm }));
    const codes = await screen.findByRole('list', { name: SecondFactorText.secondFactorCodesTitle });
    expect(within(codes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(TEST_RECOVERY_CODES);
    expect(screen.queryByRole('heading', { name: 'Colleagues' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: SecondFactorText.secondFactorCodesSaved }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Colleagues' })).toBeInTheDocument());
  });
});
