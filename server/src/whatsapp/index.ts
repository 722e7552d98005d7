// server/src/whatsapp's public surface (issue 38): the outbox, its queue, the webhook and the config.
export { FAKE_WHATSAPP, loadWhatsAppConfig, type WhatsAppConfig } from './config';
export { enqueueWhatsApp, sendAfterFor, toE164, type BodyBuilder, type EnqueueWhatsApp, type WhatsAppApi, type WhatsAppSendResult } from './outbox';
export { whatsappPlugin, type WhatsAppService } from './plugin';
export { signWebhookBody } from './signature';
export { whatsappMessages, whatsappEvents, whatsappReplies, whatsappStops, type WhatsAppMessageRow, type WhatsAppReplyRow } from './tables';
export type { ReplyHandler } from './webhook-routes';
