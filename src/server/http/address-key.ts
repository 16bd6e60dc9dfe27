import net from 'node:net';

// Per-address limits count clients by the network a person controls. An IPv4 address is one
// subscriber's; an IPv6 subscriber is handed a whole /64 (RFC 6177 and every consumer network), so
// counting each IPv6 address apart would give one person 2^64 allowances. Every per-address limit of
// the site (logins, codes, puzzles, tool quotas, open request bodies) keys by this.

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function groupsOf(address: string): number[] | null {
  let text = address;
  // An IPv4 address written at the end (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is its last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The key a client is counted by: an IPv4 address as it is (also when written as an IPv4-mapped IPv6
 * address), an IPv6 address as its /64 network ("2001:db8:0:1::/64"). Anything else is kept as given.
 */
export function addressKey(ip: string): string {
  const address = ip
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return ip;
  const groups = groupsOf(address.toLowerCase());
  if (!groups) return ip;
  // ::ffff:a.b.c.d is an IPv4 client seen through a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [, , , , , , high = 0, low = 0] = groups;
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The address a request came from: the first X-Forwarded-For entry when the site is behind a proxy
 * that sets it (TRUST_PROXY), since anyone can send the header; otherwise the socket's address.
 */
export function clientAddressOf(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = forwardedFor?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return socketAddress || 'unknown';
}
