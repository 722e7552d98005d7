// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import { Fragment, useId, useSyncExternalStore, type Key, type ReactNode } from 'react';
import { Caption, css, media, Skeleton, styled, VisuallyHidden } from 'shared-ui';
import { Card } from './Card';
import { Table, TBody, Td, Th, THead, Tr } from './Table';

/** How a cell's text wraps: 'anywhere' for emails and references, 'words' for names, 'nowrap' for a date or an action. */
export type CellWrap = 'anywhere' | 'words' | 'nowrap';

export type DataColumn<Row> = {
  id: string;
  /** The column's name: the table's header and, on a phone, each card's label. */
  header: string;
  cell: (row: Row) => ReactNode;
  wrap?: CellWrap;
  /** Keeps a column from being squeezed on a desk (a name with its email and phone under it). */
  minWidth?: string;
  /** Sorted by pressing its header (with the table's `sort` and `onSort`). */
  sortable?: boolean;
  /** A card shows the cell without a label, under the others (the row's actions). */
  unlabelled?: boolean;
};

export type DataSort = { columnId: string; direction: 'ascending' | 'descending' };

export type DataTableProps<Row> = {
  columns: DataColumn<Row>[];
  /** Undefined while the rows load: `loadingRows` placeholders show meanwhile, else nothing. */
  rows: Row[] | undefined;
  rowKey: (row: Row) => Key;
  /** The rows' accessible name when no visible `caption` names them. */
  label?: string;
  caption?: ReactNode;
  /** The name of the table's sideways scroll box. */
  scrollLabel?: string;
  busy?: boolean;
  loadingRows?: number;
  /** Said instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Under a row, across the table (a form for that row); inside the row's card on a phone. */
  rowDetail?: (row: Row) => ReactNode;
  sort?: DataSort;
  onSort?: (columnId: string) => void;
  /** What a screen reader hears on the sorted column besides its name (the order in its own terms: "earliest first"). */
  sortedText?: (sort: DataSort) => string | undefined;
  /** The name of the sort buttons above the cards (a phone has no headers to press). */
  sortLabel?: string;
};

// A phone or a tablet: below the desk's breakpoint a row reads as a card, its labels beside its values.
const cardsQuery = media.mobile.query.replace('@media ', '');
const subscribe = (onChange: () => void) => {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => undefined;
  const list = window.matchMedia(cardsQuery);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};
const showsCards = () =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia(cardsQuery).matches;

const wrapStyles: Record<CellWrap, ReturnType<typeof css>> = {
  anywhere: css`
    overflow-wrap: anywhere;
  `,
  words: css`
    overflow-wrap: break-word;
  `,
  nowrap: css`
    white-space: nowrap;
  `,
};

const Cell = styled(Td)<{ $wrap?: CellWrap; $minWidth?: string }>`
  ${({ $wrap }) => $wrap && wrapStyles[$wrap]}
  min-width: ${({ $minWidth }) => $minWidth ?? 'auto'};
`;

/** A row's detail in its table-wide row: kept in the visible part of the table's scroll box on a narrow screen. */
const InView = styled.div`
  position: sticky;
  left: ${({ theme }) => theme.space[3]};
  /* The viewport less the page's and the cell's padding. */
  max-width: calc(100vw - 3.5rem);
`;

const SortButton = styled.button<{ $onCard?: boolean }>`
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
  ${({ $onCard, theme }) =>
    $onCard &&
    css`
      align-items: center;
      min-height: ${theme.tapTarget};
      padding: 0 ${theme.space[3]};
      border: 1px solid ${theme.colors.border};
      border-radius: ${theme.radii.pill};
      font-size: ${theme.fontSizes.sm};
      &[aria-pressed='true'] {
        border-color: ${theme.colors.brand};
        background: ${theme.colors.brandSubtle};
      }
    `}
`;

/** The arrow of the sorted column; a faint double arrow says the others can be sorted too. */
const SortMark = styled.span<{ $active: boolean }>`
  color: ${({ theme, $active }) => ($active ? theme.colors.text : theme.colors.textMuted)};
`;

const CardCaption = styled.p`
  margin: 0;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

const SortBar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[2]};
`;

const SortLabel = styled.span`
  align-self: center;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const CardList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
`;

