// Where the API lives and what to do on a 401: set once at start-up by the shell or a standalone remote.
export type ApiConfig = {
  baseUrl: string;
  /** Called after a 401 on an authenticated call, once the token cookie is gone. */
  onUnauthorized: () => void;
  /** Where `reportError` posts browser errors; unset (the default) sends nothing. */
  errorReportUrl?: string;
};

declare const process: { env: Record<string, string | undefined> };

// Build-time default (DefinePlugin in rspack, real env in Jest); runtime config overrides it.
const defaultBaseUrl = (typeof process !== 'undefined' && process.env.API_BASE_URL) || 'http://localhost:4000';

// Several calls of one page answer 401 together: the page leaves for /login once (a second assign would restart the
// navigation and cancel whatever the next page started).
let leavingForLogin = false;

export const apiConfig: ApiConfig = {
  baseUrl: defaultBaseUrl,
  onUnauthorized: () => {
    // Already on /login (a late 401 of the page staff just left): a reload would wipe what they type.
    if (typeof window === 'undefined' || leavingForLogin || window.location.pathname === '/login') return;
    leavingForLogin = true;
    window.location.assign('/login');
  },
};

export function configureApi(next: Partial<ApiConfig>): void {
  Object.assign(apiConfig, next);
}
