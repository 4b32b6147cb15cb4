#!/usr/bin/env node
// Workbooks for benchmarks: `node bench/gen-xlsx.mjs list CSV XLSX` turns a generated CSV into the workbook Excel would
// save (one sheet, every text in the shared strings table, dates as date cells), and `node bench/gen-xlsx.mjs bomb
// KIND XLSX` writes a small file that inflates to 600 MB: one cell of 600 million characters (`cell`), or a gigabyte
// of whitespace between two cells (`space`). Written with yazl, apart from mailclean's own writer.
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import yazl from 'yazl';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const [kind, ...args] = process.argv.slice(2);

const zip = new yazl.ZipFile();
const add = (path, text) => zip.addBuffer(Buffer.from(text), path);
function frame(sharedStrings) {
  add(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
  );
  add(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  const sst = sharedStrings ? `<Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : '';
  add(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/>${sst}</Relationships>`,
  );
  add(
    'xl/styles.xml',
    `<?xml version="1.0"?><styleSheet xmlns="${MAIN}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="22" applyNumberFormat="1"/></cellXfs></styleSheet>`,
  );
  add(
    'xl/workbook.xml',
    `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
}

const xmlEscape = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

async function list(csvPath, xlsxPath) {
  const strings = new Map();
  const sheet = new PassThrough();
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml');
  const done = once(zip.outputStream.pipe(createWriteStream(xlsxPath)), 'close');
  sheet.write(`<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>`);
  let r = 0;
  for await (const record of createReadStream(csvPath).pipe(parse({ bom: true, relax_column_count: true }))) {
    r++;
    const cells = record.map((value, i) => {
      if (value === '') return '';
      const ref = `${String.fromCharCode(65 + i)}${r}`;
      const date = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(value);
      if (date && r > 1) {
        const ms = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
        return `<c r="${ref}" s="1"><v>${(ms - Date.UTC(1899, 11, 30)) / 86_400_000}</v></c>`;
      }
      let index = strings.get(value);
      if (index === undefined) strings.set(value, (index = strings.size));
      return `<c r="${ref}" t="s"><v>${index}</v></c>`;
    });
    if (!sheet.write(`<row r="${r}">${cells.join('')}</row>`)) await once(sheet, 'drain');
  }
  sheet.end('</sheetData></worksheet>');
  // Stored after the sheet, as Excel and exceljs store it.
  const sst = new PassThrough();
  zip.addReadStream(sst, 'xl/sharedStrings.xml');
  frame(true);
  zip.end();
  sst.write(`<?xml version="1.0"?><sst xmlns="${MAIN}" uniqueCount="${strings.size}">`);
  for (const value of strings.keys()) {
    if (!sst.write(`<si><t xml:space="preserve">${xmlEscape(value)}</t></si>`)) await once(sst, 'drain');
  }
  sst.end('</sst>');
  await done;
}

async function bomb(what, xlsxPath) {
  const SIZE = what === 'cell' ? 600_000_000 : 1_000_000_000;
  const fill = what === 'cell' ? 'a' : ' ';
  const chunk = fill.repeat(1 << 20);
  let left = SIZE;
  const body = Readable.from(
    (function* () {
      yield `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>email</t></is></c></row><row r="2">`;
      yield what === 'cell'
        ? '<c r="A2" t="inlineStr"><is><t>'
        : '<c r="A2" t="inlineStr"><is><t>x@example.com</t></is></c>';
      for (; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.slice(0, left);
      yield what === 'cell' ? '</t></is></c></row></sheetData></worksheet>' : '</row></sheetData></worksheet>';
    })(),
  );
  zip.addReadStream(body, 'xl/worksheets/sheet1.xml', { compressionLevel: 9 });
  frame(false);
  zip.end();
  await once(zip.outputStream.pipe(createWriteStream(xlsxPath)), 'close');
}

if (kind === 'list' && args.length === 2) await list(args[0], args[1]);
else if (kind === 'bomb' && (args[0] === 'cell' || args[0] === 'space') && args[1]) await bomb(args[0], args[1]);
else {
  console.error('usage: node bench/gen-xlsx.mjs list CSV XLSX | bomb cell|space XLSX');
  process.exit(2);
}
