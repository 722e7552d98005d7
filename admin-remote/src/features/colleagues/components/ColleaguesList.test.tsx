import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { AccountMessage } from 'shared-api/accounts';
import { db, issueToken } from '../../../test/db';
import { setupMswServer } from '../../../test/server';
import { currentPath, renderAdminApp } from '../../../test/render';
import { ColleaguesText } from './ColleaguesList';

setupMswServer();

const COLLEAGUE = {
  id: 2,
  email: 'aisyah@seriilmu.edu.my',
  username: 'aisyah',
  password: 'aisyah-pass',
  role: 'staff' as const,
  lastLoginAt: '2026-11-20T01:30:00.000Z',
};
const ME = 'staff@seriilmu.edu.my';

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

  it('shows each role, and whether an admin has set up the second factor', async () => {
    db.accounts.push({ id: 3, email: 'farid@seriilmu.edu.my', username: null, password: 'farid-pass', role: 'admin' });
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    const mine = within(rowOf(ME));
    expect(mine.getByText(ColleaguesText.roleAdmin)).toBeInTheDocument();
    expect(mine.getByText(ColleaguesText.secondFactorSet)).toBeInTheDocument();
    const farid = within(rowOf('farid@seriilmu.edu.my'));
    expect(farid.getByText(ColleaguesText.roleAdmin)).toBeInTheDocument();
    expect(farid.getByText(ColleaguesText.secondFactorMissing)).toBeInTheDocument();
    const aisyah = within(rowOf(COLLEAGUE.email));
    expect(aisyah.getByText(ColleaguesText.roleStaff)).toBeInTheDocument();
    expect(aisyah.getByText(ColleaguesText.secondFactorNotNeeded)).toBeInTheDocument();
    // Only a colleague's second factor can be reset, and only one that is set up.
    expect(screen.queryByRole('button', { name: /Reset the second factor/ })).not.toBeInTheDocument();
  });

  it('makes a colleague admin, then staff again', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.click(within(rowOf(COLLEAGUE.email)).getByRole('button', { name: `Make ${COLLEAGUE.email} admin` }));
    expect(await screen.findByText('aisyah is now an admin')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(COLLEAGUE.email)).getByText(ColleaguesText.roleAdmin)).toBeInTheDocument());
    expect(within(rowOf(COLLEAGUE.email)).getByText(ColleaguesText.secondFactorMissing)).toBeInTheDocument();
    expect(db.accounts[1].role).toBe('admin');

    await user.click(within(rowOf(COLLEAGUE.email)).getByRole('button', { name: `Make ${COLLEAGUE.email} staff` }));
    expect(await screen.findByText('aisyah is now staff')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(COLLEAGUE.email)).getByText(ColleaguesText.roleStaff)).toBeInTheDocument());
    expect(db.accounts[1].role).toBe('staff');
  });

  it('refuses to make the last admin staff, after a confirm for your own role, with the server’s words', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.click(within(rowOf(ME)).getByRole('button', { name: `Make ${ME} staff` }));
    const dialog = await screen.findByRole('dialog', { name: ColleaguesText.demoteOwnTitle });
    await user.click(within(dialog).getByRole('button', { name: ColleaguesText.demoteOwnConfirm }));
    expect(await screen.findByText(AccountMessage.lastAdmin)).toBeInTheDocument();
    expect(db.accounts[0].role).toBe('admin');
  });

  it('lets you make yourself staff where another admin is enabled: the admin pages close to you', async () => {
    const user = userEvent.setup();
    db.accounts[1].role = 'admin';
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.click(within(rowOf(ME)).getByRole('button', { name: `Make ${ME} staff` }));
    const dialog = await screen.findByRole('dialog', { name: ColleaguesText.demoteOwnTitle });
    await user.click(within(dialog).getByRole('button', { name: ColleaguesText.demoteOwnConfirm }));
    await waitFor(() => expect(db.accounts[0].role).toBe('staff'));
    await waitFor(() => expect(screen.queryByRole('table', { name: ColleaguesText.caption })).not.toBeInTheDocument());
  });

  it('refuses to disable the last enabled admin', async () => {
    const user = userEvent.setup();
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    await user.click(within(rowOf(ME)).getByRole('button', { name: `Disable ${ME}` }));
    const dialog = await screen.findByRole('dialog', { name: ColleaguesText.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: ColleaguesText.confirm }));
    expect(await screen.findByText(AccountMessage.lastAdmin)).toBeInTheDocument();
    expect(db.accounts[0].disabledAt).toBeUndefined();
  });

  it('resets another admin’s second factor after a confirm: they set it up again', async () => {
    const user = userEvent.setup();
    db.accounts[1].role = 'admin';
    db.enrolled.add(2);
    const theirs = issueToken(2);
    renderAdminApp('/secured/colleagues');
    await screen.findByText(COLLEAGUE.email);
    expect(within(rowOf(ME)).queryByRole('button', { name: /Reset the second factor/ })).not.toBeInTheDocument();
    await user.click(
      within(rowOf(COLLEAGUE.email)).getByRole('button', { name: `Reset the second factor of ${COLLEAGUE.email}` }),
    );
    const dialog = await screen.findByRole('dialog', { name: ColleaguesText.resetTitle });
    expect(dialog).toHaveTextContent('The authenticator app and recovery codes of aisyah stop working at once.');
    await user.click(within(dialog).getByRole('button', { name: ColleaguesText.resetConfirm }));
    expect(await screen.findByText(/^Second factor reset: aisyah sets it up again/)).toBeInTheDocument();
    await waitFor(() =>
      expect(within(rowOf(COLLEAGUE.email)).getByText(ColleaguesText.secondFactorMissing)).toBeInTheDocument(),
    );
    expect(db.enrolled.has(2)).toBe(false);
    expect(db.steppedUp.has(theirs)).toBe(false);
  });
});
