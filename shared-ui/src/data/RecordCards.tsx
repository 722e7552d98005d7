// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import { useId, type ReactNode } from 'react';
import { styled } from 'shared-ui';
import { Card } from './Card';

/** A phone held upright (390 px): below this a list of records reads as cards, at a desk (1366 px) the table stays. */
const phone = '@media (max-width: 639.98px)';

/**
 * The table's side of a table-or-cards pair, hidden on a phone. Desk first on purpose: a screen that ignores the query
 * (and jsdom in tests) shows the table, and the cards stay out of the way (display: none, so no duplicate is announced).
 * `$alone`: no cards now (loading, nothing found), so the table's own words show on every screen; kept in the same
 * place in the tree, so the table is not drawn anew when the cards come.
 */
export const WideView = styled.div<{ $alone?: boolean }>`
  min-width: 0;
  ${phone} {
    display: ${({ $alone }) => ($alone ? 'block' : 'none')};
  }
`;

/** The cards' side of a table-or-cards pair: shown on a phone only. */
export const NarrowView = styled.div`
  display: none;
  ${phone} {
    display: grid;
    gap: ${({ theme }) => theme.space[3]};
  }
`;

const Title = styled.p`
  margin: 0;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
`;

const Item = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[4]};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/*
 * Each label beside its value. The value's column keeps a sensible width (the label column is at most a third), so a
 * long word may break there as a last resort and never letter by letter; emails break at their @ and dots (Email).
 */
const Fields = styled.dl`
  display: grid;
  grid-template-columns: minmax(4.5rem, max-content) minmax(8rem, 1fr);
  gap: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  margin: 0;
  > div {
    display: contents;
  }
  dt {
    max-width: 33vw;
    color: ${({ theme }) => theme.colors.textMuted};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[2]};
`;

/** One line of a card: its label and its value (a blank value draws no line). */
export type RecordField = { id: string; label: string; value: ReactNode };

/** A record as a card: its fields in the order given, then its actions. */
export function RecordCard({ fields, actions }: { fields: RecordField[]; actions?: ReactNode }) {
  const shown = fields.filter((field) => field.value !== null && field.value !== undefined && field.value !== '');
  return (
    <li>
      <Item as="div">
        <Fields>
          {shown.map((field) => (
            <div key={field.id}>
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </Fields>
        {actions && <Actions>{actions}</Actions>}
      </Item>
    </li>
  );
}

/** The records of a page as a list of RecordCard, named by its visible title (the table's caption). */
export function RecordCardList({ title, busy, children }: { title: ReactNode; busy?: boolean; children: ReactNode }) {
  const titleId = useId();
  return (
    <>
      <Title id={titleId}>{title}</Title>
      <List aria-labelledby={titleId} aria-busy={busy || undefined}>
        {children}
      </List>
    </>
  );
}
