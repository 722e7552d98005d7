import { styled, useCatalog } from 'shared-ui';
import { Badge, type BadgeTone } from 'shared-ui/data';
import {
  ParentMessageWords,
  type ParentMessage,
  type ParentMessageChannel,
  type ParentMessageState,
} from 'shared-api/manage';
import { dashboardCatalog } from '../i18n';
import { formatInstant } from '../../../lib/format';
import { DetailsNote, DetailsSection } from './detailsSection';

const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
  li {
    overflow-wrap: anywhere;
  }
  time {
    display: block;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/* The channel's icon, its word beside it, and the state's badge wrap under each other on a phone. */
const What = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => `${theme.space[1]} ${theme.space[2]}`};
  svg {
    flex: none;
  }
`;

const Why = styled.span`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const iconProps = {
  width: 18,
  height: 18,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

/** Decoration beside the channel's word (the word says it; the icon helps the eye find it). */
function ChannelIcon({ channel }: { channel: ParentMessageChannel }) {
  return channel === 'email' ? (
    <svg {...iconProps} data-icon="email">
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 7l9 6 9-6" />
    </svg>
  ) : (
    <svg {...iconProps} data-icon="whatsapp">
      <path d="M20 11.5a8 8 0 0 1-11.8 7L4 20l1.5-4.1A8 8 0 1 1 20 11.5z" />
    </svg>
  );
}

const STATE_TONES: Record<ParentMessageState, BadgeTone> = {
  queued: 'neutral',
  sent: 'info',
  delivered: 'success',
  read: 'success',
  failed: 'danger',
};

/**
 * Each message sent to the parent on either channel, newest first: channel (icon and word), what it was, its state as
 * a word, when (GMT+8), and why it failed or is still being tried. Never what it said.
 */
export function ParentMessages({ messages }: { messages: ParentMessage[] }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <DetailsSection aria-labelledby="parent-messages-heading">
      <h3 id="parent-messages-heading">{t('messages')}</h3>
      {messages.length === 0 ? (
        <DetailsNote>{t('messagesNone')}</DetailsNote>
      ) : (
        <>
          <DetailsNote>{t('messagesTimes')}</DetailsNote>
          <Items>
            {messages.map((message, index) => (
              <li key={`${message.at}-${message.channel}-${index}`}>
                <time dateTime={message.at}>{formatInstant(message.at)}</time>
                <What>
                  <ChannelIcon channel={message.channel} />
                  <span>
                    {t('messageWhat', {
                      channel: ParentMessageWords.channel[message.channel],
                      kind: ParentMessageWords.kind[message.kind],
                    })}
                  </span>
                  <Badge tone={STATE_TONES[message.state]}>{ParentMessageWords.state[message.state]}</Badge>
                </What>
                {message.reason && (
                  <Why>
                    {t(message.state === 'failed' ? 'messageFailedWhy' : 'messageRetryingWhy', {
                      reason: message.reason,
                    })}
                  </Why>
                )}
              </li>
            ))}
          </Items>
        </>
      )}
    </DetailsSection>
  );
}
