import type { ReactNode } from 'react';
import { styled } from 'shared-ui';

const Alert = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  background: ${({ theme }) => theme.colors.dangerSubtle};
  color: ${({ theme }) => theme.colors.text};
`;

const Success = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.success};
  background: ${({ theme }) => theme.colors.successSubtle};
  color: ${({ theme }) => theme.colors.text};
`;

/** A form-level failure, announced at once to screen readers. */
export const FormAlert = ({ children }: { children: ReactNode }) => <Alert role="alert">{children}</Alert>;

/** A form-level success, announced politely. */
export const FormSuccess = ({ children }: { children: ReactNode }) => <Success role="status">{children}</Success>;
