import { useState } from 'react';
import { brand } from 'shared-api';
import { ManageMessage } from 'shared-api/manage';
import { Button, ErrorPanel, Spinner, useToast } from 'shared-ui';
import type { ManageResult } from '../api/manageApi';
import { useManagedBooking } from '../hooks/useManagedBooking';
import { messageOf, statusOf } from '../utils/apiError';
import { deadlineText, refundText } from '../utils/words';
import { BookingSummary } from './BookingSummary';
import { CancelDialog } from './CancelDialog';
import { Actions, Note, Panel } from './layout';
import { RescheduleDialog } from './RescheduleDialog';

const TITLE = 'Manage your booking';
const LOAD_FAILED = 'Your booking could not be loaded. Please check your connection and try again.';

// A refused link (unknown, expired, too many tries) shows the server's words and nothing else.
const linkRefusals: Record<number, string> = { 404: ManageMessage.invalidLink, 410: ManageMessage.expiredLink, 429: ManageMessage.tooManyTries };

/** `/booking/manage/:token`: the parent's booking, with reschedule and cancel until the cut-off. */
export function ManageBooking({ token }: { token: string }) {
  const toast = useToast();
  const { query, replace } = useManagedBooking(token);
  const [open, setOpen] = useState<'reschedule' | 'cancel' | null>(null);

  if (query.isLoading) {
    return (
      <Panel aria-labelledby="manage-title" aria-busy="true">
        <h1 id="manage-title">{TITLE}</h1>
        <Spinner label="Loading your booking" />
      </Panel>
    );
  }

  if (!query.data) {
    const status = statusOf(query.error);
    const refused = typeof status === 'number' ? linkRefusals[status] : undefined;
    return (
      <Panel aria-labelledby="manage-title">
        <h1 id="manage-title">{TITLE}</h1>
        {refused ? (
          <p role="alert">{messageOf(query.error, refused)}</p>
        ) : (
          <ErrorPanel message={messageOf(query.error, LOAD_FAILED)} onRetry={() => void query.refetch()} />
        )}
      </Panel>
    );
  }

  const { view } = query.data;

  if (view.state === 'cancelled') {
    return (
      <Panel aria-labelledby="manage-title">
        <h1 id="manage-title">{TITLE}</h1>
        <p role="status">{ManageMessage.cancelled}</p>
        {view.refund && <p>{refundText(view.refund)}</p>}
      </Panel>
    );
  }

  if (view.state === 'over') {
    return (
      <Panel aria-labelledby="manage-title">
        <h1 id="manage-title">{TITLE}</h1>
        <p role="alert">{ManageMessage.expiredLink}</p>
      </Panel>
    );
  }

  const done = (result: ManageResult, words: string) => {
    replace(result);
    setOpen(null);
    toast.success(words);
  };
  // The cut-off passed (or the booking changed elsewhere) while the page was open: show the booking as it is now.
  const closed = (message: string) => {
    setOpen(null);
    toast.error(message);
    void query.refetch();
  };

  return (
    <Panel aria-labelledby="manage-title">
      <h1 id="manage-title">{TITLE}</h1>
      <BookingSummary view={view} />
      {view.canChange ? (
        <section aria-labelledby="manage-change-title">
          <h2 id="manage-change-title">Change or cancel</h2>
          <p>{deadlineText(view.changeDeadline)}</p>
          <Actions>
            <Button variant="secondary" onClick={() => setOpen('reschedule')}>
              Change date or time
            </Button>
            <Button variant="danger" onClick={() => setOpen('cancel')} disabled={!view.cancelQuote}>
              Cancel booking
            </Button>
          </Actions>
        </section>
      ) : (
        <Note $tone="warning" role="note" aria-label="Changes">
          <p>{ManageMessage.tooLate}</p>
          <p>
            Email: <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
          </p>
        </Note>
      )}
      {open === 'reschedule' && view.canChange && (
        <RescheduleDialog
          token={token}
          view={view}
          onOpenChange={(next) => setOpen(next ? 'reschedule' : null)}
          onMoved={(result) => done(result, ManageMessage.rescheduled)}
          onClosed={closed}
        />
      )}
      {open === 'cancel' && view.canChange && (
        <CancelDialog
          token={token}
          view={view}
          onOpenChange={(next) => setOpen(next ? 'cancel' : null)}
          onCancelled={(result) => done(result, ManageMessage.cancelledNow)}
          onQuoteChanged={() => query.refetch()}
          onClosed={closed}
        />
      )}
    </Panel>
  );
}
