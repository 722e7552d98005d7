import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ErrorCode, type ManageView } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import { activateLocale } from 'shared-ui';
import ManageBookingPage from '../../../pages/ManageBookingPage';
import { fail, legacyList, MANAGE_TOKEN, manageView, ok, publicSlot } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server, startMswServer } from '../../../test/server';
import en from '../locales/en.json';

startMswServer();

// Wednesday 25 November 2026, 10:00 GMT+8; the booking (fixtures) is on Friday 27th at 9:00 AM.
const NOW = new Date('2026-11-25T10:00:00+08:00');
beforeEach(() => jest.useFakeTimers({ now: NOW, advanceTimers: true }));
afterEach(async () => {
  jest.useRealTimers();
  await act(() => activateLocale('en'));
});

const render = () => renderApp(<ManageBookingPage />, { route: `/booking/manage/${MANAGE_TOKEN}`, path: '/booking/manage/:token' });

function bookingServer(initial: ManageView = manageView()) {
  const state = { view: initial };
  server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(ok(state.view, 'Booking found'))));
  return state;
}

describe('the manage page in Bahasa Melayu', () => {
  beforeEach(() => act(() => activateLocale('ms')));

  it('shows the booking: date, time in GMT+8, school, amount, status, what to bring and the deadline', async () => {
    bookingServer();
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Urus tempahan anda' })).toBeInTheDocument();
    expect(await screen.findByText('BK-2026-0001')).toBeInTheDocument();
    // Whose visit, the year in Malay too.
    expect(screen.getByRole('heading', { level: 2, name: 'Lawatan penilaian untuk Adam Firdaus, Tingkatan 1' })).toBeInTheDocument();
    expect(screen.getByText('Sekolah Menengah Swasta Seri Ilmu')).toBeInTheDocument();
    expect(screen.getByText('Jumaat, 27 November 2026')).toBeInTheDocument();
    expect(screen.getByText('9:00 pagi – 9:30 pagi (GMT+8)')).toBeInTheDocument();
    expect(screen.getByText('Jumlah dibayar')).toBeInTheDocument();
    expect(screen.getByText('RM75')).toBeInTheDocument();
    expect(screen.getByText('Ditempah dan dibayar')).toBeInTheDocument();
    // What to bring is the visit's documents checklist (issue 40).
    expect(screen.getByRole('heading', { name: 'Sebelum lawatan anda' })).toBeInTheDocument();
    expect(await screen.findByText('Sijil kelahiran pelajar')).toBeInTheDocument();
    expect(screen.getByText('Bayaran balik penuh jika anda membatalkan selewat-lewatnya Khamis, 26 November 2026, 9:00 pagi (GMT+8); selepas itu tiada bayaran balik; perubahan boleh dibuat sehingga Khamis, 26 November 2026, 9:00 pagi (GMT+8).')).toBeInTheDocument();
    const google = new URL((await screen.findByRole('link', { name: 'Google Calendar' })).getAttribute('href') as string);
    expect(google.searchParams.get('text')).toBe('Lawatan penilaian: Sekolah Menengah Swasta Seri Ilmu');
    expect(screen.getByRole('link', { name: 'Muat turun fail .ics' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tukar tarikh atau masa' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Batalkan tempahan' })).toBeEnabled();
  });

  it.each([
    [{ percent: 100, amountSen: 7500 }, 'Anda akan menerima bayaran balik penuh sebanyak RM75.'],
    [{ percent: 50, amountSen: 3750 }, 'Sebanyak RM37.50 (50%) akan dibayar balik kepada anda.'],
    [{ percent: 0, amountSen: 0 }, 'Anda telah membayar RM75. Tiada bayaran balik jika anda membatalkan sekarang.'],
  ])('the cancel dialog says the refund (%j) in Malay', async (cancelQuote, words) => {
    bookingServer(manageView({ cancelQuote }));
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Batalkan tempahan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Batalkan tempahan ini?' });
    expect(dialog).toHaveAccessibleDescription(words);
    expect(dialog.querySelector('dl')).toHaveTextContent('LawatanSekolah Menengah Swasta Seri IlmuJumaat, 27 November 2026, 9:00 pagi (GMT+8)Jumlah dibayarRM75');
    expect(within(dialog).getByRole('region', { name: 'Perubahan dan bayaran balik' })).toHaveTextContent('Bayaran balik penuh jika anda membatalkan selewat-lewatnya Khamis, 26 November 2026, 9:00 pagi (GMT+8); selepas itu tiada bayaran balik; perubahan boleh dibuat sehingga Khamis, 26 November 2026, 9:00 pagi (GMT+8).');
    expect(within(dialog).getByRole('button', { name: 'Kekalkan tempahan' })).toBeInTheDocument();
  });

  it('the reschedule dialog lists the free times in Malay and says a taken slot in Malay (the server speaks English)', async () => {
    bookingServer();
    server.use(
      http.get(apiUrl('/public/list'), () => HttpResponse.json(legacyList([publicSlot({ id: 5, date: '2026-11-27', startTime: '11:00', endTime: '11:30' })]))),
      http.post(apiUrl('/api/booking/manage/:token/reschedule'), () =>
        HttpResponse.json(fail(ManageMessage.slotTaken, ErrorCode.SLOT_NOT_AVAILABLE), { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Tukar tarikh atau masa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tukar tarikh atau masa' });
    expect(dialog).toHaveAccessibleDescription('Lawatan anda sekarang: Jumaat, 27 November 2026, 9:00 pagi (GMT+8). Sekolah dan yuran kekal sama.');
    await user.click(within(dialog).getByRole('button', { name: 'Teruskan' }));
    expect(await within(dialog).findByText('Sila pilih masa baharu.')).toBeInTheDocument();
    const friday = await within(dialog).findByRole('group', { name: 'Jumaat, 27 November 2026' });
    await user.click(within(friday).getByRole('radio', { name: '11:00 pagi' }));
    await user.click(within(dialog).getByRole('button', { name: 'Teruskan' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sahkan masa baharu' });
    expect(confirm).toHaveTextContent('Tukar lawatan anda ke Jumaat, 27 November 2026, 11:00 pagi (GMT+8)?');
    expect(confirm).toHaveTextContent(
      'Selepas tarikh ditukar: Tiada bayaran balik jika anda membatalkan; perubahan boleh dibuat sehingga Khamis, 26 November 2026, 11:00 pagi (GMT+8).',
    );
    expect(confirm).toHaveTextContent('Menukar tarikh tidak melanjutkan tempoh bayaran balik: ia tetap dikira dari Jumaat, 27 November 2026, 9:00 pagi (GMT+8).');
    await user.click(within(confirm).getByRole('button', { name: 'Sahkan masa baharu' }));
    const picker = await screen.findByRole('dialog', { name: 'Tukar tarikh atau masa' });
    expect(await within(picker).findByRole('alert')).toHaveTextContent(
      'Maaf, slot tersebut baru sahaja ditempah. Tempahan anda tidak berubah; sila pilih masa lain.',
    );
  });

  it('after the cut-off: the notice and the support address in Malay', async () => {
    bookingServer(manageView({ canChange: false, cancelQuote: null }));
    render();
    const note = await screen.findByRole('note', { name: 'Perubahan' });
    expect(note).toHaveTextContent('Tempahan ini tidak lagi boleh diubah dalam talian. Sila hubungi pihak sekolah.');
    expect(note).toHaveTextContent(/^.*E-mel: \S+@\S+$/);
  });
});

describe('the manage page in Chinese', () => {
  beforeEach(() => act(() => activateLocale('zh')));

  it('shows the booking, cancels at the quoted refund and says what happened in Chinese', async () => {
    const state = bookingServer();
    server.use(
      http.post(apiUrl('/api/booking/manage/:token/cancel'), () => {
        state.view = manageView({ state: 'cancelled', canChange: false, cancelQuote: null, refund: { amountSen: 7500, state: 'pending' } });
        return HttpResponse.json(ok(state.view, ManageMessage.cancelledNow));
      }),
    );
    const user = userEvent.setup();
    render();
    expect(await screen.findByText('2026年11月27日 星期五')).toBeInTheDocument();
    expect(screen.getByText('上午9:00 – 上午9:30（GMT+8）')).toBeInTheDocument();
    expect(screen.getByText('Seri Ilmu 私立中学')).toBeInTheDocument();
    expect(screen.getByText('已预约并付款')).toBeInTheDocument();
    // The documents checklist (issue 40) comes with its own request.
    expect(await screen.findByText('疫苗接种记录')).toBeInTheDocument();
    expect(screen.getByText('在2026年11月26日 星期四 上午9:00（GMT+8）前取消可获全额退款；此后取消不予退款；2026年11月26日 星期四 上午9:00（GMT+8）前可改期或取消。')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '取消预约' }));
    const dialog = await screen.findByRole('dialog', { name: '取消此预约？' });
    expect(dialog).toHaveAccessibleDescription('您将获得全额退款 RM75。');
    await user.click(within(dialog).getByRole('button', { name: '取消预约' }));
    expect(await screen.findByText('您的预约已取消。')).toBeInTheDocument();
    expect(await screen.findByText('此预约已取消。')).toBeInTheDocument();
    expect(screen.getByText('退款 RM75：处理中')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '已取消的预约' })).getByText('BK-2026-0001')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '预约其他时间' })).toHaveAttribute('href', '/');
  });

  it('a refused link says why in Chinese', async () => {
    server.use(
      http.get(apiUrl('/api/booking/manage/:token'), () =>
        HttpResponse.json(fail(ManageMessage.invalidLink, ManageErrorCode.MANAGE_LINK_INVALID), { status: 404 }),
      ),
    );
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('此链接无效。请使用您最新预约邮件中的链接。');
  });

  it('a server error offers 重试 with the load failure in Chinese', async () => {
    server.use(http.get(apiUrl('/api/booking/manage/:token'), () => HttpResponse.json(fail('Internal error'), { status: 500 })));
    render();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('无法加载您的预约。请检查网络连接后重试。');
    expect(within(alert).getByRole('button', { name: '重试' })).toBeInTheDocument();
  });
});

