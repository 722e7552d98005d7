import { styled } from 'shared-ui';
import { Callout } from '../../../lib/callout';

// The manage page's frame is the result pages' (one narrow column, full width on a phone), plus its notes.
export { ResultPanel as Panel, Actions, Details, LinkButton, Sentence, ELEMENT, VisitBlock } from '../../../lib/resultLayout';

/** A boxed note (info by default, warning for "can no longer be changed"). */
export const Note = styled(Callout)`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
  a {
    color: ${({ theme }) => theme.colors.text};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }
`;
