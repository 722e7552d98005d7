// Moved to lib/hold-limit (the waitlist's join form solves the same challenge); kept for the server's and bench's imports.
export { solveHoldChallenge, SOLVE_TIMEOUT_MS } from '../../../lib/hold-limit/holdChallenge';
