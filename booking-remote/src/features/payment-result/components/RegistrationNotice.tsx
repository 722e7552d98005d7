import { brand } from 'shared-api';
import { styled } from 'shared-ui';

const Notice = styled.div`
  padding: ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme }) => theme.colors.info};
  border-left-width: 4px;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.infoSubtle};
  p {
    margin: 0;
  }
  a {
    color: ${({ theme }) => theme.colors.info};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
    overflow-wrap: anywhere;
  }
`;

/** The registration form must be filled in before the assessment (an external link from the brand config). */
export function RegistrationNotice() {
  return (
    <Notice role="note" aria-label="Registration form">
      <p>
        Important: please fill in the{' '}
        <a href={brand.registrationFormUrl} target="_blank" rel="noopener noreferrer">
          registration form (opens in a new tab)
        </a>{' '}
        before the assessment.
      </p>
    </Notice>
  );
}
