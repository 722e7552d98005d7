import { render, screen } from '@testing-library/react';
import { AppThemeProvider } from '../theme/AppThemeProvider';
import { Skeleton } from './Skeleton';
import { Spinner } from './Spinner';

describe('Spinner and Skeleton', () => {
  it('Spinner is a status named by its label', () => {
    render(
      <AppThemeProvider>
        <Spinner label="Loading available slots..." />
      </AppThemeProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading available slots...');
  });

  it('Skeleton takes the given size and is hidden from assistive tech', () => {
    render(
      <AppThemeProvider>
        <Skeleton width={120} height="2rem" />
      </AppThemeProvider>,
    );
    const block = screen.getByTestId('skeleton');
    expect(block).toHaveAttribute('aria-hidden', 'true');
    expect(block).toHaveStyle({ width: '120px', height: '2rem' });
  });
});
