import { IntTable } from './int-table.js';

const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const IN_PAGE = PAGE - 1;
/** A page codes its values in two bytes while it holds at most this many distinct ones, else holds them in four. */
const CODED_LIMIT = PAGE / 16;

/** A column of repeating positive numbers (0: none): each page keeps its own few values, two bytes an entry. */
export class CodedColumn {
  private readonly pages: Array<Uint16Array | Uint32Array> = [];
  private readonly values: Array<number[] | undefined> = [];
  private readonly codes: Array<IntTable | undefined> = [];
  private lastPage = -1;
  private lastValue = 0;
  private lastCode = 0;

  get(index: number): number {
    const page = index >>> PAGE_BITS;
    const entry = this.pages[page]?.[index & IN_PAGE] ?? 0;
    const values = this.values[page];
    return values === undefined || entry === 0 ? entry : (values[entry - 1] as number);
  }

  set(index: number, value: number): boolean {
    const page = index >>> PAGE_BITS;
    while (this.pages.length <= page) {
      this.pages.push(new Uint16Array(PAGE));
      this.values.push([]);
      this.codes.push(new IntTable());
    }
    const entries = this.pages[page] as Uint16Array | Uint32Array;
    const codes = this.codes[page];
    const at = index & IN_PAGE;
    const empty = entries[at] === 0;
    if (codes === undefined) {
      entries[at] = value;
      return empty;
    }
    if (this.lastPage === page && this.lastValue === value) {
      entries[at] = this.lastCode;
      return empty;
    }
    let code = codes.get(value);
    if (code === 0) {
      const values = this.values[page] as number[];
      if (values.length === CODED_LIMIT) {
        this.widen(page)[at] = value;
        return empty;
      }
      code = values.push(value);
      codes.set(value, code);
    }
    this.lastPage = page;
    this.lastValue = value;
    this.lastCode = code;
    entries[at] = code;
    return empty;
  }

  private widen(page: number): Uint32Array {
    const coded = this.pages[page] as Uint16Array;
    const values = this.values[page] as number[];
    const wide = new Uint32Array(PAGE);
    for (let i = 0; i < PAGE; i++) if (coded[i] !== 0) wide[i] = values[(coded[i] as number) - 1] as number;
    this.pages[page] = wide;
    this.values[page] = undefined;
    this.codes[page] = undefined;
    if (this.lastPage === page) this.lastPage = -1;
    return wide;
  }
}
