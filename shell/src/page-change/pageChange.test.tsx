import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { useEffect, useRef, useState } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { brandTitle, LOCALE_COOKIE, type Locale } from 'shared-api';
import { activateLocale, AppThemeProvider, chooseLocale } from 'shared-ui';
import { App } from '../app/App';
import type { RoutesModule } from '../federation/remotes';
import { pageTitle } from './applyPageChange';

/** A page whose heading appears after its data, as a remote's page does after its chunk and its request. */
function LoadingThenHeading({ heading }: { heading: string }) {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 30);
    return () => clearTimeout(timer);
  }, []);
  return loaded ? <h1>{heading}</h1> : <p>Loading</p>;
}

/** A page that puts focus somewhere itself when it opens (a dialog's first field, say). */
function FocusingPage() {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <>
      <h1>Thank you</h1>
      <button ref={button}>Add to calendar</button>
    </>
  );
}

// Stand-ins for the remotes' route trees: the shell only sees what they draw inside <main>.
const booking: RoutesModule = {
  default: () => (
    <Routes>
      <Route
        index
        element={
          <>
            <h1>Timetable</h1>
            <Link to="/payment/success">Paid</Link>
            <Link to="/booking/manage/abc">Manage</Link>
            <Link to="/thankyou">Thanks</Link>
          </>
        }
      />
      <Route path="payment/success" element={<LoadingThenHeading heading="Payment Successful!" />} />
      <Route path="thankyou" element={<FocusingPage />} />
      <Route
        path="booking/manage/:token"
        element={
          <>
            <LoadingThenHeading heading="Manage your booking" />
            <label>
              Note <input />
            </label>
          </>
        }
      />
    </Routes>
  ),
};
const admin: RoutesModule = { default: () => <h1>Staff login</h1> };

const renderApp = (path = '/') =>
  render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={[path]}>
        <App loaders={{ booking: async () => booking, admin: async () => admin }} loaded={{ booking }} />
      </MemoryRouter>
    </AppThemeProvider>,
  );

const SERVER_TITLE = 'The title the server sent';

beforeEach(() => {
  document.title = SERVER_TITLE;
});
afterEach(async () => {
  Cookies.remove(LOCALE_COOKIE);
  await act(() => activateLocale('en'));
});

describe('the page title map', () => {
  const titles: [string, Record<Locale, string>][] = [
    ['/', { en: 'Book an assessment visit', ms: 'Tempah lawatan penilaian', zh: '预约入学评估' }],
    ['/payment/success', { en: 'Payment successful', ms: 'Bayaran berjaya', zh: '付款成功' }],
    ['/payment/failure', { en: 'Payment not completed', ms: 'Bayaran tidak selesai', zh: '付款未完成' }],
    ['/payment/pending', { en: 'Processing payment', ms: 'Memproses bayaran', zh: '正在处理付款' }],
    ['/thankyou', { en: 'Booking complete', ms: 'Tempahan selesai', zh: '预约完成' }],
    ['/booking/manage/abc', { en: 'Manage your booking', ms: 'Urus tempahan anda', zh: '管理您的预约' }],
    ['/waitlist/abc', { en: 'Your place on the waitlist', ms: 'Tempat anda dalam senarai menunggu', zh: '您在候补名单中的位置' }],
    ['/waitlist/offer/abc', { en: 'A time for you', ms: 'Satu masa untuk anda', zh: '为您保留的时段' }],
    ['/no/such/page', { en: 'Page not found', ms: 'Halaman tidak dijumpai', zh: '找不到页面' }],
  ];

  it.each(titles)('titles %s in each language, then the product in that language', async (path, byLocale) => {
    for (const locale of ['en', 'ms', 'zh'] as const) {
      expect(await pageTitle(path, locale)).toBe(`${byLocale[locale]} · ${brandTitle(locale)}`);
    }
  });

  it('titles the staff pages in English whatever the parent chose', async () => {
    for (const locale of ['en', 'ms', 'zh'] as const) {
      expect(await pageTitle('/login', locale)).toBe(`Staff login · ${brandTitle('en')}`);
      expect(await pageTitle('/secured/dashboard/', locale)).toBe(`Dashboard · ${brandTitle('en')}`);
      expect(await pageTitle('/reset-password/t0k3n', locale)).toBe(`Set a new password · ${brandTitle('en')}`);
    }
  });
});

describe('a page change in the shell', () => {
  it('leaves the first load alone: the server titled the page and focus stays where the browser put it', async () => {
    renderApp();
    expect(screen.getByRole('heading', { level: 1, name: 'Timetable' })).not.toHaveFocus();
    // Nothing is pending that could still change it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.title).toBe(SERVER_TITLE);
    expect(document.body).toHaveFocus();
  });

  it("moves focus to the new page's heading once it shows, and titles the page", async () => {
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Paid' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment Successful!' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute('tabindex', '-1');
    await waitFor(() => expect(document.title).toBe(`Payment successful · ${brandTitle('en')}`));
  });

  it('titles pages in the chosen language, follows a language switch, and the staff side in English', async () => {
    // A parent who chose Malay before (the switcher's cookie).
    await act(() => chooseLocale('ms'));
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Paid' }));
    await waitFor(() => expect(document.title).toBe(`Bayaran berjaya · ${brandTitle('ms')}`));
    await act(() => chooseLocale('zh'));
    await waitFor(() => expect(document.title).toBe(`付款成功 · ${brandTitle('zh')}`));
    // The header's staff login link (shown on desktops; jsdom applies no media query): the staff side speaks English.
    await userEvent.click(screen.getByText('登录'));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Staff login' });
    await waitFor(() => expect(heading).toHaveFocus());
    await waitFor(() => expect(document.title).toBe(`Staff login · ${brandTitle('en')}`));
  });

  it('leaves focus where the visitor put it while the new page was loading', async () => {
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Manage' }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Note' }));
    await screen.findByRole('heading', { level: 1, name: 'Manage your booking' });
    await waitFor(() => expect(document.title).toBe(`Manage your booking · ${brandTitle('en')}`));
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveFocus();
  });

  it('leaves focus where the new page put it itself', async () => {
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Thanks' }));
    await waitFor(() => expect(document.title).toBe(`Booking complete · ${brandTitle('en')}`));
    expect(screen.getByRole('button', { name: 'Add to calendar' })).toHaveFocus();
  });
});
