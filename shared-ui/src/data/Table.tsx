// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import type { TableHTMLAttributes } from 'react';
import { styled } from 'shared-ui';

/* The scroll box keeps wide tables inside the viewport: at 360 px the table scrolls, never the page. */
const Scroll = styled.div`
  width: 100%;
  max-width: 100%;
  overflow-x: auto;
  -webkit-overflow-scrolling: touch;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
  @media print {
    overflow: visible;
    border: 0;
  }
`;

const StyledTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-variant-numeric: tabular-nums;
`;

export type TableProps = TableHTMLAttributes<HTMLTableElement> & {
  /** Name of the scrollable region for screen readers when it scrolls (defaults to none). */
  scrollLabel?: string;
  /** Class for the scroll wrapper (styled(Table) styles land on the wrapper). */
  className?: string;
};

/** A table inside a horizontally scrollable, keyboard-focusable box. */
export function Table({ scrollLabel, className, ...rest }: TableProps) {
  return (
    <Scroll
      className={className}
      tabIndex={0}
      {...(scrollLabel ? { role: 'region', 'aria-label': scrollLabel } : {})}
      data-table-scroll=""
    >
      <StyledTable {...rest} />
    </Scroll>
  );
}

export const THead = styled.thead`
  background: ${({ theme }) => theme.colors.surfaceMuted};
`;

export const TBody = styled.tbody``;

export const Tr = styled.tr`
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  tbody &:last-child {
    border-bottom: 0;
  }
`;

export const Th = styled.th`
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  text-align: left;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  color: ${({ theme }) => theme.colors.text};
  white-space: nowrap;
  vertical-align: bottom;
`;

export const Td = styled.td`
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  vertical-align: middle;
`;
