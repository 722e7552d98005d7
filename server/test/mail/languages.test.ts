// The parent's mails in Bahasa Melayu and Chinese (issue 14), and English exactly as it always was.
import fs from 'node:fs';
import path from 'node:path';
import { changeTerms, HTML_LANG } from 'shared-api/contract';
import { mailLanguage } from '../../src/mail/i18n';
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
import type { RenderedMail } from '../../src/mail/frame';

const base = {
  paymentId: 'pay_1',
  reference: 'PAY-ABC',
  amountSen: 7550,
  method: 'fpx',
  start: new Date('2026-11-23T01:30:00Z'),
  end: new Date('2026-11-23T02:00:00Z'),
  school: 'Seri Ilmu Private Secondary',
  visitorName: "Tan <Wei> O'Neil & co",
  visitorEmail: 'tan@example.com',
  visitorContactNo: '0123456789',
  // A booking made before the child was asked for (issue 24): the recorded English has no child rows.
  childName: null,
  childYear: null,
};
const fromStart = new Date('2026-11-21T06:00:00Z');
const fromEnd = new Date('2026-11-21T06:30:00Z');
// Written a week before the visit: the full refund and changes are still open.
const writtenAt = new Date('2026-11-16T01:00:00Z');
const terms = changeTerms({ start: base.start, now: writtenAt });
// Moved from the 21st to the 23rd: the refund stays measured from the 21st.
const movedTerms = changeTerms({ start: base.start, refundFrom: fromStart, now: writtenAt });
const bookingSiteUrl = 'https://s/';
const unfold = (ics: string | null) => (ics ?? '').replace(/\r\n /g, '');
const withoutStamp = (m: RenderedMail) => ({ ...m, ics: m.ics ? m.ics.replace(/DTSTAMP:\S+/, 'DTSTAMP:X') : m.ics });

/**
 * Every English message the server writes, for the inputs the fixture was recorded with (before issue 14; since issue 24
 * the confirmation and the move say the refund and change terms, and the cancel links to the booking page).
 */
function englishMails(): Record<string, Omit<RenderedMail, 'locale'>> {
  const out: Record<string, RenderedMail> = {
    conf: renderVisitorConfirmation(base, 'org@x.y'),
    confManage: renderVisitorConfirmation({ ...base, manageUrl: 'https://s/manage?t=a&b', terms }, 'org@x.y'),
    adminNew: renderAdminNotification(base),
  };
  for (const cause of ['slot_taken', 'cancelled', 'amount_mismatch'] as const) {
    out[`refund-${cause}`] = renderVisitorRefund({ ...base, expectedSen: 7500, cause, bookingSiteUrl: 'https://s/' });
    out[`adminRefund-${cause}`] = renderAdminRefund({ ...base, expectedSen: 7500, cause, bookingSiteUrl: 'https://s/' });
  }
  const moved = { ...base, fromStart, fromEnd, sequence: 2, manageUrl: 'https://s/m?x', terms: movedTerms };
  out.moved = renderVisitorRescheduled(moved, 'org@x.y');
  out.adminMoved = renderAdminRescheduled(moved);
  for (const by of ['parent', 'staff@x.y'])
    for (const refundSen of [0, 3775]) {
      const c = { ...base, refundSen, by, sequence: 3, bookingSiteUrl };
      out[`cancel-${by}-${refundSen}`] = renderVisitorCancelled(c, 'org@x.y');
      out[`adminCancel-${by}-${refundSen}`] = renderAdminCancelled(c);
    }
  for (const [n, now] of [['today', '2026-11-22T20:00:00Z'], ['tomorrow', '2026-11-22T01:00:00Z'], ['3days', '2026-11-20T01:00:00Z']] as const)
    for (const cutoffHours of [1, 24])
      out[`reminder-${n}-${cutoffHours}`] = renderVisitorReminder({ ...reminderOf(), cutoffHours, now: new Date(now) });
  return Object.fromEntries(Object.entries(out).map(([k, m]) => [k, (({ locale: _, ...rest }) => rest)(withoutStamp(m))]));
}

