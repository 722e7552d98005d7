import { styled } from 'shared-ui';

/** A child's documents, and the registration form: a heading over its own rows. */
export const Part = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
`;

