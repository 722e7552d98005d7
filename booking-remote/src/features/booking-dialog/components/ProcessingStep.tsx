import { Spinner, styled } from 'shared-ui';
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
  if (view === 'error') {
    return (
      <Box role="alert">
        <h3>Payment Error</h3>
        <p>Failed to check payment status</p>
      </Box>
    );
  }
  return (
    <Box role="status" aria-live="polite">
      {view !== 'processing' && <Spinner />}
      {view === 'preparing' && (
        <>
          <h3>Preparing Payment</h3>
          <p>Setting up your secure payment...</p>
        </>
      )}
      {view === 'redirecting' && (
        <>
          <h3>Redirecting to Payment</h3>
          <p>Taking you to the secure payment page...</p>
        </>
      )}
      {view === 'processing' && (
        <>
          <h3>Processing Payment</h3>
          <p>Time remaining</p>
          <Countdown aria-label={`Time remaining ${mmss(remainingMs)}`}>{mmss(remainingMs)}</Countdown>
        </>
      )}
    </Box>
  );
}