function reminderOf(locale?: 'en' | 'ms' | 'zh') {
  return {
    reference: 'PAY-ABC',
    start: base.start,
    end: base.end,
    school: base.school,
    visitorName: base.visitorName,
    childName: null,
    childYear: null,
    manageUrl: 'https://s/m?a&b',
    cutoffHours: 24,
    now: new Date('2026-11-22T01:00:00Z'),
    ...(locale ? { locale } : {}),
  };
}

describe('English mails', () => {
  // Recorded before the mails had languages (issue 14), then again when issue 24 added where the visit is (the school's
  // address, map and phone; the invitation's LOCATION) to the confirmation, move and reminder and the admin's messages,
  // once more when the admin's messages wrote the contact number as the staff desk does (012-345 6789), and when the
  // HTML fitted a phone (the manage link a button, labels that do not wrap, details stacked on a narrow screen).
  it('are byte for byte the recorded English (subject, text, HTML and invitation)', () => {
    const recorded = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'english-mails.json'), 'utf8'));
    expect(englishMails()).toEqual(recorded);
  });

  it('say they are English; the admin messages name no language (no Content-Language)', () => {
    expect(renderVisitorConfirmation(base, 'o@x.y').locale).toBe('en');
    expect(renderVisitorConfirmation({ ...base, locale: 'ms' }, 'o@x.y').html).toContain('<html lang="ms">');
    expect(renderAdminNotification({ ...base, locale: 'ms' }).locale).toBeUndefined();
  });

  it('go to the admin in English even when the parent booked in Malay or Chinese', () => {
    for (const locale of ['ms', 'zh'] as const) {
      expect(renderAdminNotification({ ...base, locale }).subject).toBe('New booking: Tan <Wei> O\'Neil & co, Seri Ilmu Private Secondary, Monday, 23 November 2026 at 9:30 AM');
      expect(renderAdminCancelled({ ...base, locale, refundSen: 0, by: 'parent', sequence: 1, bookingSiteUrl }).text).toContain('School: Seri Ilmu Private Secondary\nDate: Monday, 23 November 2026');
    }
  });
});

