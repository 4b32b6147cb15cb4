// The baseline for the dry-run benchmark: a plain csv-parse -> csv-stringify pass over a file, output discarded.
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

const file = process.argv[2];
await pipeline(
  createReadStream(file, { highWaterMark: 1 << 20 }),
  parse({ bom: true }),
  stringify(),
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  }),
);
