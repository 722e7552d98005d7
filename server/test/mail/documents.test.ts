// Issue 40: the confirmation's what-to-bring is the visit's checklist per child, with the upload link (the manage
// link); the reminder's is what is still missing, or that all is in (server/test/reminders/documents.test.ts runs it).
import { documentsSettings, requiredDocumentKinds } from 'shared-api/contract';
import { renderVisitorReminder } from '../../src/mail/reminder';
import { renderVisitorConfirmation, type MailChild } from '../../src/mail/templates';

const booking = {
  paymentId: 'pay_1',
  reference: 'PAY-DOC',
  amountSen: 7500,
  method: 'fpx',
  start: new Date('2026-11-23T01:30:00Z'),
  end: new Date('2026-11-23T02:00:00Z'),
  school: 'Seri Ilmu Private Secondary',
  visitorName: 'Nur Aina',
  visitorEmail: 'aina@example.com',
  visitorContactNo: '0123456789',
  childName: 'Adam Firdaus',
  childYear: 'Form 1',
  manageUrl: 'https://s/booking/manage/tok',
};
const adam: MailChild = { childName: 'Adam Firdaus', childYear: 'Form 1', school: 'Seri Ilmu Private Secondary', amountSen: 7500 };
const siti: MailChild = { childName: 'Siti Hajar', childYear: 'Year 1', school: 'Seri Ilmu Private Primary', amountSen: 4500 };
const ALL = "- Parent/guardian ID\n- Student's birth certificate\n- Immunization records\n- Previous academic records";

describe('the confirmation', () => {
  it('lists each document to upload or bring, and the link to upload them ahead', () => {
    // The shipped brand.config.json asks every school for all four.
    expect(requiredDocumentKinds(booking.school)).toHaveLength(4);
    const mail = renderVisitorConfirmation(booking, 'org@x.y');
    expect(mail.text).toContain(
      `What to bring:\n${ALL}\nUpload a photo or PDF of each document on your booking page before the visit, so the school can check it ahead, or bring the papers on the day: ${booking.manageUrl}`,
    );
    expect(mail.html).toContain(`<p><a href="${booking.manageUrl}">Upload a photo or PDF of each document</a> on your booking page before the visit`);
  });

  it('several children: a list under each name', () => {
    const mail = renderVisitorConfirmation({ ...booking, children: [adam, siti] }, 'org@x.y');
    expect(mail.text).toContain(`What to bring:\nAdam Firdaus:\n${ALL}\nSiti Hajar:\n${ALL}\nUpload a photo or PDF`);
    expect(mail.html).toContain('<p style="margin:8px 0 0;"><strong>Siti Hajar:</strong></p><ul><li>Parent/guardian ID</li>');
  });

  it('in Malay and Chinese', () => {
    expect(renderVisitorConfirmation({ ...booking, locale: 'ms' }, 'o@x.y').text).toContain(
      `Rekod akademik terdahulu\nMuat naik foto atau PDF setiap dokumen di halaman tempahan anda sebelum lawatan supaya sekolah dapat menyemaknya lebih awal, atau bawa salinan kertas pada hari lawatan: ${booking.manageUrl}`,
    );
    const zh = renderVisitorConfirmation({ ...booking, locale: 'zh', children: [adam, siti] }, 'o@x.y');
    expect(zh.text).toContain('请携带以下物品：\nAdam Firdaus：\n- 家长/监护人身份证件');
    expect(zh.text).toContain(`请在到访前于预约页面上传每份文件的照片或PDF，方便学校提前查看；也可以在当天携带纸本：${booking.manageUrl}`);
  });

  it('a school that asks for fewer documents: the others are said not needed', () => {
    // As brand.config.json's `documents.requiredBySchool` would say it, for this test only.
    documentsSettings.requiredBySchool['Seri Ilmu Private Primary'] = ['guardianId', 'birthCertificate'];
    try {
      const mail = renderVisitorConfirmation({ ...booking, children: [adam, siti] }, 'org@x.y');
      expect(mail.text).toContain(
        `Siti Hajar:\n- Parent/guardian ID\n- Student's birth certificate\n- Immunization records: Not needed\n- Previous academic records: Not needed\nUpload a photo`,
      );
      expect(renderVisitorConfirmation({ ...booking, locale: 'ms', children: [siti] }, 'o@x.y').text).toContain('- Rekod imunisasi: Tidak diperlukan');
    } finally {
      delete documentsSettings.requiredBySchool['Seri Ilmu Private Primary'];
    }
  });
});

describe('the reminder', () => {
  const reminder = {
    reference: 'PAY-DOC',
    start: booking.start,
    end: booking.end,
    school: booking.school,
    visitorName: 'Nur Aina',
    childName: 'Adam Firdaus',
    childYear: 'Form 1',
    manageUrl: booking.manageUrl,
    cutoffHours: 24,
    now: new Date('2026-11-22T01:00:00Z'),
  };

  it('several children: what each still misses under their name, a child with all in left out', () => {
    const mail = renderVisitorReminder({
      ...reminder,
      children: [adam, siti],
      documents: [
        { name: 'Adam Firdaus', missing: [] },
        { name: 'Siti Hajar', missing: ['immunisation'] },
      ],
    });
    expect(mail.text).toContain(`Documents still to upload or bring:\nSiti Hajar:\n- Immunization records\nUpload them on your booking page before the visit, or bring the papers: ${booking.manageUrl}`);
    expect(mail.text).not.toContain('Adam Firdaus:\n');
  });

  it('says all is in; without the documents known it lists what to bring as before', () => {
    expect(renderVisitorReminder({ ...reminder, documents: [{ name: 'Adam Firdaus', missing: [] }] }).text).toContain('The school has all the documents it asked for. Thank you.');
    expect(renderVisitorReminder({ ...reminder, locale: 'zh', documents: [{ name: 'Adam Firdaus', missing: [] }] }).text).toContain('学校已收到所需的全部文件。谢谢。');
    expect(renderVisitorReminder(reminder).text).toContain(`What to bring:\n${ALL}`);
  });
});
