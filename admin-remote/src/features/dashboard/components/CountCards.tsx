import { media, styled } from 'shared-ui';
import { Card, CardBody } from 'shared-ui/data';

const Grid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  /* Two by two on a phone, one row of four on a desktop. */
  grid-template-columns: repeat(2, minmax(0, 1fr));
  ${media.desktop`grid-template-columns: repeat(4, minmax(0, 1fr));`}
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

export type CountCard = { id: string; label: string; count: number };

/** A labelled list of counts, one card each; a dash instead of each count until the lists have loaded. */
export function CountCards({ label, cards, loading }: { label: string; cards: CountCard[]; loading: boolean }) {
  return (
    <Grid aria-label={label}>
      {cards.map(({ id, label: cardLabel, count }) => (
        <li key={id}>
          <Card>
            <CardBody>
              <Label id={id}>{cardLabel}</Label>
              <Value aria-labelledby={id} data-testid={id}>
                {loading ? '–' : count}
              </Value>
            </CardBody>
          </Card>
        </li>
      ))}
    </Grid>
  );
}
