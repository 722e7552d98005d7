// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import { styled } from 'shared-ui';

/** Checkboxes or radio buttons under their question: a fieldset whose legend reads like a field's label. */
export const ChoiceGroup = styled.fieldset`
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: ${({ theme }) => theme.space[1]};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    color: ${({ theme }) => theme.colors.text};
  }
`;

/** A checkbox or a radio button with its words (the input inside the label): 44 px tall to tap. */
export const Choice = styled.label`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  min-height: ${({ theme }) => theme.tapTarget};
  cursor: pointer;
  input {
    flex: none;
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.brand};
  }
`;
