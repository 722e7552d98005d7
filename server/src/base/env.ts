// Reading environment variables the same way everywhere: empty means unset, bad values stop the start.

/** `0`, `false`, `no`, `off` are false; anything else set is true. */
export const flag = (value: string | undefined, fallback: boolean): boolean =>
  value === undefined || value === '' ? fallback : !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());

/** A whole number of at least 0, or a clear error naming the variable. */
export function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}
