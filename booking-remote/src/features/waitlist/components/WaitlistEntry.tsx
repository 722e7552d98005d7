import { useState } from 'react';
import { Link } from 'react-router-dom';
import { schoolName, useAppDispatch } from 'shared-api';
import { WAITLIST_BLOCK_DAYS, WaitlistErrorCode, waitlistDatesProblem, type PartOfDay, type WaitlistEntryView } from 'shared-api/waitlist';
import { Button, Stack, useToast } from 'shared-ui';
import { ConfirmDialog } from 'shared-ui/forms';
import { failureOf } from '../../../lib/apiError';
import { Callout } from '../../../lib/callout';
import { LinkFailure, LinkPanel } from '../../../lib/linkPage';
import { Actions, Details, LinkButton } from '../../../lib/resultLayout';
import {
  useConfirmWaitlistEntryMutation,
  useDisownWaitlistEntryMutation,
  useGetWaitlistEntryQuery,
  useLeaveWaitlistMutation,
  useUpdateWaitlistEntryMutation,
  waitlistApi,
} from '../api/waitlistApi';
import { useWaitlistWords } from '../i18n';
import { initialDates } from '../utils/joinForm';
import { datesText, dayText, errorText, instant, linkRefusalOf, slotDay, slotStart } from '../utils/words';
import { DatesFields } from './DatesFields';

type Props = {
  token: string;
  /** The confirmation mail's "this wasn't me" link (`?not-me=1`): the page asks that question first; only a press acts. */
  askNotMe?: boolean;
};

/**
 * `/waitlist/:token`: a request to confirm ("Confirm my place" / "This wasn't me"), then the parent's place, dates,
 * change of dates and leaving; every ended state says what next. Opening the page never changes anything.
 */
