// A booking of several children (issue 37): one mail and one invitation naming every child, and a pair of mails of its
// own when one child is cancelled while the others stay booked.
jest.setTimeout(60_000);
import { eq } from 'drizzle-orm';
import { invitationUid } from 'shared-api/contract';
import type { DatabaseHandle } from '../../src/base/db/connection';
import { enqueueCancelMails, enqueueChildCancelMails, type MailChild } from '../../src/mail';
import { renderVisitorReminder } from '../../src/mail/reminder';
import { mailOutbox } from '../../src/mail/tables';
import {
  renderAdminCancelled,
  renderAdminChildCancelled,
  renderAdminNotification,
  renderAdminRefund,
  renderAdminRescheduled,
  renderVisitorCancelled,
  renderVisitorChildCancelled,
  renderVisitorConfirmation,
  renderVisitorRefund,
  renderVisitorRescheduled,
  type ChildCancelMailInput,
} from '../../src/mail/templates';
import { freshPglite } from '../helpers';
import { paymentWithMail } from './support';

const adam: MailChild = { childName: 'Adam Firdaus', childYear: 'Form 1', school: 'Seri Ilmu Private Secondary', amountSen: 7500 };
const siti: MailChild = { childName: 'Siti Hajar', childYear: 'Year 1', school: 'Seri Ilmu Private Primary', amountSen: 4500 };

const twoChildren = {
  paymentId: 'pay_1',
  reference: 'PAY-SIB',
  amountSen: 12000,
  method: 'fpx',
  start: new Date('2026-11-23T01:30:00Z'),
  end: new Date('2026-11-23T02:00:00Z'),
  school: 'Seri Ilmu Private Secondary',
  visitorName: 'Nur Aina',
  visitorEmail: 'aina@example.com',
  visitorContactNo: '0123456789',
  // The payment's own child (the first); the children list names both.
  childName: 'Adam Firdaus',
  childYear: 'Form 1',
  children: [adam, siti],
};
const bookingSiteUrl = 'https://s/';
/** The invitation's DESCRIPTION with the folding and the escapes undone. */
const description = (ics: string | null) =>
  (/^DESCRIPTION:(.*)$/m.exec((ics ?? '').replace(/\r\n /g, ''))?.[1] ?? '').replace(/\\([,;\\])/g, '$1');
const line = (ics: string | null, name: string) => (ics ?? '').replace(/\r\n /g, '').split('\r\n').find((l) => l.startsWith(`${name}:`));

