import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection';
import { resolveSandboxSecret, type PaymentsConfig } from '../payments/config';
import { ChipGateway } from './chip';
import { SandboxGateway } from './sandbox';
import type { PaymentGateway } from './types';

export * from './types';

/** The gateway PAYMENT_GATEWAY names (sandbox by default, so `npm start` needs no account). */
export function createGateway(config: PaymentsConfig, db: Db, log?: FastifyBaseLogger): PaymentGateway {
  if (config.gateway === 'chip') {
    return new ChipGateway({
      apiUrl: config.chip.apiUrl,
      brandId: config.chip.brandId,
      secretKey: config.chip.secretKey,
      publicKey: config.chip.publicKey,
    });
  }
  return new SandboxGateway({
    db,
    secret: resolveSandboxSecret(config),
    apiPublicUrl: () => config.apiPublicUrl,
    callbackDelayMs: config.sandboxCallbackDelayMs,
    dropCallbacks: config.sandboxCallbackDrop,
    log,
  });
}
