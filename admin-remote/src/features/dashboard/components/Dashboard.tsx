import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ErrorPanel, Heading, Inline, Stack, styled, useToast } from 'shared-ui';
import { ConfirmDialog, Field, Input, Select } from 'shared-ui/forms';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { brand, httpStatus, serverMessage, slotListErrorMessage, type StaffSlot } from 'shared-api';
import { useDeleteSlotMutation } from '../api/staffSlotsApi';
import { useDashboardSlots } from '../hooks/useDashboardSlots';
import { useSlotFilter } from '../hooks/useSlotFilter';
import { formatSlotDate, formatSlotTimeRange, slotSortKey } from '../utils/format';
import { ActionsMenu } from './ActionsMenu';
import { AppointmentDetailsDialog } from './AppointmentDetailsDialog';
import { ExportBookingsCsv } from './ExportBookingsCsv';
import { OTHER_SCHOOL, SchoolStats, schoolOf } from './SchoolStats';
import { SlotFilterToggle } from './SlotFilterToggle';
import { SlotTable, type SortDirection } from './SlotTable';
import { StatCards } from './StatCards';

export const DashboardText = {
  title: 'Assessment Dashboard',
  subtitle: 'Manage your assessment time slots and bookings',
  loadFailedTitle: 'Failed to load slots',
  loadFailed: 'Failed to load data',
  noBooked: 'No Booked Appointments',
  noBookedHint: 'Switch to Available to see the open slots.',
  noAvailable: 'No Available Slots',
  noAvailableHint: 'Create slots so parents can book an assessment.',
  noSearchMatch: 'No booked slots match your search.',
  bookedWarning: 'Deleting a booked slot cancels its booking, so Delete is offered only on available slots.',
  deleting: 'Deleting slot...',
  deleted: 'Slot deleted successfully!',
  deleteFailed: 'Failed to delete slot. Please try again.',
  noPast: 'No Past Slots',
  noPastHint: 'Slots move here once their start time has gone by; they are kept for the record and cannot be changed.',
  pastNote: 'Past slots are read-only.',
  schoolFilter: 'School',
  allSchools: 'All schools',
} as const;

const SchoolBox = styled.div`
  max-width: 20rem;
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
  max-width: 28rem;
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  align-items: center;
  justify-content: space-between;
`;

const matchesSearch = (slot: StaffSlot, term: string) =>
  !term ||
  (slot.visitorName ?? '').toLowerCase().includes(term) ||
  (slot.visitorEmail ?? '').toLowerCase().includes(term);

type DashboardProps = {
  onCreateSlots: () => void;
  /** Shown above the counts (the page passes what needs staff attention). */
  notice?: ReactNode;
  /** Called by Refresh besides reloading the slots. */
  onRefresh?: () => void;
};

