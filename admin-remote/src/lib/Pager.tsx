import { Button, Inline } from 'shared-ui';

type PagerProps = {
  page: number;
  pages: number;
  /** A page is loading: both buttons wait for it. */
  busy: boolean;
  onPage: (page: number) => void;
  /** The buttons' words and the page's ("Page 2 of 5"), in the caller's catalogue. */
  previous: string;
  next: string;
  status: string;
  /** Names the controls for a screen reader ("Pages of the booked slots"). */
  label: string;
};

/** Previous / Next around the page's status (announced when it changes); the lists of the staff side page with it. */
export function Pager({ page, pages, busy, onPage, previous, next, status, label }: PagerProps) {
  return (
    <nav aria-label={label}>
      <Inline>
        <Button size="sm" variant="secondary" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
          {previous}
        </Button>
        <span aria-live="polite">{status}</span>
        <Button size="sm" variant="secondary" disabled={page >= pages || busy} onClick={() => onPage(page + 1)}>
          {next}
        </Button>
      </Inline>
    </nav>
  );
}
