// server/src/whatsapp's public surface (issue 38): the outbox, its queue, the webhook and the config.
export { FAKE_WHATSAPP, FAKE_WHATSAPP_PREFIX, loadWhatsAppConfig, type WhatsAppConfig } from './config';
export { createWhatsAppApi, RETRY_CODES } from './cloud/api';
export { FakeWhatsAppCloud, fakeWhatsAppRoutes, listenFakeWhatsApp, postWebhookTo, type FakeInbound, type FakeOutbound } from './cloud/fake';
export { buildWhatsAppBody, REPLY_PAYLOADS, REPLY_TEXT_KIND, replyText, TEMPLATES, TEMPLATE_LANGUAGES, type ReplyAnswer, type TemplateKind, type WhatsAppKind } from './cloud/templates';
export { enqueueWhatsApp, sendAfterFor, stopNumber, toE164, withdrawPaymentMessages, STOPPED_BY_PARENT, TOO_LATE, WITHDRAWN, type BodyBuilder, type EnqueueWhatsApp, type WhatsAppApi, type WhatsAppSendResult } from './outbox';
export { whatsappPlugin, type WhatsAppService } from './plugin';
export { signWebhookBody } from './signature';
export { whatsappMessages, whatsappEvents, whatsappReplies, whatsappStops, type WhatsAppMessageRow, type WhatsAppReplyRow } from './tables';
export type { ReplyHandler } from './webhook-routes';
export { enqueueConfirmationWhatsApp, enqueueOfferWhatsApp, enqueueReminderWhatsApp, type OptInColumns, type VisitWhatsApp } from './parent-messages';
