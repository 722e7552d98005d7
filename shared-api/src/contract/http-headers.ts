// Response headers every server of the product sends (the API and the bundle servers); not needed by any browser bundle.

/**
 * The browser features no page of the product uses (bundles and the API's own pages), all turned off for the page and
 * anything it embeds; the staff side's Copy buttons need the clipboard, so that stays as browsers default it.
 */
export const PERMISSIONS_POLICY =
  'accelerometer=(), autoplay=(), browsing-topics=(), camera=(), display-capture=(), encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), usb=(), xr-spatial-tracking=()';

/**
 * The headers every answer of every server of the product carries, whatever else each adds (its own
 * Content-Security-Policy, cache rules, framing): no MIME sniffing; no referrer (payment result URLs carry references,
 * and nothing needs one); none of the browser features above.
 */
export const COMMON_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': PERMISSIONS_POLICY,
} as const;
