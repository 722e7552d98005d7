// The shell's page frame (header and <main>) drawn on this server around a remote's server-rendered page, so the page
// looks the same before and after the shell's JavaScript draws it. Once per language: an anonymous visitor's frame.
import './message-compiler';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { Locale } from 'shared-api/contract';
import { activateLocale, AppThemeProvider } from 'shared-ui';
import { ServerStyleSheet } from 'styled-components';
import { Main } from '../src/app/App';
import { Header } from '../src/frame/Header';

/** Marks the server's <main>: the page's first-tap capture (tap-capture.ts) knows the page is not yet the app's. */
export const SERVER_MAIN_ATTRIBUTE = 'data-server-rendered';
const CONTENT = '<!--page-content-->';

export type Frame = { css: string; around: (content: string) => string };

const frames = new Map<Locale, Promise<Frame>>();
const drawn = new Map<Locale, Frame>();

/** The frame in `locale`: its style tags and the markup around a page's content. */
export function frameFor(locale: Locale): Promise<Frame> {
  let frame = frames.get(locale);
  if (!frame) {
    frame = drawFrame(locale);
    frames.set(locale, frame);
    frame.then(
      (done) => drawn.set(locale, done),
      () => frames.delete(locale),
    );
  }
  return frame;
}

/** The frame in `locale` if drawn already (else starts drawing it): a request never waits for the first drawing. */
export function frameNow(locale: Locale): Frame | undefined {
  void frameFor(locale).catch(() => undefined);
  return drawn.get(locale);
}

let drawing: Promise<unknown> = Promise.resolve();

/** One language at a time: the language is module state, set and then drawn (renderToString is synchronous). */
function drawFrame(locale: Locale): Promise<Frame> {
  const frame = drawing.then(() => drawFrameNow(locale));
  drawing = frame.catch(() => undefined);
  return frame;
}

async function drawFrameNow(locale: Locale): Promise<Frame> {
  await activateLocale(locale);
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      sheet.collectStyles(
        <AppThemeProvider>
          <MemoryRouter>
            <Header />
            <Main {...{ [SERVER_MAIN_ATTRIBUTE]: '' }}>{CONTENT}</Main>
          </MemoryRouter>
        </AppThemeProvider>,
      ),
    );
    const [before, after] = html.split(CONTENT.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    if (after === undefined) throw new Error('the frame has no place for the content');
    return { css: sheet.getStyleTags(), around: (content) => before + content + after };
  } finally {
    sheet.seal();
  }
}
