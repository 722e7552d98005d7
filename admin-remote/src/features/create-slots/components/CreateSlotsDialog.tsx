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
import { SlotAddMessage, createSlotsFormSchema, formResolver } from 'shared-api/schemas';
import { SLOT_PLAN_MAX_TIMES, slotPlanBodySchema, type SlotPlan, type SlotPlanBody } from 'shared-api/slot-planning';
import { useAddSlotMutation } from '../api/createSlotsApi';
import { refusedPlan, useAddSlotPlanMutation, usePreviewSlotPlanMutation } from '../api/slotPlanningApi';
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
  // Several start times a day (issue 15): an addition; with one time the dialog is the spec's.
  addTime: 'Add another time',
  removeTime: (n: number) => `Remove start time ${n}`,
  timeLabel: (n: number) => `Start time ${n}`,
  timeRequired: 'Start time is required',
  timeRepeated: 'This start time is already in the list',
  checking: 'Checking which slots can be created...',
  previewFailed: 'Could not check the plan with the server. You can still try to create the slots.',
  planCount: (n: number, times: string) => `${n} slot(s) will be created, at ${times} on each weekday of the range. Weekends are skipped.`,
  refusedHeading: (n: number) => `${n} slot(s) cannot be created:`,
  nothingCreated: 'Nothing was created. These slots are refused:',
  showSlots: 'Show the slots',
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

const PlanBox = styled.div`
  p,
  ul {
    margin: 0;
  }
  ul {
    margin-top: ${({ theme }) => theme.space[2]};
    padding-left: ${({ theme }) => theme.space[5]};
    max-height: 12rem;
    overflow-y: auto;
  }
`;

const TimeRow = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space[2]};
  align-items: flex-end;
  > :first-child {
    flex: 1;
  }
