import type { ButtonHTMLAttributes, Ref } from 'react';
import styled, { css } from 'styled-components';
import { SpinnerIcon } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, sets aria-busy and disables the button until the work ends. */
  loading?: boolean;
  fullWidth?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

const variants = {
  primary: css`
    background: ${({ theme }) => theme.colors.brand};
    color: ${({ theme }) => theme.colors.onBrand};
    border-color: ${({ theme }) => theme.colors.brand};
    &:hover:not(:disabled) {
      background: ${({ theme }) => theme.colors.brandHover};
      border-color: ${({ theme }) => theme.colors.brandHover};
    }
    &:active:not(:disabled) {
      background: ${({ theme }) => theme.colors.brandActive};
    }
  `,
  secondary: css`
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.brand};
    border-color: ${({ theme }) => theme.colors.brand};
    &:hover:not(:disabled) {
      background: ${({ theme }) => theme.colors.brandSubtle};
    }
  `,
  ghost: css`
    background: transparent;
    color: ${({ theme }) => theme.colors.brand};
    border-color: transparent;
    &:hover:not(:disabled) {
      background: ${({ theme }) => theme.colors.brandSubtle};
    }
  `,
  danger: css`
    background: ${({ theme }) => theme.colors.danger};
    color: ${({ theme }) => theme.colors.onBrand};
    border-color: ${({ theme }) => theme.colors.danger};
    &:hover:not(:disabled) {
      background: ${({ theme }) => theme.colors.dangerHover};
      border-color: ${({ theme }) => theme.colors.dangerHover};
    }
  `,
};

const StyledButton = styled.button<{ $variant: ButtonVariant; $size: ButtonSize; $fullWidth: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space[2]};
  width: ${({ $fullWidth }) => ($fullWidth ? '100%' : 'auto')};
  /* Both sizes keep a 44 px tap target; "sm" is only visually tighter. */
  min-height: ${({ theme }) => theme.tapTarget};
  min-width: ${({ theme }) => theme.tapTarget};
  padding: ${({ theme, $size }) => ($size === 'sm' ? `0 ${theme.space[3]}` : `${theme.space[2]} ${theme.space[5]}`)};
  font-size: ${({ theme, $size }) => ($size === 'sm' ? theme.fontSizes.sm : theme.fontSizes.md)};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  line-height: ${({ theme }) => theme.lineHeights.tight};
  text-align: center;
  text-decoration: none;
  border: 2px solid transparent;
  border-radius: ${({ theme }) => theme.radii.md};
  cursor: pointer;
  user-select: none;
  transition:
    background-color ${({ theme }) => theme.motion.fast},
    border-color ${({ theme }) => theme.motion.fast};
  ${({ $variant }) => variants[$variant]}

  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }

  &:disabled {
    cursor: not-allowed;
    background: ${({ theme }) => theme.colors.disabledBackground};
    border-color: ${({ theme }) => theme.colors.disabledBackground};
    color: ${({ theme }) => theme.colors.textMuted};
  }
  &[aria-busy='true'] {
    cursor: progress;
  }

  @media print {
    display: none;
  }
`;

/** The one button of the product. Defaults to type="button" so it never submits a form by accident. */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  fullWidth = false,
  disabled,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <StyledButton
      type={type}
      $variant={variant}
      $size={size}
      $fullWidth={fullWidth}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <SpinnerIcon size={size === 'sm' ? 16 : 18} />}
      {children}
    </StyledButton>
  );
}
