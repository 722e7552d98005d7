export { CreateSlotsDialog, CreateSlotsText } from './components/CreateSlotsDialog';
