import { formatRM } from 'shared-api';
import type { PersonBookingState, PersonSummary as Summary } from 'shared-api/contract';
import { Heading, Stack, styled, useCatalog } from 'shared-ui';
import { Badge, DataTable, SecondLine, type BadgeTone, type DataColumn } from 'shared-ui/data';
import { formatDay, formatInstant, formatInstantRange, formatPhone, formatWeekday } from '../../../lib/format';
import { privacyCatalog } from '../i18n';
import type en from '../locales/en.json';

type Booking = Summary['bookings'][number];

const STATE_TONE: Record<PersonBookingState, BadgeTone> = {
  awaiting_payment: 'info',
  payment_failed: 'warning',
  payment_cancelled: 'neutral',
  booked: 'success',
  paid: 'success',
  cancelled: 'danger',
  refund_pending: 'danger',
  refunded: 'danger',
};

/** Each label beside its values; long emails wrap between words first (a phone keeps them on one line when they fit). */
const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: ${({ theme }) => `${theme.space[1]} ${theme.space[3]}`};
  margin: 0;
  dt {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

type TextId = keyof typeof en;
/** The words for a stored value ('waitlist_waiting'), or the value itself when it has none (a state added later). */
const wordsFor = (t: (id: TextId) => string, prefix: string, value: string): string => {
  const id = `${prefix}${value}` as TextId;
  const text = t(id);
  return text === id ? value : text;
};

/** The person as the records give them: who they are, each booking and where it stands, the waitlist, consents, mails. */
export function PersonSummary({ summary }: { summary: Summary }) {
  const { t } = useCatalog(privacyCatalog);
  const facts: [string, string[]][] = [
    [t('personName'), summary.names],
    [t('personEmail'), summary.emails],
    [t('personPhone'), summary.phones.map((p) => formatPhone(p) ?? p)],
    [t('personChildren'), summary.children.map((c) => (c.year ? t('childWithYear', { name: c.name, year: c.year }) : c.name))],
  ];
  const bookingColumns: DataColumn<Booking>[] = [
    { id: 'reference', header: t('colReference'), cell: (b) => b.reference, wrap: 'anywhere' },
    { id: 'school', header: t('colSchool'), cell: (b) => b.school ?? '', wrap: 'words' },
    {
      id: 'visit',
      header: t('colVisit'),
      cell: (b) => (
        <>
          {formatWeekday(b.start)}
          <SecondLine>{formatInstantRange(b.start, b.end)}</SecondLine>
        </>
      ),
    },
    { id: 'amount', header: t('colAmount'), cell: (b) => (b.amountSen === null ? t('noPayment') : formatRM(b.amountSen)), wrap: 'nowrap' },
    {
      id: 'state',
      header: t('colState'),
      cell: (b) => (
        <>
          <Badge tone={STATE_TONE[b.state]}>{t(`state_${b.state}` as TextId)}</Badge>
          {b.refundSen !== null && b.refundSen > 0 && <SecondLine>{t('refundOf', { amount: formatRM(b.refundSen) })}</SecondLine>}
          {b.cancelledAt && <SecondLine>{t('cancelledOn', { when: formatInstant(b.cancelledAt) })}</SecondLine>}
        </>
      ),
    },
  ];
  return (
    <Stack gap={3}>
      <Heading level={4}>{t('aboutPerson')}</Heading>
      <Facts>
        {facts
          .filter(([, values]) => values.length > 0)
          .map(([label, values]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>
                {values.map((value) => (
                  <div key={value}>{value}</div>
                ))}
              </dd>
            </div>
          ))}
      </Facts>
      <Heading level={4}>{t('bookingsTitle')}</Heading>
      <DataTable columns={bookingColumns} rows={summary.bookings} rowKey={(b) => b.reference} label={t('bookingsTitle')} empty={t('noBookings')} />
      <Heading level={4}>{t('waitlistEntries')}</Heading>
      {summary.waitlistEntries.length === 0 ? (
        <p>{t('noWaitlist')}</p>
      ) : (
        <ul aria-label={t('waitlistEntries')}>
          {summary.waitlistEntries.map((w) => (
            <li key={`${w.school}-${w.joinedAt}`}>
              {t('waitlistLine', { school: w.school, from: formatDay(w.fromDate), to: formatDay(w.toDate), joined: formatDay(w.joinedAt) })}{' '}
              <Badge tone="neutral">{wordsFor(t, 'waitlist_', w.state)}</Badge>
            </li>
          ))}
        </ul>
      )}
      <Heading level={4}>{t('consents')}</Heading>
      {summary.consents.length === 0 ? (
        <p>{t('noConsents')}</p>
      ) : (
        <ul aria-label={t('consents')}>
          {summary.consents.map((c) => (
            <li key={`${c.noticeVersion}-${c.givenAt}`}>{t('consentLine', { version: c.noticeVersion, language: wordsFor(t, 'language_', c.language), when: formatInstant(c.givenAt), channel: wordsFor(t, 'channel_', c.channel) })}</li>
          ))}
        </ul>
      )}
      <Heading level={4}>{t('mails')}</Heading>
      {summary.mails.length === 0 ? (
        <p>{t('noMails')}</p>
      ) : (
        <ul aria-label={t('mails')}>
          {summary.mails.map((m) => (
            <li key={`${m.createdAt}-${m.recipient}-${m.subject}`}>
              {t('mailLine', { subject: m.subject, recipient: m.recipient, when: formatInstant(m.sentAt ?? m.createdAt) })} <Badge tone={m.status === 'failed' ? 'danger' : 'neutral'}>{t(`mail_${m.status}` as TextId)}</Badge>
            </li>
          ))}
        </ul>
      )}
    </Stack>
  );
}
