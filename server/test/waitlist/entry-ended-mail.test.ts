import { eq } from 'drizzle-orm';
import { HTML_LANG } from 'shared-api/contract';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { mailOutbox } from '../../src/mail/tables';
import { enqueueWaitlistMail, renderWaitlistEntryEnded, WAITLIST_ENTRY_ENDED_KIND } from '../../src/waitlist/mails';
import { freshPglite } from '../helpers';

// "Your place on the waitlist has ended" (issue 34): the school, the days the parent waited for, that the term the school
// keeps a place for has passed, and the booking page to look again or join again; in the parent's language.

const entry = {
  name: 'Siti <Aminah>',
  school: 'Seri Ilmu Private Secondary',
  fromDate: '2026-11-23',
  toDate: '2026-11-27',
  partOfDay: 'morning' as const,
  termDays: 14,
  bookingSiteUrl: 'https://book.example.my/',
};

it('in English: the whole plain text a parent reads', () => {
  const mail = renderWaitlistEntryEnded({ ...entry, locale: 'en' });
  expect(mail.subject).toBe('Your place on the waitlist has ended: Seri Ilmu Private Secondary');
  expect(mail.text).toBe(
    [
      'Dear Siti <Aminah>,',
      '',
      'Your place on the waitlist for an assessment visit at Seri Ilmu Private Secondary has ended: the school keeps a place on its waitlist for 14 days, and that time has passed.',
      '',
      'School: Seri Ilmu Private Secondary',
      'Days you waited for: Monday, 23 November 2026 to Friday, 27 November 2026, mornings',
      '',
      'To look for a free time again, or to join the waitlist again: https://book.example.my/',
      'Questions? Write to admissions@seriilmu.edu.my.',
      '',
      'Seri Ilmu',
    ].join('\n'),
  );
  expect(mail).toMatchObject({ ics: null, locale: 'en' });
  // One day is a day.
  expect(renderWaitlistEntryEnded({ ...entry, termDays: 1, locale: 'en' }).text).toContain('for 1 day, and that time has passed.');
});

it('in HTML: the name escaped, the booking page a link, the page in the parent’s language', () => {
  for (const locale of ['en', 'ms', 'zh'] as const) {
    const { html } = renderWaitlistEntryEnded({ ...entry, locale });
    expect(html).toContain(`<html lang="${HTML_LANG[locale]}">`);
    expect(html).toContain('Siti &lt;Aminah&gt;');
    expect(html).not.toContain('<Aminah>');
    expect(html).toMatch(/<a href="https:\/\/book\.example\.my\/">[^<]+<\/a>/);
  }
});

it('in Malay and Chinese, with the school, the days and the term in their words', () => {
  const ms = renderWaitlistEntryEnded({ ...entry, locale: 'ms' });
  expect(ms.subject).toBe('Giliran anda dalam senarai menunggu telah tamat: Sekolah Menengah Swasta Seri Ilmu');
  expect(ms.text).toContain('selama 14 hari, dan tempoh itu telah berlalu.');
  expect(ms.text).toContain('Hari yang anda tunggu: Isnin, 23 November 2026 hingga Jumaat, 27 November 2026, waktu pagi');
  expect(ms.text).toContain('atau menyertai senarai menunggu semula: https://book.example.my/');
  expect(ms.html).toContain('<a href="https://book.example.my/">buka halaman tempahan</a>');

  const zh = renderWaitlistEntryEnded({ ...entry, locale: 'zh' });
  expect(zh.subject).toBe('您在候补名单上的排位已结束：Seri Ilmu 私立中学');
  expect(zh.text).toContain('学校为候补名单上的排位保留14天，该期限已过。');
  expect(zh.text).toContain('您等候的日期：2026年11月23日 星期一至2026年11月27日 星期五，上午');
  expect(zh.text).toContain('重新加入候补名单：https://book.example.my/');
  expect(zh.html).toContain('请<a href="https://book.example.my/">打开预约页面</a>。');
});

describe('through the outbox', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(() => database?.close());

  it('is written as its own kind, once per key, in the parent’s language', async () => {
    const mail = renderWaitlistEntryEnded({ ...entry, locale: 'ms' });
    for (let i = 0; i < 2; i++) await enqueueWaitlistMail(database.db, WAITLIST_ENTRY_ENDED_KIND, 'siti@example.com', mail, 'ended-7', 'Seri Ilmu <bookings@school.test>');
    const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'siti@example.com'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'waitlist_entry_ended',
      paymentId: null,
      subject: mail.subject,
      textBody: mail.text,
      locale: 'ms',
      status: 'pending',
      messageId: '<WL-ended-7.waitlist-entry-ended@school.test>',
    });
  });
});
