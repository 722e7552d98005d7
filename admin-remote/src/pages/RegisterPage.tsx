import { Link } from 'react-router-dom';
import { styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { getToken } from 'shared-api';
import { RegisterForm } from '../features/auth';

const Narrow = styled.div`
  max-width: 28rem;
  margin: ${({ theme }) => theme.space[6]} auto;
`;

export function RegisterPage() {
  const loggedIn = Boolean(getToken());
  return (
    <>
      <Narrow>
        <Card>
          <CardHeader>
            <CardTitle as="h1">Register a staff account</CardTitle>
          </CardHeader>
          <CardBody>
            <p>
              {loggedIn ? (
                'Add a colleague who should manage assessment slots.'
              ) : (
                <>
                  Only a logged-in staff member can add a colleague. <Link to="/login">Log in first</Link>.
                </>
              )}
            </p>
            <RegisterForm />
            {loggedIn && (
              <p>
                <Link to="/secured/dashboard">Back to the dashboard</Link>
              </p>
            )}
          </CardBody>
        </Card>
      </Narrow>
    </>
  );
}
