import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AppThemeProvider } from '../theme/AppThemeProvider';

/** Renders inside the theme, as every app root does; rerender keeps the theme too. */
export function renderThemed(ui: ReactElement) {
  const result = render(ui, { wrapper: AppThemeProvider });
  return result;
}