const RowCard = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[4]};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  overflow-wrap: anywhere;
`;

/** Each label beside its value; the label's column is as wide as the longest label needs, at most a third. */
const Fields = styled.dl`
  display: grid;
  grid-template-columns: minmax(5rem, max-content) minmax(0, 1fr);
  gap: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  margin: 0;
  > div {
    display: contents;
  }
  > div > dt {
    max-width: 33vw;
    color: ${({ theme }) => theme.colors.textMuted};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  > div > dd {
    margin: 0;
    min-width: 0;
  }
`;

/** A cell's second line: smaller, under the first (an email under a name, a time under a day). */
export const SecondLine = styled.span`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/** The keys of the rows (or cards) standing in while the rows load. */
const placeholders = (count = 0) => Array.from({ length: count }, (_, i) => i);

const isBlank = (content: ReactNode) =>
  content === null || content === undefined || content === false || content === '';

/**
 * Rows of records: a table on a desk (its headers sortable, wide ones scrolling sideways in their own box) and, below
 * the desk's breakpoint, one card per row with each column's name beside its value, so a phone reads a row without
 * scrolling sideways.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { rows, loadingRows, empty } = props;
  const cards = useSyncExternalStore(subscribe, showsCards, () => false);
  if (rows === undefined && !loadingRows) return null;
  if (rows?.length === 0 && empty !== undefined) return <p>{empty}</p>;
  return cards ? <Cards {...props} /> : <RowsTable {...props} />;
}

function SortControl<Row>({
  column,
  props,
  onCard,
}: {
  column: DataColumn<Row>;
  props: DataTableProps<Row>;
  onCard?: boolean;
}) {
  const { sort, onSort, sortedText } = props;
  const active = sort?.columnId === column.id;
  const spoken = active && sort ? sortedText?.(sort) : undefined;
  return (
    <SortButton
      type="button"
      $onCard={onCard}
      aria-pressed={onCard ? active : undefined}
      onClick={() => onSort?.(column.id)}
    >
      {column.header}{' '}
      <SortMark $active={active} aria-hidden="true">
        {!active ? '↕' : sort?.direction === 'ascending' ? '▲' : '▼'}
      </SortMark>
      {spoken && <VisuallyHidden>{spoken}</VisuallyHidden>}
    </SortButton>
  );
}

function RowsTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, rowDetail, caption, sort } = props;
  return (
    <Table
      aria-label={caption ? undefined : props.label}
      aria-busy={props.busy || undefined}
      scrollLabel={props.scrollLabel}
    >
      {caption && <Caption>{caption}</Caption>}
      <THead>
        <Tr>
          {columns.map((column) => (
            <Th
              key={column.id}
              scope="col"
              aria-sort={column.sortable && sort?.columnId === column.id ? sort.direction : undefined}
            >
              {column.sortable && props.onSort ? (
                <SortControl column={column} props={props} />
              ) : (
                column.header
              )}
            </Th>
          ))}
        </Tr>
      </THead>
      <TBody>
        {rows === undefined
          ? placeholders(props.loadingRows).map((i) => (
              <Tr key={i} data-testid="skeleton-row">
                {columns.map((column) => (
                  <Td key={column.id}>
                    <Skeleton width="5rem" />
                  </Td>
                ))}
              </Tr>
            ))
          : rows.map((row) => {
              const detail = rowDetail?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <Tr>
                    {columns.map((column) => (
                      <Cell key={column.id} $wrap={column.wrap} $minWidth={column.minWidth}>
                        {column.cell(row)}
                      </Cell>
                    ))}
                  </Tr>
                  {!isBlank(detail) && (
                    <Tr>
                      <Td colSpan={columns.length}>
                        <InView>{detail}</InView>
                      </Td>
                    </Tr>
                  )}
                </Fragment>
              );
            })}
      </TBody>
    </Table>
  );
}

function Cards<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, rowDetail, caption } = props;
  const captionId = useId();
  const sortLabelId = useId();
  const sortable = props.onSort ? columns.filter((column) => column.sortable) : [];
  const labelled = columns.filter((column) => !column.unlabelled);
  const unlabelled = columns.filter((column) => column.unlabelled);
  return (
    <>
      {caption && <CardCaption id={captionId}>{caption}</CardCaption>}
      {sortable.length > 0 && (
        <SortBar role="group" aria-labelledby={props.sortLabel ? sortLabelId : undefined}>
          {props.sortLabel && <SortLabel id={sortLabelId}>{props.sortLabel}</SortLabel>}
          {sortable.map((column) => (
            <SortControl key={column.id} column={column} props={props} onCard />
          ))}
        </SortBar>
      )}
      <CardList
        aria-labelledby={caption ? captionId : undefined}
        aria-label={caption ? undefined : props.label}
        aria-busy={props.busy || undefined}
      >
        {rows === undefined
          ? placeholders(props.loadingRows).map((i) => (
              <li key={i} data-testid="skeleton-row">
                <RowCard>
                  <Skeleton width="60%" />
                  <Skeleton width="40%" />
                </RowCard>
              </li>
            ))
          : rows.map((row) => {
              const detail = rowDetail?.(row);
              return (
                <li key={rowKey(row)}>
                  <RowCard>
                    <Fields>
                      {labelled.map((column) => {
                        const content = column.cell(row);
                        return isBlank(content) ? null : (
                          <div key={column.id}>
                            <dt>{column.header}</dt>
                            <dd>{content}</dd>
                          </div>
                        );
                      })}
                    </Fields>
                    {unlabelled.map((column) => {
                      const content = column.cell(row);
                      return isBlank(content) ? null : <div key={column.id}>{content}</div>;
                    })}
                    {!isBlank(detail) && detail}
                  </RowCard>
                </li>
              );
            })}
      </CardList>
    </>
  );
}
