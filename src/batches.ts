/** Keys per store command: enough to save round trips, few enough not to block Redis or pass SQLite's limit. */
export const KEY_BATCH = 500;

/** The items in groups of at most `size`, in order, read as the groups are taken. */
export function* batches(items: Iterable<string>, size = KEY_BATCH): Generator<string[]> {
  let batch: string[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
