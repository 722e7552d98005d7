import styled, { keyframes } from 'styled-components';
import { useCatalog } from '../i18n/useCatalog';
import { uiCatalog } from '../i18n/ui-catalog';
import { VisuallyHidden } from './VisuallyHidden';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Ring = styled.svg<{ $size: number }>`
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  flex: none;
  animation: ${spin} 0.8s linear infinite;
`;

/** The spinning ring alone, hidden from assistive tech (Button uses it; the state is carried by aria-busy). */
export function SpinnerIcon({ size = 20 }: { size?: number }) {
  return (
    <Ring $size={size} viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </Ring>
  );
}

const Wrapper = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  color: ${({ theme }) => theme.colors.brand};
`;

export type SpinnerProps = {
  /** What is loading; read to screen readers and shown when `showLabel` is set. */
  label?: string;
  showLabel?: boolean;
  size?: number;
  className?: string;
  /** Same as `label` (for callers used to aria-label). */
  'aria-label'?: string;
};

/** A loading indicator with role=status. Prefer Skeleton when the shape of the content is known. */
export function Spinner({
  label: labelProp,
  showLabel = false,
  size = 24,
  className,
  'aria-label': ariaLabel,
}: SpinnerProps) {
  const { t } = useCatalog(uiCatalog);
  const label = labelProp ?? ariaLabel ?? t('loading');
  return (
    <Wrapper role="status" className={className}>
      <SpinnerIcon size={size} />
      {showLabel ? <span>{label}</span> : <VisuallyHidden>{label}</VisuallyHidden>}
    </Wrapper>
  );
}
