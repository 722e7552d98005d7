// server/src/whatsapp-replies' public surface (issue 38): what a parent's WhatsApp reply does.
export { whatsappRepliesPlugin } from './plugin';
export { handleReply, type ReplyDeps } from './replies';
