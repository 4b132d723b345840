import ipaddr from 'ipaddr.js';

/**
 * Which range an IP address belongs to, for deciding whether the service may connect to it on a
 * caller's behalf. Only `public` addresses are reachable unless the operator allows private sources.
 */
export type AddressRange =
  | 'public'
  | 'invalid'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cloud-metadata'
  | 'unique-local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean...
  '169.254.170.2', // AWS ECS task metadata
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (classic)
  'fd00:ec2::254', // AWS IMDS over IPv6
]);

const V4_RANGES: Record<string, AddressRange> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'cgnat',
  private: 'private',
  reserved: 'reserved',
  as112: 'reserved',
  amt: 'reserved',
  benchmarking: 'reserved',
};

/** Strips `[...]` around an IPv6 literal and a `%zone` suffix. */
function bare(ip: string): string {
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const pct = s.indexOf('%');
  return pct >= 0 ? s.slice(0, pct) : s;
}

function v4FromBytes(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

function classifyV4(addr: ipaddr.IPv4): AddressRange {
  if (METADATA_ADDRESSES.has(addr.toString())) return 'cloud-metadata';
  return V4_RANGES[addr.range()] ?? 'reserved';
}

/**
 * The range of `ip` (an IPv4 or IPv6 literal, as returned by dns.lookup). IPv6 forms that embed an
 * IPv4 address (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the
 * embedded address. Teredo, documentation and other special IPv6 blocks count as `reserved`.
 * Only dotted-quad IPv4 is accepted: shorthand forms such as `127.1` or `0x7f000001` are `invalid`.
 */
export function classifyAddress(ip: string): AddressRange {
  const s = bare(ip);
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return classifyV4(ipaddr.IPv4.parse(s));
  if (!ipaddr.IPv6.isValid(s)) return 'invalid';
  const v6 = ipaddr.IPv6.parse(s);
  if (METADATA_ADDRESSES.has(v6.toString())) return 'cloud-metadata';
  const bytes = v6.toByteArray();
  const range = v6.range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'unspecified':
      return 'unspecified';
    case 'loopback':
      return 'loopback';
    case 'linkLocal':
      return 'link-local';
    case 'uniqueLocal':
      return 'unique-local';
    case 'multicast':
      return 'multicast';
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return classifyV4(v4FromBytes(bytes.slice(12, 16)));
    case '6to4':
      return classifyV4(v4FromBytes(bytes.slice(2, 6)));
    default:
      break;
  }
  // IPv4-compatible ::a.b.c.d (deprecated, but some stacks still route it).
  if (bytes.slice(0, 12).every((b) => b === 0)) return classifyV4(v4FromBytes(bytes.slice(12, 16)));
  return 'reserved';
}

/**
 * True when the service may connect to `ip` for a caller's link. `allowPrivate` (the operator's
 * CUTROOM_ALLOW_PRIVATE_SOURCES) opens every range except cloud-metadata endpoints, which serve
 * credentials and never media, and unparsable input.
 */
export function isAllowedAddress(ip: string, allowPrivate: boolean): boolean {
  const range = classifyAddress(ip);
  if (range === 'invalid' || range === 'cloud-metadata') return false;
  return allowPrivate || range === 'public';
}