/** The staff dashboard: counts, the filtered and sortable slot table, delete, details and CSV export. */
export function Dashboard({ onCreateSlots, notice, onRefresh }: DashboardProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const [filter, setFilter] = useSlotFilter();
  const [sort, setSort] = useState<SortDirection>('ascending');
  const [search, setSearch] = useState('');
  const [school, setSchool] = useState('');
  const [toDelete, setToDelete] = useState<StaffSlot | null>(null);
  const [details, setDetails] = useState<StaffSlot | null>(null);
  const { booked, available, past, stats, isLoading, isError, isFetching, error, refetch } = useDashboardSlots();
  const [deleteSlot, { isLoading: deleting }] = useDeleteSlotMutation();

  const term = search.trim().toLowerCase();
  // The Booked view's shown bookings before the school filter: what the per-school cards count.
  const bookedShown = useMemo(() => booked.filter((s) => matchesSearch(s, term)), [booked, term]);
  const rows = useMemo(() => {
    const source =
      filter === 'booked' ? bookedShown.filter((s) => !school || schoolOf(s) === school) : filter === 'past' ? past : available;
    const sorted = [...source].sort((a, b) => slotSortKey(a).localeCompare(slotSortKey(b)));
    return sort === 'ascending' ? sorted : sorted.reverse();
  }, [filter, bookedShown, school, past, available, sort]);

  const listEmpty = (filter === 'booked' ? booked : filter === 'past' ? past : available).length === 0;
  const caption = isLoading
    ? 'Loading slots...'
    : `${rows.length} ${filter} ${rows.length === 1 ? 'slot' : 'slots'} found`;

  const confirmDelete = async () => {
    if (!toDelete) return;
    const progressId = toast.progress(DashboardText.deleting);
    const result = await deleteSlot({ slotId: toDelete.id });
    if ('error' in result) {
      // A refusal the server explains (booked meanwhile, or a visitor paying right now) is shown in its words.
      const refusal = httpStatus(result.error) === 409 ? serverMessage(result.error) : undefined;
      toast.update(progressId, { kind: 'error', message: refusal ?? DashboardText.deleteFailed });
    }
    else toast.update(progressId, { kind: 'success', message: DashboardText.deleted });
    setToDelete(null);
  };

  return (
    <Stack>
      <Header>
        <div>
          <Heading level={1}>{DashboardText.title}</Heading>
          <Subtitle>{DashboardText.subtitle}</Subtitle>
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
            Refresh
          </Button>
          <Button variant="primary" onClick={() => navigate('/')}>
            View Timetable
          </Button>
        </Inline>
      </Header>

      {notice}
      <StatCards stats={stats} loading={isLoading || isError} />
      {filter === 'booked' && <SchoolStats slots={bookedShown} loading={isLoading || isError} />}

      <Card>
        <CardHeader>
          <CardTitle>Slot Management</CardTitle>
        </CardHeader>
        <CardBody>
          <Stack>
            <Toolbar>
              <SlotFilterToggle value={filter} onChange={setFilter} />
              <ActionsMenu onCreateSlot={onCreateSlots} />
            </Toolbar>
            <Note>{DashboardText.bookedWarning}</Note>
            {filter === 'past' && <Note>{DashboardText.pastNote}</Note>}
            {filter === 'booked' && (
              <SearchBox>
                <Field label="Search by visitor name or email" htmlFor="slot-search">
                  <Input id="slot-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
                </Field>
              </SearchBox>
            )}
            {filter === 'booked' && (
              <SchoolBox>
                <Field label={DashboardText.schoolFilter} htmlFor="slot-school">
                  <Select id="slot-school" value={school} onChange={(e) => setSchool(e.target.value)}>
                    <option value="">{DashboardText.allSchools}</option>
                    {brand.schools.map((s) => (
                      <option key={s.name} value={s.name}>
                        {s.name}
                      </option>
                    ))}
                    {booked.some((s) => schoolOf(s) === OTHER_SCHOOL) && <option value={OTHER_SCHOOL}>{OTHER_SCHOOL}</option>}
                  </Select>
                </Field>
              </SchoolBox>
            )}

            {isError ? (
              <ErrorPanel
                title={DashboardText.loadFailedTitle}
                message={`${DashboardText.loadFailed}. ${slotListErrorMessage(error)}`}
                onRetry={refetch}
                retryLabel="Retry"
              />
            ) : !isLoading && listEmpty ? (
              filter === 'past' ? (
                <Empty>
                  <Heading level={3}>{DashboardText.noPast}</Heading>
                  <p>{DashboardText.noPastHint}</p>
                </Empty>
              ) : filter === 'booked' ? (
                <Empty>
                  <Heading level={3}>{DashboardText.noBooked}</Heading>
                  <p>{DashboardText.noBookedHint}</p>
                  <Button variant="secondary" onClick={() => setFilter('available')}>
                    Show Available Slots
                  </Button>
                </Empty>
              ) : (
                <Empty>
                  <Heading level={3}>{DashboardText.noAvailable}</Heading>
                  <p>{DashboardText.noAvailableHint}</p>
                  <Button variant="primary" onClick={onCreateSlots}>
                    Create New Slots
                  </Button>
                </Empty>
              )
            ) : (
              <>
                <SlotTable
                  slots={rows}
                  caption={caption}
                  loading={isLoading}
                  sort={sort}
                  onToggleSort={() => setSort((s) => (s === 'ascending' ? 'descending' : 'ascending'))}
                  onDelete={setToDelete}
                  onViewDetails={setDetails}
                  readOnly={filter === 'past'}
                />
                {!isLoading && rows.length === 0 && <Note role="status">{DashboardText.noSearchMatch}</Note>}
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
        title="Delete slot"
        message={
          toDelete
            ? `Delete slot #${toDelete.id} on ${formatSlotDate(toDelete.date)}, ${formatSlotTimeRange(toDelete)}? Parents will no longer be able to book it.`
            : ''
        }
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        busy={deleting}
      />
      <AppointmentDetailsDialog slot={details} onClose={() => setDetails(null)} />
    </Stack>
  );
}
