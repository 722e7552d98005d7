import styled from 'styled-components';

/** A table's visible title (the booking page's week table and the staff list use it). */
export const Caption = styled.caption`
  padding: ${({ theme }) => theme.space[3]};
  text-align: left;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  color: ${({ theme }) => theme.colors.text};
`;
