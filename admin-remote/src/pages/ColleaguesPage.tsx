import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Heading, Stack, styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { RegisterForm } from '../features/auth';
import { ColleaguesList } from '../features/colleagues';

const Narrow = styled.div`
  max-width: 28rem;
`;

/** /secured/colleagues: every staff account, Disable, and the register form to add one (composed here). */
export function ColleaguesPage({ currentUserId }: { currentUserId: number }) {
  const [added, setAdded] = useState(0);
  return (
    <Stack>
      <Heading level={1}>Colleagues</Heading>
      <p>
        <Link to="/secured/dashboard">Back to the dashboard</Link>
      </p>
      <ColleaguesList currentUserId={currentUserId} refreshKey={added} />
      <Narrow>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Add a colleague</CardTitle>
          </CardHeader>
          <CardBody>
            <RegisterForm onCreated={() => setAdded((n) => n + 1)} />
          </CardBody>
        </Card>
      </Narrow>
    </Stack>
  );
}
