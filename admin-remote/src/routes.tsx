// The staff side's route tree, mounted by the shell (or the standalone bootstrap) under its router, store, theme and toasts.
import { Activity, lazy, Suspense, useCallback, useState } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { Spinner } from 'shared-ui';
import { LoginPage } from './pages/LoginPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { RegisterPage } from './pages/RegisterPage';
import { SECURED_AHEAD_PATH, SecuredAheadContext } from './pages/securedAhead';

// The secured pages (dashboard, waitlist, colleagues, audit, privacy) are a chunk of their own: /login loads none of them.
const SecuredArea = lazy(() =>
  import('./pages/SecuredArea').then(({ SecuredArea }) => ({ default: SecuredArea })),
);

export default function AdminRoutes() {
  const location = useLocation();
  // (The shared router subset has no matchPath: scripts/federation/react-router-dom.ts.)
  const secured = /^\/secured(\/|$)/.test(location.pathname);
  // The page (location.key) the login asked to draw the secured area ahead on; any other page forgets it.
  const [aheadOn, setAheadOn] = useState<string | null>(null);
  const drawAhead = useCallback(() => setAheadOn(location.key), [location.key]);
  const drawn = secured || aheadOn === location.key;
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
      {drawn && (
        // Hidden, React renders it at idle priority with its effects unmounted; shown, it is the page.
        <Activity mode={secured ? 'visible' : 'hidden'}>
          <Suspense fallback={<Spinner />}>
            <Routes location={secured ? location : SECURED_AHEAD_PATH}>
              <Route path="secured/*" element={<SecuredArea />} />
            </Routes>
          </Suspense>
        </Activity>
      )}
    </SecuredAheadContext.Provider>
  );
}
