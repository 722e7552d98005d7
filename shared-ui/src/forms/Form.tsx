// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import {
  Children,
  cloneElement,
  isValidElement,
  type ComponentPropsWithRef,
  type ComponentType,
  type ReactElement,
  type ReactNode,
} from 'react';
import { AlertIcon, css, styled } from 'shared-ui';

export const Label = styled.label`
  display: block;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  color: ${({ theme }) => theme.colors.text};
`;

const control = css`
  display: block;
  width: 100%;
  min-height: ${({ theme }) => theme.tapTarget};
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[3]}`};
  /* 16 px keeps iOS Safari from zooming into the field. */
  font-size: max(16px, ${({ theme }) => theme.fontSizes.md});
  line-height: ${({ theme }) => theme.lineHeights.tight};
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.md};
  &::placeholder {
    color: ${({ theme }) => theme.colors.textMuted};
    opacity: 1;
  }
  &:focus {
    outline: none;
    border-color: ${({ theme }) => theme.colors.brand};
    box-shadow: ${({ theme }) => theme.focusRing};
  }
  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
    border-width: 2px;
  }
  &:disabled {
    background: ${({ theme }) => theme.colors.disabledBackground};
    color: ${({ theme }) => theme.colors.textMuted};
    cursor: not-allowed;
  }
`;

export const Input = styled.input`
  ${control}
`;

export const Select = styled.select`
  ${control}
  appearance: none;
  padding-right: ${({ theme }) => theme.space[7]};
  /* An inline chevron (no icon font). */
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 24 24' fill='none' stroke='%234a5560' stroke-width='2.5' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M6 9l6 6 6-6'/%3E%3C/svg%3E");
  background-repeat: no-repeat;
  background-position: right 12px center;
`;

export const TextArea = styled.textarea`
  ${control}
  min-height: 4.5em;
  resize: vertical;
`;

const FieldBox = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[1]};
  min-width: 0;
`;

const Hint = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const ErrorText = styled.p`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[1]};
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.danger};
  svg {
    flex: none;
    margin-top: 2px;
  }
`;

export type FieldProps = {
  label: ReactNode;
  /** The id of the control inside; the label points at it. */
  htmlFor: string;
  error?: string;
  hint?: ReactNode;
  /** One form control (Input, Select, textarea...). It receives id, aria-describedby and aria-invalid. */
  children: ReactNode;
  className?: string;
};

type ControlProps = { id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean | 'true' | 'false' };

/** A labelled form control with its hint and error text wired for screen readers. */
export function Field({ label, htmlFor, error, hint, children, className }: FieldProps) {
  const hintId = hint ? `${htmlFor}-hint` : undefined;
  const errorId = error ? `${htmlFor}-error` : undefined;
  const only = Children.count(children) === 1 ? Children.toArray(children)[0] : null;

  let control = children;
  if (isValidElement<ControlProps>(only)) {
    const describedBy =
      [only.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
    control = cloneElement(only as ReactElement<ControlProps>, {
      id: only.props.id ?? htmlFor,
      'aria-describedby': describedBy,
      'aria-invalid': error ? true : only.props['aria-invalid'],
    });
  }

  return (
    <FieldBox className={className}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {hint && <Hint id={hintId}>{hint}</Hint>}
      {control}
      {error && (
        <ErrorText id={errorId}>
          <AlertIcon size={16} />
          <span>{error}</span>
        </ErrorText>
      )}
    </FieldBox>
  );
}

type FieldOwnProps = Pick<FieldProps, 'label' | 'error' | 'hint' | 'className'> & { id: string };
type ControlElement = 'input' | 'select' | 'textarea';
export type ControlFieldProps<E extends ControlElement> = FieldOwnProps &
  Omit<ComponentPropsWithRef<E>, keyof FieldOwnProps>;

/** A Field around one control in one element, its label pointing at the control's `id` (react-hook-form's `register` spreads in). */
function withField<E extends ControlElement>(Control: ComponentType<ComponentPropsWithRef<E>>) {
  return function ControlField({ label, error, hint, className, ...control }: ControlFieldProps<E>) {
    return (
      <Field label={label} htmlFor={control.id} error={error} hint={hint} className={className}>
        <Control {...(control as ComponentPropsWithRef<E>)} />
      </Field>
    );
  };
}

export const InputField = withField<'input'>(Input);
export const SelectField = withField<'select'>(Select);
export const TextAreaField = withField<'textarea'>(TextArea);
