import { Link, useLocation } from 'react-router-dom';
import { styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { ResetPasswordForm } from '../features/auth';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

/** The token is the path's last segment (`useParams` is not in the router subset the shell shares with the remotes). */
const tokenOf = (pathname: string): string => decodeURIComponent(/\/reset-password\/([^/]+)\/?$/.exec(pathname)?.[1] ?? '');

export function ResetPasswordPage() {
  const token = tokenOf(useLocation().pathname);
  return (
    <Narrow>
      <Card>
        <CardHeader>
          <CardTitle as="h1">Set a new password</CardTitle>
        </CardHeader>
        <CardBody>
          <p>Setting a new password logs your account out on every device.</p>
          <ResetPasswordForm token={token} />
          <p>
            <Link to="/login">Back to the login</Link>
          </p>
        </CardBody>
      </Card>
    </Narrow>
  );
}
