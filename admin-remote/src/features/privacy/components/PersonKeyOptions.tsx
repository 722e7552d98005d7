import { useCatalog } from 'shared-ui';
import type { PersonLookup } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';

/** A person is named by an email address or a phone number: the two choices of a select. */
export function PersonKeyOptions() {
  const { t } = useCatalog(privacyCatalog);
  return (
    <>
      <option value="email">{t('byEmail')}</option>
      <option value="phone">{t('byPhone')}</option>
    </>
  );
}

/** The box the person is typed into, by what names them (a phone keypad for a phone number). */
export const personInputType = (by: PersonLookup['by']) => (by === 'email' ? 'email' : 'tel');
