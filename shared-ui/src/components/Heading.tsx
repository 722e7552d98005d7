import type { HTMLAttributes } from 'react';
import styled, { type DefaultTheme } from 'styled-components';
import { media } from '../theme/media';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

const sizeFor = (theme: DefaultTheme, level: HeadingLevel, desktop: boolean) => {
  const f = theme.fontSizes;
  if (level === 1) return desktop ? f.xxxl : f.xxl;
  if (level === 2) return desktop ? f.xxl : f.xl;
  if (level === 3) return f.lg;
  return f.md;
};

const H = styled.h2<{ $level: HeadingLevel }>`
  margin: 0;
  font-size: ${({ theme, $level }) => sizeFor(theme, $level, false)};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  line-height: ${({ theme }) => theme.lineHeights.tight};
  color: ${({ theme }) => theme.colors.text};
  ${media.desktop`font-size: ${({ theme, $level }: { theme: DefaultTheme; $level: HeadingLevel }) => sizeFor(theme, $level, true)};`}
`;

export type HeadingProps = HTMLAttributes<HTMLHeadingElement> & {
  /** The document level (h1..h6); the size follows it. */
  level?: HeadingLevel;
};

/** A heading whose size follows its level on the type scale. */
export function Heading({ level = 2, ...rest }: HeadingProps) {
  return <H as={`h${level}`} $level={level} {...rest} />;
}
