import { useEffect, useRef, useState } from 'react';
import { COPY_CONFIRM_MS } from 'shared-api';

export type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Copies text to the clipboard; the state says 'copied' (or 'failed') for two seconds, then 'idle' again, or at once
 * on `reset` (the text copied is gone).
 */
export function useCopy(): { state: CopyState; copy: (text: string) => Promise<void>; reset: () => void } {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const reset = () => {
    clearTimeout(timer.current);
    setState('idle');
  };
  const copy = async (text: string) => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), COPY_CONFIRM_MS);
  };
  return { state, copy, reset };
}
