import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { activateLocale } from '../i18n/catalog';
import { renderThemed } from '../test/render';
import '../test/pointer-capture';
import { ConfirmDialog } from '../forms/ConfirmDialog';
import { Dialog } from '../forms/Dialog';
import { ErrorPanel } from './ErrorPanel';
import { Spinner } from './Spinner';
import { preloadToasts, ToastProvider, useToast, type ToastApi } from './Toast';

// The design system's own words follow the page's language; callers' words are theirs.
afterEach(() => act(() => activateLocale('en')));

let toast: ToastApi;
function Capture() {
  toast = useToast();
  return null;
}

describe("shared-ui's built-in words", () => {
  it('in Bahasa Melayu: Retry is "Cuba lagi" and the spinner says "Memuatkan"', async () => {
    await act(() => activateLocale('ms'));
    const onRetry = jest.fn();
    renderThemed(
      <>
        <ErrorPanel message="Gagal" onRetry={onRetry} />
        <Spinner />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cuba lagi' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent('Memuatkan');
  });

  it('in Chinese: the same words, and back in English after switching back', async () => {
    await act(() => activateLocale('zh'));
    renderThemed(
      <>
        <ErrorPanel message="出错" onRetry={() => {}} />
        <Spinner />
      </>,
    );
    expect(screen.getByRole('button', { name: '重试' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('正在加载');
    await act(() => activateLocale('en'));
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
  });

  it("a toast's close button and region are named in Malay", async () => {
    await preloadToasts();
    await act(() => activateLocale('ms'));
    renderThemed(
      <ToastProvider>
        <Capture />
      </ToastProvider>,
    );
    act(() => {
      toast.success('Tempahan anda telah dipindahkan.');
    });
    const region = await screen.findByRole('region', { name: /Pemberitahuan/ });
    expect(await within(region).findByRole('button', { name: 'Tutup pemberitahuan' })).toBeInTheDocument();
  });

  it("the dialog's close button and the confirm dialog's Cancel are in Malay", async () => {
    await act(() => activateLocale('ms'));
    const { rerender } = renderThemed(<Dialog open onOpenChange={() => {}} title="Tukar tarikh" />);
    expect(await screen.findByRole('button', { name: 'Tutup' })).toBeInTheDocument();
    rerender(<ConfirmDialog open onOpenChange={() => {}} title="Padam slot?" message="Pasti?" confirmLabel="Padam" onConfirm={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Padam slot?' });
    expect(within(dialog).getByRole('button', { name: 'Batal' })).toBeInTheDocument();
  });
});
