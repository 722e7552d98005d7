import { brand } from 'shared-api/contract';
import { escapeHtml as h } from './format';
import { button, page, type RenderedMail } from './frame';

/** A staff member's password reset link (single use, `minutes` long). */
export function renderStaffPasswordReset(m: { url: string; minutes: number }): RenderedMail {
  const subject = `Reset your ${brand.productName} staff password`;
  const lead = 'Someone (hopefully you) asked to reset the password of your staff account.';
  const validity = `The link works once, within ${m.minutes} minutes. Setting a new password logs your account out everywhere.`;
  const ignore = 'If you did not ask for this, ignore this email: your password stays as it is.';
  const text = [lead, '', `Set a new password: ${m.url}`, '', validity, ignore, '', brand.productName].join('\n');
  const html = page(
    subject,
    'Reset your password',
    `<p>${h(lead)}</p>
${button(m.url, 'Set a new password')}
<p>${h(validity)}</p>
<p>${h(ignore)}</p>`,
  );
  return { subject, text, html, ics: null };
}
