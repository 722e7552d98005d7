import type { StaffSlot } from 'shared-api';
import { Button, Caption, Skeleton, VisuallyHidden, styled, useCatalog } from 'shared-ui';
import { Badge, Table, TBody, Td, Th, THead, Tr } from 'shared-ui/data';
import { Email } from 'shared-ui/text';
import { formatWeekday } from '../../../lib/format';
import { dashboardCatalog } from '../i18n';
import type { BookedColumn, SlotSort, SortKey } from '../utils/columns';
import { formatSlotTimeRange, isBookedSlot } from '../utils/format';

const SortButton = styled.button`
  all: unset;
  cursor: pointer;
  font-weight: inherit;
  display: inline-flex;
  gap: 0.25rem;
  align-items: baseline;
  &:focus-visible {
    outline: 2px solid currentColor;
    outline-offset: 2px;
  }
`;

/** The arrow of the sorted column; a faint double arrow says the others can be sorted too. */
const SortMark = styled.span<{ $active: boolean }>`
  color: ${({ theme, $active }) => ($active ? theme.colors.text : theme.colors.textMuted)};
`;

const Muted = styled.span`
  display: block;
  font-size: 0.875rem;
`;

/** A date and time range stay on their own lines, never broken inside. */
const When = styled.span`
  white-space: nowrap;
`;

/** A row's action ("View Details", "Delete") on one line: a wrapped button reads as two. */
const ActionCell = styled(Td)`
  white-space: nowrap;
`;

/** Long names wrap between words, emails after their @ or before a dot; a word is broken only when nothing else fits. */
const Wrapping = styled(Td)`
  overflow-wrap: break-word;
  min-width: 8rem;
`;

type SlotTableProps = {
  slots: StaffSlot[];
  caption: string;
  loading: boolean;
  sort: SlotSort;
  onSort: (key: SortKey) => void;
  onDelete: (slot: StaffSlot) => void;
  onViewDetails: (slot: StaffSlot) => void;
  /** Past slots: listed only, no Action column. */
  readOnly?: boolean;
  /** Who booked (the Booked view): columns after the spec's, each sortable. */
  columns?: BookedColumn[];
};

export const SKELETON_ROWS = 5;

export function SlotTable({ slots, caption, loading, sort, onSort, onDelete, onViewDetails, readOnly = false, columns = [] }: SlotTableProps) {
  const { t } = useCatalog(dashboardCatalog);
  const sortedBy = (key: SortKey) => (sort.key === key ? sort.direction : undefined);
  const mark = (key: SortKey) => (
    <SortMark $active={sort.key === key} aria-hidden="true">
      {sort.key !== key ? '↕' : sort.direction === 'ascending' ? '▲' : '▼'}
    </SortMark>
  );
  const width = 3 + (readOnly ? 0 : 1) + columns.length;
  return (
    <Table aria-busy={loading || undefined}>
      <Caption>{caption}</Caption>
      <THead>
        <Tr>
          <Th scope="col">{t('columnId')}</Th>
          <Th scope="col" aria-sort={sortedBy('dateTime')}>
            <SortButton type="button" onClick={() => onSort('dateTime')}>
              {t('columnDateTime')} {mark('dateTime')}
              {sort.key === 'dateTime' && (
                <VisuallyHidden>{sort.direction === 'ascending' ? t('sortedEarliestFirst') : t('sortedLatestFirst')}</VisuallyHidden>
              )}
            </SortButton>
          </Th>
          <Th scope="col">{t('columnStatus')}</Th>
          {!readOnly && <Th scope="col">{t('columnAction')}</Th>}
          {columns.map((column) => (
            <Th key={column.id} scope="col" aria-sort={sortedBy(column.id)}>
              <SortButton type="button" onClick={() => onSort(column.id)}>
                {t(column.header)} {mark(column.id)}
              </SortButton>
            </Th>
          ))}
        </Tr>
      </THead>
      <TBody>
        {loading
          ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <Tr key={i} data-testid="skeleton-row">
                {Array.from({ length: width }, (__, j) => (
                  <Td key={j}>
                    <Skeleton width={j === 1 ? '10rem' : '5rem'} />
                  </Td>
                ))}
              </Tr>
            ))
          : slots.map((slot) => {
              const booked = isBookedSlot(slot);
              return (
                <Tr key={slot.id}>
                  <Td>{t('slotNumber', { id: slot.id })}</Td>
                  <Td>
                    <When>{formatWeekday(slot.date)}</When>
                    <Muted>
                      <When>{formatSlotTimeRange(slot)}</When>
                    </Muted>
                  </Td>
                  <Td>
                    <Badge tone={booked ? 'success' : 'info'}>{booked ? t('statusBooked') : t('statusAvailable')}</Badge>
                    {!booked && slot.status === 'reserved' && (
                      <Muted>
                        <Badge tone="warning">{t('statusHeld')}</Badge>
                      </Muted>
                    )}
                  </Td>
                  {!readOnly && (
                    <ActionCell>
                      {booked ? (
                        <Button size="sm" variant="secondary" onClick={() => onViewDetails(slot)} aria-label={t('viewDetailsOf', { id: slot.id })}>
                          {t('viewDetails')}
                        </Button>
                      ) : slot.status === 'reserved' ? (
                        // The server refuses to delete a slot a parent is paying for: no Delete to be refused.
                        <Muted>{t('heldNoDelete')}</Muted>
                      ) : (
                        <Button size="sm" variant="danger" onClick={() => onDelete(slot)} aria-label={t('deleteSlotLabel', { id: slot.id })}>
                          {t('delete')}
                        </Button>
                      )}
                    </ActionCell>
                  )}
                  {columns.map((column) => {
                    const detail = column.detail?.(slot);
                    return (
                      <Wrapping key={column.id}>
                        {column.text(slot)}
                        {detail && <Muted>{column.detailIsEmail ? <Email address={detail} /> : detail}</Muted>}
                      </Wrapping>
                    );
                  })}
                </Tr>
              );
            })}
      </TBody>
    </Table>
  );
}
