import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { MemoryRouter } from 'react-router-dom';
import { brand, brandTitle, LOCALE_COOKIE, removeToken, setToken } from 'shared-api';
import { activateLocale, AppThemeProvider } from 'shared-ui';
import { configureAxe, toHaveNoViolations } from 'jest-axe';
import { Header } from './Header';

expect.extend(toHaveNoViolations);
// label-content-name-mismatch is one of axe's experimental rules: turned on here, where the logo link lives.
const axe = configureAxe({ rules: { 'label-content-name-mismatch': { enabled: true } } });

const renderHeader = (path = '/') =>
  render(
    <AppThemeProvider>
      <MemoryRouter initialEntries={[path]}>
        <Header />
      </MemoryRouter>
    </AppThemeProvider>,
  );

describe('Header', () => {
  it('shows the logo linking home, the title text and the Login link to /login', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: `${brand.logoText}, ${brand.productName} home` })).toHaveAttribute('href', '/');
    expect(screen.getByText(brand.title)).toBeInTheDocument();
    // Mobile first: hidden until the desktop media query applies (jsdom applies none; the e2e test checks both).
    expect(screen.getByText('Login').closest('a')).toHaveAttribute('href', '/login');
  });

  it("the logo link's name contains the text it shows (WCAG 2.5.3): axe finds nothing, in every language", async () => {
    for (const locale of ['en', 'ms', 'zh'] as const) {
      await act(() => activateLocale(locale));
      const { container, unmount } = renderHeader();
      const logo = screen.getByRole('link', { name: new RegExp(`^${brand.logoText}[,，]`) });
      expect(logo).toHaveTextContent(brand.logoText);
      expect(await axe(container)).toHaveNoViolations();
      unmount();
    }
    await act(() => activateLocale('en'));
  });

  it('offers staff who are signed in their dashboard instead of the login', () => {
    setToken('a-staff-token');
    try {
      renderHeader();
      expect(screen.getByText('Dashboard').closest('a')).toHaveAttribute('href', '/secured/dashboard');
      expect(screen.queryByText('Login')).not.toBeInTheDocument();
    } finally {
      removeToken();
    }
  });

  describe('language', () => {
    afterEach(async () => {
      await act(() => activateLocale('en'));
      Cookies.remove(LOCALE_COOKIE, { path: '/' });
    });

    it('offers English, Bahasa Melayu and 中文, each named in itself, English chosen by default', () => {
      renderHeader();
      const select = screen.getByRole('combobox', { name: 'Language' });
      expect(select).toHaveValue('en');
      expect([...(select as HTMLSelectElement).options].map((option) => option.textContent)).toEqual(['English', 'Bahasa Melayu', '中文']);
    });

    it('switches the header to the chosen language, remembers it and sets <html lang>', async () => {
      renderHeader();
      await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ms');
      expect(await screen.findByText('Log masuk')).toBeInTheDocument();
      expect(screen.getByText(brandTitle('ms'))).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Bahasa' })).toHaveValue('ms');
      expect(screen.getByRole('link', { name: `${brand.logoText}, laman utama ${brand.productName}` })).toHaveAttribute('href', '/');
      expect(document.documentElement.lang).toBe('ms');
      expect(Cookies.get(LOCALE_COOKIE)).toBe('ms');

      await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Bahasa' }), 'zh');
      expect(await screen.findByText('登录')).toBeInTheDocument();
      expect(document.documentElement.lang).toBe('zh-Hans');
    });
  });

  it.each(['/login', '/register', '/forgot-password', '/reset-password/abc', '/secured/dashboard', '/secured/audit'])(
    'offers no language on the staff page %s (the staff side is English)',
    (path) => {
      renderHeader(path);
      expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    },
  );

  it.each(['/', '/payment/success', '/booking/manage/abc'])('offers the language on the parents\' page %s', (path) => {
    renderHeader(path);
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeInTheDocument();
  });
});
