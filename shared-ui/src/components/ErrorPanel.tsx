import styled from 'styled-components';
import { useCatalog } from '../i18n/useCatalog';
import { uiCatalog } from '../i18n/ui-catalog';
import { Button } from './Button';

const Panel = styled.div`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[3]};
  padding: ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  border-left-width: 4px;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.dangerSubtle};
  color: ${({ theme }) => theme.colors.text};
`;

const Title = styled.p`
  margin: 0;
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  color: ${({ theme }) => theme.colors.danger};
`;

const Message = styled.p`
  margin: 0;
`;

export type ErrorPanelProps = {
  title?: string;
  message: string;
  onRetry?: () => void;
  retryLabel?: string;
  className?: string;
};

/** An error box announced at once (role=alert), with an optional Retry button. */
export function ErrorPanel({ title, message, onRetry, retryLabel, className }: ErrorPanelProps) {
  const { t } = useCatalog(uiCatalog);
  return (
    <Panel role="alert" className={className}>
      {title && <Title>{title}</Title>}
      <Message>{message}</Message>
      {onRetry && (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {retryLabel ?? t('retry')}
        </Button>
      )}
    </Panel>
  );
}
