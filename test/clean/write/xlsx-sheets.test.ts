// The workbook writer past a sheet's capacity (Excel's is 1,048,576 rows; 3 here): the rows go on in another sheet
// under the same header, each sheet with its own filter, and every part names them.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cellVerdict } from '../../../src/clean/verdict/verdict.js';
import { XlsxSink } from '../../../src/clean/write/formats/xlsx.js';
import { sheetCells, workbookParts } from '../../helpers/workbook.js';
import { open, put, readRecords, tempDir } from '../scan/input/helpers.js';

const temp = tempDir();
afterAll(() => temp.remove());

describe('XLSX output past a sheet of rows', () => {
  it('goes on in "NAME (2)", the header repeated, each sheet filtered and listed', async () => {
    const emails = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'];
    const layout = await open(put(temp.dir, 'list.csv', `email\n${emails.join('\n')}\n`));
    const path = join(temp.dir, 'out.xlsx');
    const stream = createWriteStream(path);
    const sink = new XlsxSink({ layout, extras: [], stream, escapeFormulas: false, warn: () => undefined }, 3);
    await sink.start();
    for await (const record of readRecords(layout, sink.reads)) await sink.row(record, cellVerdict('', 'syntax'), {});
    await sink.end();
    await new Promise((resolve) => stream.end(resolve));

    const parts = await workbookParts(path);
    const first = sheetCells(parts.get('xl/worksheets/sheet1.xml')!).map((row) => row[0]!.value);
    const second = sheetCells(parts.get('xl/worksheets/sheet2.xml')!).map((row) => row[0]!.value);
    expect(first).toEqual(['email', 'a@example.com', 'b@example.com']);
    expect(second).toEqual(['email', 'c@example.com', 'd@example.com']);
    expect(sheetCells(parts.get('xl/worksheets/sheet3.xml')!).map((row) => row[0]!.value)).toEqual([
      'email',
      'e@example.com',
    ]);
    expect(parts.get('xl/workbook.xml')).toMatch(
      /<sheet name="Cleaned" sheetId="1" r:id="rId1"\/><sheet name="Cleaned \(2\)" sheetId="2" r:id="rId2"\/><sheet name="Cleaned \(3\)"/,
    );
    expect(parts.get('xl/workbook.xml')).toContain(`localSheetId="1" hidden="1">'Cleaned (2)'!$A$1:$I$3</definedName>`);
    expect(parts.get('xl/worksheets/sheet2.xml')).toContain('<autoFilter ref="A1:I3"/>');
    expect(parts.get('[Content_Types].xml')).toContain('/xl/worksheets/sheet3.xml');
  });
});
