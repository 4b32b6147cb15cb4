const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const IN_PAGE = PAGE - 1;

/** A growable array of numbers in typed pages: growing copies nothing and leaves no unused half, as doubling would. */
export class Paged {
  private pages: Array<Uint16Array | Uint32Array | Float64Array> = [];

  /** 'f64' holds any number (such as an offset past 4 GiB). */
  constructor(readonly kind: 'u16' | 'u32' | 'f64') {}

  get(index: number): number {
    return this.pages[index >>> PAGE_BITS]?.[index & IN_PAGE] ?? 0;
  }

  set(index: number, value: number): void {
    const page = index >>> PAGE_BITS;
    while (this.pages.length <= page)
      this.pages.push(
        this.kind === 'u16'
          ? new Uint16Array(PAGE)
          : this.kind === 'u32'
            ? new Uint32Array(PAGE)
            : new Float64Array(PAGE),
      );
    (this.pages[page] as Uint16Array | Uint32Array | Float64Array)[index & IN_PAGE] = value;
  }
}