export function WaitlistEntry({ token, askNotMe = false }: Props) {
  const words = useWaitlistWords();
  const { t, locale } = words;
  const toast = useToast();
  const dispatch = useAppDispatch();
  const query = useGetWaitlistEntryQuery(token);
  const [update, updating] = useUpdateWaitlistEntryMutation();
  const [leave, leaving] = useLeaveWaitlistMutation();
  const [confirm, confirming] = useConfirmWaitlistEntryMutation();
  const [disown, disowning] = useDisownWaitlistEntryMutation();
  const [notMeAsked, setNotMeAsked] = useState(askNotMe);
  const [blockedUntil, setBlockedUntil] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ fromDate: string; toDate: string; partOfDay: PartOfDay } | null>(null);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const title = t('entryTitle');
  const limits = initialDates(undefined);

  const replace = (view: WaitlistEntryView) => dispatch(waitlistApi.util.upsertQueryData('getWaitlistEntry', token, view));

  if (query.isLoading) return <LinkPanel id="waitlist-title" title={title} loading={t('loading')} />;
  if (!query.data) {
    const refused = linkRefusalOf(query.error);
    return (
      <LinkPanel id="waitlist-title" title={title}>
        <LinkFailure refusal={refused && t(refused)} failure={errorText(query.error, words, 'loadFailed')} onRetry={() => void query.refetch()} />
        <Actions>
          <LinkButton as={Link} to="/" $primary>
            {t('seeTimetable')}
          </LinkButton>
        </Actions>
      </LinkPanel>
    );
  }

  const { entry, offer } = query.data;
  const waiting = entry.state === 'waiting';
  const pending = entry.state === 'pending';
  // Details typed by whoever asked are gone once the request ended unconfirmed or disowned.
  const ended = entry.state === 'unconfirmed' || entry.state === 'disowned' || blockedUntil !== null;
  // A request still to confirm is not yet a place: the page says what it asks.
  const heading = pending && !ended ? t('confirmTitle') : title;
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
      toast.error(failureOf(error).status === 409 ? t('notWaiting') : errorText(error, words, 'saveFailed'));
      if (failureOf(error).status === 409) void query.refetch();
    }
  };
  const doConfirm = async () => {
    setRefusal(null);
    try {
      replace(await confirm(token).unwrap());
      toast.success(t('confirmed'));
    } catch (error) {
      const failure = failureOf(error);
      // Said in place, beside the button it refused: the parent sees why and what to do.
      setRefusal(
        failure.code === WaitlistErrorCode.WAITLIST_ALREADY_ON
          ? t('alreadyOn')
          : failure.code === WaitlistErrorCode.WAITLIST_NOT_PENDING && failure.reason?.rule !== 'expired'
            ? t('notPending')
            : errorText(error, words, 'confirmFailed'),
      );
      if (failure.status === 409) void query.refetch();
    }
  };
  const doDisown = async () => {
    try {
      const answer = await disown(token).unwrap();
      setNotMeAsked(false);
      setBlockedUntil(answer.blockedUntil);
    } catch (error) {
      setNotMeAsked(false);
      toast.error(failureOf(error).status === 409 ? t('notPending') : errorText(error, words, 'notMeFailed'));
      if (failureOf(error).status === 409) void query.refetch();
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
    <LinkPanel id="waitlist-title" title={heading}>
      <Callout as="p" role="status">
        {blockedUntil ? t('notMeDone', { until: dayText(blockedUntil.slice(0, 10), locale) }) : stateText}
      </Callout>
      {!ended && (
      <Details>
        {entry.place !== null && (
          <>
            <dt>{t('place')}</dt>
            <dd>{t('placeValue', { place: entry.place })}</dd>
          </>
        )}
        <dt>{t('school')}</dt>
        <dd>{schoolName(entry.school, locale)}</dd>
        {entry.children > 1 && (
          <>
            <dt>{t('childrenLabel')}</dt>
            <dd>{t('childrenValue', { count: entry.children })}</dd>
          </>
        )}
        <dt>{pending ? t('askedBy') : t('name')}</dt>
        <dd>{entry.name}</dd>
        <dt>{t('dates')}</dt>
        <dd>{entry.fromDate === entry.toDate ? dayText(entry.fromDate, locale) : t('datesValue', { from: dayText(entry.fromDate, locale), to: dayText(entry.toDate, locale) })}</dd>
        <dt>{t('timeOfDay')}</dt>
        <dd>{t(`partOfDay.${entry.partOfDay}`)}</dd>
      </Details>
      )}
      {refusal && (
        <Callout as="p" role="alert" $tone="danger">
          {refusal}
        </Callout>
      )}
      {editing && (
        <Stack gap={3}>
          <DatesFields
            limits={limits}
            values={editing}
            errors={{
              fromDate: problem && problem !== 'order' && problem !== 'tooFar' ? datesText(problem, t) : undefined,
              toDate: problem === 'order' || problem === 'tooFar' ? datesText(problem, t) : undefined,
            }}
            fromDate={{ value: editing.fromDate, onChange: (event) => setEditing({ ...editing, fromDate: event.target.value }) }}
            toDate={{ value: editing.toDate, onChange: (event) => setEditing({ ...editing, toDate: event.target.value }) }}
            partOfDay={{ value: editing.partOfDay, onChange: (event) => setEditing({ ...editing, partOfDay: event.target.value as PartOfDay }) }}
          />
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
      {pending && !ended && (
        <Actions>
          <Button variant="secondary" onClick={() => setNotMeAsked(true)}>
            {t('notMe')}
          </Button>
          <Button onClick={() => void doConfirm()} loading={confirming.isLoading} disabled={confirming.isLoading}>
            {t('confirm')}
          </Button>
        </Actions>
      )}
      {!editing && (!pending || ended) && (
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
      <ConfirmDialog
        open={notMeAsked && pending && !ended}
        onOpenChange={setNotMeAsked}
        title={t('notMeTitle')}
        message={t('notMeConfirm', { days: WAITLIST_BLOCK_DAYS })}
        confirmLabel={t('notMe')}
        cancelLabel={t('notMeBack')}
        onConfirm={() => void doDisown()}
        busy={disowning.isLoading}
        tone="danger"
      />
    </LinkPanel>
  );
}
