// The login draws the secured area ahead, hidden, while its success shows (issue 41): routes.tsx keeps the drawn tree
// and shows it when the dashboard opens, so opening it costs a reveal, not a first render.
import { createContext, useContext } from 'react';

/** Where the secured area is drawn ahead: the page the login opens. */
export const SECURED_AHEAD_PATH = '/secured/dashboard';

/** Draws the secured area ahead for the current page (a no-op outside the admin routes, e.g. in a page's own test). */
export const SecuredAheadContext = createContext<() => void>(() => {});

export const useDrawSecuredAhead = () => useContext(SecuredAheadContext);
