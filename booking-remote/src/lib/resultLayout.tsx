import type { ReactNode } from 'react';
import { media, styled } from 'shared-ui';

/**
 * Where an element (a link, a bold word, a countdown) sits in a catalogue sentence: pass ELEMENT as the placeholder's
 * value (`t('registration.text', { link: ELEMENT })`) and the element as `children`. Each language keeps its own word
 * order; the sentence is never built from pieces.
 */
export const ELEMENT = '\u2063';

export function Sentence({ text, children }: { text: string; children: ReactNode }) {
  const [before, ...after] = text.split(ELEMENT);
  return (
    <>
      {before}
      {children}
      {after.join('')}
    </>
  );
}

/** The card every result page sits in: narrow, centred, never wider than the screen. */
export const ResultPanel = styled.section`
  box-sizing: border-box;
  width: 100%;
  max-width: 640px;
  margin: ${({ theme }) => theme.space[4]} auto;
  padding: ${({ theme }) => theme.space[5]} ${({ theme }) => theme.space[4]};
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[4]};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.lg};
  /* A word (an address, a reference) breaks only when it cannot fit on a line of its own. */
  overflow-wrap: break-word;
  h1 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xxl};
  }
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
  p,
  ul {
    margin: 0;
  }
`;

/**
 * A page's buttons, primary first: stacked full width on a phone, side by side in the same order on the desk. Never
 * wrapped by the width of their words, so the layout and the order are the same in every language.
 */
export const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[3]};
  ${media.desktop`
    flex-direction: row;
    > * { flex: 1 1 0; }
  `}
`;

/**
 * The visit itself, leading a page about a booking: its heading (the child) and when and where, tinted and larger than
 * the payment facts that follow it.
 */
export const VisitBlock = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[4]};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.brandSubtle};
  dd {
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
`;

/** A link that looks like a button (44 px tap target): secondary, or with `$primary` the page's one filled action. */
export const LinkButton = styled.a<{ $primary?: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  box-sizing: border-box;
  min-height: ${({ theme }) => theme.tapTarget};
  padding: ${({ theme }) => theme.space[2]} ${({ theme }) => theme.space[5]};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  text-align: center;
  text-decoration: none;
  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
  ${({ $primary, theme }) =>
    $primary &&
    `
    border-color: ${theme.colors.brand};
    background: ${theme.colors.brand};
    color: ${theme.colors.onBrand};
    &:hover { background: ${theme.colors.brandHover}; }
  `}
`;

/** Label and value side by side; on a narrow phone the label sits above its value, which then has the full width. */
export const Details = styled.dl`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  margin: 0;
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
  dd {
    margin: 0 0 ${({ theme }) => theme.space[2]};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  @media (min-width: 30rem) {
    /* A long label wraps at its words instead of squeezing the value out. */
    grid-template-columns: fit-content(45%) minmax(0, 1fr);
    gap: ${({ theme }) => theme.space[2]} ${({ theme }) => theme.space[4]};
    dt {
      font-size: inherit;
    }
    dd {
      margin: 0;
    }
  }
`;
