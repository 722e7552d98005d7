import MessageFormat from '@messageformat/core';
import {
  formatInMY,
  formatRM,
  LOCALES,
  registerDateWords,
  MALAY_DATE_NAMES,
  CHINESE_DATE_NAMES,
  schoolName,
  schoolYearName,
  type Locale,
  type VisitLanguage,
  type VisitTextId,
} from 'shared-api/contract';
import visitEn from 'shared-api/locales/en.json';
import visitMs from 'shared-api/locales/ms.json';
import visitZh from 'shared-api/locales/zh.json';
import { escapeHtml as h, formatDateMY, formatTimeMY } from './format';
import en from './locales/en.json';
import ms from './locales/ms.json';
import zh from './locales/zh.json';

// The parent's mails in the language they booked in (issue 14): this folder's catalogue (./locales, ICU MessageFormat)
// and shared-api's (what to bring, the calendar invitation's texts), compiled once per language at first use with
// messageformat, as the browser's build compiles its catalogues. Staff and account mails stay English and do not use it.

// The day and month names of every language, once for the process (at start: the mail templates import this module).
registerDateWords('ms', MALAY_DATE_NAMES);
registerDateWords('zh', CHINESE_DATE_NAMES);

export type MailTextId = keyof typeof en;
export type MailValues = Record<string, string | number>;
/** A value that is already HTML (a link): put into the message as it is, where other values are escaped. */
export type Html = { html: string };

const MAIL: Record<Locale, Record<string, string>> = { en, ms, zh };
const VISIT: Record<Locale, Record<string, string>> = { en: visitEn, ms: visitMs, zh: visitZh };
/** Shared-api's ids are prefixed on the mail instances, so neither catalogue can shadow the other. */
const VISIT_PREFIX = 'visit:';

type Message = (values?: Record<string, unknown>) => string;

const compile = (locale: Locale, messages: Record<string, string>, prefix = ''): Record<string, Message> => {
  const messageFormat = new MessageFormat(locale, { currency: 'MYR' });
  return Object.fromEntries(
    Object.entries(messages).map(([id, text]) => {
      try {
        return [prefix + id, messageFormat.compile(text) as Message];
      } catch (err) {
        throw new Error(`mail catalogue (${locale}): "${id}": ${(err as Error).message}`);
      }
    }),
  );
};

const compiled = new Map<Locale, Record<string, Message>>();
function messagesFor(locale: Locale): Record<string, Message> {
  let messages = compiled.get(locale);
  if (!messages) {
    messages = { ...compile(locale, MAIL[locale]), ...compile(locale, VISIT[locale], VISIT_PREFIX) };
    compiled.set(locale, messages);
  }
  return messages;
}

// Private-use characters stand for HTML values while the message is escaped; a visitor's own text never carries them.
const MARK_START = '\uE000';
const MARK_END = '\uE001';
const unmarked = (value: string) => value.replace(/[\uE000\uE001]/g, '');
const isHtml = (value: unknown): value is Html => typeof value === 'object' && value !== null && 'html' in value;

/** One language's texts and formats for a parent's mail. */
export type MailLanguage = {
  locale: Locale;
  /** A text for the plain-text body or a subject. */
  t(id: MailTextId, values?: MailValues): string;
  /**
   * The same text as HTML: the message and its plain values escaped, `Html` values kept, and the message's
   * `<0>…</0>` made a link to `link`.
   */
  html(id: MailTextId, values?: Record<string, string | number | Html>, link?: string): string;
  /** The shared catalogue (what to bring, the invitation) in this language, for shared-api's builders. */
  visit: Required<VisitLanguage>;
  /** "Monday, 23 November 2026" / "Isnin, 23 November 2026" / "2026年11月23日 星期一", in GMT+8. */
  date(d: Date): string;
  /** "9:30 AM" / "9:30 pagi" / "上午9:30", in GMT+8. */
  time(d: Date): string;
  money(sen: number): string;
  school(name: string): string;
  /** A year or grade of `school` ("Year 1", "Tahun 1", "一年级"). */
  schoolYear(school: string, year: string): string;
  /** Whole sentences run together: a space between them, none in Chinese. */
  sentences(...sentences: string[]): string;
};

const languages = new Map<Locale, MailLanguage>();

/** The mail texts of `locale` (English when unknown: a row written before the column existed reads 'en'). */
export function mailLanguage(locale: Locale = 'en'): MailLanguage {
  const known: Locale = LOCALES.includes(locale) ? locale : 'en';
  let language = languages.get(known);
  if (language) return language;
  const messages = messagesFor(known);
  const t = (id: string, values?: Record<string, unknown>) => messages[id]?.(values ?? {}) ?? id;
  language = {
    locale: known,
    t: (id, values) => t(id, values),
    html(id, values = {}, link) {
      const raw: string[] = [];
      const marked = Object.fromEntries(
        Object.entries(values).map(([name, value]) => {
          if (!isHtml(value)) return [name, typeof value === 'string' ? unmarked(value) : value];
          raw.push(value.html);
          return [name, `${MARK_START}${raw.length - 1}${MARK_END}`];
        }),
      );
      let out = h(t(id, marked));
      if (link !== undefined) out = out.replace(/&lt;0&gt;(.*?)&lt;\/0&gt;/g, (_, inner: string) => `<a href="${h(link)}">${inner}</a>`);
      return out.replace(/\uE000(\d+)\uE001/g, (_, i: string) => raw[Number(i)] ?? '');
    },
    visit: { locale: known, translate: (id: VisitTextId, values) => t(VISIT_PREFIX + id, values) },
    // English keeps the mails' own date pattern (with its comma), which predates the shared styles.
    date: (d) => (known === 'en' ? formatDateMY(d) : formatInMY(d, 'longDate', known)),
    time: (d) => (known === 'en' ? formatTimeMY(d) : formatInMY(d, 'time', known)),
    money: (sen) => formatRM(sen, known),
    school: (name) => schoolName(name, known),
    schoolYear: (school, year) => schoolYearName(school, year, known),
    sentences: (...sentences) => sentences.join(known === 'zh' ? '' : ' '),
  };
  languages.set(known, language);
  return language;
}

/** A mail link as HTML: `<a href="url">text</a>` (text defaults to the URL). */
export const link = (url: string, text = url): Html => ({ html: `<a href="${h(url)}">${h(text)}</a>` });
