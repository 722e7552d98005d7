import { act, render, screen } from '@testing-library/react';
import { activateLocale, AppThemeProvider } from 'shared-ui';
import { PageLoading } from './PageLoading';

afterEach(async () => {
  await act(() => activateLocale('en'));
});

describe('PageLoading', () => {
  it.each([
    ['en', 'Loading page'],
    ['ms', 'Memuatkan halaman'],
    ['zh', '正在加载页面'],
  ] as const)('names the wait in the page’s language (%s)', async (locale, label) => {
    await act(() => activateLocale(locale));
    render(
      <AppThemeProvider>
        <PageLoading />
      </AppThemeProvider>,
    );
    expect(screen.getByText(label)).toBeInTheDocument();
  });
});