`;

const timeText = (hhmm: string) => formatMinutes12(parseSlotTime(hhmm) ?? 0);
const refusalLine = (r: SlotPlan['refused'][number]) => `${formatDay(r.date)}, ${timeText(r.startTime)} - ${timeText(r.endTime)}: ${r.message}`;

/** The multi-time plan as the server previews it: the count, the refusals, and the slots on request. */
function PlanPreview({ state }: { state: PlanState }) {
  if (state.kind === 'invalid') return <Preview role="status" aria-live="polite">No slots will be created with these choices.</Preview>;
  if (state.kind === 'loading') return <Preview role="status" aria-live="polite">{CreateSlotsText.checking}</Preview>;
  if (state.kind === 'error') return <Preview role="status" aria-live="polite">{CreateSlotsText.previewFailed}</Preview>;
  const { plan, times } = state;
  return (
    <PlanBox>
      <Preview role="status" aria-live="polite">
        {plan.toCreate.length > 0
          ? CreateSlotsText.planCount(plan.toCreate.length, times.map(timeText).join(', '))
          : 'No slots will be created with these choices.'}
      </Preview>
      {plan.refused.length > 0 && (
        <>
          <p>{CreateSlotsText.refusedHeading(plan.refused.length)}</p>
          <ul aria-label="Refused slots">
            {plan.refused.map((r) => (
              <li key={`${r.date} ${r.startTime}`}>{refusalLine(r)}</li>
            ))}
          </ul>
        </>
      )}
      {plan.toCreate.length > 0 && (
        <details>
          <summary>{CreateSlotsText.showSlots}</summary>
          <ul aria-label="Slots to create">
            {plan.toCreate.map((item) => (
              <li key={`${item.date} ${item.startTime}`}>
                {formatDay(item.date)}, {timeText(item.startTime)} - {timeText(item.endTime)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </PlanBox>
  );
}

type PlanState =
  | { kind: 'invalid' }
  | { kind: 'loading' }
  | { kind: 'error' }
  | { kind: 'ready'; plan: SlotPlan; times: string[] };

/** The request body of a multi-time plan, or null while the choices cannot make one. */
function planBody(startDate: string, endDate: string, times: string[]): SlotPlanBody | null {
  const normalised = times.map((t) => slotTimes(t)?.startTime ?? null);
  if (normalised.some((t) => t === null) || new Set(normalised).size !== normalised.length) return null;
  const parsed = slotPlanBodySchema.safeParse({ fromDate: startDate, toDate: endDate, startTimes: normalised });
  return parsed.success && startDate >= tomorrowInMY() ? parsed.data : null;
}

/** Reads the preview of the current choices from the server, a moment after they stop changing. */
function usePlanPreview(body: SlotPlanBody | null, enabled: boolean): [PlanState, (state: PlanState) => void] {
  const [previewPlan] = usePreviewSlotPlanMutation();
  const [state, setState] = useState<PlanState>({ kind: 'invalid' });
  const key = enabled && body ? JSON.stringify(body) : '';
  useEffect(() => {
    if (!key) {
      setState({ kind: 'invalid' });
      return;
    }
    const request: SlotPlanBody = JSON.parse(key);
    let current = true;
    setState({ kind: 'loading' });
    const timer = setTimeout(async () => {
      const result = await previewPlan(request);
      if (!current) return;
      if ('error' in result) setState({ kind: 'error' });
      else setState({ kind: 'ready', plan: result.data, times: [...request.startTimes].sort() });
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, previewPlan]);
  return [state, setState];
}

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
  const [addSlotPlan] = useAddSlotPlanMutation();
  const [extraTimes, setExtraTimes] = useState<string[]>([]);
  const [extraErrors, setExtraErrors] = useState<Array<string | undefined>>([]);
  const [planFailure, setPlanFailure] = useState<SlotPlan | { message: string } | null>(null);
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
  const multi = extraTimes.length > 0;
  const body = planBody(startDate, endDate, [startTime, ...extraTimes]);
  const [plan, setPlan] = usePlanPreview(body, multi);

  /** Checks the added times (the first is checked by the form's rules); true when all are usable. */
  const checkExtraTimes = (first: string): boolean => {
    const seen = new Set([slotTimes(first)?.startTime]);
    const found = extraTimes.map((t) => {
      if (!t) return CreateSlotsText.timeRequired;
      const slot = slotTimes(t);
      if (!slot) return parseSlotTime(t) === null ? SlotAddMessage.badTime : CreateSlotsText.timeTooLate;
      if (seen.has(slot.startTime)) return CreateSlotsText.timeRepeated;
      seen.add(slot.startTime);
      return undefined;
    });
    setExtraErrors(found);
    return found.every((e) => e === undefined);
  };

  const submitPlan = async (values: CreateSlotsFormInput) => {
    if (!checkExtraTimes(values.startTime)) return;
    const request = planBody(values.startDate, values.endDate, [values.startTime, ...extraTimes]);
    if (!request) return;
    setFailure(null);
    setPlanFailure(null);
    setPhase('submitting');
    const expected = plan.kind === 'ready' ? plan.plan.toCreate.length : weekdaysInRange(values.startDate, values.endDate).length * request.startTimes.length;
    const progressId = toast.progress(CreateSlotsText.creating(expected));
    const result = await addSlotPlan(request);
    if ('error' in result) {
      // All or nothing: a refusal lists every refused slot and nothing was created.
      const refused = refusedPlan(result.error);
      toast.update(progressId, { kind: 'error', message: CreateSlotsText.failed });
      if (refused) setPlan({ kind: 'ready', plan: refused, times: [...request.startTimes].sort() });
      setPlanFailure(refused ?? { message: serverMessage(result.error) ?? CreateSlotsText.failed });
      setPhase('idle');
      return;
    }
    dispatch(api.util.invalidateTags(['PublicSlots']));
    toast.update(progressId, { kind: 'success', message: CreateSlotsText.created(result.data.count) });
    setCreatedCount(result.data.count);
    setPhase('success');
    onDone();
  };

  const onSubmit = handleSubmit(async (values) => {
    if (extraTimes.length > 0) return submitPlan(values);
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
        {extraTimes.map((value, i) => (
          <TimeRow key={i}>
            <Field label={CreateSlotsText.timeLabel(i + 2)} htmlFor={`create-start-time-${i + 2}`} error={extraErrors[i]}>
              <Input
                id={`create-start-time-${i + 2}`}
                type="time"
                value={value}
                onChange={(e) => setExtraTimes((list) => list.map((t, j) => (j === i ? e.target.value : t)))}
              />
            </Field>
            <Button
              size="sm"
              variant="secondary"
              aria-label={CreateSlotsText.removeTime(i + 2)}
              onClick={() => {
                setExtraTimes((list) => list.filter((_, j) => j !== i));
                setExtraErrors((list) => list.filter((_, j) => j !== i));
              }}
              disabled={submitting}
            >
              Remove
            </Button>
          </TimeRow>
        ))}
        {1 + extraTimes.length < SLOT_PLAN_MAX_TIMES && (
          <div>
            <Button size="sm" variant="secondary" onClick={() => setExtraTimes((list) => [...list, ''])} disabled={submitting}>
              {CreateSlotsText.addTime}
            </Button>
          </div>
        )}
        {multi ? (
          <PlanPreview state={plan} />
        ) : (
          <Preview role="status" aria-live="polite">
            {weekdays.length > 0 && times && minutes !== null
              ? `${weekdays.length} weekday slot(s) will be created, each ${formatMinutes12(minutes)} - ${formatMinutes12(minutes + 30)}. Weekends are skipped.`
              : 'No slots will be created with these choices.'}
          </Preview>
        )}
        {planFailure && (
          <Alert role="alert">
            <p>{CreateSlotsText.failed}</p>
            {'refused' in planFailure ? (
              <>
                <p>{CreateSlotsText.nothingCreated}</p>
                <ul>
                  {planFailure.refused.map((r) => (
                    <li key={`${r.date} ${r.startTime}`}>{refusalLine(r)}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p>{planFailure.message}</p>
            )}
          </Alert>
        )}
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
