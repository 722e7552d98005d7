// server/src/mail's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { renderStaffPasswordReset } from './account-templates';
export { renderBreachNotice } from './breach-template';
export { loadMailConfig, type MailConfig } from './config';
export { escapeHtml, formatRM } from './format';
export { button, paragraph, parentMail, questions, type DetailRow, type RenderedMail } from './frame';
export { mailLanguage, type MailLanguage } from './i18n';
export { enqueueBookingMails, enqueueCancelMails, enqueueChildCancelMails, enqueueChildMoveMails, enqueueRefundMails, enqueueRescheduleMails, mailsForPayment, messageIdFor, summariseMail, type MailAddresses } from './outbox';
export { PaymentText, RefundReason, refundCauseText, type RefundCause } from './payment-texts';
export { renderVisitorReminder } from './reminder';
export { MailQueue, MAYBE_DELIVERED_NOTE } from './send-job';
export { mailOutbox } from './tables';
export { placeRows, visitorPart, type BookingMailInput, type MailChild } from './templates';
export { emlFileSender, smtpSender } from './transport';
