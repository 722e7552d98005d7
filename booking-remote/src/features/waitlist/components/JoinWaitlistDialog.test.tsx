import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { addDays, brand, todayInMY } from 'shared-api';
import { privacyNotice } from 'shared-api/privacy';
import { schoolYears } from 'shared-api/schools';
import { activateLocale } from 'shared-ui';
import { axe } from '../../../test/axe';
import { ok, CONSENT_BOX } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';
import { firstWeekdayFrom } from '../utils/joinForm';
import { JoinWaitlistDialog } from './JoinWaitlistDialog';

// Issue 26: a parent who finds no free time joins the waitlist with the booking form's fields and rules, the days they
// can come and the privacy consent; the answer is always "check your email".
startMswServer();
afterEach(() => act(() => activateLocale('en')));

const school = brand.schools[0];

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Visitor Name'), 'Aminah Binti Ali');
  await user.type(screen.getByLabelText('Email Address'), 'aminah@example.com');
  await user.type(screen.getByLabelText('Contact Number'), '012-345 6789');
  await user.type(screen.getByLabelText("Child's Name"), 'Siti');
  await user.selectOptions(screen.getByLabelText('Selected School'), school.name);
  await user.selectOptions(screen.getByLabelText('Year or Grade Applied For'), schoolYears(school.name)[0].name);
}

it('sends the details, dates, language and consent, then says to check the email', async () => {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl('/api/waitlist'), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(ok({ mailed: true }, 'Check your email.'), { status: 202 });
    }),
  );
  const day = firstWeekdayFrom(addDays(todayInMY(), 3));
  const user = userEvent.setup();
  renderApp(<JoinWaitlistDialog day={day} onClose={() => {}} />);
  await fill(user);
  await user.selectOptions(screen.getByLabelText('Time of day'), 'morning');
  await user.click(screen.getByRole('checkbox', CONSENT_BOX));
  await user.click(screen.getAllByRole('button', { name: 'Join the waitlist' }).at(-1)!);

  expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('aminah@example.com');
  expect(bodies).toEqual([
    expect.objectContaining({
      name: 'Aminah Binti Ali',
      email: 'aminah@example.com',
      school: school.name,
      childName: 'Siti',
      fromDate: day,
      partOfDay: 'morning',
      children: 1,
      locale: 'en',
      privacyConsent: { noticeVersion: privacyNotice.version, language: 'en', whatsapp: false },
    }),
  ]);
});

it('refuses a range without consent or with the last day before the first, and sends nothing', async () => {
  let sent = 0;
  server.use(http.post(apiUrl('/api/waitlist'), () => ((sent += 1), HttpResponse.json(ok({ mailed: true }), { status: 202 }))));
  const user = userEvent.setup();
  renderApp(<JoinWaitlistDialog onClose={() => {}} />);
  await fill(user);
  const from = screen.getByLabelText('First day you can come');
  const to = screen.getByLabelText('Last day you can come');
  const first = firstWeekdayFrom(addDays(todayInMY(), 7));
  await user.clear(from);
  await user.type(from, first);
  await user.clear(to);
  await user.type(to, addDays(first, -3));
  await user.click(screen.getAllByRole('button', { name: 'Join the waitlist' }).at(-1)!);
  expect(await screen.findByText('Please agree to the privacy notice to book')).toBeInTheDocument();
  await user.click(screen.getByRole('checkbox', CONSENT_BOX));
  await user.click(screen.getAllByRole('button', { name: 'Join the waitlist' }).at(-1)!);
  expect(await screen.findByText('The last day must be on or after the first day.')).toBeInTheDocument();
  await user.clear(to);
  await user.type(to, addDays(todayInMY(), 9 * 7));
  await user.click(screen.getAllByRole('button', { name: 'Join the waitlist' }).at(-1)!);
  expect(await screen.findByText('The dates can be at most 8 weeks ahead.')).toBeInTheDocument();
  expect(sent).toBe(0);
  expect(await axe(document.body)).toHaveNoViolations();
});

it('speaks Bahasa Melayu and says a server refusal in it, by the rule the server named', async () => {
  server.use(
    http.post(apiUrl('/api/waitlist'), () =>
      // The rule is read from the reason, not from the English words.
      HttpResponse.json({ success: false, data: null, message: 'Reworded by the server.', error: 'WAITLIST_DATES', reason: { rule: 'noWeekday' } }, { status: 400 }),
    ),
  );
  await act(() => activateLocale('ms'));
  const user = userEvent.setup();
  renderApp(<JoinWaitlistDialog onClose={() => {}} />);
  expect(await screen.findByRole('heading', { name: 'Sertai senarai menunggu' })).toBeInTheDocument();
  await user.type(screen.getByLabelText('Nama Pelawat'), 'Aminah Binti Ali');
  await user.type(screen.getByLabelText('Alamat E-mel'), 'aminah@example.com');
  await user.type(screen.getByLabelText('Nombor Telefon'), '012-345 6789');
  await user.type(screen.getByLabelText('Nama Anak'), 'Siti');
  await user.selectOptions(screen.getByLabelText('Sekolah Pilihan'), school.name);
  await user.selectOptions(screen.getByLabelText('Tahun atau Tingkatan Dipohon'), schoolYears(school.name)[0].name);
  await user.click(screen.getByRole('checkbox', CONSENT_BOX));
  await user.click(screen.getAllByRole('button', { name: 'Sertai senarai menunggu' }).at(-1)!);
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Tarikh mesti merangkumi sekurang-kurangnya satu hari bekerja.'));
});

it('says in Chinese that the connection has its live places, with the number the server named', async () => {
  server.use(
    http.post(apiUrl('/api/waitlist'), () =>
      HttpResponse.json(
        { success: false, data: null, message: 'In English.', error: 'RATE_LIMITED', reason: { rule: 'networkFull', params: { entries: 3 } } },
        { status: 429, headers: { 'retry-after': '3600' } },
      ),
    ),
  );
  const user = userEvent.setup();
  renderApp(<JoinWaitlistDialog onClose={() => {}} />);
  await fill(user);
  await user.click(screen.getByRole('checkbox', CONSENT_BOX));
  // The parent switches to Chinese before sending: what they typed stays.
  await act(() => activateLocale('zh'));
  await user.click(screen.getAllByRole('button', { name: '加入候补名单' }).at(-1)!);
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('您的网络连接已占用 3 个候补名额。'));
});

it('asks how many children and sends the count chosen (issue 37)', async () => {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl('/api/waitlist'), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(ok({ mailed: true }, 'Check your email.'), { status: 202 });
    }),
  );
  const user = userEvent.setup();
  renderApp(<JoinWaitlistDialog day={firstWeekdayFrom(addDays(todayInMY(), 3))} onClose={() => {}} />);
  await fill(user);
  expect(screen.getByLabelText('How many children?')).toHaveValue('1');
  await user.selectOptions(screen.getByLabelText('How many children?'), '3');
  await user.click(screen.getByRole('checkbox', CONSENT_BOX));
  await user.click(screen.getAllByRole('button', { name: 'Join the waitlist' }).at(-1)!);

  expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
  expect(bodies).toEqual([expect.objectContaining({ children: 3 })]);
});
