import brandConfig from '../../../brand.config.json';
import { ensureContrast, mix } from './contrast';

// The brand colour comes from brand.config.json; darkened only if another school's colour would fail AA on white.
const brand = ensureContrast(brandConfig.brandColor);

export const breakpoints = { desktop: 1024 } as const;

export const theme = {
  colors: {
    brand,
    brandHover: mix(brand, '#000000', 0.15),
    brandActive: mix(brand, '#000000', 0.3),
    brandSubtle: mix(brand, '#ffffff', 0.9),
    onBrand: '#ffffff',
    text: '#1f2933',
    textMuted: '#4a5560',
    textInverse: '#ffffff',
    background: '#ffffff',
    surface: '#ffffff',
    surfaceMuted: '#f5f7f8',
    border: '#d5dbe0',
    borderStrong: '#6b7580',
    disabled: '#8a949c',
    disabledBackground: '#eef1f3',
    overlay: 'rgba(15, 23, 30, 0.55)',
    skeleton: '#e4e8eb',
    success: '#146c2e',
    successSubtle: '#e7f4ec',
    danger: '#b42318',
    dangerHover: '#912018',
    dangerSubtle: '#fdecea',
    warning: '#8a5300',
    warningSubtle: '#fff4e0',
    info: '#1d5fa8',
    infoSubtle: '#e8f1fb',
    neutral: '#4a5560',
    neutralSubtle: '#eef1f3',
    focus: brand,
  },
  /** 4 px grid: space[1] = 4 px ... space[8] = 48 px. */
  space: ['0', '4px', '8px', '12px', '16px', '24px', '32px', '40px', '48px'] as const,
  radii: { sm: '4px', md: '8px', lg: '12px', pill: '999px' },
  fonts: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  fontSizes: {
    xs: '0.75rem',
    sm: '0.875rem',
    md: '1rem',
    lg: '1.125rem',
    xl: '1.375rem',
    xxl: '1.75rem',
    xxxl: '2.25rem',
  },
  fontWeights: { regular: 400, medium: 500, bold: 700 },
  lineHeights: { tight: 1.25, body: 1.5 },
  breakpoints,
  /** Minimum tap target (WCAG 2.5.5 / platform guidelines). */
  tapTarget: '44px',
  focusRing: `0 0 0 2px #ffffff, 0 0 0 4px ${brand}`,
  shadows: {
    sm: '0 1px 2px rgba(15, 23, 30, 0.08)',
    md: '0 2px 8px rgba(15, 23, 30, 0.12)',
    lg: '0 12px 32px rgba(15, 23, 30, 0.2)',
  },
  zIndices: { header: 10, menu: 40, overlay: 50, dialog: 51, toast: 60 },
  motion: { fast: '120ms', normal: '200ms', easing: 'cubic-bezier(0.2, 0, 0, 1)' },
};

export type AppTheme = typeof theme;

declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends AppTheme {}
}
