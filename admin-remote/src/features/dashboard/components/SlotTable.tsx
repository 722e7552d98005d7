import { memo } from 'react';
import type { StaffSlot } from 'shared-api';
import { Button, styled, useCatalog } from 'shared-ui';
import { Badge, DataTable, NarrowView, RecordCard, RecordCardList, SecondLine, WideView, type DataColumn } from 'shared-ui/data';
import { Email } from 'shared-ui/text';
import { formatWeekday } from '../../../lib/format';
import { dashboardCatalog } from '../i18n';
import { seatsOf, type BookedRow } from '../utils/bookedRows';
import type { BookedColumn, SlotSort } from '../utils/columns';
import { formatSlotTimeRange, isBookedSlot } from '../utils/format';

/** A date and time range stay on their own lines, never broken inside. */
const When = styled.span`
  white-space: nowrap;
`;

/** One child of a booking of several in a cell, apart from the next. */
const ChildLine = styled.span`
  display: block;
  & + & {
    margin-top: ${({ theme }) => theme.space[1]};
  }
`;

const Actions = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[2]};
`;

type SlotTableProps = {
  /** The Booked view's: a booking of several children is one row of its seats (issue 37). */
  slots: BookedRow[];
  caption: string;
  loading: boolean;
  /** Another page or order is loading: the rows shown stay, marked busy. */
  busy?: boolean;
  sort: SlotSort;
  onSort: (columnId: string) => void;
  onDelete: (slot: StaffSlot) => void;
  /** Children at a time for the row's time (issue 37); no button without it (the past view). */
  onSeats?: (slot: StaffSlot) => void;
  onViewDetails: (slot: StaffSlot) => void;
  /** Past slots: listed only, no Action column. */
  readOnly?: boolean;
  /** Who booked (the Booked view): columns after the spec's, each sortable. */
  columns?: BookedColumn[];
};

export const SKELETON_ROWS = 5;

/** A booking's card on a phone: who first (the child, then the visitor), then where and when, the status, the phone. */
const CARD_FIELDS = ['child', 'visitor', 'school', 'dateTime', 'status', 'phone'];

/**
 * The slots: a table on a desk. On a phone the bookings are cards (CSS decides, so the table never shows there), the
 * other views DataTable's compact list. Memoised: the dashboard draws again on every change of the page (a
 * navigation, a toast), its rows only when they change.
 */
export const SlotTable = memo(function SlotTable({ slots, caption, loading, busy = false, sort, onSort, onDelete, onSeats, onViewDetails, readOnly = false, columns = [] }: SlotTableProps) {
  const { t } = useCatalog(dashboardCatalog);
  const rowAction = (slot: StaffSlot) =>
    isBookedSlot(slot) ? (
      <Button size="sm" variant="secondary" onClick={() => onViewDetails(slot)} aria-label={t('viewDetailsOf', { id: slot.id })}>
        {t('viewDetails')}
      </Button>
    ) : slot.status === 'reserved' ? (
      // The server refuses to delete a slot a parent is paying for: no Delete to be refused.
      <SecondLine>{t('heldNoDelete')}</SecondLine>
    ) : (
      // Quiet in each row (a page of them read as a wall of red); its confirm dialog is the red one.
      <Button size="sm" variant="secondary" onClick={() => onDelete(slot)} aria-label={t('deleteSlotLabel', { id: slot.id })}>
        {t('delete')}
      </Button>
    );
  const action: DataColumn<BookedRow> = {
    id: 'action',
    header: t('columnAction'),
    // A row's actions ("View Details" or "Delete", and "Seats") each on one line: a wrapped button reads as two.
    wrap: 'nowrap',
    unlabelled: true,
    cell: (slot) => (
      <Actions>
        {rowAction(slot)}
        {onSeats && (
          <Button size="sm" variant="secondary" onClick={() => onSeats(slot)} aria-label={t('seatsOfSlot', { id: slot.id })}>
            {t('seats')}
          </Button>
        )}
      </Actions>
    ),
  };
  const tableColumns: DataColumn<BookedRow>[] = [
    { id: 'id', header: t('columnId'), cell: (slot) => seatsOf(slot).map((seat) => t('slotNumber', { id: seat.id })).join(', ') },
    {
      id: 'dateTime',
      header: t('columnDateTime'),
      sortable: true,
      cell: (slot) => (
        <>
          <When>{formatWeekday(slot.date)}</When>
          <SecondLine>
            <When>{formatSlotTimeRange(slot)}</When>
          </SecondLine>
          {slot.seats !== undefined && (
            // A time that seats several children: which seat this row is, and how many of the time's are taken.
            // Free to wrap at the "·": a phone's card is narrow.
            <SecondLine>
              {slot.bookingSeats
                ? t('seatsOfBooking', { list: slot.bookingSeats.map((seat) => seat.seat ?? 1).join(', '), seats: slot.seats, taken: slot.seatsTaken ?? 0 })
                : t('seatOf', { seat: slot.seat ?? 1, seats: slot.seats, taken: slot.seatsTaken ?? 0 })}
            </SecondLine>
          )}
        </>
      ),
    },
    {
      id: 'status',
      header: t('columnStatus'),
      cell: (slot) => {
        const booked = isBookedSlot(slot);
        return (
          <>
            <Badge tone={booked ? 'success' : 'info'}>{booked ? t('statusBooked') : t('statusAvailable')}</Badge>
            {!booked && slot.status === 'reserved' && (
              <SecondLine>
                <Badge tone="warning">{t('statusHeld')}</Badge>
              </SecondLine>
            )}
          </>
        );
      },
    },
    ...(readOnly ? [] : [action]),
    ...columns.map((column): DataColumn<BookedRow> => ({
      id: column.id,
      header: t(column.header),
      sortable: column.sortable !== false,
      // Long names wrap between words, emails after their @ or before a dot; a word is broken only when nothing else fits.
      wrap: 'words',
      minWidth: '8rem',
      cell: (slot) => {
        const lines = column.lines?.(slot);
        if (lines)
          return lines.map((line, i) => (
            <ChildLine key={i}>
              {line.text}
              {line.detail && <SecondLine>{line.detail}</SecondLine>}
            </ChildLine>
          ));
        const [text, detail] = [column.text(slot), column.detail?.(slot)];
        // Not given (a booking without a phone number): no line on a phone's card.
        if (!text && !detail) return null;
        return (
          <>
            {text}
            {detail && <SecondLine>{column.detailIsEmail ? <Email address={detail} /> : detail}</SecondLine>}
          </>
        );
      },
    })),
  ];
  const table = (
    <DataTable
      columns={tableColumns}
      rows={loading ? undefined : slots}
      rowKey={(slot) => slot.id}
      caption={caption}
      busy={loading || busy}
      loadingRows={SKELETON_ROWS}
      sort={sort}
      onSort={onSort}
      sortedText={(current) =>
        current.columnId === 'dateTime' ? t(current.direction === 'ascending' ? 'sortedEarliestFirst' : 'sortedLatestFirst') : undefined
      }
      sortLabel={t('sortBy')}
    />
  );
  // Loading or nothing found: the table's placeholders and caption say so on every screen.
  const cards = columns.length > 0 && !loading && slots.length > 0;
  const cardColumns = CARD_FIELDS.flatMap((id) => tableColumns.filter((column) => column.id === id));
  return (
    <>
      <WideView $alone={!cards}>{table}</WideView>
      {cards && (
        <NarrowView>
          <RecordCardList title={caption}>
            {slots.map((slot) => (
              <RecordCard
                key={slot.id}
                fields={cardColumns.map((column) => ({
                  id: column.id,
                  label: column.id === 'dateTime' ? t('cardDateTime') : column.header,
                  value: column.cell(slot),
                }))}
                actions={readOnly ? undefined : action.cell(slot)}
              />
            ))}
          </RecordCardList>
        </NarrowView>
      )}
    </>
  );
});
