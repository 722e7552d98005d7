import { brand, type Locale } from 'shared-api/contract';
import { escapeHtml as h } from './format';
import { paragraph, parentMail, type DetailRow, type RenderedMail } from './frame';
import { mailLanguage } from './i18n';

/** What a breach notice says: the school's own words on what happened and which data, in the parent's language when given. */
export type BreachNoticeInput = {
  locale: Locale;
  name: string;
  foundAt: Date;
  whatHappened: string;
  dataAffected: string;
};

/**
 * The notice to a parent a personal data breach touches (PDPA s. 12B): in the language they booked in, what happened
 * and which of their data, what the school does, what to watch for, and whom to ask.
 */
export function renderBreachNotice(m: BreachNoticeInput): RenderedMail {
  const L = mailLanguage(m.locale);
  const rows: DetailRow[] = [
    [L.t('breach.label.found'), `${L.date(m.foundAt)}, ${L.time(m.foundAt)} (GMT+8)`],
    [L.t('breach.label.what'), m.whatHappened],
    [L.t('breach.label.data'), m.dataAffected],
  ];
  const contact = L.t('breach.contact', { email: brand.supportEmail });
  return parentMail(L, {
    subject: L.t('breach.subject', { school: brand.productName }),
    heading: L.html('breach.heading'),
    name: m.name.replace(/\s+/g, ' '),
    lead: paragraph(L, 'breach.lead'),
    rows,
    after: {
      text: [L.sentences(L.t('breach.doing'), L.t('breach.advice')), contact],
      html: `<p>${L.html('breach.doing')}</p>\n<p>${L.html('breach.advice')}</p>\n<p>${h(contact)}</p>`,
    },
  });
}
