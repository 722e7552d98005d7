import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorCode, formatClock, formatDayInMY, formatRM, slotListErrorKey, slotListErrorMessage, type ManageView } from 'shared-api';
import { changeTerms, refundAmountSen, refundFromOf, refundPercentAt } from 'shared-api/change-terms';
import { slotStart } from 'shared-api/time';
import { ManageErrorCode } from 'shared-api/manage';
import { Button, ErrorPanel, Skeleton, styled, useCatalog } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { useTermsText } from '../../../lib/changeTerms';
import { useGetFreeSlotsQuery, useRescheduleBookingMutation, type ManageResult } from '../api/manageApi';
import { manageCatalog, type ManageWords } from '../i18n';
import { failureOf } from '../../../lib/apiError';
import { errorText } from '../utils/apiError';
import { byDate, freeSlots, withCurrentTime, type FreeSlot } from '../utils/freeSlots';
import { momentText } from '../utils/words';
import { DeadlineSoon } from './DeadlineSoon';
import { Actions, ELEMENT, Note, Sentence } from './layout';

type Props = {
  token: string;
  view: ManageView;
  onOpenChange: (open: boolean) => void;
  /** The move is done: the booking as it now is. */
  onMoved: (result: ManageResult) => void;
  /** Nothing can be changed any more (cut-off passed or cancelled elsewhere): the page reloads the booking. */
  onClosed: (message: string) => void;
};

type PickValues = { slotId: string };

const FORM_ID = 'reschedule-form';

const Days = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[4]};
`;

const Day = styled.fieldset`
  margin: 0;
  padding: 0;
  border: none;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: ${({ theme }) => theme.space[2]};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
`;

const Times = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(7.5rem, 1fr));
  gap: ${({ theme }) => theme.space[2]};
`;

// A radio that looks like the timetable's slot button: 44 px tall, the whole chip clickable.
const TimeChoice = styled.label`
  position: relative;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  min-height: ${({ theme }) => theme.tapTarget};
  padding: 0 ${({ theme }) => theme.space[2]};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.md};
  cursor: pointer;
  input {
    position: absolute;
    opacity: 0;
    inset: 0;
    margin: 0;
    cursor: pointer;
  }
  &:has(input:checked) {
    border-color: ${({ theme }) => theme.colors.brand};
    background: ${({ theme }) => theme.colors.brandSubtle};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
  &:has(input:focus-visible) {
    box-shadow: ${({ theme }) => theme.focusRing};
  }
  /* The current time: in its place, marked in words, dashed and muted, not a choice. */
  &:has(input:disabled) {
    border-style: dashed;
    color: ${({ theme }) => theme.colors.textMuted};
    cursor: default;
    input {
      cursor: default;
    }
  }
  small {
    font-size: ${({ theme }) => theme.fontSizes.xs};
  }
`;

const FieldError = styled.p`
  color: ${({ theme }) => theme.colors.danger};
`;

const startText = (slot: FreeSlot, { locale }: ManageWords) => formatClock(slot.startMinutes, locale);
const dayText = (date: string, { locale }: ManageWords) => formatDayInMY(date, 'longDate', locale);
const slotMoment = (slot: FreeSlot, words: ManageWords) => words.t('moment', { day: dayText(slot.date, words), time: startText(slot, words) });

/**
 * What the move does to the terms: the refund and change terms after it, and whether it lowers the refund a cancel
 * would give (a move never raises it: the refund stays counted from the earliest time the booking had).
 */
function MoveTerms({ view, slot, words }: { view: ManageView; slot: FreeSlot; words: ManageWords }) {
  const termsText = useTermsText();
  const { t, locale } = words;
  const now = Date.now();
  const start = slotStart(slot.date, slot.startTime)?.valueOf() ?? now;
  const refundFrom = refundFromOf([view.refundFrom, start]);
  const terms = changeTerms({ start, refundFrom, now });
  // Both by the same rule and clock: what a cancel gives now, and what it would give after the move.
  const before = refundAmountSen(view.amountPaidSen, refundPercentAt(view.refundFrom, now));
  const after = refundAmountSen(view.amountPaidSen, refundPercentAt(refundFrom, now));
  return (
    <>
      <p>{t('move.after', { terms: termsText(terms) })}</p>
      <DeadlineSoon terms={terms} words={words} />
      {after < before ? (
        <Note $tone="warning" role="note">
          <p>
            {after > 0
              ? t('move.refundLower', { before: formatRM(before, locale), after: formatRM(after, locale) })
              : t('move.refundLost', { before: formatRM(before, locale) })}
          </p>
        </Note>
      ) : (
        start > Date.parse(view.refundFrom) && <p>{t('move.refundKept', { moment: momentText(view.refundFrom, words) })}</p>
      )}
    </>
  );
}