describe('mails in Bahasa Melayu', () => {
  const ms = { ...base, locale: 'ms' as const };

  it('confirmation: subject, greeting, Malay date and time, RM amount, what to bring, invitation', () => {
    const m = renderVisitorConfirmation({ ...ms, manageUrl: 'https://s/manage/t' }, 'org@x.y');
    expect(m.locale).toBe('ms');
    expect(m.subject).toBe('Tempahan disahkan: Sekolah Menengah Swasta Seri Ilmu, Isnin, 23 November 2026 pukul 9:30 pagi (GMT+8)');
    expect(m.text).toContain("Salam sejahtera Tan <Wei> O'Neil & co,");
    expect(m.text).toContain('Lawatan penilaian anda telah disahkan dan bayaran anda telah diterima.');
    expect(m.text).toContain('Tarikh: Isnin, 23 November 2026\nMasa: 9:30 pagi – 10:00 pagi (GMT+8)\nJumlah dibayar: RM75.50');
    expect(m.text).toContain('Perkara yang perlu dibawa:\n- Kad pengenalan ibu bapa/penjaga\n- Sijil kelahiran pelajar');
    expect(m.text).toContain('Tukar tarikh dan pembatalan boleh dibuat sehingga 24 jam sebelum lawatan.');
    expect(m.html).toContain('<html lang="ms">');
    expect(m.html).toContain('<p>Salam sejahtera Tan &lt;Wei&gt; O&#39;Neil &amp; co,</p>');
    expect(m.html).toContain('<p><strong>Sila isi <a href="https://forms.seriilmu.edu.my/registration">borang pendaftaran</a> sebelum penilaian.</strong></p>');
    expect(m.html).toContain('Ada pertanyaan? Sila e-mel <a href="mailto:admissions@seriilmu.edu.my">admissions@seriilmu.edu.my</a>.');
    expect(unfold(m.ics)).toContain('SUMMARY:Lawatan penilaian: Sekolah Menengah Swasta Seri Ilmu\r\n');
    expect(unfold(m.ics)).toContain('DESCRIPTION:Lawatan penilaian untuk Tan <Wei> O\'Neil & co. Nombor rujukan bayaran: PAY-ABC. Sila bawa: Kad pengenalan');
  });

  it('refund (paid but not booked): the cause with both amounts, and the full refund', () => {
    const m = renderVisitorRefund({ ...ms, expectedSen: 7500, cause: 'amount_mismatch', bookingSiteUrl: 'https://s/' });
    expect(m.subject).toBe('Tempahan anda tidak dapat diselesaikan: bayaran balik RM75.50');
    expect(m.text).toContain('Jumlah yang diterima (RM75.50) tidak sepadan dengan yuran lawatan ini (RM75), jadi slot itu tidak ditempah.');
    expect(m.text).toContain('Bayaran balik penuh sebanyak RM75.50 sedang dibuat');
    expect(m.text).toContain('Tarikh: Isnin, 23 November 2026');
    expect(m.html).toContain('Anda dialu-alukan untuk memilih masa lain di <a href="https://s/">halaman tempahan</a>.');
  });

  it('moved: the new and the previous time in Malay, with an updated invitation', () => {
    const m = renderVisitorRescheduled({ ...ms, fromStart, fromEnd, sequence: 1, manageUrl: 'https://s/m' }, 'o@x.y');
    expect(m.subject).toBe('Tarikh tempahan ditukar: Sekolah Menengah Swasta Seri Ilmu, Isnin, 23 November 2026 pukul 9:30 pagi (GMT+8)');
    expect(m.text).toContain('Lawatan penilaian anda telah ditukar ke Isnin, 23 November 2026, 9:30 pagi – 10:00 pagi (GMT+8). Yuran yang anda bayar kekal sama.');
    expect(m.text).toContain('Sebelum ini: Sabtu, 21 November 2026, 2:00 petang – 2:30 petang (GMT+8)');
    expect(m.text).toContain('Jumlah dibayar: RM75.50');
    expect(unfold(m.ics)).toContain('SEQUENCE:1');
  });

  it('cancelled: by the parent with a refund, by the school without one', () => {
    const refunded = renderVisitorCancelled({ ...ms, refundSen: 3775, by: 'parent', sequence: 2, bookingSiteUrl }, 'o@x.y');
    expect(refunded.subject).toBe('Tempahan dibatalkan: Sekolah Menengah Swasta Seri Ilmu, Isnin, 23 November 2026 pukul 9:30 pagi (GMT+8)');
    expect(refunded.text).toContain('Lawatan penilaian anda telah dibatalkan seperti yang anda minta.\nBayaran balik sebanyak RM37.75 sedang dibuat');
    expect(refunded.text).toContain('Bayaran balik: RM37.75');
    const none = renderVisitorCancelled({ ...ms, refundSen: 0, by: 'staff@x.y', sequence: 2, bookingSiteUrl }, 'o@x.y');
    expect(none.text).toContain('Lawatan penilaian anda telah dibatalkan oleh pihak sekolah.\nTiada bayaran balik di bawah polisi pembatalan.');
    expect(none.text).toContain('Bayaran balik: Tiada');
    expect(unfold(none.ics)).toContain('STATUS:CANCELLED');
  });

  it('reminder: "esok", "hari ini" and "dalam N hari lagi", and the cutoff in hours', () => {
    const tomorrow = renderVisitorReminder(reminderOf('ms'));
    expect(tomorrow.subject).toBe('Peringatan: lawatan penilaian esok, Isnin, 23 November 2026 pukul 9:30 pagi (GMT+8)');
    expect(tomorrow.text).toContain('Ini ialah peringatan tentang lawatan penilaian anda esok.');
    expect(tomorrow.text).toContain('Lihat, tukar tarikh atau batalkan tempahan anda (boleh dibuat sehingga 24 jam sebelum lawatan): https://s/m?a&b');
    expect(tomorrow.html).toContain('<p><a href="https://s/m?a&amp;b">Lihat, tukar tarikh atau batalkan tempahan anda</a> (boleh dibuat sehingga 24 jam sebelum lawatan).</p>');
    expect(renderVisitorReminder({ ...reminderOf('ms'), now: new Date('2026-11-22T20:00:00Z') }).subject).toContain('lawatan penilaian hari ini,');
    expect(renderVisitorReminder({ ...reminderOf('ms'), now: new Date('2026-11-20T01:00:00Z') }).subject).toContain('lawatan penilaian dalam 3 hari lagi,');
  });
});

