import net from 'node:net';
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

/**
 * Addresses that serve a cloud host's credentials, identity or configuration, never media: refused
 * always, even when the operator allows private sources or webhooks. Checked after normalisation, so
 * every spelling that embeds one of the IPv4 addresses (IPv4-mapped, NAT64, 6to4, IPv4-compatible)
 * is refused too; the URL parser turns decimal, octal and hex hosts into the dotted quad first.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean...
  '169.254.170.2', // AWS ECS task metadata
  '169.254.170.23', // AWS EKS Pod Identity agent (pod credentials)
  '169.254.169.253', // AWS VPC DNS resolver (answers the VPC's private names)
  '168.63.129.16', // Azure wireserver (goal state, extension settings; a public address today)
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (classic)
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::23', // AWS EKS Pod Identity agent over IPv6
  'fd00:ec2::253', // AWS VPC DNS resolver over IPv6
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
 * The 16 bytes of a strict IPv6 literal, or null. A dotted IPv4 tail (`::127.0.0.1`) is read as the
 * two hex groups it stands for: ipaddr.js would turn `::a.b.c.d` into `::ffff:a.b.c.d`, so the same
 * address would be judged differently in its dotted and hex spellings.
 */
function v6Bytes(s: string): number[] | null {
  if (!net.isIPv6(s) || !ipaddr.IPv6.isValid(s)) return null;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (!tail.includes('.')) return ipaddr.IPv6.parse(s).toByteArray();
  if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
  const [a, b, c, d] = ipaddr.IPv4.parse(tail).octets;
  const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  return ipaddr.IPv6.parse(`${s.slice(0, lastColon + 1)}${hex}`).toByteArray();
}

/**
 * An IPv4-compatible address `::a.b.c.d` (::/96, deprecated by RFC 4291; `::` and `::1` excepted):
 * judged as the embedded IPv4 address, so `::7f00:1` is loopback and `::a9fe:a9fe` cloud-metadata.
 * No real host answers at such an address, so an embedded public address counts as `reserved`.
 */
function classifyV4Compatible(bytes: number[]): AddressRange {
  const range = classifyV4(v4FromBytes(bytes.slice(12, 16)));
  return range === 'public' ? 'reserved' : range;
}

/**
 * The range of `ip` (an IPv4 or IPv6 literal, as returned by dns.lookup). IPv6 forms that embed an
 * IPv4 address (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the
 * embedded address (see classifyV4Compatible for ::/96); the rest of ::/8, Teredo, documentation and
 * other special IPv6 blocks count as `reserved`.
 * Only dotted-quad IPv4 is accepted: shorthand forms such as `127.1` or `0x7f000001` are `invalid`.
 */
export function classifyAddress(ip: string): AddressRange {
  const s = bare(ip);
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return classifyV4(ipaddr.IPv4.parse(s));
  const bytes = v6Bytes(s);
  if (!bytes) return 'invalid';
  const v6 = new ipaddr.IPv6(bytes);
  if (METADATA_ADDRESSES.has(v6.toString())) return 'cloud-metadata';
  // ::/96 first: ipaddr.js calls most of it `unicast`, and would read `::a.b.c.d` as mapped.
  if (bytes.slice(0, 12).every((b) => b === 0)) {
    const last = bytes.slice(12, 16);
    if (last.every((b) => b === 0)) return 'unspecified';
    if (last.slice(0, 3).every((b) => b === 0) && last[3] === 1) return 'loopback';
    return classifyV4Compatible(bytes);
  }
  switch (v6.range()) {
    case 'unicast':
      // ipaddr.js calls the rest of ::/8 unicast; it is reserved by IANA and nothing public lives there.
      return bytes[0] === 0 ? 'reserved' : 'public';
    case 'linkLocal':
      return 'link-local';
    case 'uniqueLocal':
      return 'unique-local';
    case 'multicast':
      return 'multicast';
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052': // NAT64 64:ff9b::/96
      return classifyV4(v4FromBytes(bytes.slice(12, 16)));
    case '6to4':
      return classifyV4(v4FromBytes(bytes.slice(2, 6)));
    default:
      return 'reserved';
  }
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
