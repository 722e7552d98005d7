import { media, styled } from 'shared-ui';
import { Card, CardBody } from 'shared-ui/data';

const Grid = styled.ul<{ $phone: number; $desktop: number }>`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  grid-template-columns: repeat(${({ $phone }) => $phone}, minmax(0, 1fr));
  ${media.desktop`grid-template-columns: repeat(${({ $desktop }: { $desktop: number }) => $desktop}, minmax(0, 1fr));`}
`;

const Label = styled.p`
  margin: 0;
  font-size: 0.875rem;
`;

const Value = styled.p`
  margin: 0.25rem 0 0;
  font-size: 1.75rem;
  font-weight: 700;
`;

/** One count: its id names the card's label, which names the count for screen readers. */
export type CountCard = { id: string; label: string; count: number | undefined };

type CountCardsProps = {
  cards: CountCard[];
  /** The list's name when no heading says what the counts are. */
  label?: string;
  /** Cards side by side on a phone (below the desk's breakpoint) and on a desk (all in one row by default). */
  phoneColumns?: number;
  desktopColumns?: number;
};

/** A list of counts, one card each; a dash instead of a count not known yet (the lists still loading). */
export function CountCards({ cards, label, phoneColumns = 2, desktopColumns = cards.length }: CountCardsProps) {
  return (
    <Grid aria-label={label} $phone={phoneColumns} $desktop={desktopColumns}>
      {cards.map(({ id, label: cardLabel, count }) => (
        <li key={id}>
          <Card>
            <CardBody>
              <Label id={id}>{cardLabel}</Label>
              <Value aria-labelledby={id} data-testid={id}>
                {count ?? '–'}
              </Value>
            </CardBody>
          </Card>
        </li>
      ))}
    </Grid>
  );
}
