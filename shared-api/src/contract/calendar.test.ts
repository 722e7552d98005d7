import MessageFormat from '@messageformat/core';
import { parse } from '@messageformat/parser';
import {
  buildFeed,
  buildInvitation,
  googleCalendarUrl,
  invitationUid,
  visitDescription,
  visitPlace,
  visitTitle,
  whatToBring,
  WHAT_TO_BRING_IDS,
  type FeedEvent,
  type VisitTranslate,
} from './calendar';
import type { Locale } from './locale';
import en from './locales/en.json';
import ms from './locales/ms.json';
import zh from './locales/zh.json';
import { WHAT_TO_BRING } from './what-to-bring';

const catalogs: Record<Locale, Record<string, string>> = { en, ms, zh };

/** A catalogue compiled as the browser build compiles it (scripts/i18n/catalog-loader.cjs): a function per text. */
const compiled = (locale: Locale) => {
  const mf = new MessageFormat(locale, { currency: 'MYR' });
  return Object.fromEntries(Object.entries(catalogs[locale]).map(([id, text]) => [id, mf.compile(text)]));
};

/** The catalogue's texts in `locale`, rendered by the message library (as the browser's `t` does). */
function translatorFor(locale: Locale): VisitTranslate {
  const messages = compiled(locale);
  return (id, values) => messages[id](values) as string;
}

const unfold = (ics: string) => ics.replace(/\r\n /g, '');
const invitation = (locale?: Locale) =>
  unfold(
    buildInvitation({
      uid: 'PAY-1@seri-ilmu',
      start: new Date('2026-11-23T01:30:00Z'),
      end: new Date('2026-11-23T02:00:00Z'),
      school: 'Seri Ilmu International',
      reference: 'PAY-1',
      visitorName: 'Aisyah',
      now: new Date('2026-11-22T00:00:00Z'),
      ...(locale ? { locale, translate: translatorFor(locale) } : {}),
    }),
  );

describe('the shared catalogue (what to bring, calendar texts)', () => {
  it('has the same ids in every language and no placeholder the English lacks', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();
    for (const locale of ['ms', 'zh'] as const) {
      expect(Object.keys(catalogs[locale]).sort()).toEqual(Object.keys(en).sort());
      for (const [id, text] of Object.entries(catalogs[locale])) expect([id, placeholders(text)]).toEqual([id, placeholders(en[id as keyof typeof en])]);
    }
  });

  it('uses plain placeholders only (the builders render English without a message compiler)', () => {
    for (const catalog of Object.values(catalogs))
      for (const text of Object.values(catalog)) {
        const plain = parse(text).every((token) => token.type === 'content' || token.type === 'argument');
        expect([text, plain]).toEqual([text, true]);
      }
  });

  it("keeps WHAT_TO_BRING's English as the source of the what-to-bring items", () => {
    expect(WHAT_TO_BRING_IDS.map((id) => en[id])).toEqual([...WHAT_TO_BRING]);
    expect(whatToBring()).toEqual([...WHAT_TO_BRING]);
  });

  it('renders English without a translator exactly as the message library does, and as before', () => {
    const library = translatorFor('en');
    expect(visitTitle('Seri Ilmu International')).toBe('Assessment visit: Seri Ilmu International');
    expect(visitTitle('Seri Ilmu International', { locale: 'en', translate: library })).toBe('Assessment visit: Seri Ilmu International');
    const before =
      'Assessment visit for Aisyah. Payment reference PAY-1. Please bring: Parent/guardian ID, ' +
      "Student's birth certificate, Immunization records, Previous academic records. Registration form: https://forms.seriilmu.edu.my/registration";
    expect(visitDescription('PAY-1', 'Aisyah')).toBe(before);
    expect(visitDescription('PAY-1', 'Aisyah', { locale: 'en', translate: library })).toBe(before);
    expect(visitDescription()).toBe(
      "Assessment visit. Please bring: Parent/guardian ID, Student's birth certificate, Immunization records, Previous academic records. " +
        'Registration form: https://forms.seriilmu.edu.my/registration',
    );
  });

  it('renders the English builders from the browser build’s compiled catalogue too', () => {
    // The build compiles en.json into a function per message (messageformat); the same module then calls them instead of reading texts.
    jest.isolateModules(() => {
      jest.doMock('./locales/en.json', () => compiled('en'));
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module with the mocked catalogue
      const fresh = require('./calendar') as typeof import('./calendar');
      expect(fresh.visitTitle('Seri Ilmu Private Primary')).toBe('Assessment visit: Seri Ilmu Private Primary');
      expect(fresh.visitDescription('PAY-9')).toBe(visitDescription('PAY-9'));
    });
  });
});

