import type { ChannelEntry } from '../../ports/channel-watcher.js';

/**
 * Atom and RSS feeds of uploads (pure): YouTube's `feeds/videos.xml?channel_id=…` (Atom: `<entry>` with
 * `<yt:videoId>` or `<id>`, `<link rel="alternate" href>`, `<title>`) and plain RSS (`<item>` with
 * `<guid>`, `<link>` or `<enclosure url>`, `<title>`). Entries keep the feed's order (newest first in
 * both shapes). Only entries with an http(s) link are answered. A small tolerant reader: no DTDs, no
 * entity expansion beyond the XML five and numeric references.
 */

export function isFeed(text: string): boolean {
  const head = text.slice(0, 4096).replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<(feed|rss|rdf:RDF)[\s>]/i.test(head);
}

function decode(s: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(s);
  if (cdata) return cdata[1].trim();
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => safeChar(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => safeChar(parseInt(d, 10)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

function safeChar(n: number): string {
  return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '';
}

function tag(block: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'i').exec(block);
  return m ? decode(m[1]) : undefined;
}

function attr(el: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(el);
  return m ? decode(m[2] ?? m[3] ?? '') : undefined;
}

function httpUrl(s: string | undefined): string | undefined {
  if (!s) return undefined;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

export function parseFeed(text: string): ChannelEntry[] {
  const out: ChannelEntry[] = [];
  const seen = new Set<string>();
  const push = (id: string | undefined, url: string | undefined, title: string | undefined) => {
    if (!url) return;
    const key = (id ?? url).slice(0, 512);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ id: key, url, title: (title ?? '').slice(0, 500) });
  };
  for (const m of text.matchAll(/<entry[\s>][\s\S]*?<\/entry>/gi)) {
    const block = m[0];
    const videoId = tag(block, 'yt:videoId');
    const links = [...block.matchAll(/<link\b[^>]*>/gi)].map((l) => l[0]);
    const alternate = links.find((l) => (attr(l, 'rel') ?? 'alternate') === 'alternate') ?? links[0];
    const url = httpUrl(
      videoId && /^[A-Za-z0-9_-]{11}$/.test(videoId) ? `https://www.youtube.com/watch?v=${videoId}` : alternate ? attr(alternate, 'href') : undefined,
    );
    push(videoId ? `yt:video:${videoId}` : tag(block, 'id'), url, tag(block, 'title'));
  }
  for (const m of text.matchAll(/<item[\s>][\s\S]*?<\/item>/gi)) {
    const block = m[0];
    const enclosure = /<enclosure\b[^>]*>/i.exec(block)?.[0];
    const url = httpUrl(enclosure ? attr(enclosure, 'url') : undefined) ?? httpUrl(tag(block, 'link'));
    push(tag(block, 'guid'), url, tag(block, 'title'));
  }
  return out;
}
