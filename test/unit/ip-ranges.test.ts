import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress } from '../../src/adapters/net/ip-ranges.js';

const cases: Array<[string, string]> = [
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.1', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.10', 'private'],
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'cloud-metadata'],
  ['169.254.170.2', 'cloud-metadata'],
  ['100.100.100.200', 'cloud-metadata'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  // IPv6
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fd00:ec2::254', 'cloud-metadata'],
  ['ff02::1', 'multicast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'cloud-metadata'],
  ['::ffff:8.8.8.8', 'public'],
  // IPv4-compatible ::/96 (deprecated): judged by the embedded address, hex and dotted forms alike;
  // an embedded public address is `reserved` (no real host answers there).
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['0:0:0:0:0:0:127.0.0.1', 'loopback'],
  ['[::7f00:1]', 'loopback'],
  ['::a9fe:a9fe', 'cloud-metadata'],
  ['::169.254.169.254', 'cloud-metadata'],
  ['::a9fe:aa02', 'cloud-metadata'],
  ['::a00:1', 'private'],
  ['::10.0.0.1', 'private'],
  ['::c0a8:101', 'private'],
  ['::a9fe:101', 'link-local'],
  ['::6440:1', 'cgnat'],
  ['::8.8.8.8', 'reserved'],
  ['::808:808', 'reserved'],
  ['::0.0.0.2', 'unspecified'],
  // the rest of ::/8 (not mapped, not NAT64) is reserved
  ['::1:0:0:1', 'reserved'],
  ['0:0:0:0:0:1::1', 'reserved'],
  ['ff::1', 'reserved'],
  ['1::7f00:1', 'reserved'],
  ['::ffff:0:7f00:1', 'loopback'],
  ['::ffff:0:8.8.8.8', 'public'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['2002:7f00:0001::1', 'loopback'],
  ['2002:0808:0808::1', 'public'],
  ['2001:db8::1', 'reserved'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
  // not addresses
  ['localhost', 'invalid'],
  ['127.1', 'invalid'],
  ['0x7f000001', 'invalid'],
  ['2130706433', 'invalid'],
  ['', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
];

describe('classifyAddress', () => {
  it.each(cases)('%s is %s', (ip, range) => {
    expect(classifyAddress(ip)).toBe(range);
  });
});

describe('isAllowedAddress', () => {
  it('allows only public addresses by default', () => {
    expect(isAllowedAddress('8.8.8.8', false)).toBe(true);
    expect(isAllowedAddress('2606:4700:4700::1111', false)).toBe(true);
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.0.1',
      '172.16.5.4',
      '169.254.0.1',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:192.168.0.1',
    ]) {
      expect(isAllowedAddress(ip, false), ip).toBe(false);
    }
  });

  it('allows private ranges when the operator says so, never metadata endpoints or garbage', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '192.168.0.1', '::1', 'fe80::1', 'fd12::1']) expect(isAllowedAddress(ip, true), ip).toBe(true);
    for (const ip of ['169.254.169.254', 'fd00:ec2::254', '::ffff:169.254.169.254', 'localhost', '127.1']) expect(isAllowedAddress(ip, true), ip).toBe(false);
  });

  it('judges IPv4-compatible addresses (::a.b.c.d) by the embedded address, in every spelling', () => {
    for (const ip of ['::7f00:1', '::127.0.0.1', '::a00:1', '::8.8.8.8', '::808:808', '::1:0:0:1', '::', '::1']) {
      expect(isAllowedAddress(ip, false), ip).toBe(false);
    }
    // Metadata endpoints stay refused even with private sources allowed.
    for (const ip of ['::a9fe:a9fe', '::169.254.169.254', '[::a9fe:a9fe]', '::a9fe:aa02']) expect(isAllowedAddress(ip, true), ip).toBe(false);
    for (const ip of ['::7f00:1', '::127.0.0.1', '::1', '::a00:1']) expect(isAllowedAddress(ip, true), ip).toBe(true);
  });

  it('takes only strict IPv6 literals', () => {
    for (const ip of ['::0x7f.0.0.1', '::ffff:0x7f.0.0.1', '::127.1', '::ffff:127.1', '::1.2.3.04']) expect(classifyAddress(ip), ip).toBe('invalid');
  });
});

describe('cloud-metadata endpoints (security audit 2, finding 5)', () => {
  // Azure wireserver, AWS EKS pod identity agent (IPv4 and IPv6), AWS IMDS over IPv6, AWS DNS (IPv4 and IPv6).
  const added = ['168.63.129.16', '169.254.170.23', 'fd00:ec2::23', '169.254.169.253', 'fd00:ec2::253'];

  it.each(added)('%s is cloud-metadata, refused even with private sources or webhooks allowed', (ip) => {
    expect(classifyAddress(ip)).toBe('cloud-metadata');
    expect(isAllowedAddress(ip, false)).toBe(false);
    expect(isAllowedAddress(ip, true)).toBe(false);
  });

  it('judges every IPv6 spelling that embeds one of these IPv4 addresses as cloud-metadata', () => {
    const spellings = (a: number, b: number, c: number, d: number) => {
      const hi = ((a << 8) | b).toString(16);
      const lo = ((c << 8) | d).toString(16);
      const dotted = `${a}.${b}.${c}.${d}`;
      return [
        `::ffff:${dotted}`, // IPv4-mapped
        `::ffff:${hi}:${lo}`,
        `[::ffff:${hi}:${lo}]`,
        `::ffff:0:${hi}:${lo}`, // SIIT (RFC 6145)
        `64:ff9b::${dotted}`, // NAT64
        `64:ff9b::${hi}:${lo}`,
        `2002:${hi}:${lo}::1`, // 6to4
        `::${dotted}`, // IPv4-compatible
        `::${hi}:${lo}`,
      ];
    };
    for (const v4 of ['168.63.129.16', '169.254.170.23', '169.254.169.253']) {
      const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
      for (const ip of spellings(a, b, c, d)) {
        expect(classifyAddress(ip), `${v4} as ${ip}`).toBe('cloud-metadata');
        expect(isAllowedAddress(ip, true), `${v4} as ${ip}`).toBe(false);
      }
    }
    expect(classifyAddress('fd00:ec2:0:0:0:0:0:23')).toBe('cloud-metadata');
    expect(classifyAddress('[fd00:0ec2::0023]')).toBe('cloud-metadata');
  });

  it('leaves the neighbours of these addresses in their own ranges', () => {
    expect(classifyAddress('168.63.129.15')).toBe('public');
    expect(classifyAddress('168.63.129.17')).toBe('public');
    expect(classifyAddress('169.254.170.24')).toBe('link-local');
    expect(classifyAddress('169.254.169.252')).toBe('link-local');
    expect(classifyAddress('fd00:ec2::24')).toBe('unique-local');
    expect(isAllowedAddress('169.254.170.24', true)).toBe(true);
  });

  it('refuses the decimal, octal and hex spellings of these addresses (not dotted quads)', () => {
    // 168.63.129.16 = 2822734096 = 0xa83f8110 = 0250.077.0201.020; a URL parser turns these into the
    // dotted quad before the check (safe-fetch.test.ts), the classifier itself never takes them.
    for (const ip of ['2822734096', '0xa83f8110', '0250.077.0201.020', '0xa8.0x3f.0x81.0x10', '168.63.33040']) {
      expect(classifyAddress(ip), ip).toBe('invalid');
      expect(isAllowedAddress(ip, true), ip).toBe(false);
    }
  });
});