/** "Change date or time": the free slots of the public timetable, then a confirm step; the move is one server call. */
export function RescheduleDialog({ token, view, onOpenChange, onMoved, onClosed }: Props) {
  const words = useCatalog(manageCatalog);
  const { t, locale } = words;
  const slots = useGetFreeSlotsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [reschedule, move] = useRescheduleBookingMutation();
  const [chosen, setChosen] = useState<FreeSlot | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  // The free times by the timetable's rule, with the current time shown in its place (not a choice).
  const days = useMemo(() => byDate(withCurrentTime(freeSlots(slots.data, Date.now()), view.start)), [slots.data, view.start]);
  const all = useMemo(() => days.flatMap((day) => day.slots).filter((slot) => !slot.current), [days]);

  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<PickValues>({ defaultValues: { slotId: '' } });

  const pick = handleSubmit(({ slotId }) => {
    setRefusal(null);
    setChosen(all.find((slot) => String(slot.id) === slotId) ?? null);
  });

  const confirm = async () => {
    if (!chosen) return;
    try {
      onMoved(await reschedule({ token, slotId: chosen.id }).unwrap());
    } catch (error) {
      const { code, status } = failureOf(error);
      if (code === ManageErrorCode.CHANGE_CLOSED) return onClosed(errorText(error, words, 'tooLate'));
      // Taken meanwhile (or refused): back to a fresh list with the server's words; the booking is unchanged.
      const taken = code === ErrorCode.SLOT_NOT_AVAILABLE || code === ErrorCode.SLOT_RESERVED;
      setRefusal(errorText(error, words, taken ? 'slotTaken' : 'move.failed'));
      if (typeof status === 'number' && status < 500) {
        setValue('slotId', '');
        setChosen(null);
        void slots.refetch();
      }
    }
  };

  const busy = move.isLoading;
  // The page's own row (the dialog's footer wraps by the words' width): the primary action first in every language.
  const footer = chosen ? (
    <Actions>
      <Button onClick={() => void confirm()} loading={busy}>
        {t('move.confirm')}
      </Button>
      <Button variant="secondary" onClick={() => setChosen(null)} disabled={busy}>
        {t('move.back')}
      </Button>
    </Actions>
  ) : (
    <Actions>
      <Button type="submit" form={FORM_ID} disabled={all.length === 0}>
        {t('move.continue')}
      </Button>
      <Button variant="secondary" onClick={() => onOpenChange(false)}>
        {t('move.keep')}
      </Button>
    </Actions>
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => !busy && onOpenChange(open)}
      title={chosen ? t('move.confirmTitle') : t('move.title')}
      description={t('move.now', { moment: momentText(view.start, words) })}
      footer={footer}
    >
      {refusal && (
        <Note $tone="danger" role="alert">
          <p>{refusal}</p>
        </Note>
      )}
      {chosen ? (
        <>
          <p>
            <Sentence text={t('move.question', { moment: ELEMENT })}>
              <strong>{slotMoment(chosen, words)}</strong>
            </Sentence>
          </p>
          <MoveTerms view={view} slot={chosen} words={words} />
        </>
      ) : slots.isLoading ? (
        <div role="status" aria-live="polite">
          <p>{t('move.loading')}</p>
          <Skeleton height={44} />
        </div>
      ) : slots.isError && !slots.data ? (
        <ErrorPanel
          message={locale === 'en' ? slotListErrorMessage(slots.error) : t(`slotList.${slotListErrorKey(slots.error)}`)}
          onRetry={() => void slots.refetch()}
        />
      ) : all.length === 0 ? (
        <p>{t('move.none')}</p>
      ) : (
        <form id={FORM_ID} onSubmit={(event) => void pick(event)} noValidate aria-label={t('move.freeTimes')}>
          <Days>
            {days.map((day) => (
              <Day key={day.date}>
                <legend>{dayText(day.date, words)}</legend>
                <Times>
                  {day.slots.map((slot) =>
                    slot.current ? (
                      <TimeChoice key="current">
                        <input type="radio" disabled />
                        <span>{startText(slot, words)}</span>
                        <small>{t('move.current')}</small>
                      </TimeChoice>
                    ) : (
                      <TimeChoice key={slot.id}>
                        <input type="radio" value={String(slot.id)} {...register('slotId', { validate: (value) => all.some((free) => String(free.id) === value) })} aria-describedby={errors.slotId ? 'reschedule-error' : undefined} />
                        <span>{startText(slot, words)}</span>
                      </TimeChoice>
                    ),
                  )}
                </Times>
              </Day>
            ))}
          </Days>
          {errors.slotId && (
            <FieldError id="reschedule-error" role="alert">
              {/* The one rule (a free time is chosen), said in the page's language when shown. */}
              {t('move.chooseTime')}
            </FieldError>
          )}
        </form>
      )}
    </Dialog>
  );
}
