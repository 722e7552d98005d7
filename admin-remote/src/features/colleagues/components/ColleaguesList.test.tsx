import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { AccountMessage } from 'shared-api/accounts';
import { db, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { ColleaguesText } from './ColleaguesList';

setupMswServer();

const COLLEAGUE = { id: 2, email: 'aisyah@seriilmu.edu.my', username: 'aisyah', password: 'aisyah-pass', lastLoginAt: '2026-11-20T01:30:00.000Z' };

const rowOf = (email: string) => screen.getByRole('cell', { name: new RegExp(email) }).closest('tr')!;

describe('/secured/colleagues', () => {
  beforeEach(() => {
    db.accounts.push({ ...COLLEAGUE });
    db.nextUserId = 3;
    Cookies.set('token', issueToken(1), { path: '/' });
  });

  it('is linked from the staff bar and lists every account with created, last login and status', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Colleagues' }));
    expect(currentPath()).toBe('/secured/colleagues');
    expect(await screen.findByRole('heading', { name: 'Colleagues' })).toBeInTheDocument();
    await screen.findByText(COLLEAGUE.email);
    const row = within(rowOf(COLLEAGUE.email));
    expect(row.getByText('aisyah')).toBeInTheDocument();
    expect(row.getByText('20 Nov 2026, 9:30 AM (GMT+8)')).toBeInTheDocument();
    expect(row.getByText(ColleaguesText.active)).toBeInTheDocument();
    expect(within(rowOf('staff@seriilmu.edu.my')).getByText(ColleaguesText.never)).toBeInTheDocument();
  });

  it('disables a colleague after a confirm: its sessions end and the row says Disabled', async () => {
    const user = userEvent.setup();
    const theirs = issueToken(2);
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.click(within(rowOf(COLLEAGUE.email)).getByRole('button', { name: `Disable ${COLLEAGUE.email}` }));
    const dialog = await screen.findByRole('dialog', { name: ColleaguesText.confirmTitle });
    expect(dialog).toHaveTextContent('aisyah will be logged out at once');
    await user.click(within(dialog).getByRole('button', { name: ColleaguesText.confirm }));
    await waitFor(() => expect(within(rowOf(COLLEAGUE.email)).getByText(ColleaguesText.disabled)).toBeInTheDocument());
    expect(db.tokens.has(theirs)).toBe(false);
    expect(db.accounts[1].disabledAt).toEqual(expect.any(String));
    expect(within(rowOf(COLLEAGUE.email)).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal for the last active account', async () => {
    const user = userEvent.setup();
    db.accounts[1].disabledAt = '2026-11-01T00:00:00.000Z';
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.click(within(rowOf('staff@seriilmu.edu.my')).getByRole('button', { name: /Disable/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This is your own account.');
    await user.click(within(dialog).getByRole('button', { name: ColleaguesText.confirm }));
    expect(await screen.findByText(AccountMessage.lastActiveAccount)).toBeInTheDocument();
    expect(db.accounts[0].disabledAt).toBeUndefined();
  });

  it('adds a colleague with the register form and lists them', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.type(screen.getByLabelText('Email'), 'farid@seriilmu.edu.my');
    await user.type(screen.getByLabelText('Password'), 'farid-pass');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Account created for farid@seriilmu.edu.my.')).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: /farid@seriilmu\.edu\.my/ })).toBeInTheDocument();
  });
});
