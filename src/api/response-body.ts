// A response that grows without end (a misbehaving proxy, a hostile server) must not take the memory with it.

export class ResponseTooLarge extends Error {}

/** A response body, read only up to `limit` bytes: a larger one is abandoned (and its connection with it). */
export async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown },
  limit: number,
  declared: string | string[] | undefined,
): Promise<string> {
  const tooLarge = () => new ResponseTooLarge(`over ${limit} bytes`);
  if (Number(declared) > limit) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
