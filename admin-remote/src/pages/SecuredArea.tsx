// The shell (or the standalone bootstrap) already centres and pads the page, so pages add no container of their own.
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { getToken, useAppDispatch } from 'shared-api';
import { Inline, Spinner, styled, useCatalog } from 'shared-ui';
import {
  LogoutButton,
  LogoutEverywhereButton,
  RequireAdmin,
  RequireStaff,
  SecondFactorGate,
} from '../features/auth';
import { DashboardPage } from './DashboardPage';
import { prefetchDashboardPage } from '../features/dashboard';
import { ColleaguesPage } from './ColleaguesPage';
import { AuditPage } from './AuditPage';
import { PrivacyPage } from './PrivacyPage';
import { WaitlistPage } from './WaitlistPage';
import { richText } from '../lib/i18n';
import { pagesCatalog } from './i18n';

// Insights carries chart.js: a chunk of its own, loaded only when the page opens.
const InsightsPage = lazy(() => import('./InsightsPage').then(({ InsightsPage }) => ({ default: InsightsPage })));

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[3]};
  align-items: center;
  justify-content: flex-end;
  padding: ${({ theme }) => `${theme.space[3]} 0`};
`;

/**
 * Everything under /secured: only for a token that resolves to a staff member. Staff see the day's work (dashboard,
 * waitlist); admins also the colleagues, audit trail and privacy pages, the ones that act asking the second factor.
 */
export function SecuredArea() {
  const { t } = useCatalog(pagesCatalog);
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  // Opened on the dashboard with a session: its first page is asked beside /user, not after it (a page already cached is not asked again).
  useEffect(() => {
    if (getToken() && pathname.endsWith('/secured/dashboard')) prefetchDashboardPage(dispatch);
  }, [dispatch, pathname]);
  return (
    <RequireStaff>
      {(user) => {
        const admin = user.role === 'admin';
        const adminPage = (page: ReactNode, { secondFactor = true } = {}) => (
          <RequireAdmin user={user}>
            {secondFactor ? <SecondFactorGate>{page}</SecondFactorGate> : page}
          </RequireAdmin>
        );
        return (
          <>
            <Bar>
              <Inline>
                <span>
                  {richText(
                    t,
                    'signedInAs',
                    { name: user.username || user.email },
                    { strong: (name) => <strong>{name}</strong> },
                  )}
                </span>
                {admin && <Link to="/register">{t('addColleagueLink')}</Link>}
                <Link to="/secured/waitlist">{t('waitlistLink')}</Link>
                <Link to="/secured/insights">{t('insightsLink')}</Link>
                {admin && <Link to="/secured/colleagues">{t('colleaguesLink')}</Link>}
                {admin && <Link to="/secured/audit">{t('auditLink')}</Link>}
                {admin && <Link to="/secured/privacy">{t('privacyLink')}</Link>}
                <LogoutButton />
                <LogoutEverywhereButton />
              </Inline>
            </Bar>
            <Routes>
              <Route path="dashboard" element={<DashboardPage admin={admin} />} />
              <Route path="colleagues" element={adminPage(<ColleaguesPage currentUserId={user.id} />)} />
              <Route path="audit" element={adminPage(<AuditPage />, { secondFactor: false })} />
              <Route path="waitlist" element={<WaitlistPage />} />
              <Route path="insights" element={<Suspense fallback={<Spinner />}><InsightsPage /></Suspense>} />
              <Route path="privacy" element={adminPage(<PrivacyPage currentUserEmail={user.email} />)} />
              <Route path="*" element={<Navigate to="/secured/dashboard" replace />} />
            </Routes>
          </>
        );
      }}
    </RequireStaff>
  );
}
