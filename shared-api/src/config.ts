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

export const apiConfig: ApiConfig = {
  baseUrl: defaultBaseUrl,
  onUnauthorized: () => {
    if (typeof window !== 'undefined') window.location.assign('/login');
  },
};

export function configureApi(next: Partial<ApiConfig>): void {
  Object.assign(apiConfig, next);
}
