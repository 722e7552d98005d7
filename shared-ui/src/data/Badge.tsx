// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import type { HTMLAttributes } from 'react';
import { styled, type DefaultTheme } from 'shared-ui';

export type BadgeTone = 'success' | 'neutral' | 'warning' | 'danger' | 'info';

const toneColours = (theme: DefaultTheme, tone: BadgeTone) =>
  ({
    success: [theme.colors.success, theme.colors.successSubtle],
    neutral: [theme.colors.neutral, theme.colors.neutralSubtle],
    warning: [theme.colors.warning, theme.colors.warningSubtle],
    danger: [theme.colors.danger, theme.colors.dangerSubtle],
    info: [theme.colors.info, theme.colors.infoSubtle],
  })[tone];

const Pill = styled.span<{ $tone: BadgeTone }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[1]};
  padding: 2px ${({ theme }) => theme.space[2]};
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  line-height: ${({ theme }) => theme.lineHeights.body};
  white-space: nowrap;
  color: ${({ theme, $tone }) => toneColours(theme, $tone)[0]};
  background: ${({ theme, $tone }) => toneColours(theme, $tone)[1]};
  border: 1px solid currentColor;
  @media print {
    background: none;
  }
`;

export type BadgeProps = HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone };

/** A short status label; the text carries the meaning, colour only reinforces it. */
export function Badge({ tone = 'neutral', ...rest }: BadgeProps) {
  return <Pill $tone={tone} {...rest} />;
}
