import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack, styled, useCatalog } from 'shared-ui';
import { Choice, ChoiceGroup, Dialog, InputField, SelectField } from 'shared-ui/forms';
import {
  api,
  CREATE_SUCCESS_PANEL_MS,
  DEFAULT_SLOT_START_TIME,
  formatMinutes12,
  parseSlotTime,
  serverMessage,
  SLOT_MAX_SEATS,
  SLOT_MINUTES,
  useAppDispatch,
  type CreateSlotsFormInput,
} from 'shared-api';
import { LATEST_SLOT_START_MINUTES, SlotAddMessage, createSlotsFormSchema, formResolver, latestSlotDateInMY } from 'shared-api/schemas';
import { SLOT_PLAN_DEFAULT_WEEKDAYS, SLOT_PLAN_MAX_TIMES, slotPlanBodySchema, type SlotPlan, type SlotPlanBody } from 'shared-api/slot-planning';
import { formatTime, formatWeekday } from '../../../lib/format';
import { refusedPlan, useAddSlotPlanMutation, usePreviewSlotPlanMutation } from '../api/slotPlanningApi';
import { createSlotsCatalog, createSlotsText, type CreateSlotsTranslate } from '../i18n';
import { MAX_RANGE_DAYS, dayOfWeek, daysInRange, firstWeekdayFromTomorrow, slotTimes, tomorrowInMY } from '../utils/weekdays';
import { formField } from '../../../lib/formField';

// The contract's rules plus the dialog's own cap on the range (the server's add-many has the same).
const createSlotsDialogSchema = createSlotsFormSchema.superRefine(({ startDate, endDate }, ctx) => {
  if (daysInRange(startDate, endDate).length > MAX_RANGE_DAYS)
    ctx.addIssue({
      code: 'custom',
      path: ['endDate'],
      message: createSlotsText('rangeTooLong', { max: MAX_RANGE_DAYS }),
    });
});

const FORM_ID = 'create-slots-form';
/** Monday to Friday (dayjs day numbers): weekend slots are refused by the slot rules, so they are not offered. */
const WEEKDAYS = [1, 2, 3, 4, 5] as const;
const WEEKDAY_TEXT = { 1: 'monday', 2: 'tuesday', 3: 'wednesday', 4: 'thursday', 5: 'friday' } as const;
/** "Children at a time": 1 to SLOT_MAX_SEATS, one per assessor (issue 37). */
const SEAT_CHOICES = Array.from({ length: SLOT_MAX_SEATS }, (_, index) => String(index + 1));

const Panel = styled.div`
  padding: ${({ theme }) => theme.space[4]};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.success};
  background: ${({ theme }) => theme.colors.successSubtle};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

const Box = styled.div<{ $tone: 'danger' | 'warning' | 'plain' }>`
  ${({ theme, $tone }) =>
    $tone === 'plain'
      ? ''
      : `padding: ${theme.space[3]} ${theme.space[4]};
         border-radius: ${theme.radii.md};
         border: 1px solid ${$tone === 'danger' ? theme.colors.danger : theme.colors.warning};
         background: ${$tone === 'danger' ? theme.colors.dangerSubtle : theme.colors.warningSubtle};`}
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
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

const Row = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
`;

const TimeRow = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space[2]};
  align-items: flex-end;
  > :first-child {
    flex: 1;
  }
`;

