export { CreateSlotsDialog } from './components/CreateSlotsDialog';
