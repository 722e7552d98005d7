import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderThemed } from '../test/render';
import '../test/pointer-capture';
import { preloadToasts, ToastProvider, useToast, type ToastApi } from './Toast';

// Captures the hook's API so tests can raise toasts as a feature would.
let toast: ToastApi;
function Capture() {
  toast = useToast();
  return null;
}

const renderToasts = () =>
  renderThemed(
    <ToastProvider>
      <Capture />
    </ToastProvider>,
  );

const viewport = () => screen.getByRole('region', { name: /Notifications/ });
const shown = () =>
  within(viewport())
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

describe('Toast system', () => {
  // Runs first: the Radix rendering code is not loaded yet, so the first toast waits for it.
  it('shows the first toast once the toast code has loaded', async () => {
    renderToasts();
    act(() => {
      toast.error('Delete failed');
    });
    expect(await screen.findByText('Delete failed', { selector: 'li *' })).toBeInTheDocument();
  });

  describe('with the toast code loaded', () => {
    beforeAll(() => preloadToasts());
    afterEach(() => {
      jest.useRealTimers();
    });

    it('shows a success toast for 4 seconds by default', () => {
      jest.useFakeTimers();
      renderToasts();
      act(() => {
        toast.success('Slot deleted successfully!');
      });
      expect(within(viewport()).getByText('Slot deleted successfully!')).toBeInTheDocument();

      act(() => jest.advanceTimersByTime(3900));
      expect(within(viewport()).getByText('Slot deleted successfully!')).toBeInTheDocument();

      act(() => jest.advanceTimersByTime(200));
      expect(within(viewport()).queryByText('Slot deleted successfully!')).not.toBeInTheDocument();
    });

    it('keeps at most 3 visible: the oldest drops off', () => {
      renderToasts();
      act(() => {
        toast.success('one');
        toast.error('two');
        toast.success('three');
      });
      expect(shown()).toEqual([
        expect.stringContaining('one'),
        expect.stringContaining('two'),
        expect.stringContaining('three'),
      ]);
      act(() => {
        toast.success('four');
      });
      const texts = shown();
      expect(texts).toHaveLength(3);
      expect(texts.join(' ')).not.toContain('one');
      expect(texts.join(' ')).toContain('four');
    });

    it('keeps a progress toast until it is updated, then the success closes after 4 s', () => {
      jest.useFakeTimers();
      renderToasts();
      let id = '';
      act(() => {
        id = toast.progress('Deleting slot...');
      });
      act(() => jest.advanceTimersByTime(60_000));
      expect(within(viewport()).getByText('Deleting slot...')).toBeInTheDocument();

      act(() => toast.update(id, { kind: 'success', message: 'Slot deleted successfully!' }));
      expect(within(viewport()).queryByText('Deleting slot...')).not.toBeInTheDocument();
      const item = within(viewport()).getByText('Slot deleted successfully!').closest('li');
      expect(item).toHaveAttribute('data-kind', 'success');

      act(() => jest.advanceTimersByTime(4100));
      expect(within(viewport()).queryByText('Slot deleted successfully!')).not.toBeInTheDocument();
    });

    it('turns a progress toast into an error and dismiss removes a toast', () => {
      renderToasts();
      let id = '';
      act(() => {
        id = toast.progress('Creating 2 slot(s)...');
      });
      act(() => toast.update(id, { kind: 'error', message: 'Failed to create slots. Please try again.' }));
      expect(
        within(viewport()).getByText('Failed to create slots. Please try again.').closest('li'),
      ).toHaveAttribute('data-kind', 'error');
      act(() => toast.dismiss(id));
      expect(shown()).toEqual([]);
    });

    it('announces errors assertively and successes politely', () => {
      renderToasts();
      act(() => {
        toast.error('Delete failed');
      });
      // Radix copies the text into a live region for screen readers.
      const announcers = screen.getAllByRole('status', { hidden: true });
      expect(announcers.some((el) => el.getAttribute('aria-live') === 'assertive')).toBe(true);
      act(() => {
        toast.success('Saved');
      });
      expect(
        screen
          .getAllByRole('status', { hidden: true })
          .some((el) => el.getAttribute('aria-live') === 'polite'),
      ).toBe(true);
    });

    it('still shows the outcome when its progress toast was pushed out', () => {
      renderToasts();
      let id = '';
      act(() => {
        id = toast.progress('Creating 1 slot(s)...');
        toast.success('a');
        toast.success('b');
        toast.success('c');
      });
      expect(shown().join(' ')).not.toContain('Creating');
      act(() => toast.update(id, { kind: 'success', message: 'Successfully created 1 slot(s)!' }));
      const texts = shown();
      expect(texts).toHaveLength(3);
      expect(texts.join(' ')).toContain('Successfully created 1 slot(s)!');
    });

    it('the close button dismisses a toast', async () => {
      renderToasts();
      act(() => {
        toast.success('Saved');
      });
      await userEvent.click(within(viewport()).getByRole('button', { name: 'Dismiss notification' }));
      expect(shown()).toEqual([]);
    });

    it('useToast outside the provider fails with a clear message', () => {
      const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
      expect(() => renderThemed(<Capture />)).toThrow(/inside <ToastProvider>/);
      spy.mockRestore();
    });
  });
});
