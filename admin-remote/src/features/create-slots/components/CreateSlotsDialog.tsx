import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Inline, Stack, styled, useToast } from 'shared-ui';
import { Dialog, Field, Input } from 'shared-ui/forms';
import {
  api,
  CREATE_SUCCESS_PANEL_MS,
  DEFAULT_SLOT_START_TIME,
  formatMinutes12,
  parseSlotTime,
  serverMessage,
  useAppDispatch,
  type CreateSlotsFormInput,
} from 'shared-api';
import { createSlotsFormSchema, formResolver } from 'shared-api/schemas';
import { useAddSlotMutation } from '../api/createSlotsApi';
import { formatDay, MAX_RANGE_DAYS, daysInRange, slotTimes, tomorrowInMY, weekdaysInRange } from '../utils/weekdays';

export const CreateSlotsText = {
  title: 'Create New Slots',
  description: 'One 30-minute slot on every weekday of the range; weekends are skipped.',
  submit: 'Create Slots',
  submitting: 'Creating...',
  creating: (n: number) => `Creating ${n} slot(s)...`,
  created: (n: number) => `Successfully created ${n} slot(s)!`,
  failed: 'Failed to create slots. Please try again.',
  rangeTooLong: `Choose a range of at most ${MAX_RANGE_DAYS} days`,
  timeTooLate: 'Start time must leave 30 minutes before midnight',
} as const;

// The contract's rules plus the dialog's own limits: one submission fires one request per day, so the range is capped.
const createSlotsDialogSchema = createSlotsFormSchema.superRefine(({ startDate, endDate, startTime }, ctx) => {
  if (daysInRange(startDate, endDate).length > MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: ['endDate'], message: CreateSlotsText.rangeTooLong });
  if (startTime && slotTimes(startTime) === null) ctx.addIssue({ code: 'custom', path: ['startTime'], message: CreateSlotsText.timeTooLate });
});
type DayFailure = { day: string; reason: string };

const Panel = styled.div`
  padding: ${({ theme }) => theme.space[4]};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.success};
  background: ${({ theme }) => theme.colors.successSubtle};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

const Alert = styled.div`
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  background: ${({ theme }) => theme.colors.dangerSubtle};
  p,
  ul {
    margin: 0;
  }
  ul {
    margin-top: ${({ theme }) => theme.space[2]};
    padding-left: ${({ theme }) => theme.space[5]};
  }
`;

const Preview = styled.p`
  margin: 0;
