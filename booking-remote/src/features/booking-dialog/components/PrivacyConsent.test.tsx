import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { brand, type ConsentInput, type VisitorDetails } from 'shared-api';
import { privacyNotice } from 'shared-api/privacy';
import { activateLocale } from 'shared-ui';
import { axe } from '../../../test/axe';
import { renderApp } from '../../../test/render';
import { DetailsStep, DETAILS_FORM_ID } from './DetailsStep';

// Issue 28 (PDPA): the booking form asks the parent's consent, for themselves and their child, to the privacy notice
// from brand.config.json, shown in the page's language one tap away (and in each other language one tap away too).
afterEach(() => act(() => activateLocale('en')));

const secondary = brand.schools[1];

function renderForm() {
  const onValid = jest.fn<void, [VisitorDetails, ConsentInput]>();
  const view = renderApp(
    <>
      <DetailsStep schools={brand.schools} pricingLoading={false} onValid={onValid} />
      <button type="submit" form={DETAILS_FORM_ID}>
        Continue
      </button>
    </>,
  );
  return { ...view, onValid };
}

async function fillForm(user: ReturnType<typeof userEvent.setup>, labels = { name: 'Visitor Name', email: 'Email Address', phone: 'Contact Number', child: "Child's Name", school: 'Selected School', year: 'Year or Grade Applied For' }) {
  await user.type(screen.getByLabelText(labels.name), 'Aisyah Rahman');
  await user.type(screen.getByLabelText(labels.email), 'aisyah@example.com');
  await user.type(screen.getByLabelText(labels.phone), '012 345 6789');
  await user.type(screen.getByLabelText(labels.child), 'Nur Iman');
  await user.selectOptions(screen.getByLabelText(labels.school), secondary.name);
  await user.selectOptions(screen.getByLabelText(labels.year), 'Form 1');
}

describe('consent to the privacy notice on the booking form', () => {
  it('refuses a complete form without the consent: says why, marks the box and sends nothing on', async () => {
    const user = userEvent.setup();
    const { container, onValid } = renderForm();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const box = screen.getByRole('checkbox', { name: /I am the parent or guardian and agree/ });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please agree to the privacy notice to book');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(box).toHaveFocus());
    expect(onValid).not.toHaveBeenCalled();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('passes the consent on with the notice version in force and the language the page shows', async () => {
    const user = userEvent.setup();
    const { onValid } = renderForm();
    await fillForm(user);
    await user.click(screen.getByRole('checkbox', { name: /I am the parent or guardian and agree/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid.mock.calls[0][1]).toEqual({ noticeVersion: privacyNotice.version, language: 'en' });
  });

  it('shows the notice in the page language one tap away, with every section and each field’s purpose, and the others one tap away', async () => {
    const user = userEvent.setup();
    const { container } = renderForm();
    expect(screen.queryByRole('region', { name: 'Privacy notice' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Read the privacy notice' }));
    const notice = screen.getByRole('region', { name: 'Privacy notice' });
    for (const section of privacyNotice.texts.en.sections) expect(notice).toHaveTextContent(section.body);
    for (const purpose of Object.values(privacyNotice.texts.en.fields)) expect(notice).toHaveTextContent(purpose);
    // Who it is shared with, and how to ask for access or correction: in the words parents read.
    expect(notice).toHaveTextContent('payment gateway');
    expect(notice).toHaveTextContent('within 21 days');
    expect(await axe(container)).toHaveNoViolations();

    await user.click(screen.getByRole('button', { name: 'Read it in Bahasa Melayu' }));
    const malay = screen.getByRole('region', { name: 'Notis privasi' });
    expect(malay).toHaveAttribute('lang', 'ms');
    expect(malay).toHaveTextContent(privacyNotice.texts.ms.sections[0].body);
    await user.click(screen.getByRole('button', { name: 'Read it in 中文' }));
    expect(screen.getByRole('region', { name: '隐私声明' })).toHaveAttribute('lang', 'zh-Hans');
  });

  it('speaks Bahasa Melayu: the consent, the Malay notice first, and the consent recorded as shown in Malay', async () => {
    await act(() => activateLocale('ms'));
    const user = userEvent.setup();
    const { onValid } = renderForm();
    await user.click(await screen.findByRole('button', { name: 'Baca notis privasi' }));
    const notice = screen.getByRole('region', { name: 'Notis privasi' });
    for (const section of privacyNotice.texts.ms.sections) expect(notice).toHaveTextContent(section.body);
    expect(notice).toHaveTextContent('gerbang pembayaran');
    // The version the parent is shown is the one their consent names.
    expect(notice).toHaveTextContent(`Versi ${privacyNotice.version}`);
    expect(screen.getByRole('button', { name: 'Baca dalam English' })).toBeInTheDocument();
    await fillForm(user, { name: 'Nama Pelawat', email: 'Alamat E-mel', phone: 'Nombor Telefon', child: 'Nama Anak', school: 'Sekolah Pilihan', year: 'Tahun atau Tingkatan Dipohon' });
    await user.click(screen.getByRole('checkbox', { name: /Saya ibu bapa atau penjaga dan bersetuju/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid.mock.calls[0][1]).toEqual({ noticeVersion: privacyNotice.version, language: 'ms' });
  });
});
