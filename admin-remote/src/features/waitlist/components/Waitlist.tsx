import { useState, type FormEvent } from 'react';
import { brand, serverMessage, todayInMY } from 'shared-api';
import type { StaffWaitlistEntry } from 'shared-api/waitlist';
import { Button, ErrorPanel, Inline, Skeleton, Stack, styled, useCatalog, useToast } from 'shared-ui';
import { Badge, DataTable, SecondLine, type BadgeTone, type DataColumn } from 'shared-ui/data';
import { Dialog, InputField, SelectField } from 'shared-ui/forms';
import { downloadCsv } from '../../../lib/csv';
import { formatDay, formatInstant, formatPhone } from '../../../lib/format';
import { useMoveWaitlistEntryMutation, useRemoveWaitlistEntryMutation, useStaffWaitlistQuery } from '../api/waitlistApi';
import { waitlistCatalog } from '../i18n';
import { waitlistCsv } from '../utils/csv';
import { offerLine, stateText } from '../utils/format';

const Offers = styled.ul`
  margin: 0;
  padding-left: ${({ theme }) => theme.space[4]};
  font-size: 0.875rem;
`;

/** The school's select and the export, their bottoms in line. */
const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: ${({ theme }) => theme.space[3]};
`;

const TONES: Record<StaffWaitlistEntry['state'], BadgeTone> = {
  waiting: 'info',
  offered: 'warning',
  booked: 'success',
  expired: 'neutral',
  left: 'neutral',
  removed: 'danger',
};

type Change = { entry: StaffWaitlistEntry; kind: 'up' | 'down' | 'remove' };

/** Staff's waitlist (issue 26): per school, the entries in order, their offers, Move up / Move down / Remove with a reason. */
export function Waitlist() {
  const { t } = useCatalog(waitlistCatalog);
  const toast = useToast();
  // Every school first ('' ): a secretary sees at once where parents wait; a school's own list is one choice away.
  const [school, setSchool] = useState('');
  const list = useStaffWaitlistQuery(school, { refetchOnMountOrArgChange: true, pollingInterval: 30_000 });
  const [move, moving] = useMoveWaitlistEntryMutation();
  const [remove, removing] = useRemoveWaitlistEntryMutation();
  const [change, setChange] = useState<Change | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const entries = list.data?.entries ?? [];
  const live = entries.filter((e) => e.state === 'waiting' || e.state === 'offered');

  const open = (entry: StaffWaitlistEntry, kind: Change['kind']) => {
    setChange({ entry, kind });
    setReason('');
    setReasonError(null);
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!change) return;
    if (!reason.trim()) {
      setReasonError(t('reasonRequired'));
      return;
    }
    const { entry, kind } = change;
    try {
      if (kind === 'remove') {
        await remove({ id: entry.id, school, reason: reason.trim() }).unwrap();
        toast.success(t('removed', { name: entry.name }));
      } else {
        await move({ id: entry.id, school, direction: kind, reason: reason.trim() }).unwrap();
        toast.success(t('moved', { name: entry.name, direction: kind }));
      }
      setChange(null);
    } catch (error) {
      toast.error(t('actionFailed', { message: serverMessage(error as Parameters<typeof serverMessage>[0]) ?? '' }));
    }
  };

  const busy = moving.isLoading || removing.isLoading;
  const columns: DataColumn<StaffWaitlistEntry>[] = [
    { id: 'place', header: t('colPlace'), cell: (entry) => entry.position ?? '–' },
    {
      id: 'parent',
      header: t('colParent'),
      // Wide enough that an email breaks at most once; on a narrow desk the table scrolls.
      minWidth: '13rem',
      wrap: 'anywhere',
      cell: (entry) => (
        <>
          <strong>{entry.name}</strong>
          <SecondLine>{entry.email}</SecondLine>
          <SecondLine>{formatPhone(entry.phone)}</SecondLine>
          {entry.childName && (
            <SecondLine>{entry.childYear ? t('childWithYear', { name: entry.childName, year: entry.childYear }) : t('child', { name: entry.childName })}</SecondLine>
          )}
          {entry.children > 1 && <SecondLine>{t('childrenCount', { count: entry.children })}</SecondLine>}
          {!school && <SecondLine>{entry.school}</SecondLine>}
          <SecondLine>{t('joined', { when: formatInstant(entry.joinedAt) })}</SecondLine>
        </>
      ),
    },
    {
      id: 'dates',
      header: t('colDates'),
      // Dates and offers keep their day and time on one line where they can.
      minWidth: '8rem',
      cell: (entry) => (
        <>
          {entry.fromDate === entry.toDate ? formatDay(entry.fromDate) : t('datesValue', { from: formatDay(entry.fromDate), to: formatDay(entry.toDate) })}
          <SecondLine>{t(`part.${entry.partOfDay}`)}</SecondLine>
        </>
      ),
    },
    {
      id: 'state',
      header: t('colState'),
      cell: (entry) => <Badge tone={TONES[entry.state]}>{stateText(entry)}</Badge>,
    },
    {
      id: 'offers',
      header: t('colOffers'),
      minWidth: '8rem',
      cell: (entry) =>
        entry.offers.length === 0 ? (
          t('noOffers')
        ) : (
          <Offers>
            {entry.offers.map((offer) => (
              <li key={offer.createdAt}>{offerLine(offer)}</li>
            ))}
          </Offers>
        ),
    },
    {
      id: 'actions',
      header: t('colActions'),
      unlabelled: true,
      cell: (entry) => {
        // First and last in its own school's line (the list may show every school).
        const line = live.filter((e) => e.school === entry.school);
        const index = line.indexOf(entry);
        if (index < 0) return null;
        return (
          <Inline gap={2}>
            <Button size="sm" variant="secondary" disabled={index === 0} aria-label={t('moveUpLabel', { name: entry.name })} onClick={() => open(entry, 'up')}>
              {t('moveUp')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={index === line.length - 1}
              aria-label={t('moveDownLabel', { name: entry.name })}
              onClick={() => open(entry, 'down')}
            >
              {t('moveDown')}
            </Button>
            {/* Quiet in the row; the reason dialog's Remove is the red one. */}
            <Button size="sm" variant="secondary" aria-label={t('removeLabel', { name: entry.name })} onClick={() => open(entry, 'remove')}>
              {t('remove')}
            </Button>
          </Inline>
        );
      },
    },
  ];
  return (
    <Stack>
      <Toolbar>
        <SelectField label={t('school')} id="waitlist-school" value={school} onChange={(event) => setSchool(event.target.value)}>
          <option value="">{t('allSchools')}</option>
          {brand.schools.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </SelectField>
        <Button
          size="sm"
          variant="secondary"
          disabled={entries.length === 0}
          onClick={() => downloadCsv(`waitlist-${(school || 'all-schools').toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${todayInMY()}.csv`, waitlistCsv(entries))}
        >
          {t('exportCsv')}
        </Button>
      </Toolbar>
      {list.isLoading ? (
        <div role="status" aria-live="polite">
          <p>{t('loading')}</p>
          <Skeleton height={44} />
        </div>
      ) : list.isError && !list.data ? (
        <ErrorPanel message={serverMessage(list.error) ?? t('loadFailed')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />
      ) : entries.length === 0 ? (
        <p>{t('empty')}</p>
      ) : (
        <DataTable
          columns={columns}
          rows={entries}
          rowKey={(entry) => entry.id}
          caption={school ? t('caption', { school }) : t('captionAll')}
          scrollLabel={t('entries')}
          busy={list.isFetching}
        />
      )}
      {change && (
        <Dialog
          open
          onOpenChange={(next) => !next && !busy && setChange(null)}
          title={
            change.kind === 'remove'
              ? t('reasonTitleRemove', { name: change.entry.name })
              : t(change.kind === 'up' ? 'reasonTitleUp' : 'reasonTitleDown', { name: change.entry.name })
          }
          description={change.kind === 'remove' ? t('reasonRemoveIntro') : t('reasonIntro')}
          footer={
            <>
              <Button variant="secondary" onClick={() => setChange(null)} disabled={busy}>
                {t('cancel')}
              </Button>
              <Button type="submit" form="waitlist-reason-form" variant={change.kind === 'remove' ? 'danger' : 'primary'} loading={busy} disabled={busy}>
                {change.kind === 'remove' ? t('confirmRemove') : t('confirmMove')}
              </Button>
            </>
          }
        >
          <form id="waitlist-reason-form" noValidate onSubmit={(event) => void confirm(event)}>
            <InputField
              label={t('reason')}
              id="waitlist-reason"
              error={reasonError ?? undefined}
              type="text"
              maxLength={500}
              value={reason}
              onChange={(event) => {
                setReason(event.target.value);
                if (event.target.value.trim()) setReasonError(null);
              }}
            />
          </form>
        </Dialog>
      )}
    </Stack>
  );
}
