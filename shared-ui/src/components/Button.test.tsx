import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../test/axe';
import { AppThemeProvider } from '../theme/AppThemeProvider';
import { Button } from './Button';

const renderThemed = (ui: React.ReactElement) => render(<AppThemeProvider>{ui}</AppThemeProvider>);

describe('Button', () => {
  it('calls onClick when pressed and defaults to type="button"', async () => {
    const onClick = jest.fn();
    renderThemed(<Button onClick={onClick}>Book</Button>);
    const button = screen.getByRole('button', { name: 'Book' });
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('while loading is busy, disabled, shows a spinner and ignores clicks', async () => {
    const onClick = jest.fn();
    const { rerender } = renderThemed(
      <Button loading onClick={onClick}>
        Creating...
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Creating...' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button.querySelector('svg')).not.toBeNull();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();

    rerender(
      <AppThemeProvider>
        <Button onClick={onClick}>Create</Button>
      </AppThemeProvider>,
    );
    const idle = screen.getByRole('button', { name: 'Create' });
    expect(idle).toBeEnabled();
    expect(idle).not.toHaveAttribute('aria-busy');
    expect(idle.querySelector('svg')).toBeNull();
  });

  it('has no axe violations', async () => {
    const { container } = renderThemed(
      <>
        <Button>Primary</Button>
        <Button variant="danger" loading>
          Deleting
        </Button>
      </>,
    );
    expect(await axe(container)).toHaveNoViolations();
  });
});
