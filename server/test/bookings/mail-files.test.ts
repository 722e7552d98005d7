import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emlFileSender } from '../../src/mail/transport';
import { invitationUid } from 'shared-api/contract';
import { renderVisitorCancelled, renderVisitorRescheduled } from '../../src/mail/templates';

const base = {
  paymentId: 'pay_1',
  reference: 'PAY-ABC123',
  amountSen: 7500,
  method: 'fpx',
  start: new Date('2030-01-07T02:00:00Z'),
  end: new Date('2030-01-07T02:30:00Z'),
  school: 'Seri Ilmu Private Secondary',
  visitorName: 'Nur <b>Aina</b>',
  visitorEmail: 'aina@example.com',
  visitorContactNo: '0123456789',
  childName: 'Adam <i>Tan</i>',
  childYear: 'Form 2',
};

describe('rescheduled and cancelled messages as mail programs receive them', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bookings-mail-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('the calendar part says method=CANCEL for a cancellation and method=REQUEST for a move, with one UID', async () => {
    const sender = emlFileSender(folder);
    const cancelled = renderVisitorCancelled({ ...base, refundSen: 0, by: 'parent', sequence: 2, bookingSiteUrl: 'http://site.test' }, 'admissions@example.com');
    const moved = renderVisitorRescheduled(
      { ...base, fromStart: new Date('2030-01-06T02:00:00Z'), fromEnd: new Date('2030-01-06T02:30:00Z'), sequence: 1, manageUrl: 'http://site.test/booking/manage/x' },
      'admissions@example.com',
    );
    for (const [id, mail] of [['<c@test>', cancelled], ['<m@test>', moved]] as const)
      await sender.send({ from: 'a@test', to: 'b@test', subject: mail.subject, text: mail.text, html: mail.html, messageId: id, ics: mail.ics });
    sender.close();
    const files = fs.readdirSync(folder).map((f) => fs.readFileSync(path.join(folder, f), 'utf8'));
    const cancelEml = files.find((f) => f.includes('Message-ID: <c@test>'))!;
    const moveEml = files.find((f) => f.includes('Message-ID: <m@test>'))!;
    expect(cancelEml).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/);
    expect(moveEml).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
    expect(cancelled.ics).toContain(`UID:${invitationUid(base.reference)}`);
    expect(moved.ics).toContain(`UID:${invitationUid(base.reference)}`);
    expect(cancelled.ics).toContain('SEQUENCE:2');
    expect(cancelled.ics).toContain('STATUS:CANCELLED');
    // Visitor text stays text in HTML.
    expect(cancelled.html).not.toContain('<b>Aina</b>');
    expect(moved.html).toContain('Nur &lt;b&gt;Aina&lt;/b&gt;');
    expect(moved.text).toContain('Previously: Sunday, 6 January 2030, 10:00 AM – 10:30 AM (GMT+8)');
  });
});
