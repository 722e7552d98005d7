import { useId, useState, type ReactNode } from 'react';
import { AlertIcon, Button, styled, useCatalog } from 'shared-ui';
import { formatRM, type ChargebackAlert, type FailedJobs, type FailingRefund, type StuckMail } from 'shared-api';
import { useStaffAlerts } from '../api/staffAlertsApi';
import { alertsCatalog } from '../i18n';
import { chargebackSummary, failedJobsSummary, failingRefundSummary, formatAge, formatDateTimeMY, mailKindLabel, queueLabel, stuckMailSummary } from '../utils/format';

const Notice = styled.section`
  display: flex;
  gap: ${({ theme }) => theme.space[3]};
  align-items: flex-start;
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-left: 4px solid ${({ theme }) => theme.colors.info};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.infoSubtle};
  color: ${({ theme }) => theme.colors.text};
`;

const Icon = styled.span`
  color: ${({ theme }) => theme.colors.info};
  line-height: 0;
  padding-top: 2px;
`;

const Body = styled.div`
  flex: 1;
  min-width: 0;
`;

const Summary = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

const Details = styled.div`
  margin-top: ${({ theme }) => theme.space[3]};
  display: grid;
  gap: ${({ theme }) => theme.space[4]};
`;

const GroupHeading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space[1]};
  font-size: ${({ theme }) => theme.fontSizes.md};
`;

const Hint = styled.p`
  margin: 0 0 ${({ theme }) => theme.space[2]};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Items = styled.ul`
  margin: 0;
  padding-left: ${({ theme }) => theme.space[5]};
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
  overflow-wrap: anywhere;
`;

const ErrorText = styled.span`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

function MailItem({ mail }: { mail: StuckMail }) {
  const { t } = useCatalog(alertsCatalog);
  const state = mail.status === 'failed' ? t('givenUp') : t('retrying', { count: mail.attempts });
  return (
    <li>
      {t('mailItem', {
        kind: mailKindLabel(mail.kind),
        recipient: mail.recipient,
        reference: mail.paymentReference,
        age: formatAge(mail.ageMinutes),
        state,
      })}
      {mail.lastError && <ErrorText>{t('lastError', { error: mail.lastError })}</ErrorText>}
    </li>
  );
}

function RefundItem({ refund }: { refund: FailingRefund }) {
  const { t } = useCatalog(alertsCatalog);
  // One child's share of a booking of several names the child too (issue 37).
  const name = refund.child ? t('refundChildName', { name: refund.visitorName, child: refund.child.name }) : refund.visitorName;
  const words = { reference: refund.reference, name, amount: formatRM(refund.amountSen), count: refund.refundAttempts };
  return (
    <li>
      {refund.nextRefundAt ? t('refundItemNext', { ...words, next: formatDateTimeMY(refund.nextRefundAt) }) : t('refundItem', words)}
      {refund.lastError && <ErrorText>{t('lastError', { error: refund.lastError })}</ErrorText>}
    </li>
  );
}

function JobItem({ jobs }: { jobs: FailedJobs }) {
  const { t } = useCatalog(alertsCatalog);
  return (
    <li>
      {t('jobItem', { queue: queueLabel(jobs.queue), count: jobs.failed, when: formatDateTimeMY(jobs.lastFailedAt) })}
      {jobs.lastError && <ErrorText>{t('lastError', { error: jobs.lastError })}</ErrorText>}
    </li>
  );
}

const CHARGEBACK_BOOKING_TEXT = { booked: 'chargebackBooked', cancelled: 'chargebackCancelled' } as const;

function ChargebackItem({ chargeback }: { chargeback: ChargebackAlert }) {
  const { t } = useCatalog(alertsCatalog);
  const booking = t(chargeback.bookingStatus ? CHARGEBACK_BOOKING_TEXT[chargeback.bookingStatus] : 'chargebackNotBooked');
  return (
    <li>
      {t('chargebackItem', {
        reference: chargeback.reference,
        name: chargeback.visitorName,
        amount: formatRM(chargeback.amountSen),
        when: formatDateTimeMY(chargeback.at),
        booking,
      })}
    </li>
  );
}

type AlertGroupProps = { heading: string; hint: string; total: number; shown: number; children: ReactNode };

/** One kind of alert: heading, what to do, the items (the server sends the oldest ones) and how many more there are. */
function AlertGroup({ heading, hint, total, shown, children }: AlertGroupProps) {
  const { t } = useCatalog(alertsCatalog);
  return (
    <div>
      <GroupHeading>{heading}</GroupHeading>
      <Hint>{hint}</Hint>
      <Items>{children}</Items>
      {total > shown && <Hint>{t('more', { shown, total })}</Hint>}
    </div>
  );
}

/** A calm notice above the dashboard's counts, only while mail is stuck, a refund keeps failing, background jobs failed or a payment was charged back; expands to the list. */
export function StaffAlertsNotice() {
  const { t } = useCatalog(alertsCatalog);
  const { data } = useStaffAlerts();
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  const mail = data?.stuckMail;
  const refunds = data?.failingRefunds;
  const jobs = data?.failedJobs ?? [];
  const failedCount = jobs.reduce((sum, q) => sum + q.failed, 0);
  const chargebacks = data?.chargebacks;
  if (!mail?.total && !refunds?.total && !failedCount && !chargebacks?.total) return null;

  return (
    <Notice aria-label={t('region')}>
      <Icon>
        <AlertIcon />
      </Icon>
      <Body>
        {/* Polite: the notice may appear or change while staff are working on the page. */}
        <div role="status">
          <Summary>
            {mail && mail.total > 0 && <li>{stuckMailSummary(mail.total)}</li>}
            {refunds && refunds.total > 0 && <li>{failingRefundSummary(refunds.total)}</li>}
            {failedCount > 0 && <li>{failedJobsSummary(failedCount)}</li>}
            {chargebacks && chargebacks.total > 0 && <li>{chargebackSummary(chargebacks.total)}</li>}
          </Summary>
        </div>
        <Button variant="ghost" size="sm" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded((v) => !v)}>
          {expanded ? t('hide') : t('show')}
        </Button>
        <Details id={detailsId} hidden={!expanded}>
          {mail && mail.total > 0 && (
            <AlertGroup heading={t('mailHeading')} hint={t('mailHint')} total={mail.total} shown={mail.items.length}>
              {mail.items.map((m) => (
                <MailItem key={m.id} mail={m} />
              ))}
            </AlertGroup>
          )}
          {refunds && refunds.total > 0 && (
            <AlertGroup heading={t('refundHeading')} hint={t('refundHint')} total={refunds.total} shown={refunds.items.length}>
              {refunds.items.map((r) => (
                <RefundItem key={`${r.paymentId}/${r.child?.position ?? 0}`} refund={r} />
              ))}
            </AlertGroup>
          )}
          {failedCount > 0 && (
            <AlertGroup heading={t('jobsHeading')} hint={t('jobsHint')} total={jobs.length} shown={jobs.length}>
              {jobs.map((q) => (
                <JobItem key={q.queue} jobs={q} />
              ))}
            </AlertGroup>
          )}
          {chargebacks && chargebacks.total > 0 && (
            <AlertGroup heading={t('chargebackHeading')} hint={t('chargebackHint')} total={chargebacks.total} shown={chargebacks.items.length}>
              {chargebacks.items.map((c) => (
                <ChargebackItem key={c.paymentId} chargeback={c} />
              ))}
            </AlertGroup>
          )}
        </Details>
      </Body>
    </Notice>
  );
}