describe('mails in Chinese', () => {
  const zh = { ...base, locale: 'zh' as const };

  it('confirmation: subject, greeting, Chinese date and time, RM amount, what to bring, invitation', () => {
    const m = renderVisitorConfirmation(zh, 'org@x.y');
    expect(m.locale).toBe('zh');
    expect(m.subject).toBe('预约已确认：Seri Ilmu 私立中学，2026年11月23日 星期一 上午9:30（GMT+8）');
    expect(m.text).toContain("Tan <Wei> O'Neil & co，您好：");
    expect(m.text).toContain('您的入学评估预约已确认，我们已收到您的付款。');
    expect(m.text).toContain('日期：2026年11月23日 星期一\n时间：上午9:30 – 上午10:00（GMT+8）\n已付金额：RM75.50');
    expect(m.text).toContain('请携带以下物品：\n- 家长/监护人身份证件');
    expect(m.html).toContain(`<html lang="${HTML_LANG.zh}">`);
    // Sentences in one paragraph run on without a space.
    expect(m.html).toContain('<p>随附日历邀请。如有疑问，请发送电子邮件至<a href="mailto:admissions@seriilmu.edu.my">admissions@seriilmu.edu.my</a>。</p>');
    expect(unfold(m.ics)).toContain('SUMMARY:入学评估：Seri Ilmu 私立中学\r\n');
    expect(unfold(m.ics)).toContain('请携带：家长/监护人身份证件、学生出生证明、疫苗接种记录、以往的学业成绩记录。');
  });

  it('refund (paid but not booked)', () => {
    const m = renderVisitorRefund({ ...zh, expectedSen: 7500, cause: 'slot_taken', bookingSiteUrl: 'https://s/' });
    expect(m.subject).toBe('您的预约未能完成：退款RM75.50');
    expect(m.text).toContain('我们收到您的付款时，该时段已无法预约，因此预约未能完成。');
    expect(m.text).toContain('RM75.50将全额退还至您付款时使用的支付方式。');
    expect(m.html).toContain('<p>感谢您的付款，我们深表歉意。我们收到您的付款时');
  });

  it('moved and cancelled', () => {
    const moved = renderVisitorRescheduled({ ...zh, fromStart, fromEnd, sequence: 1, manageUrl: 'https://s/m' }, 'o@x.y');
    expect(moved.subject).toBe('预约已改期：Seri Ilmu 私立中学，2026年11月23日 星期一 上午9:30（GMT+8）');
    expect(moved.text).toContain('您的入学评估已改期至2026年11月23日 星期一 上午9:30 – 上午10:00（GMT+8）。您已支付的费用不变。');
    expect(moved.text).toContain('原定时间：2026年11月21日 星期六 下午2:00 – 下午2:30（GMT+8）');
    const cancelled = renderVisitorCancelled({ ...zh, refundSen: 7550, by: 'parent', sequence: 2, bookingSiteUrl }, 'o@x.y');
    expect(cancelled.subject).toBe('预约已取消：Seri Ilmu 私立中学，2026年11月23日 星期一 上午9:30（GMT+8）');
    expect(cancelled.text).toContain('您的入学评估已按您的要求取消。\nRM75.50将退还至您付款时使用的支付方式。');
    expect(renderVisitorCancelled({ ...zh, refundSen: 0, by: 'staff@x.y', sequence: 2, bookingSiteUrl }, 'o@x.y').text).toContain('退款：无');
  });

  it('reminder: 明天, 今天 and N天后', () => {
    const m = renderVisitorReminder(reminderOf('zh'));
    expect(m.subject).toBe('提醒：入学评估就在明天，2026年11月23日 星期一 上午9:30（GMT+8）');
    expect(m.text).toContain('温馨提醒：您的入学评估就在明天。');
    expect(m.text).toContain('查看、改期或取消您的预约（最迟可在评估开始前24小时办理）：https://s/m?a&b');
    expect(m.html).toContain('<h1 style="font-size:20px;margin:0 0 12px;">您的评估就在明天</h1>');
    expect(renderVisitorReminder({ ...reminderOf('zh'), now: new Date('2026-11-22T20:00:00Z') }).subject).toContain('入学评估就在今天，');
    expect(renderVisitorReminder({ ...reminderOf('zh'), now: new Date('2026-11-20T01:00:00Z') }).text).toContain('您的入学评估将在3天后进行。');
  });
});

