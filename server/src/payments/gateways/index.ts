import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../base/db/connection';
import type { PaymentsConfig } from '../config';
import { lazySecret, sharedSecret } from '../../base/secrets';
import { ChipGateway } from './chip';
import { SandboxGateway } from './sandbox';
import type { PaymentGateway } from './types';

export * from './types';

/** The database name of the sandbox's signing key when SANDBOX_SECRET is not set: one key for every API replica. */
export const SANDBOX_SECRET_NAME = 'sandbox-signing-key';

/** The gateway PAYMENT_GATEWAY names (sandbox by default, so `npm start` needs no account). */
export function createGateway(config: PaymentsConfig, db: Db, log?: FastifyBaseLogger): PaymentGateway {
  if (config.gateway === 'chip') {
    return new ChipGateway({
      apiUrl: config.chip.apiUrl,
      brandId: config.chip.brandId,
      secretKey: config.chip.secretKey,
      publicKey: config.chip.publicKey,
      webhookPublicKey: config.chip.webhookPublicKey,
    });
  }
  return new SandboxGateway({
    db,
    secret: lazySecret(() => sharedSecret(db, SANDBOX_SECRET_NAME, config.sandboxSecret)),
    apiPublicUrl: () => config.apiPublicUrl,
    callbackDelayMs: config.sandboxCallbackDelayMs,
    dropCallbacks: config.sandboxCallbackDrop,
    log,
  });
}
