import type { ReactNode } from 'react';
import { styled } from 'shared-ui';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';

// A form's card reads best at a form's width, whatever the screen.
const Narrow = styled.div`
  max-width: 28rem;
`;

/** The pages before login (login, register, forgot and reset password): one card in the middle of the page. */
const Centred = styled(Narrow)`
  margin: ${({ theme }) => theme.space[6]} auto;
`;

type FormCardProps = { title: string; children: ReactNode };

/** A form in a card of a form's width, under its title (a section of a page: an h2). */
function FormCard({ title, children, level = 2 }: FormCardProps & { level?: 1 | 2 }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as={level === 1 ? 'h1' : 'h2'}>{title}</CardTitle>
      </CardHeader>
      <CardBody>{children}</CardBody>
    </Card>
  );
}

/** A page that is one form: its card alone in the middle, the card's title the page's heading. */
export function AuthPageLayout({ title, children }: FormCardProps) {
  return (
    <Centred>
      <FormCard title={title} level={1}>
        {children}
      </FormCard>
    </Centred>
  );
}

/** A form's card beside other content of a staff page. */
export function NarrowFormCard(props: FormCardProps) {
  return (
    <Narrow>
      <FormCard {...props} />
    </Narrow>
  );
}