describe('the mails of a booking of two children', () => {
  it("one confirmation names both children with each child's share, and the total paid", () => {
    const mail = renderVisitorConfirmation(twoChildren, 'org@x.y');
    expect(mail.text).toContain('Child 1: Adam Firdaus, Form 1, Seri Ilmu Private Secondary, RM 75');
    expect(mail.text).toContain('Child 2: Siti Hajar, Year 1, Seri Ilmu Private Primary, RM 45');
    expect(mail.text).toContain('Amount paid: RM 120');
    // The single child's rows give way to the list.
    expect(mail.text).not.toMatch(/^Child: /m);
    expect(mail.text).not.toContain('Year or grade applied for');
    expect(mail.html).toContain('Siti Hajar, Year 1, Seri Ilmu Private Primary, RM 45');
    expect(mail.html).toContain('Adam Firdaus, Form 1, Seri Ilmu Private Secondary, RM 75');
  });

  it("children at schools at different addresses are told they are all seen at the first child's school; one address: not a word", () => {
    const mail = renderVisitorConfirmation(twoChildren, 'org@x.y');
    const together = 'All your children are seen together at Seri Ilmu Private Secondary, 8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala Lumpur';
    expect(mail.text).toContain(together);
    expect(mail.html).toContain(together);
    expect(renderVisitorConfirmation({ ...twoChildren, locale: 'ms' }, 'org@x.y').text).toContain('Semua anak anda dilihat bersama di');
    const twins = { ...twoChildren, children: [adam, { ...adam, childName: 'Aiman Firdaus' }] };
    expect(renderVisitorConfirmation(twins, 'org@x.y').text).not.toContain('seen together');
  });

  it('its one invitation (the booking\'s UID, SEQUENCE 0) names both children', () => {
    const { ics } = renderVisitorConfirmation(twoChildren, 'org@x.y');
    expect(line(ics, 'UID')).toBe(`UID:${invitationUid('PAY-SIB')}`);
    expect(line(ics, 'SEQUENCE')).toBe('SEQUENCE:0');
    expect((ics ?? '').match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(description(ics)).toContain(
      'Assessment visit for Nur Aina. Children: Adam Firdaus (Form 1, Seri Ilmu Private Secondary), Siti Hajar (Year 1, Seri Ilmu Private Primary). Payment reference PAY-SIB.',
    );
  });

  it('in Malay and Chinese the mail and its invitation name both children too', () => {
    const ms = renderVisitorConfirmation({ ...twoChildren, locale: 'ms' }, 'org@x.y');
    expect(ms.text).toContain('Siti Hajar, Tahun 1,');
    expect(ms.text).toContain('Adam Firdaus, Tingkatan 1,');
    expect(description(ms.ics)).toContain('Anak-anak: Adam Firdaus (Tingkatan 1, ');
    const zh = renderVisitorConfirmation({ ...twoChildren, locale: 'zh' }, 'org@x.y');
    expect(zh.text).toContain('孩子 1：Adam Firdaus，中一，Seri Ilmu 私立中学，RM75');
    expect(zh.text).toContain('孩子 2：Siti Hajar，一年级，Seri Ilmu 私立小学，RM45');
    expect(description(zh.ics)).toMatch(/孩子：Adam Firdaus（.*）、Siti Hajar（.*）。/);
  });

  it('the move, the cancel, the refund, the reminder and every admin message name both children', () => {
    const moved = { ...twoChildren, fromStart: new Date('2026-11-21T06:00:00Z'), fromEnd: new Date('2026-11-21T06:30:00Z'), sequence: 1, manageUrl: 'https://s/m' };
    const cancelled = { ...twoChildren, refundSen: 12000, by: 'parent', sequence: 2, bookingSiteUrl };
    const refund = { ...twoChildren, expectedSen: 12000, cause: 'slot_taken' as const, bookingSiteUrl };
    const reminder = renderVisitorReminder({ ...twoChildren, manageUrl: 'https://s/m', cutoffHours: 24, now: new Date('2026-11-22T01:00:00Z') });
    const mails = {
      moved: renderVisitorRescheduled(moved, 'org@x.y'),
      adminMoved: renderAdminRescheduled(moved),
      cancelled: renderVisitorCancelled(cancelled, 'org@x.y'),
      adminCancelled: renderAdminCancelled(cancelled),
      refund: renderVisitorRefund(refund),
      adminRefund: renderAdminRefund(refund),
      adminNew: renderAdminNotification(twoChildren),
      reminder,
    };
    for (const [name, mail] of Object.entries(mails)) {
      expect([name, mail.text]).toEqual([name, expect.stringContaining('Child 1: Adam Firdaus, Form 1')]);
      expect([name, mail.text]).toEqual([name, expect.stringContaining('Child 2: Siti Hajar, Year 1')]);
    }
    // The invitations of the move and the cancel name both, under the booking's one UID.
    for (const mail of [mails.moved, mails.cancelled]) {
      expect(description(mail.ics)).toContain('Children: Adam Firdaus (Form 1, Seri Ilmu Private Secondary), Siti Hajar (Year 1, Seri Ilmu Private Primary).');
      expect(line(mail.ics, 'UID')).toBe(`UID:${invitationUid('PAY-SIB')}`);
    }
  });

  it('a child cancelled before is no longer named in the later mails or their invitation', () => {
    const mail = renderVisitorRescheduled(
      { ...twoChildren, children: [adam, { ...siti, cancelled: true }], fromStart: twoChildren.start, fromEnd: twoChildren.end, sequence: 1 },
      'org@x.y',
    );
    expect(mail.text).toContain('Child 1: Adam Firdaus');
    expect(mail.text).not.toContain('Siti Hajar');
    expect(description(mail.ics)).not.toContain('Siti Hajar');
  });
});

describe("one child's cancel", () => {
  const input = (over: Partial<ChildCancelMailInput> = {}): ChildCancelMailInput => ({
    ...twoChildren,
    children: [adam, { ...siti, cancelled: true }],
    child: { ...siti, cancelled: true, position: 2 },
    refundSen: 4500,
    by: 'parent',
    bookingSiteUrl,
    ...over,
  });

  it("tells the parent that child's place is cancelled, the refund of that child's share, and who stays booked; no invitation", () => {
    const mail = renderVisitorChildCancelled(input());
    expect(mail.subject).toBe("Siti Hajar's visit is cancelled: Seri Ilmu Private Primary, Monday, 23 November 2026 at 9:30 AM (GMT+8)");
    expect(mail.text).toContain("Siti Hajar's assessment visit has been cancelled as you asked.");
    expect(mail.text).toContain('A refund of RM 45 is being issued');
    expect(mail.text).toContain('Your other children stay booked at the same time.');
    expect(mail.text).toContain('Refund: RM 45');
    expect(mail.text).toContain('Child 1: Adam Firdaus, Form 1, Seri Ilmu Private Secondary, RM 75');
    expect(mail.text).not.toMatch(/Child \d: Siti Hajar/);
    // The booking's visit stays in the parent's calendar: nothing to cancel there.
    expect(mail.ics).toBeNull();
  });

  it('says so when no refund applies, and speaks Malay and Chinese', () => {
    const none = renderVisitorChildCancelled(input({ refundSen: 0, by: 'staff@school.test' }));
    expect(none.text).toContain("Siti Hajar's assessment visit has been cancelled by the school.");
    expect(none.text).toContain('No refund applies under the cancellation policy.');
    expect(none.text).not.toContain('RM 45');
    expect(renderVisitorChildCancelled(input({ locale: 'ms' })).subject).toMatch(/^Lawatan Siti Hajar dibatalkan: /);
    expect(renderVisitorChildCancelled(input({ locale: 'zh' })).subject).toMatch(/^Siti Hajar的预约已取消：/);
    expect(renderVisitorChildCancelled(input({ locale: 'ms' })).text).toContain('Anak-anak anda yang lain kekal ditempah pada masa yang sama.');
  });

  it('tells the admin in English: which child, by whom, the refund, the child still booked', () => {
    const mail = renderAdminChildCancelled(input({ locale: 'zh' }));
    expect(mail.subject).toBe('Child cancelled: Siti Hajar (Nur Aina), Seri Ilmu Private Primary, Monday, 23 November 2026 at 9:30 AM');
    expect(mail.text).toContain('Child cancelled: Siti Hajar');
    expect(mail.text).toContain('Cancelled by: the parent');
    expect(mail.text).toContain('Refund: RM 45 being refunded automatically');
    expect(mail.text).toContain('Child 1: Adam Firdaus');
    expect(mail.ics).toBeNull();
  });

  describe('in the outbox', () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await freshPglite();
    });
    afterAll(async () => {
      await database?.close();
    });
    const addresses = { adminNotifyEmail: 'office@school.test', mailFrom: '"Seri Ilmu" <admissions@seriilmu.edu.my>' };

    it("writes one pair per child, once however often it is retried, apart from the booking's cancel", async () => {
      const payment = await paymentWithMail(database, 50, { visitorEmail: 'aina@example.com' });
      const mailInput = (over: Partial<ChildCancelMailInput> = {}) => input({ paymentId: payment.id, reference: payment.reference, ...over });
      await enqueueChildCancelMails(database.db, mailInput(), addresses);
      await enqueueChildCancelMails(database.db, mailInput(), addresses);
      const rowsOf = () => database.db.select().from(mailOutbox).where(eq(mailOutbox.paymentId, payment.id));
      const first = await rowsOf();
      expect(first.map((r) => [r.recipient, r.subject])).toEqual([
        ['aina@example.com', expect.stringMatching(/^Siti Hajar's visit is cancelled/)],
        ['office@school.test', expect.stringMatching(/^Child cancelled: Siti Hajar/)],
      ]);
      expect(first.every((r) => r.ics === null)).toBe(true);

      // Another child's cancel, then the whole booking's: each a pair of its own.
      await enqueueChildCancelMails(database.db, mailInput({ child: { ...adam, cancelled: true, position: 1 }, children: [{ ...adam, cancelled: true }, siti] }), addresses);
      await enqueueCancelMails(database.db, { ...twoChildren, paymentId: payment.id, reference: payment.reference, refundSen: 0, by: 'parent', sequence: 1, bookingSiteUrl }, addresses);
      const all = await rowsOf();
      expect(all).toHaveLength(6);
      expect(new Set(all.map((r) => r.messageId)).size).toBe(6);
      expect(all.filter((r) => r.subject.startsWith("Adam Firdaus's visit is cancelled"))).toHaveLength(1);
      expect(all.filter((r) => r.ics !== null)).toHaveLength(1);
    });
  });
});
