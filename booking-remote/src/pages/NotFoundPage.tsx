import { Link } from 'react-router-dom';
import { useCatalog } from 'shared-ui';
import { Actions, LinkButton, ResultPanel, resultCatalog } from '../features/payment-result';

/** A page with nothing to show: what it is, and the way back to the timetable. */
export function NothingHere({ title, text }: { title: string; text: string }) {
  const { t } = useCatalog(resultCatalog);
  return (
    <ResultPanel aria-labelledby="nothing-title">
      <h1 id="nothing-title">{title}</h1>
      <p>{text}</p>
      <Actions>
        <LinkButton as={Link} to="/" $primary>
          {t('seeTimetable')}
        </LinkButton>
      </Actions>
    </ResultPanel>
  );
}

/** Any address the public side has no page for (`/nope`): said so, with the way back. */
export default function NotFoundPage() {
  const { t } = useCatalog(resultCatalog);
  return <NothingHere title={t('notFound.title')} text={t('notFound.text')} />;
}
