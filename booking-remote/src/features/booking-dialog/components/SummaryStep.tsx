import { HOLD_MINUTES, formatInMY, formatRM, schoolName, slotStartMs } from 'shared-api';
import { changeTerms } from 'shared-api/change-terms';
import { formatPhone } from 'shared-api/phone';
import { schoolYearName } from 'shared-api/schools';
import { checkoutPrice } from 'shared-api/sibling-price';
import { Button, styled, useCatalog } from 'shared-ui';
import { useTermsText } from '../../../lib/changeTerms';
import { Email } from 'shared-ui/text';
import { SchoolPlaceRows } from '../../../lib/school-place/SchoolPlaceRows';
import { SeenTogether } from '../../../lib/school-place/SeenTogether';
import { Details } from '../../../lib/resultLayout';
import { visitorCatalog } from '../../../lib/visitor-fields/i18n';
import { dialogCatalog } from '../i18n';
import type { EditableField } from '../model/bookingFlow';
import type { BookingDetails } from '../utils/bookingDraft';
import {
  formatCountdown,
  isReservationAboutToExpire,
  isReservationValid,
  reservationRemainingMs,
  type SlotReservation,
} from '../utils/reservation';
import { slotWhenValues } from '../utils/dialogText';

// The result pages' list (label above value on a narrow phone), in the dialog: a word breaks only where it must.
const List = styled(Details)`
  margin: 0 0 ${({ theme }) => theme.space[4]};
  dd {
    overflow-wrap: break-word;
  }
  @media (min-width: 30rem) {
    align-items: baseline;
  }
`;

const Fee = styled.dd`
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: ${({ theme }) => theme.fontWeights.bold} !important;
`;

const Notice = styled.p<{ $tone: 'info' | 'warning' }>`
  margin: 0 0 ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[3]};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $tone }) => ($tone === 'warning' ? theme.colors.warningSubtle : theme.colors.infoSubtle)};
  color: ${({ theme }) => theme.colors.text};
`;

// An address or number on its own line with its Change button beside it; it wraps only where it must.
const Editable = styled.dd`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[2]};
  > span {
    flex: 1;
    min-width: 0;
  }
  > button {
    flex: none;
  }
`;

const Hint = styled.p`
  margin: 0 0 ${({ theme }) => theme.space[4]};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Terms = styled.section`
  margin: 0 0 ${({ theme }) => theme.space[4]};
  h3 {
    margin: 0 0 ${({ theme }) => theme.space[1]};
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
  p {
    margin: 0;
  }
`;

type Props = {
  details: BookingDetails;
  reservation: SlotReservation | null;
  now: number;
  /** Back to the details step, on this field. */
  onEdit: (field: EditableField) => void;
};

/**
 * Step 2: what is being paid for, where the confirmation and the manage link go (with a way back to fix them), the
 * refund and change terms, and how long the slot stays held.
 */
/** Each child of a checkout of several on its own lines: who, where, and what they cost (a sibling discount shown off the fee). */
function ChildrenRows({ details }: { details: BookingDetails }) {
  const { t, locale } = useCatalog(dialogCatalog);
  const children = [details, ...(details.siblings ?? [])];
  const price = checkoutPrice(children);
  return (
    <>
      {children.map((child, i) => {
        const line = price?.lines[i];
        return (
          <ChildRow key={i}>
            <dt>{t('childNumber', { number: i + 1 })}</dt>
            <dd>
              <strong>{child.childName}</strong>
              <span>
                {schoolYearName(child.selectedSchool, child.childYear, locale)}, {schoolName(child.selectedSchool, locale)}
              </span>
              {line && line.discountSen > 0 ? (
                <span>
                  {formatRM(line.feeSen, locale)} − {formatRM(line.discountSen, locale)} ({t('siblingDiscount')}) = {formatRM(line.payableSen, locale)}
                </span>
              ) : (
                line && <span>{formatRM(line.payableSen, locale)}</span>
              )}
            </dd>
          </ChildRow>
        );
      })}
    </>
  );
}

// A child's lines: name, then year and school, then the fee, each on its own line on a phone.
const ChildRow = styled.div`
  display: contents;
  dd {
    display: grid;
    gap: ${({ theme }) => theme.space[1]};
  }
`;

export function SummaryStep({ details, reservation, now, onEdit }: Props) {
  const { t, locale } = useCatalog(dialogCatalog);
  const several = (details.siblings?.length ?? 0) > 0;
  const visitor = useCatalog(visitorCatalog).t;
  const termsText = useTermsText();
  const terms = changeTerms({ start: slotStartMs(details.slot.date, details.slot.startTime), now });
  return (
    <div>
      <List>
        <dt>{t('name')}</dt>
        <dd>{details.visitorName}</dd>
        {several ? (
          <ChildrenRows details={details} />
        ) : (
          <>
            <dt>{t('child')}</dt>
            <dd>{details.childName}</dd>
            <dt>{t('yearApplied')}</dt>
            <dd>{schoolYearName(details.selectedSchool, details.childYear, locale)}</dd>
            <dt>{t('school')}</dt>
            <dd>{schoolName(details.selectedSchool, locale)}</dd>
          </>
        )}
        <SchoolPlaceRows school={details.selectedSchool} />
        <dt>{t('dateAndTime')}</dt>
        <dd>{t('slotWhen', slotWhenValues(details.slot.date, details.slot.startTime, locale))}</dd>
        <dt>{several ? t('total') : t('assessmentFee')}</dt>
        <Fee>{formatRM(details.fee, locale)}</Fee>
        <dt>{visitor('emailAddress')}</dt>
        <Editable>
          <Email address={details.visitorEmail} />
          <Button variant="ghost" size="sm" aria-label={t('changeEmail')} onClick={() => onEdit('visitorEmail')}>
            {t('change')}
          </Button>
        </Editable>
        <dt>{visitor('contactNumber')}</dt>
        <Editable>
          <span>{formatPhone(details.visitorContactNo) ?? details.visitorContactNo}</span>
          <Button variant="ghost" size="sm" aria-label={t('changePhone')} onClick={() => onEdit('visitorContactNo')}>
            {t('change')}
          </Button>
        </Editable>
      </List>
      {several && <SeenTogether schools={[details.selectedSchool, ...(details.siblings ?? []).map((sibling) => sibling.selectedSchool)]} />}
      <Hint>{t('sendsTo')}</Hint>
      <Terms aria-labelledby="summary-terms-title">
        <h3 id="summary-terms-title">{t('termsTitle')}</h3>
        <p>{termsText(terms)}</p>
      </Terms>
      {/* One hold, one time: the hold's own end (an offer's hold ends when the offer page said), not a fresh 15 minutes. */}
      <Notice $tone="info">
        {isReservationValid(reservation, now)
          ? t('holdNoticeUntil', { minutes: reservation.duration, until: formatInMY(reservation.expiresAt, 'time', locale) })
          : t('holdNotice', { minutes: HOLD_MINUTES })}
      </Notice>
      {isReservationAboutToExpire(reservation, now) && (
        <Notice $tone="warning" role="alert">
          {t('expiresSoon', { countdown: formatCountdown(reservationRemainingMs(reservation as SlotReservation, now)) })}
        </Notice>
      )}
      {!isReservationValid(reservation, now) && (
        <Notice $tone="warning" role="alert">
          {t('expired')}
        </Notice>
      )}
    </div>
  );
}
