// The staff side's route tree, mounted by the shell (or the standalone bootstrap) under its router, store, theme and toasts.
import { Activity, lazy, Suspense, useCallback, useContext, useMemo, useState } from 'react';
import { Route, Routes, UNSAFE_LocationContext as LocationContext, useLocation } from 'react-router-dom';
import { Spinner } from 'shared-ui';
import { LoginPage } from './pages/LoginPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { RegisterPage } from './pages/RegisterPage';
import { SECURED_AHEAD_PATH, SecuredAheadContext } from './pages/securedAhead';

// The secured pages (dashboard, waitlist, colleagues, audit, privacy) are a chunk of their own: /login loads none of them.
// Named: the shell's server preloads it for a secured page opened directly (shell/server/hints.ts).
const SecuredArea = lazy(() => import(/* webpackChunkName: "secured-area" */ './pages/SecuredArea').then(({ SecuredArea }) => ({ default: SecuredArea })));

const AHEAD_LOCATION = { pathname: SECURED_AHEAD_PATH, search: '', hash: '', state: null, key: 'ahead' };

export default function AdminRoutes() {
  const location = useLocation();
  const router = useContext(LocationContext);
  // (The shared router subset has no matchPath: scripts/federation/react-router-dom.ts.)
  const secured = /^\/secured(\/|$)/.test(location.pathname);
  // The page (location.key) the login asked to draw the secured area ahead on; any other page forgets it.
  const [aheadOn, setAheadOn] = useState<string | null>(null);
  const drawAhead = useCallback(() => setAheadOn(location.key), [location.key]);
  const drawn = secured || aheadOn === location.key;
  // The secured area's place, one value per path: the login's navigation to the page drawn ahead (a new history entry,
  // the same path) changes nothing it reads, so the reveal draws nothing again.
  const place = secured ? location : AHEAD_LOCATION;
  const { pathname, search, hash, state } = place;
  const placeValue = useMemo(
    () => ({ ...router, location: place }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new value only for a new place (not for a new key)
    [pathname, search, hash, state],
  );
  const securedArea = useMemo(
    () => (
      <LocationContext.Provider value={placeValue}>
        <Suspense fallback={<Spinner />}>
          <Routes>
            <Route path="secured/*" element={<SecuredArea />} />
          </Routes>
        </Suspense>
      </LocationContext.Provider>
    ),
    [placeValue],
  );
  return (
    <SecuredAheadContext.Provider value={drawAhead}>
      <Suspense fallback={<Spinner />}>
        <Routes>
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
          <Route path="reset-password/:token" element={<ResetPasswordPage />} />
          {/* Drawn below, where it stays mounted from the hidden draw ahead to the shown page. */}
          <Route path="secured/*" element={null} />
        </Routes>
      </Suspense>
      {/* Hidden, React renders it at idle priority with its effects unmounted; shown, it is the page. */}
      {drawn && <Activity mode={secured ? 'visible' : 'hidden'}>{securedArea}</Activity>}
    </SecuredAheadContext.Provider>
  );
}
