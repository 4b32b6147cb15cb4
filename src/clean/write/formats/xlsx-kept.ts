// A workbook written from a workbook: every part kept but the sheet read, which is the cleaned sheet, its styles
// added after the workbook's own. calcChain is left out: the sheet holds values, and Excel makes the chain again.

import type { PassThrough, Writable } from 'node:stream';
import type { WorkbookParts } from '../../scan/input/layout.js';
import { relsOf, WorkbookPackage } from '../../scan/input/workbook/package.js';
import { type SheetPart, type StyleBase, type StyleTable, ZipOutput } from './xlsx-package.js';

const SECTIONS = { numFmts: 'numFmt', fonts: 'font', cellXfs: 'xf' } as const;

export class KeptPackage extends ZipOutput {
  private constructor(
    out: Writable,
    private readonly pkg: WorkbookPackage,
    private readonly parts: WorkbookParts,
    private readonly styles: string,
    readonly base: StyleBase,
  ) {
    super(out);
  }

  /** Undefined where the workbook has no styles part to add to: the sheet is then written as a workbook of its own. */
  static async open(parts: WorkbookParts, out: Writable, displayName: string): Promise<KeptPackage | undefined> {
    if (parts.styles === undefined) return undefined;
    const pkg = await WorkbookPackage.open(parts.file, displayName);
    try {
      const styles = await pkg.text(parts.styles);
      return new KeptPackage(out, pkg, parts, styles, styleBase(styles));
    } catch (error) {
      pkg.close();
      throw error;
    }
  }

  sheet(): PassThrough {
    return this.sheetAt(this.parts.sheet);
  }

  async finish(_sheets: readonly SheetPart[], styles: StyleTable): Promise<void> {
    try {
      const calcChain = this.pkg.parts().find((p) => /(^|\/)calcChain\.xml$/i.test(p));
      for (const path of this.pkg.parts()) {
        const same = (other: string | undefined) => other !== undefined && path.toLowerCase() === other.toLowerCase();
        if (same(this.parts.sheet) || same(calcChain)) continue;
        if (same(this.parts.styles)) this.add(path, merged(this.styles, styles, this.base));
        else if (same('[Content_Types].xml') || same(relsOf(this.parts.workbook)))
          this.add(path, withoutCalcChain(await this.pkg.text(path)));
        else this.zip.addReadStream(await this.pkg.stream(path), path);
      }
      await this.end();
    } finally {
      this.pkg.close();
    }
  }
}

function styleBase(xml: string): StyleBase {
  const count = (section: keyof typeof SECTIONS) => {
    const body = sectionOf(xml, section)?.body ?? '';
    return [...body.matchAll(new RegExp(`<(?:\\w+:)?${SECTIONS[section]}[\\s/>]`, 'g'))].length;
  };
  const ids = [...(sectionOf(xml, 'numFmts')?.body ?? '').matchAll(/numFmtId="(\d+)"/g)].map((m) => Number(m[1]));
  return { xfs: count('cellXfs'), fonts: count('fonts'), firstCustomId: Math.max(163, ...ids) + 1 };
}

function merged(xml: string, styles: StyleTable, base: StyleBase): string {
  const { numFmts, font, xfs } = styles.elements(base.fonts);
  let out = append(xml, 'cellXfs', xfs.slice(1));
  out = append(out, 'fonts', [font]);
  if (numFmts.length === 0) return out;
  if (sectionOf(out, 'numFmts')) return append(out, 'numFmts', numFmts);
  // None yet: the section goes first in the style sheet, as the schema orders them.
  return out.replace(/<((?:\w+:)?)styleSheet\b[^>]*>/, (open, prefix: string) => {
    const tag = `${prefix}numFmts`;
    return `${open}<${tag} count="${numFmts.length}">${numFmts.map((e) => withPrefix(e, prefix)).join('')}</${tag}>`;
  });
}

function append(xml: string, section: keyof typeof SECTIONS, elements: string[]): string {
  const found = sectionOf(xml, section);
  if (!found || elements.length === 0) return xml;
  const added = elements.map((e) => withPrefix(e, found.prefix)).join('');
  const total =
    [...found.body.matchAll(new RegExp(`<(?:\\w+:)?${SECTIONS[section]}[\\s/>]`, 'g'))].length + elements.length;
  const open = found.open.replace(/\bcount="\d+"/, `count="${total}"`);
  return (
    xml.slice(0, found.at) + open + found.body + added + xml.slice(found.at + found.open.length + found.body.length)
  );
}

function sectionOf(xml: string, name: string): { at: number; open: string; body: string; prefix: string } | undefined {
  const match = new RegExp(`<((?:\\w+:)?)${name}\\b[^>]*>`).exec(xml);
  if (!match) return undefined;
  const close = xml.indexOf(`</${match[1]}${name}>`, match.index);
  if (close < 0) return undefined;
  const at = match.index;
  return { at, open: match[0], body: xml.slice(at + match[0].length, close), prefix: match[1]! };
}

const withPrefix = (element: string, prefix: string) =>
  prefix ? element.replace(/<(\/?)(\w)/g, `<$1${prefix}$2`) : element;

function withoutCalcChain(xml: string): string {
  return xml.replace(/<(?:\w+:)?(?:Override|Relationship)\b[^>]*calcChain[^>]*\/>/gi, '');
}
