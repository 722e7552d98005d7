import brandConfig from '../../../brand.config.json';
import { LOCALES } from './locale';
import { currentNoticeVersion, NOTICE_FIELDS, noticeOfVersion, noticeVersions, privacyNotice } from './privacy-notice';

// Issue 28: the privacy notice lives in brand.config.json (per school group), versioned, every version kept, complete
// in English, Bahasa Melayu and 中文.
describe('the privacy notice in configuration', () => {
  it('names a current version that is among the versions kept, each version once', () => {
    expect(currentNoticeVersion()).toBe(brandConfig.privacyNotice.current);
    expect(privacyNotice.version).toBe(brandConfig.privacyNotice.current);
    const versions = noticeVersions.map((n) => n.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect(noticeOfVersion('legacy')).toBeUndefined();
    // The first notice parents consented to (issue 28's first release) is still there to be read.
    expect(noticeOfVersion('2026-11-25')?.texts.ms.title).toBe('Notis privasi');
  });

  it.each(noticeVersions.map((n) => [n.version, n] as const))('version %s is complete in every language, each field with its purpose', (_v, notice) => {
    expect(notice.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sectionCounts = LOCALES.map((l) => notice.texts[l].sections.length);
    expect(new Set(sectionCounts).size).toBe(1);
    for (const locale of LOCALES) {
      const text = notice.texts[locale];
      expect(text.title.trim()).not.toBe('');
      for (const s of text.sections) expect([s.heading.trim().length > 0, s.body.trim().length > 20]).toEqual([true, true]);
      for (const field of NOTICE_FIELDS) expect(text.fields[field]?.trim().length).toBeGreaterThan(5);
      expect(JSON.stringify(text)).not.toMatch(/lorem|TODO|placeholder|XXX/i);
    }
  });

  it('the notice in force says who collects, what, why, how long, who it is shared with, the rights and the contact, in each language', () => {
    const all = (l: (typeof LOCALES)[number]) => privacyNotice.texts[l].sections.map((s) => s.body).join(' ');
    // Who is shared with: the payment gateway and the mail provider; how long: the retention periods; the contact.
    for (const [locale, words] of [
      ['en', ['payment gateway', 'email provider', '7 years', '6 months', '90 days', '21 days', 'correct', 'under 18', 'Personal Data Protection Act 2010']],
      ['ms', ['gerbang pembayaran', 'penyedia e-mel', '7 tahun', '6 bulan', '90 hari', '21 hari', 'membetulkannya', 'bawah 18', 'Akta Perlindungan Data Peribadi 2010']],
      ['zh', ['支付网关', '电子邮件服务商', '7年', '6个月', '90天', '21天', '更正', '未满18岁', '个人资料保护法']],
    ] as const) {
      for (const word of words) expect(all(locale)).toContain(word);
      expect(all(locale)).toContain(brandConfig.supportEmail);
      for (const details of Object.values(brandConfig.schoolDetails)) expect(all(locale)).toContain(details.phone);
    }
  });
});
