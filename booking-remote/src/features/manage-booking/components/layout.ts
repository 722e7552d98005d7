import { styled } from 'shared-ui';

// The manage page's frame is the result pages' (one narrow column, full width on a phone), plus its notes.
export { ResultPanel as Panel, Actions, Details, LinkButton, Sentence, ELEMENT } from '../../../lib/resultLayout';

/** A boxed note (info by default, warning for "can no longer be changed"). */
export const Note = styled.div<{ $tone?: 'info' | 'warning' | 'danger' }>`
  padding: ${({ theme }) => theme.space[3]} ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme, $tone = 'info' }) => theme.colors[$tone]};
  border-left-width: 4px;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $tone = 'info' }) => theme.colors[`${$tone}Subtle`]};
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
  p {
    margin: 0;
  }
  a {
    color: ${({ theme }) => theme.colors.text};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
`;
