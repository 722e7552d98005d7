import type { Locale } from 'shared-api';
import { remoteForPath } from './remoteForPath';

/** The language a page speaks: the staff side is English; the public side speaks the parent's chosen language. */
export const pageLocale = (pathname: string, chosen: Locale): Locale => (remoteForPath(pathname) === 'admin' ? 'en' : chosen);
