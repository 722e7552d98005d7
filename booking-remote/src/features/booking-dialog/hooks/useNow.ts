import { useEffect, useState } from 'react';
import { SESSION_TICK_MS } from 'shared-api';

/** The current time, re-read every tick while enabled (drives the visible countdowns). */
export function useNow(enabled: boolean, tickMs = SESSION_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [enabled, tickMs]);
  return now;
}
