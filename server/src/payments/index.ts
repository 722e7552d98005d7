// server/src/payments's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { loadPaymentsConfig, type PaymentsConfig } from './config';
export { sandboxGatewayRoutes } from './gateways/sandbox-routes';
export { holdsPaymentKey, paymentKeyHeaders } from './key';
export { paymentServicesPlugin } from './plugin';
export { paymentRoutes } from './routes';
export { slotBookingRoutes } from './slot-booking-routes';
export { mailInputOf, paidAmountOf, visitWhatsAppOf, type Log } from './state';
export { OPEN_STATUSES, PAYMENT_STATUSES } from './statuses';
export { paymentChildren, payments, type PaymentChildRow, type PaymentRow } from './tables';
export { bookedChildOf, bookedChildrenAt, childBookings, childrenOf, mailChildrenOf, ownSeatOf, recordSeats, seatsOf, stillBookedSen, type ChildSeat } from './children';
export { childRefundKeySql } from './refunds';
export { MANAGE_GUESS_LIMIT, paymentForToken } from './manage-token';
