import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ErrorPanel, Heading, Inline, Stack, styled, useCatalog, useToast } from 'shared-ui';
import { ConfirmDialog, InputField, SelectField } from 'shared-ui/forms';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { brand, httpStatus, serverMessage, slotListErrorMessage, type StaffSlot } from 'shared-api';
import { useDeleteSlotMutation } from '../api/staffSlotsApi';
import { dashboardCatalog } from '../i18n';
import { useDashboardSlots } from '../hooks/useDashboardSlots';
import { useSlotFilter } from '../hooks/useSlotFilter';
import { formatWeekday } from '../../../lib/format';
import { groupBookingSeats, seatsOf as bookingSeats } from '../utils/bookedRows';
import { attendanceColumn, BOOKED_COLUMNS, DEFAULT_SORT, matchesSearch, sortSlots, type SlotSort } from '../utils/columns';
import { useAttendanceMarks } from '../hooks/useAttendanceMarks';
import { formatSlotTimeRange } from '../utils/format';
import { ActionsMenu } from './ActionsMenu';
import { AppointmentDetailsDialog } from './AppointmentDetailsDialog';
import { SeatsDialog } from './SeatsDialog';
import { ExportBookingsCsv } from './ExportBookingsCsv';
import { OTHER_SCHOOL, SchoolStats, schoolOf } from './SchoolStats';
import { SlotFilterToggle } from './SlotFilterToggle';
import { SlotTable } from './SlotTable';
import { StatCards } from './StatCards';
import { UnconfirmedVisits } from './UnconfirmedVisits';

const SchoolBox = styled.div`
  flex: 0 1 20rem;
`;

const Header = styled.header`
  display: flex;
  flex-wrap: wrap;
  gap: 1rem;
  align-items: flex-end;
  justify-content: space-between;
`;

const Subtitle = styled.p`
  margin: 0.25rem 0 0;
`;

const Note = styled.p`
  margin: 0;
  font-size: 0.875rem;
`;

const Empty = styled.div`
  text-align: center;
  padding: 2rem 1rem;
`;

const SearchBox = styled.div`
  flex: 1 1 20rem;
  max-width: 28rem;
`;

/** Search and school side by side on a desk, one above the other on a phone. */
const Filters = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem 1rem;
  align-items: flex-end;
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  align-items: center;
  justify-content: space-between;
