import { brand } from 'shared-api';
import { styled, useCatalog } from 'shared-ui';
import { Callout } from '../../../lib/callout';
import { ELEMENT, Sentence } from '../../../lib/resultLayout';
import { resultCatalog } from '../i18n';

const Notice = styled(Callout)`
  padding: ${({ theme }) => theme.space[4]};
  a {
    color: ${({ theme }) => theme.colors.info};
    font-weight: ${({ theme }) => theme.fontWeights.bold};
    overflow-wrap: anywhere;
  }
`;

/** The registration form must be filled in before the assessment (an external link from the brand config). */
export function RegistrationNotice() {
  const { t } = useCatalog(resultCatalog);
  return (
    <Notice role="note" aria-label={t('registration.label')}>
      <p>
        <Sentence text={t('registration.text', { link: ELEMENT })}>
          <a href={brand.registrationFormUrl} target="_blank" rel="noopener noreferrer">
            {t('registration.link')}
          </a>
        </Sentence>
      </p>
    </Notice>
  );
}