/** The weekdays side by side, as many on a line as fit. */
const WeekdayChoices = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => `0 ${theme.space[4]}`};
`;

const refusalLine = (t: CreateSlotsTranslate, r: SlotPlan['refused'][number]) =>
  t('refusedLine', {
    day: formatWeekday(r.date),
    start: formatTime(r.startTime),
    end: formatTime(r.endTime),
    reason: r.message,
  });

/** The times the plan creates, and with more than one child at a time, the seats they make. */
function planCount(t: CreateSlotsTranslate, plan: SlotPlan, times: string[]): string {
  const count = t('planCount', { count: plan.toCreate.length, times: times.map(formatTime).join(', ') });
  if (plan.seats === undefined) return count;
  return `${count} ${t('planSeats', { seats: plan.seats, total: plan.seatsToCreate ?? plan.toCreate.length * plan.seats })}`;
}

type PreviewListProps = {
  tone: 'warning' | 'plain';
  heading: string;
  label: string;
  lines: Array<{ key: string; text: string }>;
};

/** One list of the preview (holidays warned about or skipped, refusals) under what it is; nothing when empty. */
function PreviewList({ tone, heading, label, lines }: PreviewListProps) {
  if (lines.length === 0) return null;
  return (
    <Box $tone={tone}>
      <p>{heading}</p>
      <ul aria-label={label}>
        {lines.map(({ key, text }) => (
          <li key={key}>{text}</li>
        ))}
      </ul>
    </Box>
  );
}

/** Why the choices would create nothing (a text id), when a plain reason is known. */
type WhyNothing = 'whyNoWeekdayChosen' | 'whyNoWeekday' | 'whyAllRefused' | 'whyHolidays' | 'whyTooEarly' | 'whyEndBeforeStart';

/** The reason choices that make no request would create nothing (times are said beside their fields). */
function whyInvalid(choices: { startDate: string; endDate: string; weekdays: number[] }, tomorrow: string): WhyNothing | null {
  if (choices.weekdays.length === 0) return 'whyNoWeekdayChosen';
  if (choices.startDate && choices.startDate < tomorrow) return 'whyTooEarly';
  if (choices.startDate && choices.endDate && choices.endDate < choices.startDate) return 'whyEndBeforeStart';
  const days = daysInRange(choices.startDate, choices.endDate);
  if (days.length > 0 && days.length <= MAX_RANGE_DAYS && !days.some((d) => choices.weekdays.includes(dayOfWeek(d))))
    return 'whyNoWeekday';
  return null;
}

type PlanState = { kind: 'invalid' } | { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; plan: SlotPlan; times: string[] };

/**
 * What the server says the choices would create: the count of slots it would create (never the refused ones), the
 * refusals, and the public holidays on the planned days, skipped or warned about. Each list is plain text in the
 * dialog's scrolling body (no scroll box of its own, which a keyboard could not reach).
 */
function PlanPreview({ state, creating, why }: { state: PlanState; creating: boolean; why: WhyNothing | null }) {
  const { t } = useCatalog(createSlotsCatalog);
  const status = (text: string) => (
    <Preview role="status" aria-live="polite">
      {text}
    </Preview>
  );
  // Nothing to create is said with its reason, so the choice to change is plain.
  const nothing = (reason: WhyNothing | null) => (reason ? `${t('nothingToCreate')} ${t(reason)}` : t('nothingToCreate'));
  if (state.kind === 'invalid') return status(nothing(why));
  if (state.kind === 'loading') return status(t('checking'));
  if (state.kind === 'error') return status(t('previewFailed'));
  const { plan, times } = state;
  const skipped = plan.holidays.filter((h) => h.skipped);
  const warned = plan.holidays.filter((h) => !h.skipped);
  const holiday = (h: SlotPlan['holidays'][number]) => ({
    key: h.date,
    text: t('holidayLine', { day: formatWeekday(h.date), name: h.name }),
  });
  return (
    <Stack>
      {status(
        creating
          ? t('creating', { count: plan.toCreate.length })
          : plan.toCreate.length > 0
            ? planCount(t, plan, times)
            : nothing(plan.refused.length > 0 ? 'whyAllRefused' : plan.holidays.some((h) => h.skipped) ? 'whyHolidays' : 'whyNoWeekday'),
      )}
      <PreviewList tone="warning" heading={t('holidaysWarned', { count: warned.length })} label={t('holidaysList')} lines={warned.map(holiday)} />
      <PreviewList tone="plain" heading={t('holidaysSkipped', { count: skipped.length })} label={t('holidaysList')} lines={skipped.map(holiday)} />
      <PreviewList
        tone="plain"
        heading={t('refusedHeading', { count: plan.refused.length })}
        label={t('refusedList')}
        lines={plan.refused.map((r) => ({ key: `${r.date} ${r.startTime}`, text: refusalLine(t, r) }))}
      />
      {plan.toCreate.length > 0 && (
        <details>
          <summary>{t('showSlots')}</summary>
          <ul aria-label={t('toCreateList')}>
            {plan.toCreate.map((item) => (
              <li key={`${item.date} ${item.startTime}`}>
                {t('slotLine', {
                  day: formatWeekday(item.date),
                  start: formatTime(item.startTime),
                  end: formatTime(item.endTime),
                })}
              </li>
            ))}
          </ul>
        </details>
      )}
    </Stack>
  );
}

/** The request body of the choices, or null while they cannot make one (the preview then says nothing would be created). */
function planBody(choices: {
  startDate: string;
  endDate: string;
  times: string[];
  weekdays: number[];
  skipHolidays: boolean;
  seats?: string;
}): SlotPlanBody | null {
  const normalised = choices.times.map((t) => slotTimes(t)?.startTime ?? null);
  if (normalised.some((t) => t === null) || new Set(normalised).size !== normalised.length || choices.weekdays.length === 0) return null;
  const parsed = slotPlanBodySchema.safeParse({
    fromDate: choices.startDate,
    toDate: choices.endDate,
    weekdays: [...choices.weekdays].sort(),
    startTimes: normalised,
    skipHolidays: choices.skipHolidays,
    // One child at a time is left out: the request a one-seat plan always was.
    ...(Number(choices.seats) > 1 ? { seats: Number(choices.seats) } : {}),
  });
  return parsed.success && choices.startDate >= tomorrowInMY() ? parsed.data : null;
}

/** Reads the preview of the current choices from the server, a moment after they stop changing. */
function usePlanPreview(body: SlotPlanBody | null): [PlanState, (state: PlanState) => void] {
  const [previewPlan] = usePreviewSlotPlanMutation();
  const [state, setState] = useState<PlanState>({ kind: 'invalid' });
  const key = body ? JSON.stringify(body) : '';
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

/** The one success message; it takes focus because the form (and the focused button) just left the dialog. */
function SuccessPanel({ message }: { message: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Panel ref={ref} role="status" tabIndex={-1}>
      {message}
    </Panel>
  );
}

type Phase = 'idle' | 'submitting' | 'success';
type CreateSlotsDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

/**
 * Create New Slots: a date range, one or more start times, the weekdays and whether to skip public holidays. The
 * server previews the plan and creates all of it in one request, or nothing and says why. Its buttons sit in the
 * dialog's footer, so they stay in view however long the preview grows.
 */
export function CreateSlotsDialog({ open, onOpenChange }: CreateSlotsDialogProps) {
  const { t } = useCatalog(createSlotsCatalog);
  const dispatch = useAppDispatch();
  const [phase, setPhase] = useState<Phase>('idle');
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

  /** After a success: close and refresh the list (when the panel's time is up, or earlier on Escape). */
  const finish = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = undefined;
    setPhase('idle');
    onOpenChange(false);
    dispatch(api.util.invalidateTags(['StaffSlots']));
  };

  const submitting = phase === 'submitting';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Closing mid-way would hide whether the slots were created; wait for the answer.
        if (!next && phase === 'submitting') return;
        if (!next && phase === 'success') return finish();
        if (!next) setPhase('idle');
        onOpenChange(next);
      }}
      title={t('title')}
      description={t('description')}
      // Wide enough on a desk for the dates side by side and the five weekdays on one line.
      size="lg"
      footer={
        open && phase !== 'success' ? (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={submitting}>
              {t('cancel')}
            </Button>
            <Button type="submit" form={FORM_ID} variant="primary" loading={submitting}>
              {submitting ? t('submitting') : t('submit')}
            </Button>
          </>
        ) : undefined
      }
    >
      {open && (
        <CreateSlotsForm
          phase={phase}
          setPhase={setPhase}
          onDone={() => {
            // The success panel stays 1.5 s; then the dialog closes and the list refreshes.
            closeTimer.current = setTimeout(finish, CREATE_SUCCESS_PANEL_MS);
          }}
        />
      )}
    </Dialog>
  );
}

type CreateSlotsFormProps = { phase: Phase; setPhase: (phase: Phase) => void; onDone: () => void };

function CreateSlotsForm({ phase, setPhase, onDone }: CreateSlotsFormProps) {
  const { t } = useCatalog(createSlotsCatalog);
  const dispatch = useAppDispatch();
  const [addSlotPlan] = useAddSlotPlanMutation();
  const [extraTimes, setExtraTimes] = useState<string[]>([]);
  const [extraErrors, setExtraErrors] = useState<Array<string | undefined>>([]);
  const [weekdays, setWeekdays] = useState<number[]>([...SLOT_PLAN_DEFAULT_WEEKDAYS]);
  const [skipHolidays, setSkipHolidays] = useState(true);
  const [failure, setFailure] = useState<SlotPlan | { message: string } | null>(null);
  const [tomorrow] = useState(() => tomorrowInMY());
  // Opens on a day slots can be made for: tomorrow, or the Monday after when tomorrow is a weekend day.
  const [firstDay] = useState(() => firstWeekdayFromTomorrow());
  const [latest] = useState(() => latestSlotDateInMY());
  const [created, setCreated] = useState({ times: 0, seats: 1 });
  const form = useForm<CreateSlotsFormInput>({
    defaultValues: { startDate: firstDay, endDate: firstDay, startTime: DEFAULT_SLOT_START_TIME, seats: '1' },
    resolver: formResolver(createSlotsDialogSchema),
  });
  const { handleSubmit, watch } = form;

  const [startDate, endDate, startTime, seats] = watch(['startDate', 'endDate', 'startTime', 'seats']);
  const body = planBody({ startDate, endDate, times: [startTime, ...extraTimes], weekdays, skipHolidays, seats });
  const [plan, setPlan] = usePlanPreview(body);

  /** Checks the added times (the first is checked by the form's rules); true when all are usable. */
  const checkExtraTimes = (first: string): boolean => {
    const seen = new Set([slotTimes(first)?.startTime]);
    const found = extraTimes.map((time) => {
      if (!time) return t('timeRequired');
      const slot = slotTimes(time);
      if (!slot) return parseSlotTime(time) === null ? SlotAddMessage.badTime : SlotAddMessage.timeTooLate;
      if (seen.has(slot.startTime)) return t('timeRepeated');
      seen.add(slot.startTime);
      return undefined;
    });
    setExtraErrors(found);
    return found.every((e) => e === undefined);
  };

  const onSubmit = handleSubmit(async (values) => {
    if (!checkExtraTimes(values.startTime)) return;
    const request = planBody({
      startDate: values.startDate,
      endDate: values.endDate,
      times: [values.startTime, ...extraTimes],
      weekdays,
      skipHolidays,
      seats: values.seats,
    });
    if (!request) return;
    setFailure(null);
    setPhase('submitting');
    const result = await addSlotPlan(request);
    if ('error' in result) {
      // All or nothing: a refusal lists every refused slot, and nothing was created.
      const refused = refusedPlan(result.error);
      if (refused) setPlan({ kind: 'ready', plan: refused, times: [...request.startTimes].sort() });
      setFailure(refused ?? { message: serverMessage(result.error) ?? t('failed') });
      setPhase('idle');
      return;
    }
    dispatch(api.util.invalidateTags(['PublicSlots']));
    // Each time is a row per seat: the times are the distinct starts created.
    setCreated({ times: new Set(result.data.created.map((slot) => slot.date)).size, seats: request.seats ?? 1 });
    setPhase('success');
    onDone();
  });

  if (phase === 'success')
    return (
      <SuccessPanel
        message={created.seats > 1 ? t('createdSeats', { count: created.times, seats: created.seats }) : t('created', { count: created.times })}
      />
    );

  const submitting = phase === 'submitting';
  const toggleWeekday = (day: number) => setWeekdays((list) => (list.includes(day) ? list.filter((d) => d !== day) : [...list, day]));
  return (
    <form id={FORM_ID} onSubmit={onSubmit} noValidate aria-label={t('title')}>
      <Stack>
        <Row>
          <InputField label={t('startDate')} id="create-start-date" type="date" min={tomorrow} max={latest} {...formField(form, 'startDate')} />
          <InputField
            label={t('endDate')}
            id="create-end-date"
            type="date"
            min={startDate && startDate > tomorrow ? startDate : tomorrow}
            max={latest}
            {...formField(form, 'endDate')}
          />
        </Row>
        <ChoiceGroup disabled={submitting}>
          <legend>{t('weekdays')}</legend>
          <WeekdayChoices>
            {WEEKDAYS.map((day) => (
              <Choice key={day}>
                <input type="checkbox" checked={weekdays.includes(day)} onChange={() => toggleWeekday(day)} />
                {t(WEEKDAY_TEXT[day])}
              </Choice>
            ))}
          </WeekdayChoices>
        </ChoiceGroup>
        <InputField
          label={t('startTime')}
          id="create-start-time"
          hint={t('startTimeHint', {
            minutes: SLOT_MINUTES,
            latest: formatMinutes12(LATEST_SLOT_START_MINUTES),
          })}
          type="time"
          {...formField(form, 'startTime')}
        />
        {extraTimes.map((value, i) => (
          <TimeRow key={i}>
            <InputField
              label={t('timeLabel', { n: i + 2 })}
              id={`create-start-time-${i + 2}`}
              error={extraErrors[i]}
              type="time"
              value={value}
              onChange={(e) => setExtraTimes((list) => list.map((v, j) => (j === i ? e.target.value : v)))}
            />
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
        <SelectField label={t('seats')} id="create-seats" hint={t('seatsHint')} disabled={submitting} {...formField(form, 'seats')}>
          {SEAT_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <Choice>
          <input type="checkbox" checked={skipHolidays} onChange={(e) => setSkipHolidays(e.target.checked)} disabled={submitting} />
          {t('skipHolidays')}
        </Choice>
        <PlanPreview state={plan} creating={submitting} why={whyInvalid({ startDate, endDate, weekdays }, tomorrow)} />
        {failure && (
          <Box $tone="danger" role="alert">
            <p>{t('failed')}</p>
            {'refused' in failure ? (
              <>
                <p>{t('nothingCreated')}</p>
                <ul>
                  {failure.refused.map((r) => (
                    <li key={`${r.date} ${r.startTime}`}>{refusalLine(t, r)}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p>{failure.message}</p>
            )}
          </Box>
        )}
      </Stack>
    </form>
  );
}
