// Excel's dates are days since 1899-12-30 (or 1904-01-01); shown in ISO 8601 order, which spreadsheets read back.
import type { DateShape } from './styles.js';

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
/** Serial 0 of the 1904 system is serial 1462 of the 1900 one. */
export const DAYS_1900_TO_1904 = 1462;

/** Milliseconds since 1970 (UTC) of a serial date; undefined for Excel's 1900-02-29, a day that never was. */
export function serialToMs(serial: number, date1904: boolean): number | undefined {
  if (date1904) return EPOCH_1904 + Math.round(serial * DAY_MS);
  // Excel counts 1900 as a leap year (as Lotus 1-2-3 did): serials before its 29 February are one day off.
  if (serial >= 60 && serial < 61) return undefined;
  return EPOCH_1900 + Math.round((serial < 60 ? serial + 1 : serial) * DAY_MS);
}

export function msToSerial(ms: number): number {
  const serial = (ms - EPOCH_1900) / DAY_MS;
  return serial < 61 ? serial - 1 : serial;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function serialText(serial: number, shape: DateShape, date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0) return String(serial);
  if (shape === 'time' && (serial < 1 || serial >= 2)) return elapsedText(serial);
  const ms = serialToMs(serial, date1904);
  if (ms === undefined) return shape === 'date' ? '1900-02-29' : `1900-02-29 ${elapsedText(serial % 1)}`;
  const d = new Date(ms);
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${millis(d.getUTCMilliseconds())}`;
  return shape === 'date' ? day : shape === 'time' ? time : `${day} ${time}`;
}

function elapsedText(serial: number): string {
  const ms = Math.round(serial * DAY_MS);
  const hours = Math.floor(ms / 3_600_000);
  return `${pad(hours)}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${millis(ms % 1000)}`;
}

const millis = (ms: number) => (ms === 0 ? '' : `.${pad(ms, 3)}`);

/** A number as Excel's General format shows it, to 15 significant digits (`0.30000000000000004` is 0.3). */
export function numberText(value: number): string {
  const text = String(value);
  if (!Number.isFinite(value) || significantDigits(text) <= 15) return text;
  return String(Number(value.toPrecision(15)));
}

function significantDigits(text: string): number {
  const mantissa = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '');
  return mantissa.length;
}
