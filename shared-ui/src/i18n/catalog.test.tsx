import { act, render, screen } from '@testing-library/react';
import Cookies from 'js-cookie';
import { Suspense } from 'react';
import { activateLocale, chooseLocale, currentLocale, defineCatalog, initialLocale, loadWithLanguage } from './catalog';
import { LOCALE_COOKIE } from './languages';
import { useCatalog } from './useCatalog';

const greetings = defineCatalog(
  'test.greetings',
  { hello: 'Hello, {name}', slots: '{count, plural, one {# slot left} other {# slots left}}' },
  {
    ms: () => Promise.resolve({ default: { hello: 'Selamat datang, {name}', slots: '{count, plural, other {# slot lagi}}' } }),
    zh: () => Promise.resolve({ default: { hello: '{name}，您好', slots: '还剩 {count} 个时段' } }),
  },
);

function Greeting({ catalog = greetings }: { catalog?: typeof greetings }) {
  const { t } = useCatalog(catalog);
  return (
    <p>
      {t('hello', { name: 'Aminah' })} · {t('slots', { count: 1 })}
    </p>
  );
}

afterEach(async () => {
  await act(() => activateLocale('en'));
  Cookies.remove(LOCALE_COOKIE, { path: '/' });
});

describe('the page language', () => {
  it('is English until chosen, then every text follows the choice, with the language’s plural rules', async () => {
    render(<Greeting />);
    expect(screen.getByText('Hello, Aminah · 1 slot left')).toBeInTheDocument();
    await act(() => chooseLocale('ms'));
    expect(screen.getByText('Selamat datang, Aminah · 1 slot lagi')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('ms');
    await act(() => chooseLocale('zh'));
    expect(screen.getByText('Aminah，您好 · 还剩 1 个时段')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('zh-Hans');
  });

  it('is remembered in the browser: a cookie wins over the browser’s preferred languages', async () => {
    await chooseLocale('zh');
    expect(Cookies.get(LOCALE_COOKIE)).toBe('zh');
    expect(initialLocale()).toBe('zh');
  });

  it('on a first visit follows the browser’s preferred languages when one is ours, else English', () => {
    const languages = jest.spyOn(navigator, 'languages', 'get');
    languages.mockReturnValue(['fr-FR', 'ms-MY', 'en']);
    expect(initialLocale()).toBe('ms');
    languages.mockReturnValue(['zh-CN']);
    expect(initialLocale()).toBe('zh');
    languages.mockReturnValue(['fr-FR', 'de']);
    expect(initialLocale()).toBe('en');
    languages.mockRestore();
  });

  it('shows English for a catalogue without the language (the staff side) or whose language could not load', async () => {
    const staffOnly = defineCatalog('test.staff', { hello: 'Hello, {name}', slots: '{count} slots' }, {});
    const offline = defineCatalog('test.offline', { hello: 'Hi, {name}', slots: '{count} left' }, {
      ms: () => Promise.reject(new Error('network down')),
    });
    await act(() => activateLocale('ms'));
    render(
      <>
        <Greeting catalog={staffOnly} />
        <Greeting catalog={offline} />
      </>,
    );
    expect(screen.getByText('Hello, Aminah · 1 slots')).toBeInTheDocument();
    expect(screen.getByText('Hi, Aminah · 1 left')).toBeInTheDocument();
    expect(currentLocale()).toBe('ms');
  });

  it('a catalogue that arrives after the choice (a lazy chunk) waits for its language instead of flashing English', async () => {
    await act(() => activateLocale('ms'));
    let release: () => void = () => undefined;
    const late = defineCatalog('test.late', { hello: 'Hello, {name}', slots: '{count} slots' }, {
      ms: () => new Promise((resolve) => (release = () => resolve({ default: { hello: 'Hai, {name}', slots: '{count} slot' } }))),
    });
    // Rendered in an awaited act, as React wants for a component that suspends.
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading</p>}>
          <Greeting catalog={late} />
        </Suspense>,
      );
    });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(screen.queryByText(/Hello/)).not.toBeInTheDocument();
    await act(async () => release());
    expect(await screen.findByText('Hai, Aminah · 1 slot')).toBeInTheDocument();
  });

  it('switches only once what another package loads with a language is here; one that fails does not hold the page', async () => {
    let release: () => void = () => undefined;
    const loaded: string[] = [];
    loadWithLanguage((locale) => (locale === 'zh' ? new Promise<void>((resolve) => (release = resolve)).then(() => void loaded.push(locale)) : Promise.resolve()));
    loadWithLanguage(() => Promise.reject(new Error('network down')));
    const switching = activateLocale('zh');
    await act(async () => undefined);
    expect(currentLocale()).toBe('en');
    await act(async () => {
      release();
      await switching;
    });
    expect(loaded).toEqual(['zh']);
    expect(currentLocale()).toBe('zh');
  });
});
