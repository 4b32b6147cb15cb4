// A binary list by its first bytes: a zip (a workbook), or OLE2 (an encrypted workbook or an .xls).
import { UsageError } from '../../../../errors.js';
import { fileChunks } from '../source.js';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export function isZip(sample: Buffer): boolean {
  return sample.subarray(0, 4).equals(ZIP);
}

export function isOle(sample: Buffer): boolean {
  return sample.subarray(0, 8).equals(OLE);
}

/** Office encrypts a workbook into an OLE2 file holding a stream of this name (UTF-16 in its directory). */
const ENCRYPTED = Buffer.from('EncryptedPackage', 'utf16le');

export async function oleError(file: string, displayName: string): Promise<UsageError> {
  if (await contains(file, ENCRYPTED)) {
    return new UsageError(
      `${displayName}: the workbook is encrypted (protected with a password to open)`,
      'open it in Excel and save a copy without the password (File > Info > Protect Workbook > Encrypt with Password: clear it), or save the sheet as "CSV UTF-8"',
    );
  }
  return new UsageError(
    `${displayName}: an Excel 97-2003 workbook (.xls) or another Office file, which mailclean does not read`,
    'open it in Excel or LibreOffice and save it as an Excel workbook (.xlsx) or as "CSV UTF-8"',
  );
}

async function contains(file: string, needle: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of fileChunks(file, 0)) {
    // A copy: the chunk's buffer is read into again.
    const window = Buffer.concat([tail, chunk]);
    if (window.includes(needle)) return true;
    tail = window.subarray(Math.max(0, window.length - needle.length + 1));
  }
  return false;
}
