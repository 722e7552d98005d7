// Response headers every server of the product sends (the API and the bundle servers); not needed by any browser bundle.

/**
 * The browser features no page of the product uses (bundles and the API's own pages), all turned off for the page and
 * anything it embeds; the staff side's Copy buttons need the clipboard, so that stays as browsers default it.
 */
export const PERMISSIONS_POLICY =
  'accelerometer=(), autoplay=(), browsing-topics=(), camera=(), display-capture=(), encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), usb=(), xr-spatial-tracking=()';
