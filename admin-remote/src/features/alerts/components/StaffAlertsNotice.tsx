import { useId, useState, type ReactNode } from 'react';
import { AlertIcon, Button, styled } from 'shared-ui';
import { formatRM, type FailingRefund, type StuckMail } from 'shared-api';
import { useStaffAlerts } from '../api/staffAlertsApi';
import {
  attemptsText,
  failingRefundSummary,
  formatAge,
  formatDateTimeMY,
  mailKindLabel,
  stuckMailSummary,
} from '../utils/format';

export const StaffAlertsText = {
  region: 'Needs attention',
  show: 'Show details',
  hide: 'Hide details',
  mailHeading: 'Emails not sent',
  mailHint: 'Emails still being retried go out by themselves once the mail server answers. A "given up" email was not sent: send it by hand.',
  refundHeading: 'Refunds that keep failing',
  refundHint: 'The payment gateway refused these refunds; they are retried automatically. Check them in the gateway if they keep failing.',
  givenUp: 'given up',
  more: (shown: number, total: number) => `Showing the oldest ${shown} of ${total}.`,
} as const;

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
  const state = mail.status === 'failed' ? StaffAlertsText.givenUp : `retrying, ${attemptsText(mail.attempts)}`;
  return (
    <li>
      {mailKindLabel(mail.kind)} to {mail.recipient} · {mail.paymentReference} · waiting {formatAge(mail.ageMinutes)} · {state}
      {mail.lastError && <ErrorText>Last error: {mail.lastError}</ErrorText>}
    </li>
  );
}

function RefundItem({ refund }: { refund: FailingRefund }) {
  return (
    <li>
      {refund.reference} · {refund.visitorName} · {formatRM(refund.amountSen)} · {attemptsText(refund.refundAttempts)} failed
      {refund.nextRefundAt && ` · next try ${formatDateTimeMY(refund.nextRefundAt)}`}
      {refund.lastError && <ErrorText>Last error: {refund.lastError}</ErrorText>}
    </li>
  );
}

type AlertGroupProps = { heading: string; hint: string; total: number; shown: number; children: ReactNode };

/** One kind of alert: heading, what to do, the items (the server sends the oldest ones) and how many more there are. */
function AlertGroup({ heading, hint, total, shown, children }: AlertGroupProps) {
  return (
    <div>
      <GroupHeading>{heading}</GroupHeading>
      <Hint>{hint}</Hint>
      <Items>{children}</Items>
      {total > shown && <Hint>{StaffAlertsText.more(shown, total)}</Hint>}
    </div>
  );
}

/** A calm notice above the dashboard's counts, only while mail is stuck or a refund keeps failing; expands to the list. */
export function StaffAlertsNotice() {
  const { data } = useStaffAlerts();
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  const mail = data?.stuckMail;
  const refunds = data?.failingRefunds;
  if (!mail?.total && !refunds?.total) return null;

  return (
    <Notice aria-label={StaffAlertsText.region}>
      <Icon>
        <AlertIcon />
      </Icon>
      <Body>
        {/* Polite: the notice may appear or change while staff are working on the page. */}
        <div role="status">
          <Summary>
            {mail && mail.total > 0 && <li>{stuckMailSummary(mail.total)}</li>}
            {refunds && refunds.total > 0 && <li>{failingRefundSummary(refunds.total)}</li>}
          </Summary>
        </div>
        <Button variant="ghost" size="sm" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded((v) => !v)}>
          {expanded ? StaffAlertsText.hide : StaffAlertsText.show}
        </Button>
        <Details id={detailsId} hidden={!expanded}>
          {mail && mail.total > 0 && (
            <AlertGroup heading={StaffAlertsText.mailHeading} hint={StaffAlertsText.mailHint} total={mail.total} shown={mail.items.length}>
              {mail.items.map((m) => (
                <MailItem key={m.id} mail={m} />
              ))}
            </AlertGroup>
          )}
          {refunds && refunds.total > 0 && (
            <AlertGroup heading={StaffAlertsText.refundHeading} hint={StaffAlertsText.refundHint} total={refunds.total} shown={refunds.items.length}>
              {refunds.items.map((r) => (
                <RefundItem key={r.paymentId} refund={r} />
              ))}
            </AlertGroup>
          )}
        </Details>
      </Body>
    </Notice>
  );
}
