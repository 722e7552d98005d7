// Every mail on a 390 px phone: no bare long address as visible text (a 90-character manage link made the mail 469–604 px
// wide), the manage link a button in the parent's language, and detail labels that never wrap (日期 broke as 日 / 期).
import { changeTerms, LOCALES, type Locale } from 'shared-api/contract';
import { renderStaffPasswordReset } from '../../src/mail/account-templates';
import { renderBreachNotice } from '../../src/mail/breach-template';
import type { RenderedMail } from '../../src/mail/frame';
import { renderVisitorReminder } from '../../src/mail/reminder';
import {
  renderAdminCancelled,
  renderAdminNotification,
  renderAdminRefund,
  renderAdminRescheduled,
  renderVisitorCancelled,
  renderVisitorConfirmation,
  renderVisitorRefund,
  renderVisitorRescheduled,
} from '../../src/mail/templates';
import { renderWaitlistConfirm, renderWaitlistEntryEnded, renderWaitlistJoined, renderWaitlistOffer } from '../../src/waitlist/mails';

// Links as long as the real ones: the site, the path and a 43-character token (32 random bytes, base64url).
const SITE = 'https://booking.seriilmu.edu.my';
const TOKEN = 'q3Jx9vT0bL2mWcR7sYpK4eN8aH1dF6gU5iO0zXwVtQy';
const MANAGE_URL = `${SITE}/booking/manage/${TOKEN}`;
const waitlistUrl = (action: string) => `${SITE}/waitlist/${action}/${TOKEN}`;

const start = new Date('2026-11-23T01:30:00Z');
const end = new Date('2026-11-23T02:00:00Z');
const writtenAt = new Date('2026-11-16T01:00:00Z');
const booking = {
  paymentId: 'pay_01JD8XK2M3N4P5Q6R7S8T9V0W1',
  reference: 'SI-20261116-7Q4K',
  amountSen: 7550,
  method: 'fpx',
  start,
  end,
  school: 'Seri Ilmu Private Secondary',
  visitorName: 'Nurul Aisyah binti Abdullah',
  visitorEmail: 'nurul.aisyah.abdullah@example.com',
  visitorContactNo: '0123456789',
  // The longest labels ("Year or grade applied for", "Tahun atau tingkatan dipohon", "申请就读年级").
  childName: 'Adam',
  childYear: 'Form 2',
  manageUrl: MANAGE_URL,
  terms: changeTerms({ start, now: writtenAt }),
};
const moved = { ...booking, fromStart: new Date('2026-11-21T06:00:00Z'), fromEnd: new Date('2026-11-21T06:30:00Z'), sequence: 1 };
const cancelled = (by: string) => ({ ...booking, refundSen: 7550, by, sequence: 2, bookingSiteUrl: `${SITE}/` });
const refund = { ...booking, expectedSen: 7500, cause: 'slot_taken' as const, bookingSiteUrl: `${SITE}/` };
const entry = { name: 'Nurul Aisyah', school: booking.school, fromDate: '2026-11-23', toDate: '2026-11-27', partOfDay: 'morning' as const };

/** Every mail a parent gets, in `locale`. */
function parentMails(locale: Locale): Record<string, RenderedMail> {
  const e = { ...entry, locale };
  return {
    confirmation: renderVisitorConfirmation({ ...booking, locale }, 'org@x.y'),
    moved: renderVisitorRescheduled({ ...moved, locale }, 'org@x.y'),
    'cancelled by the parent': renderVisitorCancelled({ ...cancelled('parent'), locale }, 'org@x.y'),
    'cancelled by the school': renderVisitorCancelled({ ...cancelled('staff@x.y'), locale }, 'org@x.y'),
    refund: renderVisitorRefund({ ...refund, locale }),
    reminder: renderVisitorReminder({ ...booking, locale, cutoffHours: 24, now: new Date('2026-11-22T01:00:00Z') }),
    'waitlist: confirm': renderWaitlistConfirm({ ...e, confirmUrl: waitlistUrl('confirm'), notMeUrl: waitlistUrl('not-me'), confirmHours: 24, blockDays: 30 }),
    'waitlist: joined': renderWaitlistJoined({ ...e, place: 2, url: waitlistUrl('entry'), offerMinutes: 60 }),
    'waitlist: offer': renderWaitlistOffer({
      ...e,
      start,
      end,
      expiresAt: new Date('2026-11-20T02:00:00Z'),
      feeSen: 7500,
      // Two places: the widest offer, with its "places held" row.
      children: 2,
      offerUrl: waitlistUrl('offer'),
      declineUrl: waitlistUrl('decline'),
    }),
    'waitlist: ended': renderWaitlistEntryEnded({ ...e, termDays: 14, bookingSiteUrl: `${SITE}/` }),
    'breach notice': renderBreachNotice({ locale, name: 'Nurul Aisyah', foundAt: writtenAt, whatHappened: 'A laptop was stolen.', dataAffected: 'Name, email' }),
  };
}

