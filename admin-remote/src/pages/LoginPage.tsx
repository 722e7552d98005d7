import { Link } from 'react-router-dom';
import { styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { LoginForm } from '../features/auth';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function LoginPage() {
  return (
    <>
      <Narrow>
        <Card>
          <CardHeader>
            <CardTitle as="h1">Staff login</CardTitle>
          </CardHeader>
          <CardBody>
            <LoginForm />
            <p>
              <Link to="/forgot-password">Forgot password?</Link>
            </p>
            <p>
              <Link to="/">Back to the timetable</Link>
            </p>
          </CardBody>
        </Card>
      </Narrow>
    </>
  );
}
