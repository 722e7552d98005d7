import { useEffect, useRef, useState } from 'react';
import { Button, VisuallyHidden, useCatalog } from 'shared-ui';
import { COPY_CONFIRM_MS } from 'shared-api';
import { dashboardCatalog } from '../i18n';

/** Copies a value; 'Copied!' shows for two seconds, announced politely. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useCatalog(dashboardCatalog);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onCopy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), COPY_CONFIRM_MS);
  };

  return (
    <>
      <Button size="sm" variant="ghost" onClick={onCopy}>
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
