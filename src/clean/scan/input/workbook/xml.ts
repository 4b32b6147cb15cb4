// A workbook part's XML, parsed as it streams (saxes) with a bound on what the parser can be made to hold.
import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { UsageError } from '../../../../errors.js';

/** Characters allowed between two `<`: without a bound, one huge cell would be held whole in memory. */
export const MARKUP_GAP = 2 << 20;

export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
  afterChunk?(): Promise<void> | undefined;
}

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** An attribute by local name (`r:id` and `id` alike), or undefined: for the few attributes in a namespace. */
export function attribute(attributes: Record<string, string>, name: string): string | undefined {
  const direct = attributes[name];
  if (direct !== undefined) return direct;
  for (const key in attributes) if (key.endsWith(`:${name}`)) return attributes[key];
  return undefined;
}

export async function parseXml(source: Readable, handlers: XmlHandlers, what: string, signal?: AbortSignal) {
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => handlers.open(localName(tag.name), (tag as SaxesTagPlain).attributes));
  if (handlers.close) parser.on('closetag', (tag) => handlers.close!(localName(tag.name)));
  if (handlers.text) parser.on('text', (text) => handlers.text!(text));
  let sinceMarkup = 0;
  source.setEncoding('utf8');
  try {
    for await (const chunk of source as AsyncIterable<string>) {
      signal?.throwIfAborted();
      // A run inside one chunk is shorter than the bound (chunks are far smaller): only runs across chunks count.
      const first = chunk.indexOf('<');
      const run = first < 0 ? sinceMarkup + chunk.length : sinceMarkup + first;
      if (run > MARKUP_GAP) throw new UsageError(`${what} holds more than 2 MB of text without markup`);
      sinceMarkup = first < 0 ? run : chunk.length - chunk.lastIndexOf('<');
      parser.write(chunk);
      const wait = handlers.afterChunk?.();
      if (wait) await wait;
    }
    parser.close();
  } catch (error) {
    throw error instanceof UsageError || signal?.aborted ? error : notXml(what, error);
  } finally {
    source.destroy();
  }
}

function notXml(what: string, error: unknown): UsageError {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new UsageError(`${what} is damaged (${reason})`, 'open the workbook in Excel and save it again');
}
