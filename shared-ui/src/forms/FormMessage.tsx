// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import type { ReactNode } from 'react';
import { styled } from 'shared-ui';

type Tone = 'danger' | 'success';

const Message = styled.p<{ $tone: Tone }>`
  margin: 0;
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme, $tone }) => theme.colors[$tone]};
  background: ${({ theme, $tone }) => theme.colors[`${$tone}Subtle`]};
  color: ${({ theme }) => theme.colors.text};
`;

/** What a whole form's sending failed with, announced at once to screen readers. */
export const FormAlert = ({ children }: { children: ReactNode }) => (
  <Message $tone="danger" role="alert">
    {children}
  </Message>
);

/** What a whole form's sending achieved, announced politely. */
export const FormSuccess = ({ children }: { children: ReactNode }) => (
  <Message $tone="success" role="status">
    {children}
  </Message>
);

/** How a form's last sending ended, in words: shown as an alert (it failed) or a status (it went through). */
export type FormOutcome = { failed: boolean; text: string } | null;

/** The last sending's outcome, if any: one message at a time, the failure or the success. */
export function FormOutcomeMessage({ outcome }: { outcome: FormOutcome }) {
  if (!outcome) return null;
  return outcome.failed ? <FormAlert>{outcome.text}</FormAlert> : <FormSuccess>{outcome.text}</FormSuccess>;
}
