import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { dayInMY, ErrorCode, formatMinutes12, slotListErrorMessage, slotStart, type ManageView } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import { Button, ErrorPanel, Skeleton, styled } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { useGetFreeSlotsQuery, useRescheduleBookingMutation, type ManageResult } from '../api/manageApi';
import { errorCode, messageOf, statusOf } from '../utils/apiError';
import { byDate, freeSlots, type FreeSlot } from '../utils/freeSlots';
import { momentText } from '../utils/words';
import { Note } from './layout';

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
const CHOOSE_TIME = 'Please choose a new time.';
const MOVE_FAILED = 'Your booking could not be moved. Please try again.';

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
`;

const FieldError = styled.p`
  color: ${({ theme }) => theme.colors.danger};
`;

const startText = (slot: FreeSlot) => formatMinutes12(slot.startMinutes);
const dayText = (date: string) => dayInMY(date).format('dddd D MMMM YYYY');
const slotMoment = (slot: FreeSlot) => `${dayText(slot.date)}, ${startText(slot)} (GMT+8)`;

/** Until when the moved booking can still be changed: the same cut-off before the new time (the view's start minus deadline). */
function afterMove(view: ManageView, slot: FreeSlot, now = Date.now()): string {
  const cutoffMs = Date.parse(view.start) - Date.parse(view.changeDeadline);
  const deadline = (slotStart(slot.date, slot.startTime)?.valueOf() ?? now) - cutoffMs;
  return deadline > now
    ? `After the move, changes are possible until ${momentText(new Date(deadline).toISOString())}.`
    : 'After the move, this booking can no longer be changed or cancelled online.';
}

/** "Change date or time": the free slots of the public timetable, then a confirm step; the move is one server call. */
export function RescheduleDialog({ token, view, onOpenChange, onMoved, onClosed }: Props) {
  const slots = useGetFreeSlotsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [reschedule, move] = useRescheduleBookingMutation();
  const [chosen, setChosen] = useState<FreeSlot | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const currentStart = Date.parse(view.start);

  // The current time is not a choice (the server would answer sameSlot); the rest follow the timetable's rule.
  const days = useMemo(
    () => byDate(freeSlots(slots.data, Date.now()).filter((slot) => slotStart(slot.date, slot.startTime)?.valueOf() !== currentStart)),
    [slots.data, currentStart],
  );
  const all = useMemo(() => days.flatMap((day) => day.slots), [days]);

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
      const code = errorCode(error);
      if (code === ManageErrorCode.CHANGE_CLOSED) return onClosed(messageOf(error, ManageMessage.tooLate));
      // Taken meanwhile (or refused): back to a fresh list with the server's words; the booking is unchanged.
      const taken = code === ErrorCode.SLOT_NOT_AVAILABLE || code === ErrorCode.SLOT_RESERVED;
      setRefusal(messageOf(error, taken ? ManageMessage.slotTaken : MOVE_FAILED));
      const status = statusOf(error);
      if (typeof status === 'number' && status < 500) {
        setValue('slotId', '');
        setChosen(null);
        void slots.refetch();
      }
    }
  };

  const busy = move.isLoading;
  const footer = chosen ? (
    <>
      <Button variant="secondary" onClick={() => setChosen(null)} disabled={busy}>
        Back
      </Button>
      <Button onClick={() => void confirm()} loading={busy}>
        Confirm new time
      </Button>
    </>
  ) : (
    <>
      <Button variant="secondary" onClick={() => onOpenChange(false)}>
        Keep current time
      </Button>
      <Button type="submit" form={FORM_ID} disabled={all.length === 0}>
        Continue
      </Button>
    </>
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => !busy && onOpenChange(open)}
      title={chosen ? 'Confirm the new time' : 'Change date or time'}
      description={`Your visit now: ${momentText(view.start)}. The school and the fee stay the same.`}
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
            Move your visit to <strong>{slotMoment(chosen)}</strong>?
          </p>
          <p>{afterMove(view, chosen)}</p>
        </>
      ) : slots.isLoading ? (
        <div role="status" aria-live="polite">
          <p>Loading available slots...</p>
          <Skeleton height={44} />
        </div>
      ) : slots.isError && !slots.data ? (
        <ErrorPanel message={slotListErrorMessage(slots.error)} onRetry={() => void slots.refetch()} />
      ) : all.length === 0 ? (
        <p>There are no other free times at the moment. Please try again later.</p>
      ) : (
        <form id={FORM_ID} onSubmit={(event) => void pick(event)} noValidate aria-label="Free times">
          <Days>
            {days.map((day) => (
              <Day key={day.date}>
                <legend>{dayText(day.date)}</legend>
                <Times>
                  {day.slots.map((slot) => (
                    <TimeChoice key={slot.id}>
                      <input type="radio" value={String(slot.id)} {...register('slotId', { validate: (value) => all.some((free) => String(free.id) === value) || CHOOSE_TIME })} aria-describedby={errors.slotId ? 'reschedule-error' : undefined} />
                      <span>{startText(slot)}</span>
                    </TimeChoice>
                  ))}
                </Times>
              </Day>
            ))}
          </Days>
          {errors.slotId && (
            <FieldError id="reschedule-error" role="alert">
              {errors.slotId.message}
            </FieldError>
          )}
        </form>
      )}
    </Dialog>
  );
}
