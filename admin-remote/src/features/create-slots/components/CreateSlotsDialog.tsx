import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Inline, Stack, styled, useCatalog, useToast } from 'shared-ui';
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
import { createSlotsCatalog, createSlotsText, type CreateSlotsTranslate } from '../i18n';
import { formatDay, MAX_RANGE_DAYS, daysInRange, slotTimes, tomorrowInMY, weekdaysInRange } from '../utils/weekdays';

// The contract's rules plus the dialog's own limits: one submission fires one request per day, so the range is capped.
const createSlotsDialogSchema = createSlotsFormSchema.superRefine(({ startDate, endDate, startTime }, ctx) => {
  if (daysInRange(startDate, endDate).length > MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: ['endDate'], message: createSlotsText('rangeTooLong', { max: MAX_RANGE_DAYS }) });
  if (startTime && slotTimes(startTime) === null) ctx.addIssue({ code: 'custom', path: ['startTime'], message: createSlotsText('timeTooLate') });
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
const refusalLine = (t: CreateSlotsTranslate, r: SlotPlan['refused'][number]) =>
  t('refusedLine', { day: formatDay(r.date), start: timeText(r.startTime), end: timeText(r.endTime), reason: r.message });

/** The multi-time plan as the server previews it: the count, the refusals, and the slots on request. */
function PlanPreview({ state }: { state: PlanState }) {
  const { t } = useCatalog(createSlotsCatalog);
  if (state.kind === 'invalid') return <Preview role="status" aria-live="polite">{t('nothingToCreate')}</Preview>;
  if (state.kind === 'loading') return <Preview role="status" aria-live="polite">{t('checking')}</Preview>;
  if (state.kind === 'error') return <Preview role="status" aria-live="polite">{t('previewFailed')}</Preview>;
  const { plan, times } = state;
  return (
    <PlanBox>
      <Preview role="status" aria-live="polite">
        {plan.toCreate.length > 0
          ? t('planCount', { count: plan.toCreate.length, times: times.map(timeText).join(', ') })
          : t('nothingToCreate')}
      </Preview>
      {plan.refused.length > 0 && (
        <>
          <p>{t('refusedHeading', { count: plan.refused.length })}</p>
          <ul aria-label={t('refusedList')}>
            {plan.refused.map((r) => (
              <li key={`${r.date} ${r.startTime}`}>{refusalLine(t, r)}</li>
            ))}
          </ul>
        </>
      )}
      {plan.toCreate.length > 0 && (
        <details>
          <summary>{t('showSlots')}</summary>
          <ul aria-label={t('toCreateList')}>
            {plan.toCreate.map((item) => (
              <li key={`${item.date} ${item.startTime}`}>
                {t('slotLine', { day: formatDay(item.date), start: timeText(item.startTime), end: timeText(item.endTime) })}
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
  const { t } = useCatalog(createSlotsCatalog);
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
      title={t('title')}
      description={t('description')}
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
  const { t } = useCatalog(createSlotsCatalog);
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
    const found = extraTimes.map((time) => {
      if (!time) return t('timeRequired');
      const slot = slotTimes(time);
      if (!slot) return parseSlotTime(time) === null ? SlotAddMessage.badTime : t('timeTooLate');
      if (seen.has(slot.startTime)) return t('timeRepeated');
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
    const progressId = toast.progress(t('creating', { count: expected }));
    const result = await addSlotPlan(request);
    if ('error' in result) {
      // All or nothing: a refusal lists every refused slot and nothing was created.
      const refused = refusedPlan(result.error);
      toast.update(progressId, { kind: 'error', message: t('failed') });
      if (refused) setPlan({ kind: 'ready', plan: refused, times: [...request.startTimes].sort() });
      setPlanFailure(refused ?? { message: serverMessage(result.error) ?? t('failed') });
      setPhase('idle');
      return;
    }
    dispatch(api.util.invalidateTags(['PublicSlots']));
    toast.update(progressId, { kind: 'success', message: t('created', { count: result.data.count }) });
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
    const progressId = toast.progress(t('creating', { count: days.length }));
    const failed: DayFailure[] = [];
    // One call per day, in order, so a failure names its day and the server is not flooded.
    for (const day of days) {
      const result = await addSlot({ date: day, ...slot });
      if ('error' in result) failed.push({ day, reason: serverMessage(result.error) ?? t('dayNotCreated') });
    }
    const created = days.length - failed.length;
    if (created > 0) dispatch(api.util.invalidateTags(['PublicSlots']));
    if (failed.length === 0) {
      toast.update(progressId, { kind: 'success', message: t('created', { count: created }) });
      setCreatedCount(created);
      setPhase('success');
      onDone();
      return;
    }
    if (created > 0) {
      toast.update(progressId, { kind: 'success', message: t('created', { count: created }) });
      toast.error(t('failed'));
      dispatch(api.util.invalidateTags(['StaffSlots']));
    } else {
      toast.update(progressId, { kind: 'error', message: t('failed') });
    }
    setFailure({ created, days: failed, total: days.length });
    setPhase('idle');
  });

  if (phase === 'success') {
    return <SuccessPanel message={t('created', { count: createdCount })} />;
  }

  const submitting = phase === 'submitting';
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('title')}>
      <Stack>
        <Field label={t('startDate')} htmlFor="create-start-date" error={errors.startDate?.message}>
          <Input
            id="create-start-date"
            type="date"
            min={tomorrow}
            {...register('startDate')}
          />
        </Field>
        <Field label={t('endDate')} htmlFor="create-end-date" error={errors.endDate?.message}>
          <Input
            id="create-end-date"
            type="date"
            min={startDate && startDate > tomorrow ? startDate : tomorrow}
            {...register('endDate')}
          />
        </Field>
        <Field label={t('startTime')} htmlFor="create-start-time" error={errors.startTime?.message} hint={t('startTimeHint')}>
          <Input
            id="create-start-time"
            type="time"
            {...register('startTime')}
          />
        </Field>
        {extraTimes.map((value, i) => (
          <TimeRow key={i}>
            <Field label={t('timeLabel', { n: i + 2 })} htmlFor={`create-start-time-${i + 2}`} error={extraErrors[i]}>
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
              aria-label={t('removeTime', { n: i + 2 })}
              onClick={() => {
                setExtraTimes((list) => list.filter((_, j) => j !== i));
                setExtraErrors((list) => list.filter((_, j) => j !== i));
              }}
              disabled={submitting}
            >
              {t('remove')}
            </Button>
          </TimeRow>
        ))}
        {1 + extraTimes.length < SLOT_PLAN_MAX_TIMES && (
          <div>
            <Button size="sm" variant="secondary" onClick={() => setExtraTimes((list) => [...list, ''])} disabled={submitting}>
              {t('addTime')}
            </Button>
          </div>
        )}
        {multi ? (
          <PlanPreview state={plan} />
        ) : (
          <Preview role="status" aria-live="polite">
            {weekdays.length > 0 && times && minutes !== null
              ? t('preview', { count: weekdays.length, start: formatMinutes12(minutes), end: formatMinutes12(minutes + 30) })
              : t('nothingToCreate')}
          </Preview>
        )}
        {planFailure && (
          <Alert role="alert">
            <p>{t('failed')}</p>
            {'refused' in planFailure ? (
              <>
                <p>{t('nothingCreated')}</p>
                <ul>
                  {planFailure.refused.map((r) => (
                    <li key={`${r.date} ${r.startTime}`}>{refusalLine(t, r)}</li>
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
            <p>{t('failed')}</p>
            {failure.created > 0 && <p>{t('partlyCreated', { created: failure.created, total: failure.total })}</p>}
            <ul>
              {failure.days.map((f) => (
                <li key={f.day}>{t('dayFailure', { day: formatDay(f.day), reason: f.reason })}</li>
              ))}
            </ul>
          </Alert>
        )}
        <Inline>
          <Button variant="secondary" onClick={onCancel} disabled={submitting}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="primary" loading={submitting}>
            {submitting ? t('submitting') : t('submit')}
          </Button>
        </Inline>
      </Stack>
    </form>
  );
}
