// The dashboard's first page asked before the dashboard is shown (issue 41): during the login's success timer, and
// beside /user when the secured area opens on the dashboard, so its rows do not wait behind either.
import type { AppDispatch } from 'shared-api';
import { staffSlotsApi } from './api/staffSlotsApi';
import { dashboardPageArgs } from './hooks/useDashboardPage';
import { readStoredFilter } from './hooks/useSlotFilter';

/**
 * Page 1 of the view staff last chose, exactly the query the dashboard then makes (so it is answered from the cache);
 * settles when it has answered (a page already cached is not asked again).
 */
export function prefetchDashboardPage(dispatch: AppDispatch): Promise<unknown> {
  return dispatch(staffSlotsApi.endpoints.staffSlotPage.initiate(dashboardPageArgs(readStoredFilter()), { subscribe: false }));
}
