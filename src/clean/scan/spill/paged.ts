const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const IN_PAGE = PAGE - 1;

type Page = Uint32Array | Float64Array;

/** A growable array of numbers in typed pages: growing copies nothing and leaves no unused half, as doubling would. */
export class Paged {
  private pages: Page[] = [];

  /** Float64Array pages hold any number (such as an offset past 4 GiB). */
  constructor(private readonly Page: new (length: number) => Page) {}

  get(index: number): number {
    return this.pages[index >>> PAGE_BITS]?.[index & IN_PAGE] ?? 0;
  }

  set(index: number, value: number): void {
    const page = index >>> PAGE_BITS;
    while (this.pages.length <= page) this.pages.push(new this.Page(PAGE));
    this.pages[page]![index & IN_PAGE] = value;
  }
}
