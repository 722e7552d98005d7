import type { StaffSlot } from 'shared-api';
import { Button, Caption, Skeleton, VisuallyHidden, styled, useCatalog } from 'shared-ui';
import { Badge, Table, TBody, Td, Th, THead, Tr } from 'shared-ui/data';
import { dashboardCatalog } from '../i18n';
import { formatSlotDate, formatSlotTimeRange, isBookedSlot } from '../utils/format';

export type SortDirection = 'ascending' | 'descending';

const SortButton = styled.button`
  all: unset;
  cursor: pointer;
  font-weight: inherit;
  &:focus-visible {
    outline: 2px solid currentColor;
    outline-offset: 2px;
  }
`;

const Muted = styled.span`
  display: block;
  font-size: 0.875rem;
`;

type SlotTableProps = {
  slots: StaffSlot[];
  caption: string;
  loading: boolean;
  sort: SortDirection;
  onToggleSort: () => void;
  onDelete: (slot: StaffSlot) => void;
  onViewDetails: (slot: StaffSlot) => void;
  /** Past slots: listed only, no Action column. */
  readOnly?: boolean;
};

export const SKELETON_ROWS = 5;

export function SlotTable({ slots, caption, loading, sort, onToggleSort, onDelete, onViewDetails, readOnly = false }: SlotTableProps) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <Table aria-busy={loading || undefined}>
      <Caption>{caption}</Caption>
      <THead>
        <Tr>
          <Th scope="col">{t('columnId')}</Th>
          <Th scope="col" aria-sort={sort}>
            <SortButton type="button" onClick={onToggleSort}>
              {t('columnDateTime')} {sort === 'ascending' ? '▲' : '▼'}
              <VisuallyHidden>{sort === 'ascending' ? t('sortedEarliestFirst') : t('sortedLatestFirst')}</VisuallyHidden>
            </SortButton>
          </Th>
          <Th scope="col">{t('columnStatus')}</Th>
          {!readOnly && <Th scope="col">{t('columnAction')}</Th>}
        </Tr>
      </THead>
      <TBody>
        {loading
          ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <Tr key={i} data-testid="skeleton-row">
                <Td><Skeleton width="3rem" /></Td>
                <Td><Skeleton width="10rem" /></Td>
                <Td><Skeleton width="5rem" /></Td>
                {!readOnly && <Td><Skeleton width="6rem" /></Td>}
              </Tr>
            ))
          : slots.map((slot) => {
              const booked = isBookedSlot(slot);
              return (
                <Tr key={slot.id}>
                  <Td>{t('slotNumber', { id: slot.id })}</Td>
                  <Td>
                    {formatSlotDate(slot.date)}
                    <Muted>{formatSlotTimeRange(slot)}</Muted>
                  </Td>
                  <Td>
                    <Badge tone={booked ? 'success' : 'info'}>{booked ? t('statusBooked') : t('statusAvailable')}</Badge>
                    {!booked && slot.status === 'reserved' && (
                      <Muted>
                        <Badge tone="warning">{t('statusHeld')}</Badge>
                      </Muted>
                    )}
                  </Td>
                  {!readOnly && <Td>
                    {booked ? (
                      <Button size="sm" variant="secondary" onClick={() => onViewDetails(slot)} aria-label={t('viewDetailsOf', { id: slot.id })}>
                        {t('viewDetails')}
                      </Button>
                    ) : (
                      <Button size="sm" variant="danger" onClick={() => onDelete(slot)} aria-label={t('deleteSlotLabel', { id: slot.id })}>
                        {t('delete')}
                      </Button>
                    )}
                  </Td>}
                </Tr>
              );
            })}
      </TBody>
    </Table>
  );
}
