// A cell's text as it arrives in pieces, bounded, with OOXML's escapes of characters XML cannot hold (`_x000D_`).
import { UsageError } from '../../../../errors.js';

/** Characters a cell may hold when read: above Excel's own limit, as other writers go further. */
export const MAX_CELL_CHARS = 1 << 20;

export class CellText {
  private parts: string[] = [];
  private length = 0;
  collecting = false;

  constructor(private readonly what: string) {}

  reset(): void {
    this.parts = [];
    this.length = 0;
    this.collecting = false;
  }

  add(text: string): void {
    if (!this.collecting) return;
    this.length += text.length;
    if (this.length > MAX_CELL_CHARS) throw new UsageError(`${this.what} holds more than a million characters`);
    this.parts.push(text);
  }

  value(): string {
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.length = 0;
    return unescapeOoxml(text);
  }
}

/** `_x000D_` is a carriage return, `_x005F_` an underscore: how OOXML writes characters XML cannot hold. */
export function unescapeOoxml(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
