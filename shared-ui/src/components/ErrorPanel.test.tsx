import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../test/axe';
import { AppThemeProvider } from '../theme/AppThemeProvider';
import { ErrorPanel } from './ErrorPanel';

describe('ErrorPanel', () => {
  it('announces the title and message as an alert and Retry calls back', async () => {
    const onRetry = jest.fn();
    render(
      <AppThemeProvider>
        <ErrorPanel title="Failed to load slots" message="Failed to load data" onRetry={onRetry} />
      </AppThemeProvider>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Failed to load slots');
    expect(alert).toHaveTextContent('Failed to load data');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('uses a custom retry label and shows no button without onRetry', () => {
    const { rerender } = render(
      <AppThemeProvider>
        <ErrorPanel message="Unable to connect to server" onRetry={() => {}} retryLabel="Try again" />
      </AppThemeProvider>,
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    rerender(
      <AppThemeProvider>
        <ErrorPanel message="Unable to connect to server" />
      </AppThemeProvider>,
    );
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('has no axe violations', async () => {
    const { container } = render(
      <AppThemeProvider>
        <ErrorPanel title="Failed to load slots" message="Failed to load data" onRetry={() => {}} />
      </AppThemeProvider>,
    );
    expect(await axe(container)).toHaveNoViolations();
  });
});
