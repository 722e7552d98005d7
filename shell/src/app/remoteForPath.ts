import type { RemoteName } from '../federation/runtimeConfig';

// The staff side owns /login, /register and /secured/*; everything else (/, /thankyou, /payment/*) is the public side.
// Plain code, no router: the entry runs it before the shared packages load, and the shell's server runs it too.
const adminPaths = /^\/(login|register)\/?$|^\/secured(\/|$)/;

export function remoteForPath(pathname: string): RemoteName {
  return adminPaths.test(pathname) ? 'admin' : 'booking';
}
