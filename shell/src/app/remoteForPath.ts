import type { RemoteName } from '../federation/runtimeConfig';

// The staff side owns /login, /register, /forgot-password, /reset-password/:token and /secured/*; everything else (/, /thankyou, /payment/*) is the public side.
// Plain code, no router: the entry runs it before the shared packages load, and the shell's server runs it too.
const adminPaths = /^\/(login|register|forgot-password)\/?$|^\/reset-password\/[^/]+\/?$|^\/secured(\/|$)/;

export function remoteForPath(pathname: string): RemoteName {
  return adminPaths.test(pathname) ? 'admin' : 'booking';
}