describe('the calendar invitation in each language', () => {
  it('is the English one it always was without a language, with the place of issue 24 (address, school phone)', () => {
    const ics = invitation();
    expect(ics).toContain('SUMMARY:Assessment visit: Seri Ilmu International\r\n');
    expect(ics).toContain('LOCATION:Seri Ilmu International\\, 3 Persiaran Anggerik Vanilla\\, Kota Kemuning\\, 40460 Shah Alam\\, Selangor\r\n');
    expect(ics).toContain(
      "DESCRIPTION:Assessment visit for Aisyah. Payment reference PAY-1. Please bring: Parent/guardian ID\\, Student's birth certificate\\, " +
        'Immunization records\\, Previous academic records. School office: 03-5122 8800. Registration form: https://forms.seriilmu.edu.my/registration\r\n',
    );
    expect(invitation('en')).toBe(ics);
  });

  it('speaks Bahasa Melayu, with the school’s Malay name', () => {
    const ics = invitation('ms');
    expect(ics).toContain('SUMMARY:Lawatan penilaian: Sekolah Antarabangsa Seri Ilmu\r\n');
    expect(ics).toContain('LOCATION:Sekolah Antarabangsa Seri Ilmu\\, 3 Persiaran Anggerik Vanilla\\, Kota Kemuning\\, 40460 Shah Alam\\, Selangor\r\n');
    expect(ics).toContain(
      'DESCRIPTION:Lawatan penilaian untuk Aisyah. Nombor rujukan bayaran: PAY-1. Sila bawa: Kad pengenalan ibu bapa/penjaga\\, ' +
        'Sijil kelahiran pelajar\\, Rekod imunisasi\\, Rekod akademik terdahulu. Pejabat sekolah: 03-5122 8800. Borang pendaftaran: https://forms.seriilmu.edu.my/registration\r\n',
    );
    expect(ics).toContain('DTSTART;TZID=Asia/Singapore:20261123T093000');
  });

  it('speaks Chinese, with the enumeration comma and no spaces between sentences', () => {
    const ics = invitation('zh');
    expect(ics).toContain('SUMMARY:入学评估：Seri Ilmu 国际学校\r\n');
    expect(ics).toContain(
      'DESCRIPTION:Aisyah的入学评估。付款参考编号：PAY-1。请携带：家长/监护人身份证件、学生出生证明、疫苗接种记录、以往的学业成绩记录。' +
        '学校办公室电话：03-5122 8800。报名表：https://forms.seriilmu.edu.my/registration\r\n',
    );
    // The school's name and its address: a full-width comma between them.
    expect(ics).toContain('LOCATION:Seri Ilmu 国际学校，3 Persiaran Anggerik Vanilla\\, Kota Kemuning\\, 40460 Shah Alam\\, Selangor\r\n');
    // Folded at 75 octets without splitting a Chinese character.
    const folded = buildInvitation({ uid: 'u', start: new Date(0), end: new Date(1), school: 'Seri Ilmu International', locale: 'zh', translate: translatorFor('zh') });
    expect(folded.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  });
});

describe('one visit, one place and one event id for the mail, the pages and the staff feed (issue 24)', () => {
  const visit = { school: 'Seri Ilmu Private Primary', start: new Date('2026-11-23T01:30:00Z'), end: new Date('2026-11-23T02:00:00Z'), reference: 'PAY-1' };

  it("names the school and its address, or the name alone for a school the group does not have", () => {
    expect(visitPlace('Seri Ilmu Private Primary')).toBe('Seri Ilmu Private Primary, 12 Jalan SS 21/37, Damansara Utama, 47400 Petaling Jaya, Selangor');
    expect(visitPlace('Seri Ilmu Private Primary', 'ms')).toBe('Sekolah Rendah Swasta Seri Ilmu, 12 Jalan SS 21/37, Damansara Utama, 47400 Petaling Jaya, Selangor');
    expect(visitPlace('Demo School')).toBe('Demo School');
  });

  it('gives the Google Calendar link the invitation’s title, place, description and GMT+8 times', () => {
    const url = new URL(googleCalendarUrl(visit, { locale: 'ms', translate: translatorFor('ms') }));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Lawatan penilaian: Sekolah Rendah Swasta Seri Ilmu',
      dates: '20261123T013000Z/20261123T020000Z',
      details: visitDescription('PAY-1', undefined, { locale: 'ms', translate: translatorFor('ms') }, visit.school),
      location: visitPlace(visit.school, 'ms'),
      ctz: 'Asia/Singapore',
    });
  });

  it("uses the mail's UID for a booking wherever its invitation is built", () => {
    expect(invitationUid('PAY-1')).toBe('PAY-1@seriilmu.edu.my');
    expect(buildInvitation({ ...visit, uid: invitationUid('PAY-1') })).toContain('UID:PAY-1@seriilmu.edu.my\r\n');
  });

  it("titles a staff feed event with the child and the year, and lists them in its description", () => {
    const event: FeedEvent = {
      ...visit,
      uid: invitationUid('PAY-1'),
      visitorName: 'Aisyah Rahman',
      visitorEmail: 'aisyah@example.com',
      visitorContactNo: '0123456789',
      childName: 'Nur Iman',
      childYear: 'Year 2',
      reference: 'PAY-1',
      sequence: 0,
      cancelled: false,
    };
    const feed = unfold(buildFeed([event, { ...event, uid: 'old', childName: null, childYear: null }], new Date(0)));
    expect(feed).toContain('SUMMARY:Assessment: Nur Iman\\, Year 2 (Seri Ilmu Private Primary)\r\n');
    expect(feed).toContain('DESCRIPTION:Visitor: Aisyah Rahman\\nChild: Nur Iman\\nYear or grade applied for: Year 2\\nSchool: Seri Ilmu Private Primary\\n');
    expect(feed).toContain('LOCATION:Seri Ilmu Private Primary\\, 12 Jalan SS 21/37\\, Damansara Utama\\, 47400 Petaling Jaya\\, Selangor\r\n');
    // A booking made before the child was asked for is titled with the visitor.
    expect(feed).toContain('SUMMARY:Assessment: Aisyah Rahman (Seri Ilmu Private Primary)\r\n');
  });
});
