import { matchPath } from 'react-router-dom';
import type { RemoteName } from '../federation/runtimeConfig';

// The staff side owns these paths; everything else (/, /thankyou, /payment/*) belongs to the public side.
const adminPatterns = ['/login', '/register', '/secured/*'];

export function remoteForPath(pathname: string): RemoteName {
  return adminPatterns.some((pattern) => matchPath({ path: pattern, end: true }, pathname)) ? 'admin' : 'booking';
}