`;

/** A view with no slots: what is missing, what to do about it, and the way to do it. */
function EmptyState({ title, hint, children }: { title: string; hint: string; children?: ReactNode }) {
  return (
    <Empty>
      <Heading level={3}>{title}</Heading>
      <p>{hint}</p>
      {children}
    </Empty>
  );
}

type DashboardProps = {
  onCreateSlots: () => void;
  /** Shown above the counts (the page passes what needs staff attention). */
  notice?: ReactNode;
  /** Called by Refresh besides reloading the slots. */
  onRefresh?: () => void;
};

/** The staff dashboard: counts, the filtered and sortable slot table, delete, details and CSV export. */
export function Dashboard({ onCreateSlots, notice, onRefresh }: DashboardProps) {
  const { t } = useCatalog(dashboardCatalog);
  const navigate = useNavigate();
  const toast = useToast();
  const [filter, setFilter] = useSlotFilter();
  const [sort, setSort] = useState<SlotSort>(DEFAULT_SORT);
  const [search, setSearch] = useState('');
  const [school, setSchool] = useState('');
  const [toDelete, setToDelete] = useState<StaffSlot | null>(null);
  const [details, setDetails] = useState<StaffSlot | null>(null);
  const [seatsOf, setSeatsOf] = useState<StaffSlot | null>(null);
  const { booked, available, past, stats, isLoading, isError, isFetching, error, refetch } = useDashboardSlots();
  const [deleteSlot, { isLoading: deleting }] = useDeleteSlotMutation();
  // Issue 40: the Booked view's Attendance column (Arrived / No-show, marked in the Today view).
  const marks = useAttendanceMarks();
  const bookedColumns = useMemo(() => [...BOOKED_COLUMNS, attendanceColumn(marks)], [marks]);

  const term = search.trim().toLowerCase();
  // Only the Booked view has the visitor columns; the other views sort by date and time.
  const shownSort = filter === 'booked' || sort.columnId === 'dateTime' ? sort : DEFAULT_SORT;
  // The Booked view's shown bookings before the school filter (a booking of several children one row: issue 37).
  const bookedShown = useMemo(() => groupBookingSeats(booked).filter((s) => matchesSearch(s, term)), [booked, term]);
  // What the per-school cards count: each child's seat under their own school.
  const bookedSeatsShown = useMemo(() => bookedShown.flatMap(bookingSeats), [bookedShown]);
  const rows = useMemo(() => {
    const source =
      filter === 'booked' ? bookedShown.filter((s) => !school || bookingSeats(s).some((seat) => schoolOf(seat) === school)) : filter === 'past' ? past : available;
    return sortSlots(source, shownSort);
  }, [filter, bookedShown, school, past, available, shownSort]);
  // A new column sorts A to Z (Date & Time earliest first); the sorted one turns around.
  const onSort = (columnId: string) =>
    setSort((current) =>
      current.columnId === columnId
        ? { columnId, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { columnId, direction: 'ascending' },
    );

  const listEmpty = (filter === 'booked' ? booked : filter === 'past' ? past : available).length === 0;
  const found = { available: 'foundAvailable', booked: 'foundBooked', past: 'foundPast' } as const;
  // Slots found: a booking of several children's row counts each of its seats.
  const caption = isLoading ? t('loadingSlots') : t(found[filter], { count: rows.reduce((count, row) => count + bookingSeats(row).length, 0) });

  const confirmDelete = async () => {
    if (!toDelete) return;
    const progressId = toast.progress(t('deleting'));
    const result = await deleteSlot({ slotId: toDelete.id });
    if ('error' in result) {
      // A refusal the server explains (booked meanwhile, or a visitor paying right now) is shown in its words.
      const refusal = httpStatus(result.error) === 409 ? serverMessage(result.error) : undefined;
      toast.update(progressId, { kind: 'error', message: refusal ?? t('deleteFailed') });
    } else toast.update(progressId, { kind: 'success', message: t('deleted') });
    setToDelete(null);
  };

  return (
    <Stack>
      <Header>
        <div>
          <Heading level={1}>{t('title')}</Heading>
          <Subtitle>{t('subtitle')}</Subtitle>
        </div>
        <Inline>
          <Button
            variant="secondary"
            onClick={() => {
              refetch();
              onRefresh?.();
            }}
            disabled={isFetching}
            aria-busy={isFetching}
          >
            {t('refresh')}
          </Button>
          <Button variant="primary" onClick={() => navigate('/')}>
            {t('viewTimetable')}
          </Button>
        </Inline>
      </Header>

      {notice}
      <StatCards stats={stats} loading={isLoading || isError} />
      <UnconfirmedVisits />
      {filter === 'booked' && <SchoolStats slots={bookedSeatsShown} loading={isLoading || isError} />}

      <Card>
        <CardHeader>
          <CardTitle>{t('slotManagement')}</CardTitle>
        </CardHeader>
        <CardBody>
          <Stack>
            <Toolbar>
              <SlotFilterToggle value={filter} onChange={setFilter} />
              <ActionsMenu onCreateSlot={onCreateSlots} />
            </Toolbar>
            <Note>{t('bookedWarning')}</Note>
            {filter === 'past' && <Note>{t('pastNote')}</Note>}
            {filter === 'booked' && (
              <Filters>
                <SearchBox>
                  <InputField
                    label={t('search')}
                    id="slot-search"
                    hint={t('searchHint')}
                    type="search"
                    value={search}
                    onChange={(e) => setSearch(e.target.value)}
                  />
                </SearchBox>
                <SchoolBox>
                  <SelectField label={t('schoolFilter')} id="slot-school" value={school} onChange={(e) => setSchool(e.target.value)}>
                    <option value="">{t('allSchools')}</option>
                    {brand.schools.map((s) => (
                      <option key={s.name} value={s.name}>
                        {s.name}
                      </option>
                    ))}
                    {booked.some((s) => schoolOf(s) === OTHER_SCHOOL) && <option value={OTHER_SCHOOL}>{t('otherSchool')}</option>}
                  </SelectField>
                </SchoolBox>
              </Filters>
            )}

            {isError ? (
              <ErrorPanel
                title={t('loadFailedTitle')}
                message={t('loadFailed', { reason: slotListErrorMessage(error) })}
                onRetry={refetch}
                retryLabel={t('retry')}
              />
            ) : !isLoading && listEmpty ? (
              filter === 'past' ? (
                <EmptyState title={t('noPast')} hint={t('noPastHint')} />
              ) : filter === 'booked' ? (
                <EmptyState title={t('noBooked')} hint={t('noBookedHint')}>
                  <Button variant="secondary" onClick={() => setFilter('available')}>
                    {t('showAvailable')}
                  </Button>
                </EmptyState>
              ) : (
                <EmptyState title={t('noAvailable')} hint={t('noAvailableHint')}>
                  <Button variant="primary" onClick={onCreateSlots}>
                    {t('createNewSlots')}
                  </Button>
                </EmptyState>
              )
            ) : (
              <>
                <SlotTable
                  slots={rows}
                  caption={caption}
                  loading={isLoading}
                  sort={shownSort}
                  onSort={onSort}
                  onDelete={setToDelete}
                  onSeats={filter === 'past' ? undefined : setSeatsOf}
                  onViewDetails={setDetails}
                  readOnly={filter === 'past'}
                  columns={filter === 'booked' ? bookedColumns : undefined}
                />
                {!isLoading && rows.length === 0 && <Note role="status">{t('noSearchMatch')}</Note>}
              </>
            )}

            {filter === 'booked' && !isError && <ExportBookingsCsv />}
          </Stack>
        </CardBody>
      </Card>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open && !deleting) setToDelete(null);
        }}
        title={t('deleteTitle')}
        message={
          toDelete
            ? t('deleteMessage', {
                id: toDelete.id,
                date: formatWeekday(toDelete.date),
                time: formatSlotTimeRange(toDelete),
              })
            : ''
        }
        confirmLabel={t('delete')}
        onConfirm={confirmDelete}
        busy={deleting}
      />
      <AppointmentDetailsDialog slot={details} onClose={() => setDetails(null)} />
      <SeatsDialog slot={seatsOf} onClose={() => setSeatsOf(null)} />
    </Stack>
  );
}
