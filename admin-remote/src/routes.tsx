// The staff side's route tree, mounted by the shell (or the standalone bootstrap) under its router, store, theme and toasts.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Spinner } from 'shared-ui';
import { LoginPage } from './pages/LoginPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { RegisterPage } from './pages/RegisterPage';

// The secured pages (dashboard, waitlist, colleagues, audit, privacy) are a chunk of their own: /login loads none of them.
const SecuredArea = lazy(() => import('./pages/SecuredArea').then(({ SecuredArea }) => ({ default: SecuredArea })));

export default function AdminRoutes() {
  return (
    <Suspense fallback={<Spinner />}>
      <Routes>
        <Route path="login" element={<LoginPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password/:token" element={<ResetPasswordPage />} />
        <Route path="secured/*" element={<SecuredArea />} />
      </Routes>
    </Suspense>
  );
}
