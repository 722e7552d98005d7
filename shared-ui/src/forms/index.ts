// Forms and the dialogs that hold them. Not in the shared core: each bundle that shows a form carries this code (in
// its lazy chunks) and takes styled-components, the theme and the primitives from the shared 'shared-ui'.
export {
  Field,
  Input,
  Select,
  TextArea,
  Label,
  InputField,
  SelectField,
  TextAreaField,
  type FieldProps,
  type ControlFieldProps,
} from './Form';
export { Dialog, preloadDialog, type DialogProps, type DialogSize } from './Dialog';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { FormAlert, FormSuccess, FormOutcomeMessage, type FormOutcome } from './FormMessage';
export { Choice, ChoiceGroup } from './Choice';
