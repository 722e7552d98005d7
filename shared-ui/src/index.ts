// The design system. Other packages reach styled-components only through here (one shared singleton).
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
export { Card, CardHeader, CardTitle, CardBody } from './components/Card';
export { Dialog, preloadDialog, type DialogProps, type DialogSize } from './components/Dialog';
export { ConfirmDialog, type ConfirmDialogProps } from './components/ConfirmDialog';
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
export { ErrorPanel, type ErrorPanelProps } from './components/ErrorPanel';
export { Spinner, type SpinnerProps } from './components/Spinner';
export { Skeleton, type SkeletonProps } from './components/Skeleton';
export { Badge, type BadgeProps, type BadgeTone } from './components/Badge';
export { Table, THead, TBody, Tr, Th, Td, Caption, type TableProps } from './components/Table';
export {
  Menu,
  MenuTrigger,
  MenuContent,
  MenuItem,
  MenuSeparator,
  type MenuContentProps,
} from './components/Menu';
export { Field, Input, Select, Label, type FieldProps } from './components/Form';
export {
  Stack,
  Inline,
  Container,
  type StackProps,
  type InlineProps,
  type ContainerProps,
  type SpaceStep,
} from './components/Layout';
export { Heading, type HeadingProps, type HeadingLevel } from './components/Heading';
export { VisuallyHidden } from './components/VisuallyHidden';
export { CheckIcon, AlertIcon, CloseIcon } from './components/icons';

export { formatRM, formatRinggit } from './utils/formatRM';