`;

/** The success message; it takes focus because the form (and the focused button) just left the dialog. */
function SuccessPanel({ message }: { message: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Panel ref={ref} role="status" tabIndex={-1}>
      {message}
    </Panel>
  );
}

type CreateSlotsDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

export function CreateSlotsDialog({ open, onOpenChange }: CreateSlotsDialogProps) {
  const dispatch = useAppDispatch();
  const [phase, setPhase] = useState<'idle' | 'submitting' | 'success'>('idle');
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Leaving the dashboard during the success panel still refreshes the list for the next visit.
  useEffect(
    () => () => {
      if (closeTimer.current === undefined) return;
      clearTimeout(closeTimer.current);
      dispatch(api.util.invalidateTags(['StaffSlots']));
    },
    [dispatch],
  );

  /** After a full success: close and refresh the list (when the panel's time is up, or earlier on Escape). */
  const finish = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = undefined;
    setPhase('idle');
    onOpenChange(false);
    dispatch(api.util.invalidateTags(['StaffSlots']));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Closing mid-way would hide which days were created; wait for the answer.
        if (!next && phase === 'submitting') return;
        if (!next && phase === 'success') return finish();
        if (!next) setPhase('idle');
        onOpenChange(next);
      }}
      title={CreateSlotsText.title}
      description={CreateSlotsText.description}
    >
      {open && (
        <CreateSlotsForm
          phase={phase}
          setPhase={setPhase}
          onCancel={() => onOpenChange(false)}
          onDone={() => {
            // The success panel stays 1.5 s; then the dialog closes and the list refreshes.
            closeTimer.current = setTimeout(finish, CREATE_SUCCESS_PANEL_MS);
          }}
        />
      )}
    </Dialog>
  );
}

type CreateSlotsFormProps = {
  phase: 'idle' | 'submitting' | 'success';
  setPhase: (phase: 'idle' | 'submitting' | 'success') => void;
  onCancel: () => void;
  onDone: () => void;
};

function CreateSlotsForm({ phase, setPhase, onCancel, onDone }: CreateSlotsFormProps) {
  const toast = useToast();
  const dispatch = useAppDispatch();
  const [addSlot] = useAddSlotMutation();
  const [tomorrow] = useState(() => tomorrowInMY());
  const [failure, setFailure] = useState<{ created: number; days: DayFailure[]; total: number } | null>(null);
  const [createdCount, setCreatedCount] = useState(0);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<CreateSlotsFormInput>({
    defaultValues: { startDate: tomorrow, endDate: tomorrow, startTime: DEFAULT_SLOT_START_TIME },
    resolver: formResolver(createSlotsDialogSchema),
  });

  const [startDate, endDate, startTime] = watch(['startDate', 'endDate', 'startTime']);
  const weekdays = weekdaysInRange(startDate, endDate);
  const times = slotTimes(startTime);
  const minutes = parseSlotTime(startTime);

  const onSubmit = handleSubmit(async (values) => {
    const days = weekdaysInRange(values.startDate, values.endDate);
    const slot = slotTimes(values.startTime);
    if (!slot || days.length === 0) return;
    setFailure(null);
    setPhase('submitting');
    const progressId = toast.progress(CreateSlotsText.creating(days.length));
    const failed: DayFailure[] = [];
    // One call per day, in order, so a failure names its day and the server is not flooded.
    for (const day of days) {
      const result = await addSlot({ date: day, ...slot });
      if ('error' in result) failed.push({ day, reason: serverMessage(result.error) ?? 'The server did not create this slot' });
    }
    const created = days.length - failed.length;
    if (created > 0) dispatch(api.util.invalidateTags(['PublicSlots']));
    if (failed.length === 0) {
      toast.update(progressId, { kind: 'success', message: CreateSlotsText.created(created) });
      setCreatedCount(created);
      setPhase('success');
      onDone();
      return;
    }
    if (created > 0) {
      toast.update(progressId, { kind: 'success', message: CreateSlotsText.created(created) });
      toast.error(CreateSlotsText.failed);
      dispatch(api.util.invalidateTags(['StaffSlots']));
    } else {
      toast.update(progressId, { kind: 'error', message: CreateSlotsText.failed });
    }
    setFailure({ created, days: failed, total: days.length });
    setPhase('idle');
  });

  if (phase === 'success') {
    return <SuccessPanel message={CreateSlotsText.created(createdCount)} />;
  }

  const submitting = phase === 'submitting';
  return (
    <form onSubmit={onSubmit} noValidate aria-label={CreateSlotsText.title}>
      <Stack>
        <Field label="Start date" htmlFor="create-start-date" error={errors.startDate?.message}>
          <Input
            id="create-start-date"
            type="date"
            min={tomorrow}
            {...register('startDate')}
          />
        </Field>
        <Field label="End date" htmlFor="create-end-date" error={errors.endDate?.message}>
          <Input
            id="create-end-date"
            type="date"
            min={startDate && startDate > tomorrow ? startDate : tomorrow}
            {...register('endDate')}
          />
        </Field>
        <Field label="Start time" htmlFor="create-start-time" error={errors.startTime?.message} hint="Each slot lasts 30 minutes.">
          <Input
            id="create-start-time"
            type="time"
            {...register('startTime')}
          />
        </Field>
        <Preview role="status" aria-live="polite">
          {weekdays.length > 0 && times && minutes !== null
            ? `${weekdays.length} weekday slot(s) will be created, each ${formatMinutes12(minutes)} - ${formatMinutes12(minutes + 30)}. Weekends are skipped.`
            : 'No slots will be created with these choices.'}
        </Preview>
        {failure && (
          <Alert role="alert">
            <p>{CreateSlotsText.failed}</p>
            {failure.created > 0 && (
              <p>
                Created {failure.created} of {failure.total} slot(s). These days failed:
              </p>
            )}
            <ul>
              {failure.days.map((f) => (
                <li key={f.day}>
                  {formatDay(f.day)}: {f.reason}
                </li>
              ))}
            </ul>
          </Alert>
        )}
        <Inline>
          <Button variant="secondary" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={submitting}>
            {submitting ? CreateSlotsText.submitting : CreateSlotsText.submit}
          </Button>
        </Inline>
      </Stack>
    </form>
  );
}
