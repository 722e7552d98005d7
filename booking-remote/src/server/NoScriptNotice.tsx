// What the server-rendered timetable says to a browser without JavaScript, where its buttons are: they cannot book
// here, and how to book instead (each school's office phone and the admissions email, from brand.config.json).
import { brand, schoolName } from 'shared-api';
import { schoolDetails, telHref } from 'shared-api/schools';
import { styled, useCatalog } from 'shared-ui';
import { Callout } from '../lib/callout';
import { ELEMENT, Sentence } from '../lib/resultLayout';
import { serverRenderCatalog } from './i18n';

const Notice = styled(Callout).attrs({ $tone: 'warning' })`
  ul {
    margin: ${({ theme }) => theme.space[2]} 0 0;
    padding-left: ${({ theme }) => theme.space[5]};
  }
  /* A phone number is read whole: it never breaks between its groups. */
  a[href^='tel:'] {
    white-space: nowrap;
  }
`;

/** Dims the timetable's buttons when scripts do not run (a `<style>` for the head, read only then): nothing to press. */
export const NO_SCRIPT_BUTTON_STYLE = '<noscript><style>main button{cursor:not-allowed;opacity:.5;filter:grayscale(1)}</style></noscript>';

export function NoScriptNotice() {
  const { t, locale } = useCatalog(serverRenderCatalog);
  return (
    <noscript>
      <Notice>
        <p>{t('noScript.text')}</p>
        <ul>
          {brand.schools.map(({ name }) => {
            const phone = schoolDetails(name)?.phone;
            return (
              phone && (
                <li key={name}>
                  <Sentence text={t('noScript.schoolPhone', { school: schoolName(name, locale), phone: ELEMENT })}>
                    <a href={telHref(phone)}>{phone}</a>
                  </Sentence>
                </li>
              )
            );
          })}
          <li>
            <Sentence text={t('noScript.email', { email: ELEMENT })}>
              <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
            </Sentence>
          </li>
        </ul>
      </Notice>
    </noscript>
  );
}
