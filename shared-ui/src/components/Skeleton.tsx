import styled, { keyframes } from 'styled-components';

const pulse = keyframes`
  0% { opacity: 1; }
  50% { opacity: 0.55; }
  100% { opacity: 1; }
`;

const toCss = (value: number | string) => (typeof value === 'number' ? `${value}px` : value);

const Block = styled.span<{ $width: string; $height: string; $radius: string }>`
  display: block;
  width: ${({ $width }) => $width};
  max-width: 100%;
  height: ${({ $height }) => $height};
  border-radius: ${({ $radius }) => $radius};
  background: ${({ theme }) => theme.colors.skeleton};
  animation: ${pulse} 1.5s ease-in-out infinite;
`;

export type SkeletonProps = {
  width?: number | string;
  height?: number | string;
  radius?: number | string;
  className?: string;
};

/** A placeholder in the shape of content still loading; hidden from screen readers (announce loading elsewhere). */
export function Skeleton({ width = '100%', height = '1em', radius, className }: SkeletonProps) {
  return (
    <Block
      aria-hidden="true"
      data-testid="skeleton"
      className={className}
      $width={toCss(width)}
      $height={toCss(height)}
      $radius={radius === undefined ? '4px' : toCss(radius)}
    />
  );
}
