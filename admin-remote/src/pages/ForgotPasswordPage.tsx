import { Link } from 'react-router-dom';
import { styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { ForgotPasswordForm } from '../features/auth';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function ForgotPasswordPage() {
  return (
    <Narrow>
      <Card>
        <CardHeader>
          <CardTitle as="h1">Forgot password</CardTitle>
        </CardHeader>
        <CardBody>
          <p>Enter the email of your staff account. We will send a link to set a new password; it works once, within 30 minutes.</p>
          <ForgotPasswordForm />
          <p>
            <Link to="/login">Back to the login</Link>
          </p>
        </CardBody>
      </Card>
    </Narrow>
  );
}
