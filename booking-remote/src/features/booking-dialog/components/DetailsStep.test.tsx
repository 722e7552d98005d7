import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { brand, type ConsentInput, type VisitorDetails } from 'shared-api';
import { privacyNotice } from 'shared-api/privacy';
import { schoolDetails } from 'shared-api/schools';
import { activateLocale } from 'shared-ui';
import { axe } from '../../../test/axe';
import { renderApp } from '../../../test/render';
import type { BookingDetails } from '../utils/bookingDraft';
import { DetailsStep, DETAILS_FORM_ID } from './DetailsStep';
import { SummaryStep } from './SummaryStep';
import { CONSENT_BOX } from '../../../test/fixtures';

// Issue 24: an assessment is about a child. The details step asks for the child's name and the year or grade applied
// for (the chosen school's years from brand.config.json), validated by the contract's rules; the summary shows them.
// Issue 28 (PDPA): the booking form asks the parent's consent, for themselves and their child, to the privacy notice
// from brand.config.json, shown in the page's language one tap away (and in each other language one tap away too).
afterEach(() => act(() => activateLocale('en')));

const [primary, secondary, international] = brand.schools;

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

const optionNames = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);

async function fillParent(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Visitor Name'), 'Aisyah Rahman');
  await user.type(screen.getByLabelText('Email Address'), 'aisyah@example.com');
  await user.type(screen.getByLabelText('Contact Number'), '012 345 6789');
  await user.click(screen.getByRole('checkbox', CONSENT_BOX));
}

