import { useCallback, useState } from 'react';
import { DASHBOARD_FILTER_STORAGE_KEY } from 'shared-api';

export type SlotFilter = 'available' | 'booked';

function readStoredFilter(): SlotFilter {
  try {
    return window.localStorage.getItem(DASHBOARD_FILTER_STORAGE_KEY) === 'booked' ? 'booked' : 'available';
  } catch {
    return 'available';
  }
}

/** The Available / Booked choice, kept in local storage; Available by default. */
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
