// The design system. Other packages reach styled-components only through here (one shared singleton).
export { default as styled, css, keyframes, createGlobalStyle, ThemeProvider, useTheme } from 'styled-components';
export type { DefaultTheme, RuleSet, Interpolation } from 'styled-components';

export { theme, breakpoints, type AppTheme } from './theme/theme';
export { media, type MediaHelper } from './theme/media';
export { contrastRatio } from './theme/contrast';
export { GlobalStyle } from './theme/GlobalStyle';
export { AppThemeProvider } from './theme/AppThemeProvider';

export { Button, type ButtonProps, type ButtonVariant, type ButtonSize } from './components/Button';
export { Card, CardHeader, CardTitle, CardBody } from './components/Card';
export { ErrorPanel, type ErrorPanelProps } from './components/ErrorPanel';
export { Spinner, type SpinnerProps } from './components/Spinner';
export { Skeleton, type SkeletonProps } from './components/Skeleton';
export { VisuallyHidden } from './components/VisuallyHidden';

export { formatRM } from './utils/formatRM';
