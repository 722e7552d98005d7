/** How many leading bits of an address name its network: per IPv4 address and per IPv6 address. */
export type NetworkBits = { v4: number; v6: number };

const masked = (value: number, width: number, keepBits: number): number =>
  keepBits >= width ? value : keepBits <= 0 ? 0 : value & (((1 << width) - 1) ^ ((1 << (width - keepBits)) - 1));

/**
 * The network an address belongs to, as a text key: an IPv4 address (also IPv4-mapped IPv6) by its first `bits.v4`
 * bits (the address itself at 32), an IPv6 address by its first `bits.v6`, e.g. '203.0.113.0/24', '2001:db8:1:200::/56'.
 */
export function networkOf(ip: string, bits: NetworkBits): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1] : ip.includes(':') ? null : ip;
  if (v4 !== null) {
    if (bits.v4 >= 32) return v4;
    const octets = v4.split('.').map((octet, i) => masked(Number(octet) & 255, 8, bits.v4 - 8 * i));
    return `${octets.join('.')}/${bits.v4}`;
  }
  const [head, tail] = ip.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right].map((group) => parseInt(group, 16));
  const kept = groups.slice(0, Math.ceil(bits.v6 / 16)).map((group, i) => masked(group, 16, bits.v6 - 16 * i).toString(16));
  return `${kept.join(':')}::/${bits.v6}`;
}

/**
 * The client's address as the login limits and guess limits count it: an IPv4 address as it is (also when IPv4-mapped), an IPv6 address
 * by its /64, since one IPv6 host is usually given a whole /64 to pick addresses from. Per address, not per wider
 * network: these limits refuse everyone on the key, so a wider one would lock out more innocent neighbours.
 */
export const clientNetwork = (ip: string): string => networkOf(ip, { v4: 32, v6: 64 });
