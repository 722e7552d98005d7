// The shell (or the standalone bootstrap) already centres and pads the page, so pages add no container of their own.
import { Link, Navigate, Route, Routes } from 'react-router-dom';
import { Inline, styled, useCatalog } from 'shared-ui';
import { LogoutButton, LogoutEverywhereButton, RequireStaff } from '../features/auth';
import { DashboardPage } from './DashboardPage';
import { ColleaguesPage } from './ColleaguesPage';
import { AuditPage } from './AuditPage';
import { PrivacyPage } from './PrivacyPage';
import { WaitlistPage } from './WaitlistPage';
import { richText } from '../lib/i18n';
import { pagesCatalog } from './i18n';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[3]};
  align-items: center;
  justify-content: flex-end;
  padding: ${({ theme }) => `${theme.space[3]} 0`};
`;

/** Everything under /secured: only for a token that resolves to a staff member. */
export function SecuredArea() {
  const { t } = useCatalog(pagesCatalog);
  return (
    <RequireStaff>
      {(user) => (
        <>
          <Bar>
            <Inline>
              <span>{richText(t, 'signedInAs', { name: user.username || user.email }, { strong: (name) => <strong>{name}</strong> })}</span>
              <Link to="/register">{t('addColleagueLink')}</Link>
              <Link to="/secured/waitlist">{t('waitlistLink')}</Link>
              <Link to="/secured/colleagues">{t('colleaguesLink')}</Link>
              <Link to="/secured/audit">{t('auditLink')}</Link>
              <Link to="/secured/privacy">{t('privacyLink')}</Link>
              <LogoutButton />
              <LogoutEverywhereButton />
            </Inline>
          </Bar>
          <Routes>
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="colleagues" element={<ColleaguesPage currentUserId={user.id} />} />
            <Route path="audit" element={<AuditPage />} />
            <Route path="waitlist" element={<WaitlistPage />} />
            <Route path="privacy" element={<PrivacyPage />} />
            <Route path="*" element={<Navigate to="/secured/dashboard" replace />} />
          </Routes>
        </>
      )}
    </RequireStaff>
  );
}