describe('the child on the booking form', () => {
  it("offers the chosen school's years only, and forgets a year the next school does not take", async () => {
    const user = userEvent.setup();
    renderForm();
    const year = screen.getByLabelText('Year or Grade Applied For');
    expect(optionNames(year)).toEqual(['Select a school first']);
    await user.selectOptions(screen.getByLabelText('Selected School'), primary.name);
    expect(optionNames(year)).toEqual(['Select a year or grade', 'Year 1', 'Year 2', 'Year 3', 'Year 4', 'Year 5', 'Year 6']);
    await user.selectOptions(year, 'Year 4');
    await user.selectOptions(screen.getByLabelText('Selected School'), international.name);
    // Year 4 is a year of the international school too: kept.
    expect(year).toHaveValue('Year 4');
    await user.selectOptions(screen.getByLabelText('Selected School'), secondary.name);
    expect(optionNames(year)).toEqual(['Select a year or grade', 'Form 1', 'Form 2', 'Form 3', 'Form 4', 'Form 5']);
    await waitFor(() => expect(year).toHaveValue(''));
  });

  it('refuses a form without the child with field messages and one toast in the same words, and sends nothing on', async () => {
    const user = userEvent.setup();
    const { container, onValid } = renderForm();
    await fillParent(user);
    await user.selectOptions(screen.getByLabelText('Selected School'), secondary.name);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText("Child's name must be at least 2 characters", { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText('Please select the year or grade applied for', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByLabelText("Child's Name")).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Year or Grade Applied For')).toHaveAttribute('aria-invalid', 'true');
    // The empty name is said as the rule it breaks, inline and in the toast alike.
    await waitFor(() => expect(screen.getAllByText("Child's name must be at least 2 characters")).toHaveLength(2));
    expect(onValid).not.toHaveBeenCalled();
    expect(await axe(container)).toHaveNoViolations();
  });

  it("passes the child's name as the contract cleans it and the year's key on", async () => {
    const user = userEvent.setup();
    const { onValid } = renderForm();
    await fillParent(user);
    await user.type(screen.getByLabelText("Child's Name"), '  Nur\u200B Iman \u202E ');
    await user.selectOptions(screen.getByLabelText('Selected School'), secondary.name);
    await user.selectOptions(screen.getByLabelText('Year or Grade Applied For'), 'Form 2');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid.mock.calls[0][0]).toMatchObject({ childName: 'Nur Iman', childYear: 'Form 2', selectedSchool: secondary.name });
  });

  it.each([
    ['ms', 'Nama Anak', 'Tahun atau Tingkatan Dipohon', 'Sekolah Pilihan', ['Pilih tahun atau tingkatan', 'Tingkatan 1', 'Tingkatan 2']],
    ['zh', '孩子姓名', '申请就读年级', '所选学校', ['选择年级', '中一', '中二']],
  ] as const)('speaks %s: its labels and year names, the English keys as values', async (locale, nameLabel, yearLabel, schoolLabel, firstYears) => {
    await act(() => activateLocale(locale));
    const user = userEvent.setup();
    renderForm();
    expect(await screen.findByLabelText(nameLabel)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(schoolLabel), secondary.name);
    const year = screen.getByLabelText(yearLabel);
    expect(optionNames(year).slice(0, 3)).toEqual(firstYears);
    expect(within(year).getByRole('option', { name: firstYears[2] })).toHaveValue('Form 2');
  });
});

describe('the summary before paying', () => {
  const details: BookingDetails = {
    visitorName: 'Aisyah Rahman',
    visitorEmail: 'aisyah@example.com',
    visitorContactNo: '0123456789',
    selectedSchool: secondary.name,
    childName: 'Nur Iman',
    childYear: 'Form 2',
    preferredPaymentMethod: 'fpx',
    slot: { id: 1, date: '2026-11-26', startTime: '09:00' },
    fee: 7500,
  };
  const reservation = { slotId: 1, token: 't', reservedAt: '', expiresAt: new Date(Date.now() + 600_000).toISOString(), duration: 15 };

  it('names the child, the year, the school and where it is', async () => {
    const { container } = renderApp(<SummaryStep details={details} reservation={reservation} now={Date.now()} onEdit={() => {}} />);
    const row = (label: string) => screen.getByText(label).nextElementSibling;
    expect(row('Child')).toHaveTextContent('Nur Iman');
    expect(row('Year or grade')).toHaveTextContent('Form 2');
    expect(row('School')).toHaveTextContent(secondary.name);
    expect(row('Address')).toHaveTextContent(schoolDetails(secondary.name)!.address);
    expect(screen.getByRole('link', { name: 'Open in Maps' })).toHaveAttribute('href', schoolDetails(secondary.name)!.mapUrl);
    expect(await axe(container)).toHaveNoViolations();
  });

  it('says the year in the language of the page', async () => {
    await act(() => activateLocale('zh'));
    renderApp(<SummaryStep details={details} reservation={reservation} now={Date.now()} onEdit={() => {}} />);
    expect((await screen.findByText('申请年级')).nextElementSibling).toHaveTextContent('中二');
    expect(screen.getByText('孩子').nextElementSibling).toHaveTextContent('Nur Iman');
  });
});

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
    expect(onValid.mock.calls[0][1]).toEqual({ noticeVersion: privacyNotice.version, language: 'en', whatsapp: false });
  });

  it('WhatsApp (issue 38): off unless ticked, right under the contact number; ticked, it goes with the consent', async () => {
    const user = userEvent.setup();
    const { onValid } = renderForm();
    await fillForm(user);
    const box = screen.getByRole('checkbox', { name: /Also send my confirmation and reminder on WhatsApp/ });
    expect(box).not.toBeChecked();
    // Next after the contact number in the form's order: it is about that number.
    expect(screen.getByLabelText('Contact Number').compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(box.compareDocumentPosition(screen.getByLabelText("Child's Name")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(box);
    await user.click(screen.getByRole('checkbox', { name: /I am the parent or guardian and agree/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid.mock.calls[0][1]).toEqual({ noticeVersion: privacyNotice.version, language: 'en', whatsapp: true });
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
    expect(onValid.mock.calls[0][1]).toEqual({ noticeVersion: privacyNotice.version, language: 'ms', whatsapp: false });
  });
});

// Issue 37: brothers and sisters at one time. The count is asked only where the time has more than one free place.
describe('several children on the booking form', () => {
  const renderWith = (props: Partial<Parameters<typeof DetailsStep>[0]>) =>
    renderApp(<DetailsStep schools={brand.schools} pricingLoading={false} onValid={jest.fn()} {...props} />);

  it('no count on a time of one place; on more, 1 up to the places, at most 4', () => {
    const { unmount } = renderWith({ maxChildren: 1 });
    expect(screen.queryByLabelText('How many children are you booking for?')).not.toBeInTheDocument();
    unmount();
    renderWith({ maxChildren: 4 });
    expect(optionNames(screen.getByLabelText('How many children are you booking for?'))).toEqual(['1', '2', '3', '4']);
  });

  it("each further child has its own group with the first child's fields, its years following its own school", async () => {
    const user = userEvent.setup();
    renderWith({ maxChildren: 3 });
    await user.selectOptions(screen.getByLabelText('How many children are you booking for?'), '3');
    const second = screen.getByRole('group', { name: 'Child 2' });
    expect(screen.getByRole('group', { name: 'Child 3' })).toBeInTheDocument();
    expect(optionNames(within(second).getByLabelText('Year or Grade Applied For'))).toEqual(['Select a school first']);
    await user.selectOptions(within(second).getByLabelText('Selected School'), secondary.name);
    expect(optionNames(within(second).getByLabelText('Year or Grade Applied For'))).toContain('Form 1');
    // The first child's years stay their own.
    expect(optionNames(screen.getAllByLabelText('Year or Grade Applied For')[0])).toEqual(['Select a school first']);
    await user.selectOptions(screen.getByLabelText('How many children are you booking for?'), '2');
    expect(screen.queryByRole('group', { name: 'Child 3' })).not.toBeInTheDocument();
  });

  it('children typed before stay even where fewer places are free now (the parent chooses fewer)', () => {
    renderWith({ maxChildren: 1, defaultValues: { childName: 'Adam Firdaus', siblings: [{ childName: 'Siti Hajar', selectedSchool: primary.name, childYear: 'Year 1' }] } });
    expect(screen.getByLabelText('How many children are you booking for?')).toHaveValue('2');
    expect(within(screen.getByRole('group', { name: 'Child 2' })).getByLabelText("Child's Name")).toHaveValue('Siti Hajar');
  });

  it('in Chinese: the count question and "孩子 2"', async () => {
    await act(() => activateLocale('zh'));
    renderWith({ maxChildren: 2 });
    expect(await screen.findByLabelText('您为几个孩子预约？')).toBeInTheDocument();
    await userEvent.setup().selectOptions(screen.getByLabelText('您为几个孩子预约？'), '2');
    expect(screen.getByRole('group', { name: '孩子 2' })).toBeInTheDocument();
  });
});
