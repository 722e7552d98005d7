import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ErrorPanel, Heading, Inline, Stack, styled, useCatalog, useToast } from 'shared-ui';
import { ConfirmDialog, InputField, SelectField } from 'shared-ui/forms';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { brand, httpStatus, serverMessage, slotListErrorMessage, type StaffSlot } from 'shared-api';
import { useDeleteSlotMutation } from '../api/staffSlotsApi';
import { dashboardCatalog } from '../i18n';
import { defaultSortOf, useDashboardPage } from '../hooks/useDashboardPage';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { useSlotFilter, type SlotFilter } from '../hooks/useSlotFilter';
import { formatWeekday } from '../../../lib/format';
import { groupBookingSeats } from '../utils/bookedRows';
import { attendanceColumn, BOOKED_COLUMNS, type SlotSort } from '../utils/columns';
import { useAttendanceMarks } from '../hooks/useAttendanceMarks';
import { formatSlotTimeRange } from '../utils/format';
import { ActionsMenu } from './ActionsMenu';
import { AppointmentDetailsDialog } from './AppointmentDetailsDialog';
import { SeatsDialog } from './SeatsDialog';
import { ExportBookingsCsv } from './ExportBookingsCsv';
import { SchoolStats } from './SchoolStats';
import { STAFF_OTHER_SCHOOL } from 'shared-api/schemas';
import { SlotFilterToggle } from './SlotFilterToggle';
import { SlotTable } from './SlotTable';
import { StatCards } from './StatCards';
import { UnconfirmedVisits } from './UnconfirmedVisits';
import { Pager } from '../../../lib/Pager';

/** The search asks the server once typing pauses this long. */
export const SEARCH_SETTLE_MS = 300;

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

/** Where a new page starts reading: below the site's sticky header. */
const TableTop = styled.div`
  scroll-margin-top: 5rem;
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

/** The staff dashboard: counts, the slot table a page at a time (searched, sorted and filtered on the server), delete, details and CSV export. */
export function Dashboard({ onCreateSlots, notice, onRefresh }: DashboardProps) {
  const { t } = useCatalog(dashboardCatalog);
  const navigate = useNavigate();
  const toast = useToast();
  const [filter, setFilterState] = useSlotFilter();
  const [sort, setSort] = useState<SlotSort | null>(null);
  const [search, setSearchState] = useState('');
  const [school, setSchoolState] = useState('');
  const [page, setPage] = useState(1);
  const tableTop = useRef<HTMLDivElement>(null);
  const [toDelete, setToDelete] = useState<StaffSlot | null>(null);
  const [details, setDetails] = useState<StaffSlot | null>(null);
  const [seatsOf, setSeatsOf] = useState<StaffSlot | null>(null);
  // Any other choice starts again from the first page.
  const setFilter = (next: SlotFilter) => {
    setFilterState(next);
    setPage(1);
  };
  const setSearch = (next: string) => {
    setSearchState(next);
    setPage(1);
  };
  const setSchool = (next: string) => {
    setSchoolState(next);
    setPage(1);
  };
  const q = useDebouncedValue(search, SEARCH_SETTLE_MS);
  // Only the Booked view has the visitor columns; the other views sort by date and time.
  const shownSort = sort && (filter === 'booked' || sort.columnId === 'dateTime') ? sort : defaultSortOf(filter);
  const { page: shown, stats, isLoading, isError, isFetching, error, refetch } = useDashboardPage(filter, { page, q, school, sort: shownSort });
  const [deleteSlot, { isLoading: deleting }] = useDeleteSlotMutation();
  // Issue 40: the Booked view's Attendance column (Arrived / No-show, marked in the Today view).
  const marks = useAttendanceMarks();
  const bookedColumns = useMemo(() => [...BOOKED_COLUMNS, attendanceColumn(marks)], [marks]);

  // The Booked view's booking of several children is one row (its seats come together from the server: issue 37).
  const rows = useMemo(() => (shown ? (filter === 'booked' ? groupBookingSeats(shown.rows) : shown.rows) : []), [shown, filter]);
  // A new column sorts A to Z (Date & Time earliest first); the sorted one turns around.
  const onSort = useCallback(
    (columnId: string) => {
      setSort(
        shownSort.columnId === columnId
          ? { columnId, direction: shownSort.direction === 'ascending' ? 'descending' : 'ascending' }
          : { columnId, direction: 'ascending' },
      );
      setPage(1);
    },
    [shownSort],
  );

  const narrowed = filter === 'booked' && (q.trim() !== '' || school !== '');
  const listEmpty = shown !== undefined && shown.count === 0 && !narrowed;
  const found = { available: 'foundAvailable', booked: 'foundBooked', past: 'foundPast' } as const;
  // Slots found: every seat matching, on every page (a booking of several children counts each of its seats).
  const caption = isLoading ? t('loadingSlots') : t(found[filter], { count: shown?.count ?? 0 });
  const otherCounted = shown?.schools?.some((s) => s.school === null && s.count > 0) ?? false;
  // A delete can empty the last page: show the page that is now the last.
  useEffect(() => {
    if (shown && shown.totalPages > 0 && page > shown.totalPages) setPage(shown.totalPages);
  }, [shown, page]);

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
      <StatCards stats={stats} loading={stats === undefined} />
      <UnconfirmedVisits />
      {filter === 'booked' && <SchoolStats schools={shown?.schools} loading={isLoading || isError} />}

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
                    {(otherCounted || school === STAFF_OTHER_SCHOOL) && <option value={STAFF_OTHER_SCHOOL}>{t('otherSchool')}</option>}
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
                <TableTop ref={tableTop} />
                <SlotTable
                  slots={rows}
                  caption={caption}
                  loading={isLoading}
                  busy={isFetching}
                  sort={shownSort}
                  onSort={onSort}
                  onDelete={setToDelete}
                  onSeats={filter === 'past' ? undefined : setSeatsOf}
                  onViewDetails={setDetails}
                  readOnly={filter === 'past'}
                  columns={filter === 'booked' ? bookedColumns : undefined}
                />
                {!isLoading && rows.length === 0 && <Note role="status">{t('noSearchMatch')}</Note>}
                {shown && shown.totalPages > 1 && (
                  <Pager
                    page={page}
                    pages={shown.totalPages}
                    busy={isFetching}
                    onPage={(next) => {
                      setPage(next);
                      // The pager is below the rows: the new page is read from its first row.
                      tableTop.current?.scrollIntoView?.({ block: 'start' });
                    }}
                    previous={t('previousPage')}
                    next={t('nextPage')}
                    status={t('pageOf', { page: shown.page, pages: shown.totalPages })}
                    label={t('pages')}
                  />
                )}
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
