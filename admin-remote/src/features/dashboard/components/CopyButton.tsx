import { Button, VisuallyHidden, useCatalog } from 'shared-ui';
import { useCopy } from '../../../lib/useCopy';
import { dashboardCatalog } from '../i18n';

/** Copies a value; 'Copied!' shows for two seconds, announced politely. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useCatalog(dashboardCatalog);
  const { state, copy } = useCopy();

  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => void copy(value)}>
        {state === 'copied' ? t('copied') : t('copy')}
        {/* The visible word starts the accessible name (WCAG 2.5.3); the field name follows for screen readers. */}
        <VisuallyHidden> {label}</VisuallyHidden>
      </Button>
      <span role="status" aria-live="polite" style={{ marginLeft: '0.5rem' }}>
        {state === 'copied' ? t('copiedStatus', { label }) : state === 'failed' ? t('copyFailed') : ''}
      </span>
    </>
  );
}
