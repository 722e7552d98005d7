import { useState, type FormEvent } from 'react';
import { Button, ErrorPanel, Heading, Inline, Stack, useCatalog, useToast } from 'shared-ui';
import { InputField, SelectField } from 'shared-ui/forms';
import { downloadFile } from '../../../lib/csv';
import { useLazyPersonQuery, usePersonExportMutation, type PersonLookup } from '../api/privacyApi';
import { privacyCatalog } from '../i18n';
import { PersonKeyOptions, personInputType } from './PersonKeyOptions';
import { PersonSummary } from './PersonSummary';

const LISTS = ['bookings', 'payments', 'consents', 'mails', 'waitlistEntries', 'auditEntries'] as const;
/** The parent's readable page and the full record, as the browser saves them. */
const FILE_TYPES = { html: 'text/html;charset=utf-8', json: 'application/json;charset=utf-8' } as const;

/**
 * Find one person by email or phone: who they are, their bookings with their states, waitlist, consents and mails, then
 * the count of each record held; download a readable page for the parent or the full record (PDPA access and portability).
 */
export function PersonData() {
  const { t } = useCatalog(privacyCatalog);
  const toast = useToast();
  const [draft, setDraft] = useState<PersonLookup>({ by: 'email', value: '' });
  const [missing, setMissing] = useState(false);
  const [lookup, setLookup] = useState<PersonLookup | null>(null);
  const [find, result] = useLazyPersonQuery();
  const [exportPerson, exporting] = usePersonExportMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.value.trim()) return setMissing(true);
    setMissing(false);
    setLookup(draft);
    void find(draft);
  };

  const download = async (format: keyof typeof FILE_TYPES) => {
    if (!lookup) return;
    try {
      const text = await exportPerson({ ...lookup, format }).unwrap();
      downloadFile(`person-${lookup.value.trim().replace(/[^A-Za-z0-9@.+_-]/g, '_')}.${format}`, [text], FILE_TYPES[format]);
    } catch {
      toast.error(t('exportFailed'));
    }
  };

  const records = result.data;
  const person = lookup?.value.trim() ?? '';
  const total = records ? LISTS.reduce((sum, list) => sum + records[list].length, 0) : 0;
  return (
    <Stack>
      <p>{t('intro')}</p>
      <form onSubmit={submit} noValidate>
        <Inline>
          <SelectField label={t('findBy')} id="privacy-by" value={draft.by} onChange={(e) => setDraft({ ...draft, by: e.target.value as PersonLookup['by'] })}>
            <PersonKeyOptions />
          </SelectField>
          <InputField
            label={t('value')}
            id="privacy-value"
            error={missing ? t('valueRequired') : undefined}
            type={personInputType(draft.by)}
            value={draft.value}
            onChange={(e) => setDraft({ ...draft, value: e.target.value })}
          />
          <Button type="submit" loading={result.isFetching} disabled={result.isFetching}>
            {t('search')}
          </Button>
        </Inline>
      </form>
      {result.isError && <ErrorPanel message={t('searchFailed')} />}
      {records && !result.isFetching && (
        <section aria-label={t('found', { person })}>
          {total === 0 ? (
            <p>{t('nothingFound', { person })}</p>
          ) : (
            <Stack>
              <h3>{t('found', { person })}</h3>
              <PersonSummary summary={records.summary} />
              <Heading level={4}>{t('recordCounts')}</Heading>
              <ul aria-label={t('recordCounts')}>
                {LISTS.map((list) => (
                  <li key={list}>
                    {t(list)}: {records[list].length}
                  </li>
                ))}
              </ul>
              <Inline>
                <Button variant="secondary" onClick={() => void download('html')} disabled={exporting.isLoading}>
                  {t('downloadReadable')}
                </Button>
                <Button variant="secondary" onClick={() => void download('json')} disabled={exporting.isLoading}>
                  {t('downloadJson')}
                </Button>
              </Inline>
            </Stack>
          )}
        </section>
      )}
    </Stack>
  );
}