describe('the child and the place (issue 24)', () => {
  const child = { ...base, childName: 'Adam <b>Tan</b>', childYear: 'Form 2' };

  it.each([
    ['en', 'Child: Adam <b>Tan</b>\nYear or grade applied for: Form 2', 'Address: 8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala Lumpur', 'School phone: 03-2094 7300'],
    ['ms', 'Anak: Adam <b>Tan</b>\nTahun atau tingkatan dipohon: Tingkatan 2', 'Alamat: 8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala Lumpur', 'Telefon sekolah: 03-2094 7300'],
    ['zh', '孩子：Adam <b>Tan</b>\n申请就读年级：中二', '地址：8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala Lumpur', '学校电话：03-2094 7300'],
  ] as const)('the %s confirmation names the child, the year in its language, the address, a map link and the school phone', (locale, childLines, address, phone) => {
    const m = renderVisitorConfirmation({ ...child, locale }, 'org@x.y');
    expect(m.text).toContain(childLines);
    expect(m.text).toContain(address);
    expect(m.text).toContain('https://www.google.com/maps/search/?api=1&query=8+Jalan+Setiakasih+5');
    expect(m.text).toContain(phone);
    // The HTML keeps the child's name as text and links the map and the phone.
    expect(m.html).toContain('Adam &lt;b&gt;Tan&lt;/b&gt;');
    expect(m.html).toMatch(/<a href="https:\/\/www\.google\.com\/maps\/search\/\?api=1&amp;query=8\+Jalan[^"]*">[^<]+<\/a>/);
    expect(m.html).toContain('<a href="tel:+60320947300">03-2094 7300</a>');
    // The invitation's LOCATION is the school and its address, in the parent's language.
    expect(unfold(m.ics)).toMatch(/\r\nLOCATION:[^\r]*8 Jalan Setiakasih 5\\, Bukit Damansara\\, 50490 Kuala Lumpur\r\n/);
  });

  it('the move and the reminder say where; the cancel and the refund name the child but not the place', () => {
    const moved = renderVisitorRescheduled({ ...child, fromStart, fromEnd, sequence: 1, manageUrl: 'https://s/m' }, 'o@x.y');
    expect(moved.text).toContain('Address: 8 Jalan Setiakasih 5');
    expect(moved.text).toContain('Child: Adam <b>Tan</b>');
    const reminder = renderVisitorReminder({ ...reminderOf('ms'), childName: 'Adam Tan', childYear: 'Form 2' });
    expect(reminder.text).toContain('Alamat: 8 Jalan Setiakasih 5');
    expect(reminder.text).toContain('Anak: Adam Tan\nTahun atau tingkatan dipohon: Tingkatan 2');
    const cancelled = renderVisitorCancelled({ ...child, refundSen: 0, by: 'parent', sequence: 2, bookingSiteUrl: 'https://s/' }, 'o@x.y');
    expect(cancelled.text).toContain('Child: Adam <b>Tan</b>');
    expect(cancelled.text).not.toContain('Address:');
    const refund = renderVisitorRefund({ ...child, expectedSen: 7500, cause: 'slot_taken', bookingSiteUrl: 'https://s/' });
    expect(refund.text).not.toContain('Address:');
  });

  it("the admin's messages name the child and the year (English) and the address of a visit that happens", () => {
    const m = renderAdminNotification({ ...child, locale: 'zh' });
    expect(m.text).toContain('Child: Adam <b>Tan</b>\nYear or grade applied for: Form 2');
    expect(m.text).toContain('Address: 8 Jalan Setiakasih 5, Bukit Damansara, 50490 Kuala Lumpur');
    expect(m.html).toContain('Adam &lt;b&gt;Tan&lt;/b&gt;');
    expect(renderAdminCancelled({ ...child, refundSen: 0, by: 'parent', sequence: 1, bookingSiteUrl: 'https://s/' }).text).toContain('Child: Adam <b>Tan</b>');
  });

  it('a booking made before the child was asked for has no child rows', () => {
    expect(renderVisitorConfirmation(base, 'o@x.y').text).not.toContain('Child');
  });
});

