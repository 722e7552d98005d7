// The design system. Other packages reach styled-components only through here (one shared singleton).
// This core is what every page needs; forms and dialogs (shared-ui/forms) and the staff side's tables, cards, badges
// and menus (shared-ui/data) are separate entries, so the public page's first load does not carry them.
export {
  default as styled,
  css,
  keyframes,
  createGlobalStyle,
  ThemeProvider,
  useTheme,
} from 'styled-components';
export type { DefaultTheme, RuleSet, Interpolation } from 'styled-components';

export { theme, breakpoints, type AppTheme } from './theme/theme';
export { media, type MediaHelper } from './theme/media';
export { contrastRatio } from './theme/contrast';
export { GlobalStyle } from './theme/GlobalStyle';
export { AppThemeProvider } from './theme/AppThemeProvider';

export { Button, type ButtonProps, type ButtonVariant, type ButtonSize } from './components/Button';
export {
  ToastProvider,
  useToast,
  preloadToasts,
  TOAST_DURATION_MS,
  MAX_VISIBLE_TOASTS,
  type ToastApi,
  type ToastKind,
  type ToastProviderProps,
} from './components/Toast';
/** For shared-ui/forms' dialog: the place its toasts show while it is open. */
export { toastDock } from './components/toast/dock';
export { ErrorPanel, type ErrorPanelProps } from './components/ErrorPanel';
export { Spinner, type SpinnerProps } from './components/Spinner';
export { Skeleton, type SkeletonProps } from './components/Skeleton';
export {
  Stack,
  Inline,
  Container,
  type StackProps,
  type InlineProps,
  type ContainerProps,
  type SpaceStep,
} from './components/Layout';
export { Caption } from './components/Caption';
export { Heading, type HeadingProps, type HeadingLevel } from './components/Heading';
export { VisuallyHidden } from './components/VisuallyHidden';
export { CheckIcon, AlertIcon, CloseIcon } from './components/icons';
/** For shared-ui's own entries (shared-ui/forms, shared-ui/data), which take the core from the shared package. */
export { closeButtonStyles } from './components/closeButtonStyles';
export { lazyModule, type LazyModule } from './utils/lazyModule';

// Languages (issue 14): the page's one catalogue registry, feature catalogues and the hooks that read them.
export * from './i18n';
