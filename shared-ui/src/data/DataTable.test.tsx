import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../test/axe';
import { renderThemed } from '../test/render';
import { DataTable, type DataColumn, type DataSort } from './DataTable';

type Visit = { id: number; name: string; email: string; note: string | null };
const visits: Visit[] = [
  { id: 1, name: 'Aisyah Rahman', email: 'aisyah.parent@example.com', note: 'Twins' },
  { id: 2, name: 'Tan Wei Ming', email: 'wei.ming@example.com', note: null },
];
const columns: DataColumn<Visit>[] = [
  { id: 'name', header: 'Visitor', cell: (v) => v.name, sortable: true },
  { id: 'email', header: 'Email', cell: (v) => v.email, wrap: 'anywhere' },
  { id: 'note', header: 'Note', cell: (v) => v.note },
  {
    id: 'action',
    header: 'Action',
    cell: (v) => <button type="button">Remove {v.name}</button>,
    unlabelled: true,
  },
];

/** A screen below the desk's breakpoint (`phone`) or a desk, as matchMedia answers it; jsdom has none of its own. */
function screenWidth(phone: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches: phone,
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
  };
  window.matchMedia = jest.fn(() => list) as unknown as typeof window.matchMedia;
  return {
    turn(toPhone: boolean) {
      list.matches = toPhone;
      act(() => listeners.forEach((f) => f()));
    },
  };
}

afterEach(() => {
  delete (window as { matchMedia?: unknown }).matchMedia;
});

describe('DataTable on a desk', () => {
  it('is a table: a header per column, a cell per value, its caption naming it', async () => {
    screenWidth(false);
    const { container } = renderThemed(
      <DataTable columns={columns} rows={visits} rowKey={(v) => v.id} caption="Booked visits" />,
    );
    const table = screen.getByRole('table', { name: 'Booked visits' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Visitor', 'Email', 'Note', 'Action']);
    expect(within(table).getByRole('cell', { name: 'wei.ming@example.com' })).toHaveStyle({
      overflowWrap: 'anywhere',
    });
    expect(await axe(container)).toHaveNoViolations();
  });

  it('sorts by a header: aria-sort on the sorted column, its order in words for a screen reader', async () => {
    screenWidth(false);
    const onSort = jest.fn();
    const sort: DataSort = { columnId: 'name', direction: 'descending' };
    renderThemed(
      <DataTable
        columns={columns}
        rows={visits}
        rowKey={(v) => v.id}
        label="Visits"
        sort={sort}
        onSort={onSort}
        sortedText={(s) => (s.direction === 'ascending' ? 'A to Z' : 'Z to A')}
      />,
    );
    expect(screen.getByRole('columnheader', { name: /Visitor/ })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(screen.getByRole('button', { name: 'Visitor Z to A' }));
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it("puts a row's detail in a row of its own across the table", () => {
    screenWidth(false);
    renderThemed(
      <DataTable
        columns={columns}
        rows={visits}
        rowKey={(v) => v.id}
        label="Visits"
        rowDetail={(v) => (v.id === 2 ? <form aria-label="Correct Tan Wei Ming" /> : null)}
      />,
    );
    const detail = screen.getByRole('form', { name: 'Correct Tan Wei Ming' }).closest('td')!;
    expect(detail).toHaveAttribute('colspan', '4');
    expect(screen.getAllByRole('row')).toHaveLength(1 + 2 + 1);
  });

  it('shows placeholder rows while loading, and its words for no rows', () => {
    screenWidth(false);
    const { rerender } = renderThemed(
      <DataTable
        columns={columns}
        rows={undefined}
        rowKey={(v) => v.id}
        label="Visits"
        loadingRows={3}
        busy
        empty="No visits yet."
      />,
    );
    expect(screen.getByRole('table', { name: 'Visits' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(3);
    rerender(
      <DataTable columns={columns} rows={[]} rowKey={(v) => v.id} label="Visits" empty="No visits yet." />,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No visits yet.')).toBeInTheDocument();
  });
});

describe('DataTable on a phone', () => {
  it('is a list of cards, each value beside its column’s name, the actions unlabelled, blank values left out', async () => {
    screenWidth(true);
    const { container } = renderThemed(
      <DataTable columns={columns} rows={visits} rowKey={(v) => v.id} caption="Booked visits" />,
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Booked visits' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const terms = (card: HTMLElement) =>
      within(card)
        .getAllByRole('term')
        .map((dt) => dt.textContent);
    expect(terms(cards[0])).toEqual(['Visitor', 'Email', 'Note']);
    expect(terms(cards[1])).toEqual(['Visitor', 'Email']);
    expect(
      within(cards[0])
        .getAllByRole('definition')
        .map((dd) => dd.textContent),
    ).toEqual(['Aisyah Rahman', 'aisyah.parent@example.com', 'Twins']);
    expect(within(cards[1]).getByRole('button', { name: 'Remove Tan Wei Ming' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('offers the sortable columns as buttons above the cards (a phone has no headers to press)', async () => {
    screenWidth(true);
    const onSort = jest.fn();
    renderThemed(
      <DataTable
        columns={columns}
        rows={visits}
        rowKey={(v) => v.id}
        label="Visits"
        sort={{ columnId: 'name', direction: 'ascending' }}
        onSort={onSort}
        sortLabel="Sort by"
      />,
    );
    const button = within(screen.getByRole('group', { name: 'Sort by' })).getByRole('button', {
      name: 'Visitor',
    });
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(button);
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it("keeps a row's detail inside its card, and follows the screen across the breakpoint", () => {
    const width = screenWidth(true);
    renderThemed(
      <DataTable
        columns={columns}
        rows={visits}
        rowKey={(v) => v.id}
        label="Visits"
        rowDetail={(v) => (v.id === 1 ? <form aria-label="Correct Aisyah Rahman" /> : null)}
      />,
    );
    const [first] = within(screen.getByRole('list', { name: 'Visits' })).getAllByRole('listitem');
    expect(within(first).getByRole('form', { name: 'Correct Aisyah Rahman' })).toBeInTheDocument();
    width.turn(false);
    expect(screen.getByRole('table', { name: 'Visits' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Visits' })).not.toBeInTheDocument();
  });
});
