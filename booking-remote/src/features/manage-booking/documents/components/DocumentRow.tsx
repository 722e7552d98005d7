import { useId, useRef, useState, type ChangeEvent } from 'react';
import { DOCUMENT_FILE_TYPES, type DocumentItem, type DocumentsView } from 'shared-api/documents';
import { Button, styled, useCatalog, useToast } from 'shared-ui';
import { Badge, type BadgeTone } from 'shared-ui/data';
import { ConfirmDialog } from 'shared-ui/forms';
import { contractCatalog } from '../../../../lib/contract-catalog';
import { Note } from '../../components/layout';
import { useKeepDocuments, useRemoveVisitDocumentMutation, useUploadVisitDocumentMutation } from '../api/documentsApi';
import { documentsCatalog } from '../i18n';
import { documentTextId, megabytes, momentText, refusalText, sizeText } from '../utils/words';

/** What the file picker offers: a phone offers its camera (a JPEG) beside its files. */
const ACCEPT = DOCUMENT_FILE_TYPES.join(',');

const STATE_TEXT = { uploaded: 'documents.uploaded', toBring: 'documents.toBring', notNeeded: 'documents.notNeeded' } as const;
const STATE_TONE: Record<DocumentItem['state'], BadgeTone> = { uploaded: 'success', toBring: 'warning', notNeeded: 'neutral' };

const Row = styled.li`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
  padding: ${({ theme }) => theme.space[3]} 0;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  min-width: 0;
`;

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space[2]};
`;

const Name = styled.span`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

// A phone's file names run long ("IMG_20261126_093012_HDR.jpg"): broken anywhere rather than widen the page.
const FileName = styled.span`
  display: block;
  overflow-wrap: anywhere;
`;

const Meta = styled.span`
  display: block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

// The row's buttons side by side, wrapping on a narrow phone; each keeps its 44 px tap target.
const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space[2]};
`;

type Props = {
  token: string;
  position: number;
  /** The child's name when the booking has several children (it then names each button's document's child). */
  child: string | null;
  item: DocumentItem;
  limits: DocumentsView['limits'];
  editable: boolean;
};

/** One document of a child: its state, the file uploaded (name, size, when), and upload, replace and remove. */
export function DocumentRow({ token, position, child, item, limits, editable }: Props) {
  const words = useCatalog(documentsCatalog);
  const { t } = words;
  const { t: sharedText } = useCatalog(contractCatalog);
  const toast = useToast();
  const nameId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [upload, uploading] = useUploadVisitDocumentMutation();
  const [remove, removing] = useRemoveVisitDocumentMutation();
  const keep = useKeepDocuments(token);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const document = sharedText(documentTextId(item.kind));
  const label = (id: 'upload' | 'replace' | 'remove') => (child ? t(`${id}.labelFor`, { document, child }) : t(`${id}.label`, { document }));
  const slot = { token, position, kind: item.kind };
  const busy = uploading.isLoading || removing.isLoading;

  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again (after a refusal) must fire a change again.
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    // Said before sending 10 MB over a phone's network; the server checks it again.
    if (file.size > limits.maxFileBytes) return setProblem(t('error.tooLarge', { maxMb: megabytes(limits.maxFileBytes) }));
    try {
      keep(await upload({ ...slot, file }).unwrap());
      toast.success(t('uploaded', { document }));
    } catch (error) {
      setProblem(refusalText(error, limits, words, 'error.uploadFailed'));
    }
  };

  const confirmRemove = async () => {
    setProblem(null);
    try {
      keep(await remove(slot).unwrap());
      toast.success(t('removed', { document }));
    } catch (error) {
      setProblem(refusalText(error, limits, words, 'error.removeFailed'));
    }
    setConfirming(false);
  };

  const canUpload = editable && item.state !== 'notNeeded';
  return (
    <Row aria-labelledby={nameId}>
      <Head>
        <Name id={nameId}>{document}</Name>
        <Badge tone={STATE_TONE[item.state]}>{sharedText(STATE_TEXT[item.state])}</Badge>
      </Head>
      {item.file && (
        <div>
          <FileName>{item.file.name}</FileName>
          <Meta>{t('fileMeta', { size: sizeText(item.file.sizeBytes, words), moment: momentText(item.file.uploadedAt, words) })}</Meta>
        </div>
      )}
      {uploading.isLoading && (
        <Meta role="status">{t('uploading', { document })}</Meta>
      )}
      {canUpload && (
        <Buttons>
          <input ref={input} type="file" accept={ACCEPT} hidden onChange={(event) => void picked(event)} />
          <Button variant={item.file ? 'secondary' : 'primary'} size="sm" aria-label={label(item.file ? 'replace' : 'upload')} loading={uploading.isLoading} disabled={busy} onClick={() => input.current?.click()}>
            {item.file ? t('replace') : t('upload')}
          </Button>
          {item.file && (
            <Button variant="ghost" size="sm" aria-label={label('remove')} disabled={busy} onClick={() => setConfirming(true)}>
              {t('remove')}
            </Button>
          )}
        </Buttons>
      )}
      {problem && (
        <Note $tone="danger" role="alert">
          <p>{problem}</p>
        </Note>
      )}
      {confirming && item.file && (
        <ConfirmDialog
          open
          onOpenChange={setConfirming}
          title={t('remove.title')}
          message={t('remove.message', { file: item.file.name })}
          confirmLabel={t('remove.confirm')}
          cancelLabel={t('remove.keep')}
          onConfirm={() => void confirmRemove()}
          busy={removing.isLoading}
        />
      )}
    </Row>
  );
}
