// Issue 15's journey: a secretary forgets the password and sets a new one from the .eml reset link, creates several
// start times over a range in one go and sees them on the parents' timetable, and the audit page shows these actions.
import type { ParsedMail } from 'mailparser';
import type { LaunchedBrowser } from '../support/browser';
import { demoLoginFrom, desktop, eventually, nextWeekdays, publicSlots, slotButtonName, startJourney } from '../support/journey';
import { emlFiles, mailTo } from '../support/mail';
import type { Stack } from '../support/product';
import { productSuite } from '../support/suite';

let stack: Stack;
let browser: LaunchedBrowser;

productSuite({}, (s) => ({ stack, browser } = s));

const mailFile = (address: string, subject: RegExp): Promise<ParsedMail> =>
  eventually(
    // The newest: a retried run finds the earlier run's (used) link too.
    async () => (await emlFiles(`${stack.dataDir}/mail`)).reverse().find((mail) => mailTo(address)(mail) && subject.test(mail.subject ?? '')),
    `mail to ${address}: ${subject}`,
  );

test('journey office: forgot password from the .eml link to a new login; a multi-time range on the timetable; the audit trail', async () => {
  const journey = startJourney('staff-office');
  const login = demoLoginFrom(stack.logs);
  const newPassword = 'a-new-office-password-42';
  const page = await browser.context.newPage();
  await page.setViewportSize(desktop);

  // Forgot password: the same answer is shown whatever the address; the reset link arrives as an .eml file.
  await page.goto(`${stack.urls.shell}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(login.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText('If an account exists for this address, a reset link has been sent.').waitFor();
  const resetMail = await mailFile(login.email, /password/i);
  const link = /https?:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+/.exec(resetMail.text ?? '')?.[0];
  expect(link).toBeDefined();

  await page.goto(link!);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password again').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.getByRole('link', { name: 'Go to the login' }).click();

  // The old password no longer works; the new one does.
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByText('The email or password is incorrect. Please try again.').waitFor();
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: 'Assessment Dashboard' }).waitFor();

  // Three start times over the next week's weekdays, in one request, previewed first.
  const days = nextWeekdays(10).slice(5, 8);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Create New Slot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Slots' });
  await dialog.getByLabel('Start date').fill(days[0]);
  await dialog.getByLabel('End date').fill(days[2]);
  await dialog.getByLabel('Start time', { exact: true }).fill('08:30');
  await dialog.getByRole('button', { name: 'Add another time' }).click();
  await dialog.getByLabel('Start time 2', { exact: true }).fill('10:00');
  await dialog.getByRole('button', { name: 'Add another time' }).click();
  await dialog.getByLabel('Start time 3', { exact: true }).fill('14:00');
  const weekdaysInRange = new Set(days).size;
  // Public holidays too (the dialog skips them by default), so the count does not depend on the calendar.
  await dialog.getByRole('checkbox', { name: 'Skip public holidays' }).uncheck();
  await dialog.getByText(new RegExp(`^${weekdaysInRange * 3} slots will be created`)).waitFor();
  await dialog.getByRole('button', { name: 'Create Slots' }).click();
  await page.getByText(`Successfully created ${weekdaysInRange * 3} slot(s)!`).first().waitFor();

  const listed = await publicSlots(stack.urls.api);
  expect(listed.filter((slot) => days.includes(slot.date.slice(0, 10)))).toHaveLength(weekdaysInRange * 3);
  // Seen by parents on the timetable (the desktop week table of that week).
  const parents = await browser.context.newPage();
  await parents.setViewportSize(desktop);
  await parents.goto(`${stack.urls.shell}/`);
  const nextWeek = parents.getByRole('button', { name: 'Next week ›' });
  const wanted = parents.getByRole('button', { name: slotButtonName(days[0], '14:00') });
  await eventually(async () => {
    if (await wanted.isVisible()) return true;
    await nextWeek.click();
    return false;
  }, `the 2:00 PM slot of ${days[0]} on the timetable`, 15_000);

  // The audit trail: the failed and successful sign-ins, the reset and the created slots, newest first.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  const table = page.getByRole('table');
  for (const label of ['Password reset requested', 'Password reset', 'Failed sign-in', 'Signed in', 'Slot created']) {
    await table.getByRole('cell', { name: label, exact: true }).first().waitFor();
  }
  await page.getByLabel('Action').selectOption({ label: 'Failed sign-in' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await eventually(async () => (await table.getByRole('cell', { name: 'Signed in', exact: true }).count()) === 0, 'only failed sign-ins listed', 10_000);
  await table.getByRole('cell', { name: 'Failed sign-in', exact: true }).first().waitFor();
  await journey.finish(page);
});
