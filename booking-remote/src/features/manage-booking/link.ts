// The manage link on the success and thank-you pages: a second, light entry of the feature, so that those pages do not
// carry the manage page, the manage contract (zod) or react-hook-form (index.ts would bring them all).
export { ManageLinkNotice } from './components/ManageLinkNotice';
