import { screen } from '@testing-library/react';
import { axe } from '../test/axe';
import { renderThemed } from '../test/render';
import { Badge } from '../data/Badge';
import { Heading } from './Heading';
import { Container, Inline, Stack } from './Layout';
import { Caption } from './Caption';
import { Table, TBody, Td, Th, THead, Tr } from '../data/Table';

describe('Table', () => {
  it('renders a captioned table inside a focusable horizontal scroll box', async () => {
    const { container } = renderThemed(
      <Table aria-busy="false">
        <Caption>Booked slots</Caption>
        <THead>
          <Tr>
            <Th scope="col">Date</Th>
            <Th scope="col">Status</Th>
          </Tr>
        </THead>
        <TBody>
          <Tr>
            <Td>Mon, 24 Nov 2026</Td>
            <Td>
              <Badge tone="success">Booked</Badge>
            </Td>
          </Tr>
        </TBody>
      </Table>,
    );
    const table = screen.getByRole('table', { name: 'Booked slots' });
    const scroller = table.parentElement as HTMLElement;
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(scroller).toHaveStyle({ overflowX: 'auto' });
    expect(screen.getByRole('columnheader', { name: 'Status' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Booked' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('Heading and layout', () => {
  it('Heading renders the element of its level', () => {
    renderThemed(
      <>
        <Heading level={1}>Dashboard</Heading>
        <Heading level={3}>No booked slots</Heading>
      </>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'No booked slots' })).toBeInTheDocument();
  });

  it('layout props style the box and do not leak onto the DOM', () => {
    renderThemed(
      <Container data-testid="container" size="sm">
        <Stack data-testid="stack" gap={2}>
          <Inline data-testid="inline" justify="space-between" wrap={false}>
            <span>a</span>
          </Inline>
        </Stack>
      </Container>,
    );
    const stack = screen.getByTestId('stack');
    expect(stack).toHaveStyle({ display: 'flex', flexDirection: 'column', gap: '8px' });
    expect(stack).not.toHaveAttribute('gap');
    const inline = screen.getByTestId('inline');
    expect(inline).toHaveStyle({ justifyContent: 'space-between', flexWrap: 'nowrap' });
    expect(inline).not.toHaveAttribute('wrap');
    expect(screen.getByTestId('container')).toHaveStyle({ maxWidth: '640px' });
  });
});
