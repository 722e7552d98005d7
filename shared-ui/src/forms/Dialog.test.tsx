import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../test/axe';
import { renderThemed } from '../test/render';
import { Button } from '../components/Button';
import { preloadToasts, ToastProvider, useToast, type ToastApi } from '../components/Toast';
import '../test/pointer-capture';
import { ConfirmDialog } from './ConfirmDialog';
import { Dialog } from './Dialog';

function DialogHarness({ description }: { description?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open booking</Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Book this slot"
        description={description}
        footer={<Button onClick={() => setOpen(false)}>Cancel</Button>}
      >
        <label htmlFor="visitor-name">Name</label>
        <input id="visitor-name" />
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('is a modal dialog named by its title and described by its description', async () => {
    renderThemed(<DialogHarness description="Monday 8:30 AM" />);
    await userEvent.click(screen.getByRole('button', { name: 'Open booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book this slot' });
    expect(dialog).toHaveAccessibleDescription('Monday 8:30 AM');
  });

  it('moves focus inside when it opens, keeps Tab inside, and returns focus on Escape', async () => {
    renderThemed(<DialogHarness />);
    const opener = screen.getByRole('button', { name: 'Open booking' });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Book this slot' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));

    for (let i = 0; i < 5; i += 1) {
      await userEvent.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Radix restores focus to the opener on the next tick.
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('closes from the close button', async () => {
    renderThemed(<DialogHarness />);
    await userEvent.click(screen.getByRole('button', { name: 'Open booking' }));
    await screen.findByRole('dialog');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('has no axe violations when open', async () => {
    renderThemed(<DialogHarness description="Monday 8:30 AM" />);
    await userEvent.click(screen.getByRole('button', { name: 'Open booking' }));
    await screen.findByRole('dialog');
    expect(await axe(document.body)).toHaveNoViolations();
  });
});

describe('ConfirmDialog', () => {
  it('confirms, cancels, and cannot be dismissed while busy', async () => {
    const onConfirm = jest.fn();
    const onOpenChange = jest.fn();
    const props = {
      title: 'Delete slot',
      message: 'Delete this slot?',
      confirmLabel: 'Delete',
      onConfirm,
      onOpenChange,
    };
    const { rerender } = renderThemed(<ConfirmDialog open {...props} />);

    const dialog = await screen.findByRole('dialog', { name: 'Delete slot' });
    expect(dialog).toHaveAccessibleDescription('Delete this slot?');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);

    onOpenChange.mockClear();
    rerender(<ConfirmDialog open busy {...props} />);
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('Dialog focus (issue 24): never the Close button', () => {
  function Stepped() {
    const [step, setStep] = useState<'details' | 'summary'>('details');
    return (
      <Dialog
        open
        onOpenChange={() => undefined}
        title={step === 'details' ? 'Booking Details' : 'Payment Summary'}
        focusKey={step}
        footer={<Button onClick={() => setStep(step === 'details' ? 'summary' : 'details')}>Next</Button>}
      >
        {step === 'details' ? (
          <>
            <label htmlFor="visitor-name">Name</label>
            <input id="visitor-name" />
          </>
        ) : (
          <p>RM 100</p>
        )}
      </Dialog>
    );
  }

  it('opens on the first field; a step without fields puts focus on its heading; back again on the first field', async () => {
    renderThemed(<Stepped />);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus());
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Payment Summary' })).toHaveFocus());
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus());
  });
});

describe('toasts while a dialog is open (issue 24)', () => {
  let toast: ToastApi;
  function Page() {
    toast = useToast();
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Open</Button>
        <Dialog open={open} onOpenChange={setOpen} title="Cancel this booking?" footer={<Button onClick={() => setOpen(false)}>Keep booking</Button>}>
          <p>Friday 27 November 2026</p>
        </Dialog>
      </>
    );
  }
  beforeAll(() => preloadToasts());

  it('show inside the dialog above its buttons, and float again once it closes', async () => {
    renderThemed(
      <ToastProvider>
        <Page />
      </ToastProvider>,
    );
    act(() => {
      toast.success('Your booking has been moved.');
    });
    const region = () => screen.getByRole('region', { name: /Notifications/ });
    await screen.findByText('Your booking has been moved.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this booking?' });
    await waitFor(() => expect(dialog).toContainElement(region()));
    const message = within(dialog).getByText('Your booking has been moved.');
    const keep = within(dialog).getByRole('button', { name: 'Keep booking' });
    // In the layout before the footer: the buttons come after it, nothing lies over them.
    expect(message.compareDocumentPosition(keep) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(getComputedStyle(region().querySelector('ol') ?? region()).position).not.toBe('fixed');

    await userEvent.click(keep);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(region()).toHaveTextContent('Your booking has been moved.');
  });
});
