import { createGlobalStyle } from 'styled-components';

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
  body {
    margin: 0;
    font-family: ${({ theme }) => theme.fonts.body};
    font-size: ${({ theme }) => theme.fontSizes.md};
    line-height: ${({ theme }) => theme.lineHeights.body};
    color: ${({ theme }) => theme.colors.text};
    background: ${({ theme }) => theme.colors.background};
    -webkit-font-smoothing: antialiased;
    overflow-wrap: break-word;
  }
  img, svg, video { max-width: 100%; }
  img, video { height: auto; display: block; }
  button, input, select, textarea { font: inherit; color: inherit; }
  h1, h2, h3, h4, h5, h6 { line-height: ${({ theme }) => theme.lineHeights.tight}; }
  a { color: ${({ theme }) => theme.colors.brand}; text-underline-offset: 2px; }
  a:hover { color: ${({ theme }) => theme.colors.brandHover}; }
  :focus-visible { outline: 2px solid ${({ theme }) => theme.colors.focus}; outline-offset: 2px; }
  [hidden] { display: none !important; }

  /* Motion is optional: honour the user's setting everywhere. */
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after {
      animation-duration: 0.01ms !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0.01ms !important;
      scroll-behavior: auto !important;
    }
  }

  /* A printed page is a clean receipt: black on white, no chrome. */
  @page { margin: 15mm; }
  @media print {
    body { background: #ffffff; color: #000000; }
    a { color: #000000; }
    [data-print="hide"], .no-print { display: none !important; }
    * { box-shadow: none !important; }
  }
`;
