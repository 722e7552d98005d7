import { Button, Inline, Stack, styled, useCatalog, useToast } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { Badge } from 'shared-ui/data';
import { serverMessage, WHAT_TO_BRING } from 'shared-api';
import { DOCUMENT_KINDS, type DocumentKind, type StaffMark } from 'shared-api/documents';
import { useDownloadDocumentMutation, useMarkDocumentMutation, useStaffDocumentsQuery } from '../api/visitDayApi';
import { visitDayCatalog } from '../i18n';
import { formatInstant, formatInstantRange } from '../../../lib/format';

/** The staff's name of a document kind (the spec's what-to-bring list, in DOCUMENT_KINDS' order). */
export const kindName = (kind: DocumentKind): string => WHAT_TO_BRING[DOCUMENT_KINDS.indexOf(kind)];

const sizeText = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 1rem;
  li {
    display: grid;
    gap: 0.375rem;
    overflow-wrap: anywhere;
  }
`;

const Muted = styled.span`
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

export type DocumentsTarget = { reference: string; position: number; name: string; start: string; end: string };

/**
 * A child's documents at the visit: each kind's state, the uploaded file to download (the server sends it as an
 * attachment and audits it), and the staff's mark (Checked, Seen on paper, or cleared).
 */
export function ChildDocumentsDialog({ target, onClose }: { target: DocumentsTarget | null; onClose: () => void }) {
  const { t } = useCatalog(visitDayCatalog);
  const toast = useToast();
  const { data, isLoading, isError, refetch } = useStaffDocumentsQuery(target?.reference ?? '', { skip: target === null });
  const [markDocument, { isLoading: marking }] = useMarkDocumentMutation();
  const [download] = useDownloadDocumentMutation();
  const child = data?.reference === target?.reference ? data?.children.find((c) => c.position === target?.position) : undefined;

  const setMark = async (kind: DocumentKind, mark: StaffMark | null) => {
    if (!target) return;
    const result = await markDocument({ reference: target.reference, position: target.position, kind, mark });
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('markDocumentFailed'));
    else toast.success(mark ? t('markSaved', { kind: kindName(kind), mark: mark === 'checked' ? t('markChecked') : t('markSeenOnPaper') }) : t('markCleared', { kind: kindName(kind) }));
  };
  const save = async (id: string, name: string) => {
    const result = await download({ id, name });
    if ('error' in result) toast.error(serverMessage(result.error) ?? t('downloadFailed'));
  };

  return (
    <Dialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('documentsTitle', { name: target?.name ?? '' })}
      description={target ? t('documentsFor', { reference: target.reference, time: formatInstantRange(target.start, target.end) }) : undefined}
      size="md"
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t('documentsClose')}
        </Button>
      }
    >
      {isError ? (
        <Stack>
          <p role="alert">{t('documentsFailed')}</p>
          <Button variant="secondary" onClick={refetch}>
            {t('retry')}
          </Button>
        </Stack>
      ) : isLoading || !child ? (
        <p role="status">{t('documentsLoading')}</p>
      ) : (
        <Items>
          {child.items.map((item) => {
            const name = kindName(item.kind);
            return (
              <li key={item.kind}>
                <Inline>
                  <strong>{name}</strong>
                  <Badge tone={item.state === 'uploaded' ? 'success' : item.state === 'toBring' ? 'warning' : 'neutral'}>
                    {item.state === 'uploaded' ? t('stateUploaded') : item.state === 'toBring' ? t('stateToBring') : t('stateNotNeeded')}
                  </Badge>
                </Inline>
                {item.file && (
                  <>
                    <Button variant="secondary" size="sm" onClick={() => save(item.file!.id, item.file!.name)}>
                      {t('download', { name: item.file.name, size: sizeText(item.file.sizeBytes) })}
                    </Button>
                    <Muted>{t('uploadedAt', { time: formatInstant(item.file.uploadedAt) })}</Muted>
                  </>
                )}
                {item.state !== 'notNeeded' && (
                  <div role="group" aria-label={t('markLegend', { kind: name })}>
                    <Inline>
                      {item.file && (
                        <Button size="sm" variant={item.staffMark === 'checked' ? 'primary' : 'secondary'} aria-pressed={item.staffMark === 'checked'} disabled={marking} onClick={() => setMark(item.kind, 'checked')}>
                          {t('markChecked')}
                        </Button>
                      )}
                      <Button size="sm" variant={item.staffMark === 'seenOnPaper' ? 'primary' : 'secondary'} aria-pressed={item.staffMark === 'seenOnPaper'} disabled={marking} onClick={() => setMark(item.kind, 'seenOnPaper')}>
                        {t('markSeenOnPaper')}
                      </Button>
                      {item.staffMark && (
                        <Button size="sm" variant="ghost" disabled={marking} onClick={() => setMark(item.kind, null)}>
                          {t('markClear')}
                        </Button>
                      )}
                    </Inline>
                  </div>
                )}
                {item.staffMark && item.markedBy && item.markedAt && (
                  <Muted>{t('markedBy', { mark: item.staffMark === 'checked' ? t('markChecked') : t('markSeenOnPaper'), by: item.markedBy, time: formatInstant(item.markedAt) })}</Muted>
                )}
              </li>
            );
          })}
        </Items>
      )}
    </Dialog>
  );
}
