// Text that must wrap well, for pages of both sides. Like shared-ui/forms, carried by the bundle that uses it, on top of
// the shared 'shared-ui' core.
export { Email } from './Email';
