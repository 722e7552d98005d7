// The product's words the public page may need on its first load (the slot list's and the health notice's).

export const SlotListError = {
  notFound: 'No slots found for the requested criteria',
  badRequest: 'Invalid request parameters',
  unauthorized: 'Authentication required. Please log in again.',
  forbidden: "Access denied. You don't have permission to view slots.",
  server: 'Server error. Please try again later.',
  cors: 'CORS error: Backend server is not accessible. Please contact administrator.',
  network: 'Network error: Cannot connect to server. Please check your connection.',
  timeout: 'Request timeout. Please try again.',
  other: 'Failed to fetch slots. Please try again.',
  invalidData: 'Invalid data format received from server',
  unreachable: 'Unable to connect to server',
} as const;

/** The spec's health notice; `{type}` is `errorType` (not_found, server_error, auth_error, network_error, cors_error). */
export const HealthMessage = {
  apiIssue: 'API Health Issue: {type}',
} as const;

export const DatabaseMessage = {
  healthy: 'Database connection successful',
  cannotCheck: 'Cannot check database status',
} as const;
