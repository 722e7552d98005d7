import { styled } from 'shared-ui';
import { Callout } from '../../../lib/callout';

/** A notice with its action beside it (a warning with Retry; the full weeks with the waitlist). */
export const ActionNotice = styled(Callout)`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  p {
    flex: 1 1 12rem;
  }
`;
