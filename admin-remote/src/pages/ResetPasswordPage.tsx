import { Link, useParams } from 'react-router-dom';
import { styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { ResetPasswordForm } from '../features/auth';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function ResetPasswordPage() {
  const { token = '' } = useParams();
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
