// The parent's manage page (issue 13), its own lazy chunk (routes.tsx), with the manage contract (zod) and the forms.
export { ManageBooking } from './components/ManageBooking';
