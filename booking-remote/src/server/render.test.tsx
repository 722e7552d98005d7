import { within } from '@testing-library/react';
import { addDays, isWeekend, todayInMY } from 'shared-api';
import { legacyList, publicSlot } from '../test/fixtures';
import { render } from './render';

// More than one page of bookable slots: the server does not render page 1 alone (times would be missing until the page
// read the rest); the shell serves the client page, which reads every page.
it('renders one page of slots, and refuses a list of several pages', async () => {
  let day = addDays(todayInMY(), 3);
  while (isWeekend(day)) day = addDays(day, 1);
  const one = legacyList([publicSlot({ id: 1, date: day, startTime: '10:00' })]);
  expect((await render({ lang: 'en', list: one, now: Date.now() })).html).toContain('10:00 AM');
  const several = { ...one, data: { ...one.data, pagination: { total: 150, page: 1, limit: 100, totalPages: 2 } } };
  await expect(render({ lang: 'en', list: several, now: Date.now() })).rejects.toThrow('more than one page');
});

// With JavaScript off the rendered timetable is all a parent gets: it says, under its heading and above every button,
// that booking needs JavaScript and how to book instead, in the page's language.
describe('without JavaScript', () => {
  const renderIn = async (lang: string) => {
    let day = addDays(todayInMY(), 3);
    while (isWeekend(day)) day = addDays(day, 1);
    const out = await render({ lang, list: legacyList([publicSlot({ id: 1, date: day, startTime: '10:00' })]), now: Date.now() });
    // As a browser without scripts reads it (DOMParser runs none): a <noscript>'s content is the page's markup.
    const parsed = new DOMParser().parseFromString(`<main>${out.html}</main>`, 'text/html');
    document.body.replaceChildren(document.importNode(parsed.body.firstElementChild!, true));
    return { ...out, page: document.body };
  };

  it.each([
    ['en', 'Booking here needs JavaScript, which is off in this browser. Book by phone or email instead:', 'Seri Ilmu Private Primary: ', 'Email: '],
    ['ms', 'Tempahan di sini memerlukan JavaScript, yang dimatikan dalam pelayar ini. Sila tempah melalui telefon atau e-mel:', 'Sekolah Rendah Swasta Seri Ilmu: ', 'E-mel: '],
    ['zh', '在此预约需要 JavaScript，但此浏览器已将其关闭。请改为通过电话或电子邮件预约：', 'Seri Ilmu 私立小学：', '电子邮件：'],
  ])('in %s: the notice, each school office to call and the admissions email', async (lang, text, primaryLine, emailLine) => {
    const { page, css } = await renderIn(lang);
    const notice = within(page).getByText(text).parentElement!;
    expect(notice.closest('noscript')).not.toBeNull();
    // A boxed note (the public pages' Callout), its styles in the page's head.
    expect([...notice.classList].some((name) => new RegExp(`\\.${name}\\{[^}]*border-left-width:4px`).test(css))).toBe(true);
    const notes = within(notice).getAllByRole('listitem');
    expect(notes[0]).toHaveTextContent(`${primaryLine}03-7726 4100`);
    expect(notes.at(-1)).toHaveTextContent(`${emailLine}admissions@seriilmu.edu.my`);
    expect(within(notice).getByRole('link', { name: '03-7726 4100' })).toHaveAttribute('href', 'tel:+60377264100');
    expect(within(notice).getByRole('link', { name: '03-2094 7300' })).toHaveAttribute('href', 'tel:+60320947300');
    expect(within(notice).getByRole('link', { name: '03-5122 8800' })).toHaveAttribute('href', 'tel:+60351228800');
    expect(within(notice).getByRole('link', { name: 'admissions@seriilmu.edu.my' })).toHaveAttribute('href', 'mailto:admissions@seriilmu.edu.my');
    // Under the page's heading, before the first button.
    const heading = within(page).getByRole('heading', { level: 1 });
    expect(heading.nextElementSibling).toBe(notice.closest('noscript'));
    expect(notice.compareDocumentPosition(within(page).getAllByRole('button')[0]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("dims the timetable's buttons only when scripts do not run", async () => {
    const { css } = await renderIn('en');
    expect(css).toContain('<noscript><style>main button{cursor:not-allowed;opacity:.5;filter:grayscale(1)}</style></noscript>');
  });
});
