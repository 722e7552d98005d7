// The shell (or the standalone bootstrap) already centres and pads the page, so pages add no container of their own.
import { Link, Navigate, Route, Routes } from 'react-router-dom';
import { Inline, styled } from 'shared-ui';
import { LogoutButton, LogoutEverywhereButton, RequireStaff } from '../features/auth';
import { DashboardPage } from './DashboardPage';
import { ColleaguesPage } from './ColleaguesPage';
import { AuditPage } from './AuditPage';

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
  return (
    <RequireStaff>
      {(user) => (
        <>
          <Bar>
            <Inline>
              <span>
                Signed in as <strong>{user.username || user.email}</strong>
              </span>
              <Link to="/register">Add a colleague</Link>
              <Link to="/secured/colleagues">Colleagues</Link>
              <Link to="/secured/audit">Audit trail</Link>
              <LogoutButton />
              <LogoutEverywhereButton />
            </Inline>
          </Bar>
          <Routes>
            <Route path="dashboard" element={<DashboardPage />} />
            <Route path="colleagues" element={<ColleaguesPage currentUserId={user.id} />} />
            <Route path="audit" element={<AuditPage />} />
            <Route path="*" element={<Navigate to="/secured/dashboard" replace />} />
          </Routes>
        </>
      )}
    </RequireStaff>
  );
}