describe("the manage catalogue's English", () => {
  it("is the contract's words for every message the server sends, so they can be recognised and translated", () => {
    for (const id of ['invalidLink', 'expiredLink', 'cancelled', 'tooManyTries', 'tooLate', 'slotTaken', 'sameSlot', 'quoteChanged', 'rescheduled', 'cancelledNow', 'notPaid', 'alreadyCancelled', 'visitOver'] as const) {
      expect(en[id]).toBe(ManageMessage[id]);
    }
  });
});

describe('the manage page\'s buttons in every language', () => {
  /** The buttons of the row a button sits in, in reading order, and how the row lays them out (never wrapped by width). */
  const stacked = { direction: 'column', wrap: expect.not.stringMatching(/^wrap/) };
  const row = (button: HTMLElement) => {
    const actions = button.parentElement as HTMLElement;
    return { names: within(actions).getAllByRole('button').map((each) => each.textContent), direction: getComputedStyle(actions).flexDirection, wrap: getComputedStyle(actions).flexWrap };
  };

  it.each([
    ['en', ['Change date or time', 'Cancel booking'], ['Keep booking', 'Cancel booking'], ['Continue', 'Keep current time']],
    ['ms', ['Tukar tarikh atau masa', 'Batalkan tempahan'], ['Kekalkan tempahan', 'Batalkan tempahan'], ['Teruskan', 'Kekalkan masa sekarang']],
    ['zh', ['改期', '取消预约'], ['保留预约', '取消预约'], ['继续', '保留当前时间']],
  ] as const)('in %s: one order (the main action first, the red one never) and one stacked layout, whatever the words\' length', async (locale, page, cancel, move) => {
    await act(() => activateLocale(locale));
    bookingServer();
    const user = userEvent.setup();
    render();
    const change = await screen.findByRole('button', { name: page[0] });
    expect(row(change)).toEqual({ names: page, ...stacked });

    await user.click(screen.getByRole('button', { name: page[1] }));
    const cancelDialog = await screen.findByRole('dialog');
    expect(row(within(cancelDialog).getByRole('button', { name: cancel[0] }))).toEqual({ names: cancel, ...stacked });
    await user.click(within(cancelDialog).getByRole('button', { name: cancel[0] }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(change);
    const moveDialog = await screen.findByRole('dialog');
    expect(row(await within(moveDialog).findByRole('button', { name: move[0] }))).toEqual({ names: move, ...stacked });
  });
});

