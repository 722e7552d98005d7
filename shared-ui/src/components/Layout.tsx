import type { CSSProperties } from 'react';
import styled from 'styled-components';
import { media } from '../theme/media';

/** An index into theme.space: 0..8 (4 px steps up to 24, then 8 px steps). */
export type SpaceStep = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const layoutProps = new Set(['gap', 'align', 'justify', 'wrap', 'size']);
const notLayoutProp = (prop: string) => !layoutProps.has(prop);

export type StackProps = { gap?: SpaceStep; align?: CSSProperties['alignItems'] };

/** Children one under another with even spacing. */
export const Stack = styled.div.withConfig({ shouldForwardProp: notLayoutProp })<StackProps>`
  display: flex;
  flex-direction: column;
  gap: ${({ theme, gap = 4 }) => theme.space[gap]};
  align-items: ${({ align = 'stretch' }) => align};
  min-width: 0;
`;

export type InlineProps = {
  gap?: SpaceStep;
  align?: CSSProperties['alignItems'];
  justify?: CSSProperties['justifyContent'];
  /** Wraps onto the next line on narrow screens (default true). */
  wrap?: boolean;
};

/** Children side by side, wrapping on narrow screens. */
export const Inline = styled.div.withConfig({ shouldForwardProp: notLayoutProp })<InlineProps>`
  display: flex;
  flex-direction: row;
  flex-wrap: ${({ wrap = true }) => (wrap ? 'wrap' : 'nowrap')};
  gap: ${({ theme, gap = 3 }) => theme.space[gap]};
  align-items: ${({ align = 'center' }) => align};
  justify-content: ${({ justify = 'flex-start' }) => justify};
  min-width: 0;
`;

const containerWidths = { sm: '640px', md: '960px', lg: '1200px' } as const;

export type ContainerProps = { size?: keyof typeof containerWidths };

/** Centres page content with side padding; never wider than the screen. */
export const Container = styled.div.withConfig({ shouldForwardProp: notLayoutProp })<ContainerProps>`
  width: 100%;
  max-width: ${({ size = 'lg' }) => containerWidths[size]};
  margin-inline: auto;
  padding-inline: ${({ theme }) => theme.space[4]};
  ${media.desktop`padding-inline: ${({ theme }) => theme.space[5]};`}
`;
