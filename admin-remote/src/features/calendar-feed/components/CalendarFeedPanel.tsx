import { useState } from 'react';
import { Button, ErrorPanel, Inline, Stack, styled, useCatalog, type Translate } from 'shared-ui';
import { ConfirmDialog, InputField } from 'shared-ui/forms';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { serverMessage } from 'shared-api';
import { formatInstant } from '../../../lib/format';
import { useCopy } from '../../../lib/useCopy';
import { useCalendarFeedQuery, useCreateCalendarFeedMutation, useDeleteCalendarFeedMutation } from '../api/calendarFeedApi';
import { english } from '../../../lib/i18n';
import { calendarFeedCatalog, calendarFeedText } from '../i18n';
import en from '../locales/en.json';

/** English texts, for tests. */
export const CalendarFeedText = {
  ...english(
    en,
    'title',
    'intro',
    'none',
    'create',
    'regenerate',
    'turnOff',
    'regenerateTitle',
    'regenerateMessage',
    'turnOffTitle',
    'turnOffMessage',
    'urlLabel',
    'copyHint',
    'copy',
    'copied',
    'copiedStatus',
    'copyFailed',
    'howTo',
    'google',
    'outlook',
    'refreshNote',
    'loadFailed',
    'actionFailed',
    'turnedOff',
  ),
  since: (when: string) => calendarFeedText('since', { when }),
};

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

const formatWhen = (t: Translate<typeof en>, iso: string) => t('when', { time: formatInstant(iso) });

/** The signed-in account's private calendar subscription: create, copy once, regenerate or turn off. */
export function CalendarFeedPanel() {
  const { t } = useCatalog(calendarFeedCatalog);
  const { data: feed, isLoading, isError, refetch } = useCalendarFeedQuery();
  const [createFeed, { isLoading: creating }] = useCreateCalendarFeedMutation();
  const [deleteFeed, { isLoading: deleting }] = useDeleteCalendarFeedMutation();
  const [url, setUrl] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'regenerate' | 'turnOff' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const copy = useCopy();

  const onCreate = async () => {
    setMessage(null);
    copy.reset();
    const result = await createFeed();
    setConfirm(null);
    if ('error' in result) setMessage(serverMessage(result.error) ?? t('actionFailed'));
    else setUrl(result.data.url);
  };

  const onTurnOff = async () => {
    setMessage(null);
    const result = await deleteFeed();
    setConfirm(null);
    if ('error' in result) setMessage(serverMessage(result.error) ?? t('actionFailed'));
    else {
      setUrl(null);
      setMessage(t('turnedOff'));
    }
  };

  return (
    <Panel aria-label={t('title')}>
      <Card>
        <CardHeader>
          <CardTitle>{t('title')}</CardTitle>
        </CardHeader>
        <CardBody>
          <Stack>
            <Note>{t('intro')}</Note>
            {isError ? (
              <ErrorPanel title={t('title')} message={t('loadFailed')} onRetry={refetch} retryLabel={t('retry')} />
            ) : isLoading || !feed ? (
              <Note role="status">{t('loading')}</Note>
            ) : (
              <>
                <Note>{feed.active && feed.createdAt ? t('since', { when: formatWhen(t, feed.createdAt) }) : t('none')}</Note>
                {url && (
                  <Stack>
                    <InputField
                      label={t('urlLabel')}
                      id="calendar-feed-url"
                      hint={t('copyHint')}
                      readOnly
                      value={url}
                      onFocus={(e) => e.currentTarget.select()}
                    />
                    <Inline>
                      <Button size="sm" variant="secondary" onClick={() => void copy.copy(url)}>
                        {copy.state === 'copied' ? t('copied') : t('copy')}
                      </Button>
                      <span role="status" aria-live="polite">
                        {copy.state === 'copied' ? t('copiedStatus') : copy.state === 'failed' ? t('copyFailed') : ''}
                      </span>
                    </Inline>
                    <section aria-label={t('howTo')}>
                      <h3 style={{ margin: '0 0 0.25rem', fontSize: '1rem' }}>{t('howTo')}</h3>
                      <List>
                        <li>{t('google')}</li>
                        <li>{t('outlook')}</li>
                      </List>
                      <Note>{t('refreshNote')}</Note>
                    </section>
                  </Stack>
                )}
                <Inline>
                  {feed.active ? (
                    <>
                      <Button size="sm" variant="secondary" onClick={() => setConfirm('regenerate')} disabled={creating || deleting}>
                        {t('regenerate')}
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setConfirm('turnOff')} disabled={creating || deleting}>
                        {t('turnOff')}
                      </Button>
                    </>
                  ) : (
                    <Button size="sm" variant="primary" onClick={onCreate} loading={creating}>
                      {t('create')}
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
          title={confirm === 'turnOff' ? t('turnOffTitle') : t('regenerateTitle')}
          message={confirm === 'turnOff' ? t('turnOffMessage') : t('regenerateMessage')}
          confirmLabel={confirm === 'turnOff' ? t('turnOff') : t('regenerate')}
          onConfirm={confirm === 'turnOff' ? onTurnOff : onCreate}
          busy={creating || deleting}
        />
      </Card>
    </Panel>
  );
}
