import { useCallback, useState } from 'react';
import { DASHBOARD_FILTER_STORAGE_KEY } from 'shared-api';

/** Available and Booked are the spec's views; Past (slots whose start has gone by, read-only) is an addition. */
export type SlotFilter = 'available' | 'booked' | 'past';

export function readStoredFilter(): SlotFilter {
  try {
    const stored = window.localStorage.getItem(DASHBOARD_FILTER_STORAGE_KEY);
    return stored === 'booked' || stored === 'past' ? stored : 'available';
  } catch {
    return 'available';
  }
}

/** The Available / Booked / Past choice, kept in local storage; Available by default. */
export function useSlotFilter(): [SlotFilter, (next: SlotFilter) => void] {
  const [filter, setFilterState] = useState<SlotFilter>(readStoredFilter);
  const setFilter = useCallback((next: SlotFilter) => {
    setFilterState(next);
    try {
      window.localStorage.setItem(DASHBOARD_FILTER_STORAGE_KEY, next);
    } catch {
      // Private mode without storage: the choice lasts for this visit only.
    }
  }, []);
  return [filter, setFilter];
}
