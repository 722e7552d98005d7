import { styled } from 'shared-ui';

// A titled part of Appointment Details (its history, its messages to the parent) and the muted line under its title.
export const DetailsSection = styled.section`
  margin-top: ${({ theme }) => theme.space[4]};
  h3 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
`;

export const DetailsNote = styled.p`
  margin: ${({ theme }) => `${theme.space[1]} 0 ${theme.space[2]}`};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;
