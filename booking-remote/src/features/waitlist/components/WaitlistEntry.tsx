import { useState } from 'react';
import { Link } from 'react-router-dom';
import { schoolName, useAppDispatch } from 'shared-api';
import { WAITLIST_PARTS_OF_DAY, waitlistDatesProblem, waitlistSettings, type PartOfDay, type WaitlistEntryView } from 'shared-api/waitlist';
import { Button, ErrorPanel, Spinner, Stack, styled, useCatalog, useToast } from 'shared-ui';
import { ConfirmDialog, Field, Input, Select } from 'shared-ui/forms';
import { Actions, Details, LinkButton, ResultPanel as Panel } from '../../../lib/resultLayout';
import { useGetWaitlistEntryQuery, useLeaveWaitlistMutation, useUpdateWaitlistEntryMutation, waitlistApi } from '../api/waitlistApi';
import { waitlistCatalog, type WaitlistTextId } from '../i18n';
import { DATES_TEXT, initialDates } from '../utils/joinForm';
import { dayText, errorText, instant, slotDay, slotStart, statusOf } from '../utils/words';

const linkRefusals: Record<number, WaitlistTextId> = { 404: 'invalidLink', 429: 'tooManyTries' };

const DateRow = styled.div`
  display: grid;
  align-items: end;
  grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
  gap: ${({ theme }) => theme.space[3]};
`;

const Note = styled.p`
  padding: ${({ theme }) => theme.space[3]} ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme }) => theme.colors.info};
  border-left-width: 4px;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.infoSubtle};
`;