/** The staff's and the school office's mails (English). */
const staffMails = (): Record<string, RenderedMail> => ({
  'admin: new booking': renderAdminNotification(booking),
  'admin: moved': renderAdminRescheduled(moved),
  'admin: cancelled': renderAdminCancelled(cancelled('parent')),
  'admin: refund': renderAdminRefund(refund),
  'staff: password reset': renderStaffPasswordReset({ url: `${SITE}/reset-password/${TOKEN}`, minutes: 30 }),
});

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const BLOCKS = /<\/?(?:p|div|table|tr|th|td|ul|li|h1|h2|br|body|html)\b[^>]*>/gi;

/** The HTML part's text as a mail program shows it: no head, each block on its own line, tags gone, entities read. */
const visibleText = (html: string) =>
  html
    .replace(/<head>[\s\S]*?<\/head>/i, '')
    .replace(BLOCKS, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

/** Unbroken runs of Latin letters, digits and signs longer than 40 characters (Chinese text wraps between characters). */
const longRuns = (text: string) => text.match(/[!-~]{41,}/g) ?? [];

const labelCells = (html: string) => html.match(/<th\b[^>]*>/g) ?? [];

describe.each(LOCALES)('every parent mail in %s on a phone', (locale) => {
  const mails = Object.entries(parentMails(locale));

  it.each(mails)('%s: no bare long address in the HTML, each detail label kept on one line', (_, mail) => {
    const text = visibleText(mail.html);
    expect(longRuns(text)).toEqual([]);
    expect(text).not.toMatch(/https?:\/\//);
    expect(labelCells(mail.html).length).toBeGreaterThan(0);
    for (const label of labelCells(mail.html)) expect(label).toContain('white-space:nowrap');
    // On a narrow screen each label stands above its value.
    expect(mail.html).toMatch(/<style>@media \(max-width:480px\)\{[^<]*\.mail-details th,\.mail-details td\{display:block!important/);
    expect(mail.html).toContain('<table role="presentation" class="mail-details"');
  });
});

describe('the manage link', () => {
  it.each([
    ['en', 'Manage your booking'],
    ['ms', 'Urus tempahan anda'],
    ['zh', '管理您的预约'],
  ] as const)('in %s is a button "%s" in the HTML part; the plain text keeps the address', (locale, label) => {
    for (const mail of [renderVisitorConfirmation({ ...booking, locale }, 'org@x.y'), renderVisitorRescheduled({ ...moved, locale }, 'org@x.y')]) {
      // A link drawn as a button: a coloured table cell around it, as Outlook needs.
      expect(mail.html).toMatch(
        new RegExp(`<table role="presentation"[^>]*><tr><td align="center" bgcolor="#[0-9a-f]{6}"[^>]*><a href="${MANAGE_URL}"[^>]*>${label}</a></td></tr></table>`),
      );
      expect(visibleText(mail.html)).not.toContain(MANAGE_URL);
      expect(mail.text).toContain(MANAGE_URL);
    }
  });
});

describe("the waitlist mails' main action", () => {
  it.each([
    ['en', 'Confirm my place on the waitlist', 'Book and pay'],
    ['ms', 'Sahkan tempat saya dalam senarai menunggu', 'Tempah dan bayar'],
    ['zh', '确认我在候补名单上的位置', '预约并付款'],
  ] as const)('in %s: "%s" and "%s" are buttons', (locale, confirm, book) => {
    const mails = parentMails(locale);
    for (const [mail, url, label] of [
      [mails['waitlist: confirm'], waitlistUrl('confirm'), confirm],
      [mails['waitlist: offer'], waitlistUrl('offer'), book],
    ] as const) {
      expect(mail.html).toMatch(new RegExp(`<td align="center" bgcolor="#[0-9a-f]{6}"[^>]*><a href="${url}"[^>]*>${label}</a></td>`));
      expect(mail.text).toContain(url);
    }
  });
});

describe('the staff and school office mails (English)', () => {
  it.each(Object.entries(staffMails()))('%s: no bare long address in the HTML, labels on one line', (_, mail) => {
    expect(longRuns(visibleText(mail.html))).toEqual([]);
    for (const label of labelCells(mail.html)) expect(label).toContain('white-space:nowrap');
  });

  it('the password reset link is a button; its address stays in the plain text', () => {
    const mail = renderStaffPasswordReset({ url: `${SITE}/reset-password/${TOKEN}`, minutes: 30 });
    expect(mail.html).toContain(`<a href="${SITE}/reset-password/${TOKEN}" target="_blank"`);
    expect(mail.html).toMatch(/>Set a new password<\/a><\/td><\/tr><\/table>/);
    expect(mail.text).toContain(`Set a new password: ${SITE}/reset-password/${TOKEN}`);
  });
});
