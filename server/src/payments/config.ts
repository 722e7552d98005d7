import { flag, intFrom } from '../base/env';
import { loadMailConfig, type MailConfig } from '../mail';

export type GatewayName = 'sandbox' | 'chip';

export type PaymentsConfig = {
  gateway: GatewayName;
  /** The booking site: the gateway sends the browser back to its /payment/success and /payment/failure pages. */
  publicSiteUrl: string;
  /** This API as the gateway and the browser reach it (checkout page, callback URL). */
  apiPublicUrl: string;
  /** HMAC secret of the sandbox's callbacks; undefined: generated once and kept in the database, shared by every replica. */
  sandboxSecret: string | undefined;
  sandboxCallbackDelayMs: number;
  sandboxCallbackDrop: boolean;
  chip: { apiUrl: string; brandId: string; secretKey: string; publicKey: string | undefined; webhookPublicKey?: string };
  reconcileIntervalMs: number;
} & MailConfig;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function loadPaymentsConfig(
  env: NodeJS.ProcessEnv,
  base: { port: number; dataDir: string; adminEmail: string; supportEmail: string; productName: string },
): PaymentsConfig {
  const gateway = (env.PAYMENT_GATEWAY || 'sandbox').trim().toLowerCase();
  if (gateway !== 'sandbox' && gateway !== 'chip') throw new Error(`PAYMENT_GATEWAY must be sandbox or chip, got "${gateway}"`);
  if (gateway === 'chip' && (!env.CHIP_BRAND_ID || !env.CHIP_SECRET_KEY))
    throw new Error('PAYMENT_GATEWAY=chip needs CHIP_BRAND_ID and CHIP_SECRET_KEY (and CHIP_PUBLIC_KEY, or it is fetched from CHIP).');
  return {
    gateway,
    publicSiteUrl: trimSlash(env.PUBLIC_SITE_URL || 'http://localhost:3000'),
    apiPublicUrl: trimSlash(env.API_PUBLIC_URL || `http://localhost:${base.port}`),
    sandboxSecret: env.SANDBOX_SECRET || undefined,
    sandboxCallbackDelayMs: intFrom(env.SANDBOX_CALLBACK_DELAY_MS, 0, 'SANDBOX_CALLBACK_DELAY_MS'),
    sandboxCallbackDrop: flag(env.SANDBOX_CALLBACK_DROP, false),
    chip: {
      apiUrl: trimSlash(env.CHIP_API_URL || 'https://gate.chip-in.asia/api/v1'),
      brandId: env.CHIP_BRAND_ID || '',
      secretKey: env.CHIP_SECRET_KEY || '',
      publicKey: env.CHIP_PUBLIC_KEY ? env.CHIP_PUBLIC_KEY.replace(/\\n/g, '\n') : undefined,
      webhookPublicKey: env.CHIP_WEBHOOK_PUBLIC_KEY ? env.CHIP_WEBHOOK_PUBLIC_KEY.replace(/\\n/g, '\n') : undefined,
    },
    reconcileIntervalMs: intFrom(env.RECONCILE_INTERVAL_MS, 60_000, 'RECONCILE_INTERVAL_MS'),
    ...loadMailConfig(env, base),
  };
}