/** `/waitlist/:token`: the parent's place, dates, change of dates and leaving; every ended state says what next. */
export function WaitlistEntry({ token }: { token: string }) {
  const words = useCatalog(waitlistCatalog);
  const { t, locale } = words;
  const toast = useToast();
  const dispatch = useAppDispatch();
  const query = useGetWaitlistEntryQuery(token);
  const [update, updating] = useUpdateWaitlistEntryMutation();
  const [leave, leaving] = useLeaveWaitlistMutation();
  const [editing, setEditing] = useState<{ fromDate: string; toDate: string; partOfDay: PartOfDay } | null>(null);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const title = t('entryTitle');
  const limits = initialDates(undefined);

  const replace = (view: WaitlistEntryView) => dispatch(waitlistApi.util.upsertQueryData('getWaitlistEntry', token, view));

  if (query.isLoading) {
    return (
      <Panel aria-labelledby="waitlist-title" aria-busy="true">
        <h1 id="waitlist-title">{title}</h1>
        <Spinner label={t('loading')} />
      </Panel>
    );
  }
  if (!query.data) {
    const status = statusOf(query.error);
    const refused = typeof status === 'number' ? linkRefusals[status] : undefined;
    return (
      <Panel aria-labelledby="waitlist-title">
        <h1 id="waitlist-title">{title}</h1>
        {refused ? <p role="alert">{t(refused)}</p> : <ErrorPanel message={errorText(query.error, words, 'loadFailed')} onRetry={() => void query.refetch()} />}
        <Actions>
          <LinkButton as={Link} to="/" $primary>
            {t('seeTimetable')}
          </LinkButton>
        </Actions>
      </Panel>
    );
  }

  const { entry, offer } = query.data;
  const waiting = entry.state === 'waiting';
  const stateText =
    entry.state === 'offered' && offer
      ? Date.parse(offer.startsAt) > Date.now()
        ? t('state.offeredFrom', { date: slotDay(offer.slot, locale), time: slotStart(offer.slot, locale), from: instant(offer.startsAt, locale) })
        : t('state.offeredUntil', { date: slotDay(offer.slot, locale), time: slotStart(offer.slot, locale), until: instant(offer.expiresAt, locale) })
      : t(`state.${entry.state}`);

  const problem = editing ? waitlistDatesProblem(editing.fromDate, editing.toDate) : null;
  const save = async () => {
    if (!editing || problem) return;
    try {
      replace(await update({ token, dates: editing }).unwrap());
      setEditing(null);
      toast.success(t('datesSaved'));
    } catch (error) {
      toast.error(statusOf(error) === 409 ? t('notWaiting') : errorText(error, words, 'saveFailed'));
      if (statusOf(error) === 409) void query.refetch();
    }
  };
  const doLeave = async () => {
    try {
      replace(await leave(token).unwrap());
      setConfirmLeave(false);
      toast.success(t('leftToast'));
    } catch (error) {
      setConfirmLeave(false);
      toast.error(errorText(error, words, 'leaveFailed'));
    }
  };

  return (
    <Panel aria-labelledby="waitlist-title">
      <h1 id="waitlist-title">{title}</h1>
      <Note role="status">{stateText}</Note>
      <Details>
        {entry.place !== null && (
          <>
            <dt>{t('place')}</dt>
            <dd>{t('placeValue', { place: entry.place })}</dd>
          </>
        )}
        <dt>{t('school')}</dt>
        <dd>{schoolName(entry.school, locale)}</dd>
        <dt>{t('name')}</dt>
        <dd>{entry.name}</dd>
        <dt>{t('dates')}</dt>
        <dd>{entry.fromDate === entry.toDate ? dayText(entry.fromDate, locale) : t('datesValue', { from: dayText(entry.fromDate, locale), to: dayText(entry.toDate, locale) })}</dd>
        <dt>{t('timeOfDay')}</dt>
        <dd>{t(`partOfDay.${entry.partOfDay}`)}</dd>
      </Details>
      {editing && (
        <Stack gap={3}>
          <DateRow>
            <Field label={t('fromDate')} htmlFor="fromDate" hint={/^\d{4}-\d{2}-\d{2}$/.test(editing.fromDate) ? dayText(editing.fromDate, locale) : undefined} error={problem && problem !== 'order' && problem !== 'tooFar' ? t(DATES_TEXT[problem], { weeks: waitlistSettings().weeksAhead }) : undefined}>
              <Input id="fromDate" type="date" min={limits.min} max={limits.max} value={editing.fromDate} onChange={(event) => setEditing({ ...editing, fromDate: event.target.value })} />
            </Field>
            <Field label={t('toDate')} htmlFor="toDate" hint={/^\d{4}-\d{2}-\d{2}$/.test(editing.toDate) ? dayText(editing.toDate, locale) : undefined} error={problem === 'order' || problem === 'tooFar' ? t(DATES_TEXT[problem], { weeks: waitlistSettings().weeksAhead }) : undefined}>
              <Input id="toDate" type="date" min={limits.min} max={limits.max} value={editing.toDate} onChange={(event) => setEditing({ ...editing, toDate: event.target.value })} />
            </Field>
          </DateRow>
          <Field label={t('partOfDay')} htmlFor="partOfDay">
            <Select id="partOfDay" value={editing.partOfDay} onChange={(event) => setEditing({ ...editing, partOfDay: event.target.value as PartOfDay })}>
              {WAITLIST_PARTS_OF_DAY.map((part) => (
                <option key={part} value={part}>
                  {t(`partOfDay.${part}`)}
                </option>
              ))}
            </Select>
          </Field>
          <Actions>
            <Button variant="secondary" onClick={() => setEditing(null)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void save()} loading={updating.isLoading} disabled={updating.isLoading || problem !== null}>
              {t('saveDates')}
            </Button>
          </Actions>
        </Stack>
      )}
      {!editing && (
        <Actions>
          {waiting && (
            <Button variant="secondary" onClick={() => setEditing({ fromDate: entry.fromDate < limits.min ? limits.min : entry.fromDate, toDate: entry.toDate, partOfDay: entry.partOfDay })}>
              {t('changeDates')}
            </Button>
          )}
          {(waiting || entry.state === 'offered') && (
            <Button variant="secondary" onClick={() => setConfirmLeave(true)}>
              {t('leave')}
            </Button>
          )}
          <LinkButton as={Link} to="/" $primary={!waiting && entry.state !== 'offered'}>
            {t('seeTimetable')}
          </LinkButton>
        </Actions>
      )}
      <ConfirmDialog
        open={confirmLeave}
        onOpenChange={setConfirmLeave}
        title={t('leaveConfirmTitle')}
        message={t('leaveConfirm')}
        confirmLabel={t('leaveConfirmButton')}
        cancelLabel={t('keepPlace')}
        onConfirm={() => void doLeave()}
        busy={leaving.isLoading}
        tone="danger"
      />
    </Panel>
  );
}