describe('the mail catalogue', () => {
  it('escapes a visitor value in HTML even when it imitates the HTML placeholders', () => {
    const html = mailLanguage('ms').html('greeting', { name: '\uE0000\uE001<script>' });
    expect(html).toBe('Salam sejahtera 0&lt;script&gt;,');
  });

  it('falls back to English for a language it does not know', () => {
    expect(mailLanguage('fr' as never).t('label.school')).toBe('School');
  });
});

describe('the refund and change terms, and the way back to the booking page (issue 24)', () => {
  it('the confirmation and the move say the terms in plain words, in the parent\'s language', () => {
    expect(renderVisitorConfirmation({ ...base, manageUrl: 'https://s/m', terms }, 'o@x.y').text).toContain(
      'To change or cancel your booking, use this link: https://s/m\nFull refund if you cancel by Saturday 21 November 2026, 9:30 AM (GMT+8); after that no refund; changes until Sunday 22 November 2026, 9:30 AM (GMT+8).',
    );
    // Moved later from the 21st: the full refund still ends 48 hours before the 21st, not before the new day.
    expect(renderVisitorRescheduled({ ...base, fromStart, fromEnd, sequence: 1, manageUrl: 'https://s/m', terms: movedTerms }, 'o@x.y').text).toContain(
      'Full refund if you cancel by Thursday 19 November 2026, 2:00 PM (GMT+8); after that no refund; changes until Sunday 22 November 2026, 9:30 AM (GMT+8).',
    );
    const ms = renderVisitorConfirmation({ ...base, locale: 'ms', manageUrl: 'https://s/m', terms }, 'o@x.y');
    expect(ms.text).toContain(
      'Bayaran balik penuh jika anda membatalkan selewat-lewatnya Sabtu, 21 November 2026, 9:30 pagi (GMT+8); selepas itu tiada bayaran balik; perubahan boleh dibuat sehingga Ahad, 22 November 2026, 9:30 pagi (GMT+8).',
    );
    expect(ms.html).toContain('<p>Bayaran balik penuh jika anda membatalkan selewat-lewatnya Sabtu');
    const zh = renderVisitorConfirmation({ ...base, locale: 'zh', manageUrl: 'https://s/m', terms }, 'o@x.y');
    expect(zh.text).toContain('在2026年11月21日 星期六 上午9:30（GMT+8）前取消可获全额退款；此后取消不予退款；2026年11月22日 星期日 上午9:30（GMT+8）前可改期或取消。');
  });

  it('the cancel mail links to the booking page in every language', () => {
    const cancelled = (locale: 'en' | 'ms' | 'zh') => renderVisitorCancelled({ ...base, locale, refundSen: 0, by: 'parent', sequence: 2, bookingSiteUrl }, 'o@x.y');
    expect(cancelled('en').text).toContain('You are welcome to choose another time on the booking page: https://s/');
    expect(cancelled('en').html).toContain('<p>You are welcome to choose another time on the <a href="https://s/">booking page</a>.</p>');
    expect(cancelled('ms').html).toContain('Anda dialu-alukan untuk memilih masa lain di <a href="https://s/">halaman tempahan</a>.');
    expect(cancelled('zh').html).toContain('欢迎您在<a href="https://s/">预约页面</a>另选时间。');
  });
});
