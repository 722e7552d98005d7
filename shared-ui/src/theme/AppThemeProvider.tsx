import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { GlobalStyle } from './GlobalStyle';
import { theme } from './theme';

/** The theme plus the global style; wrap each app root (shell, and each remote when standalone) once. */
export function AppThemeProvider({
  children,
  withGlobalStyle = true,
}: {
  children?: ReactNode;
  withGlobalStyle?: boolean;
}) {
  return (
    <ThemeProvider theme={theme}>
      {withGlobalStyle && <GlobalStyle />}
      {children}
    </ThemeProvider>
  );
}
