import { Fragment } from 'react';

/**
 * An email address that wraps, when it must, after its @ or before a dot: never inside a word (a phone's line is
 * narrower than many addresses).
 */
export function Email({ address }: { address: string }) {
  // Break before each dot and after the @ (no look-behind in the pattern: older Safari cannot parse one).
  const parts = address.replace(/\./g, '\u0000.').replace(/@/g, '@\u0000').split('\u0000');
  return (
    <span>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
