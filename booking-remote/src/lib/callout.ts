import { styled } from 'shared-ui';

export type CalloutTone = 'info' | 'warning' | 'danger';

/**
 * The public pages' boxed note: a tinted box with a thick left edge in its tone (info by default). Each note adds
 * its own layout and links; the tone, edge and tint are the same everywhere.
 */
export const Callout = styled.div<{ $tone?: CalloutTone }>`
  padding: ${({ theme }) => theme.space[3]} ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme, $tone = 'info' }) => theme.colors[$tone]};
  border-left-width: 4px;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $tone = 'info' }) => theme.colors[`${$tone}Subtle`]};
  p {
    margin: 0;
  }
`;
