import { useState } from 'react';
import type { DocumentsView } from 'shared-api/documents';
import { styled, useCatalog } from 'shared-ui';
import { Choice } from 'shared-ui/forms';
import { Note } from '../../components/layout';
import { useKeepDocuments, useMarkRegistrationFormMutation } from '../api/documentsApi';
import { documentsCatalog } from '../i18n';
import { momentText, refusalText } from '../utils/words';
import { Part } from './layout';

const Done = styled.p`
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** The school's registration form: its link, and the parent's "I have filled it in" (staff see it with the visit). */
export function RegistrationForm({ token, view }: { token: string; view: DocumentsView }) {
  const words = useCatalog(documentsCatalog);
  const { t } = words;
  const [mark, marking] = useMarkRegistrationFormMutation();
  const keep = useKeepDocuments(token);
  const [problem, setProblem] = useState<string | null>(null);
  const { url, doneAt } = view.registrationForm;

  const change = async (done: boolean) => {
    setProblem(null);
    try {
      keep(await mark({ token, done }).unwrap());
    } catch (error) {
      setProblem(refusalText(error, view.limits, words, 'error.formFailed'));
    }
  };

  return (
    <Part aria-labelledby="manage-form-title">
      <h3 id="manage-form-title">{t('form.title')}</h3>
      <p>{t('form.text')}</p>
      <p>
        <a href={url} target="_blank" rel="noopener noreferrer">
          {t('form.link')}
        </a>
      </p>
      <Choice>
        {/* While the answer is on its way the box shows what was asked; a refusal puts it back. */}
        <input type="checkbox" checked={marking.isLoading && marking.originalArgs ? marking.originalArgs.done : doneAt !== null} disabled={!view.editable || marking.isLoading} onChange={(event) => void change(event.target.checked)} />
        {t('form.done')}
      </Choice>
      {doneAt && <Done>{t('form.doneAt', { moment: momentText(doneAt, words) })}</Done>}
      {problem && (
        <Note $tone="danger" role="alert">
          <p>{problem}</p>
        </Note>
      )}
    </Part>
  );
}
