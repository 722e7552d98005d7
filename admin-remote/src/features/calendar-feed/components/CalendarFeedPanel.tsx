import { useEffect, useRef, useState } from 'react';
import { Button, ErrorPanel, Inline, Stack, styled } from 'shared-ui';
import { ConfirmDialog, Field, Input } from 'shared-ui/forms';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { COPY_CONFIRM_MS, inMY, serverMessage } from 'shared-api';
import {
  useCalendarFeedQuery,
  useCreateCalendarFeedMutation,
  useDeleteCalendarFeedMutation,
} from '../api/calendarFeedApi';

export const CalendarFeedText = {
  title: 'Calendar feed',
  intro:
    'A private link to the booked visits (GMT+8, with visitor name, school and contact) that your calendar app can subscribe to. ' +
    'Anyone who has the link can see the visits, so keep it to yourself.',
  none: 'You have no calendar link.',
  since: (when: string) =>
    `Your calendar link was made on ${when}. For your privacy it is shown only once, when it is made.`,
  create: 'Create calendar link',
  regenerate: 'Regenerate link',
  turnOff: 'Turn off',
  regenerateTitle: 'Regenerate calendar link',
  regenerateMessage:
    'The old link stops working at once: calendars subscribed to it stop updating until you add the new link.',
  turnOffTitle: 'Turn off calendar link',
  turnOffMessage: 'The link stops working at once: calendars subscribed to it stop updating.',
  urlLabel: 'Your calendar link',
  copyHint: 'Copy it now: it is not shown again (Regenerate gives a new one).',
  copy: 'Copy',
  copied: 'Copied!',
  copiedStatus: 'Calendar link copied',
  copyFailed: 'Copy failed: select the link and copy it.',
  howTo: 'How to add it',
  google:
    'Google Calendar: beside "Other calendars" choose +, then "From URL", paste the link and choose "Add calendar".',
  outlook: 'Outlook: choose "Add calendar", then "Subscribe from web", paste the link and choose "Import".',
  refreshNote: 'Calendar apps fetch the feed every few hours, so changes can take a while to appear.',
  loadFailed: 'Could not load your calendar link.',
  actionFailed: 'Something went wrong. Please try again.',
  turnedOff: 'Calendar link turned off.',
} as const;

// Below the dashboard's cards, with the same gap between them.
const Panel = styled.section`
  margin-top: ${({ theme }) => theme.space[4]};
`;

const Note = styled.p`
  margin: 0;
  font-size: 0.875rem;
`;

const List = styled.ul`
  margin: 0;
  padding-left: 1.25rem;
`;

const formatWhen = (iso: string) => `${inMY(iso).format('D MMM YYYY, h:mm A')} (GMT+8)`;

/** The signed-in account's private calendar subscription: create, copy once, regenerate or turn off. */
export function CalendarFeedPanel() {
  const { data: feed, isLoading, isError, refetch } = useCalendarFeedQuery();
  const [createFeed, { isLoading: creating }] = useCreateCalendarFeedMutation();
  const [deleteFeed, { isLoading: deleting }] = useDeleteCalendarFeedMutation();
  const [url, setUrl] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'regenerate' | 'turnOff' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(copyTimer.current), []);

  const onCreate = async () => {
    setMessage(null);
    setCopy('idle');
    const result = await createFeed();
    setConfirm(null);
    if ('error' in result) setMessage(serverMessage(result.error) ?? CalendarFeedText.actionFailed);
    else setUrl(result.data.url);
  };

  const onTurnOff = async () => {
    setMessage(null);
    const result = await deleteFeed();
    setConfirm(null);
    if ('error' in result) setMessage(serverMessage(result.error) ?? CalendarFeedText.actionFailed);
    else {
      setUrl(null);
      setMessage(CalendarFeedText.turnedOff);
    }
  };

  const onCopy = async () => {
    if (!url) return;
    clearTimeout(copyTimer.current);
    try {
      await navigator.clipboard.writeText(url);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
    copyTimer.current = setTimeout(() => setCopy('idle'), COPY_CONFIRM_MS);
  };

  return (
    <Panel aria-label={CalendarFeedText.title}>
      <Card>
        <CardHeader>
          <CardTitle>{CalendarFeedText.title}</CardTitle>
        </CardHeader>
        <CardBody>
          <Stack>
            <Note>{CalendarFeedText.intro}</Note>
            {isError ? (
              <ErrorPanel
                title={CalendarFeedText.title}
                message={CalendarFeedText.loadFailed}
                onRetry={refetch}
                retryLabel="Retry"
              />
            ) : isLoading || !feed ? (
              <Note role="status">Loading...</Note>
            ) : (
              <>
                <Note>
                  {feed.active && feed.createdAt
                    ? CalendarFeedText.since(formatWhen(feed.createdAt))
                    : CalendarFeedText.none}
                </Note>
                {url && (
                  <Stack>
                    <Field
                      label={CalendarFeedText.urlLabel}
                      htmlFor="calendar-feed-url"
                      hint={CalendarFeedText.copyHint}
                    >
                      <Input
                        id="calendar-feed-url"
                        readOnly
                        value={url}
                        onFocus={(e) => e.currentTarget.select()}
                      />
                    </Field>
                    <Inline>
                      <Button size="sm" variant="secondary" onClick={onCopy}>
                        {copy === 'copied' ? CalendarFeedText.copied : CalendarFeedText.copy}
                      </Button>
                      <span role="status" aria-live="polite">
                        {copy === 'copied'
                          ? CalendarFeedText.copiedStatus
                          : copy === 'failed'
                            ? CalendarFeedText.copyFailed
                            : ''}
                      </span>
                    </Inline>
                    <section aria-label={CalendarFeedText.howTo}>
                      <h3 style={{ margin: '0 0 0.25rem', fontSize: '1rem' }}>{CalendarFeedText.howTo}</h3>
                      <List>
                        <li>{CalendarFeedText.google}</li>
                        <li>{CalendarFeedText.outlook}</li>
                      </List>
                      <Note>{CalendarFeedText.refreshNote}</Note>
                    </section>
                  </Stack>
                )}
                <Inline>
                  {feed.active ? (
                    <>
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => setConfirm('regenerate')}
                        disabled={creating || deleting}
                      >
                        {CalendarFeedText.regenerate}
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setConfirm('turnOff')}
                        disabled={creating || deleting}
                      >
                        {CalendarFeedText.turnOff}
                      </Button>
                    </>
                  ) : (
                    <Button size="sm" variant="primary" onClick={onCreate} loading={creating}>
                      {CalendarFeedText.create}
                    </Button>
                  )}
                </Inline>
              </>
            )}
            <Note role="status">{message}</Note>
          </Stack>
        </CardBody>
        <ConfirmDialog
          open={confirm !== null}
          onOpenChange={(open) => {
            if (!open && !creating && !deleting) setConfirm(null);
          }}
          title={confirm === 'turnOff' ? CalendarFeedText.turnOffTitle : CalendarFeedText.regenerateTitle}
          message={
            confirm === 'turnOff' ? CalendarFeedText.turnOffMessage : CalendarFeedText.regenerateMessage
          }
          confirmLabel={confirm === 'turnOff' ? CalendarFeedText.turnOff : CalendarFeedText.regenerate}
          onConfirm={confirm === 'turnOff' ? onTurnOff : onCreate}
          busy={creating || deleting}
        />
      </Card>
    </Panel>
  );
}
