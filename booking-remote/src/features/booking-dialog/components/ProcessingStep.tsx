import { Spinner, styled, useCatalog } from 'shared-ui';
import { dialogCatalog } from '../i18n';
import { formatCountdown } from '../utils/reservation';

export type ProcessingView = 'preparing' | 'redirecting' | 'processing' | 'error';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  text-align: center;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[4]} 0;
  h3 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
  p {
    margin: 0;
  }
`;

const Countdown = styled.p`
  font-size: ${({ theme }) => theme.fontSizes.xxl};
  font-variant-numeric: tabular-nums;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

/** mm:ss, e.g. 09:59. */
const mmss = (ms: number | null) => formatCountdown(ms ?? 0).padStart(5, '0');

type Props = { view: ProcessingView; remainingMs: number | null };

/** Step 3: preparing, redirecting; back from the gateway (Back restored the page): processing with a countdown, or the payment error. */
export function ProcessingStep({ view, remainingMs }: Props) {
  const { t } = useCatalog(dialogCatalog);
  if (view === 'error') {
    return (
      <Box role="alert">
        <h3>{t('paymentError')}</h3>
        <p>{t('statusCheckFailed')}</p>
      </Box>
    );
  }
  return (
    <Box role="status" aria-live="polite">
      {view !== 'processing' && <Spinner />}
      {view === 'preparing' && (
        <>
          <h3>{t('preparing')}</h3>
          <p>{t('preparingText')}</p>
        </>
      )}
      {view === 'redirecting' && (
        <>
          <h3>{t('redirecting')}</h3>
          <p>{t('redirectingText')}</p>
        </>
      )}
      {view === 'processing' && (
        <>
          <h3>{t('titleProcessing')}</h3>
          <p>{t('timeRemaining')}</p>
          <Countdown aria-label={t('timeRemainingLabel', { time: mmss(remainingMs) })}>{mmss(remainingMs)}</Countdown>
        </>
      )}
    </Box>
  );
}
