/**
 * The machinery under the record streams: read a byte stream in pieces of a fixed size, transform up
 * to `inFlight` pieces at once, hand the results over in order. Each piece is told whether it is the
 * last one; a full piece is told only once the next read has come back, so a last record is known
 * as such before anything of it goes out.
 */
import { type FixedSizeReader, fixedSizeReader } from './fixed-reader';

export interface Piece {
  /** The bytes read: `size` of them, fewer only for the last piece. Their buffer has `bufferBytes`. */
  bytes: Uint8Array<ArrayBuffer>;
  index: number;
  last: boolean;
}

export interface RecordPipeline {
  /** Bytes per piece. */
  size: number;
  /** Bytes of each read buffer (≥ size: room for what `work` writes after the piece). */
  bufferBytes: number;
  /** Pieces being transformed at once. */
  inFlight: number;
  /** Bytes of output the stream may queue before its reader takes them. */
  queueBytes: number;
  /** Runs before the first piece is read (reads a header, derives keys); what it returns goes out first. */
  begin(input: FixedSizeReader): Promise<Uint8Array | undefined>;
  /** Transforms one piece; must not keep or return the piece's buffer, which is read into again. */
  work(piece: Piece): Promise<Uint8Array>;
}

/**
 * Nothing is read until the reader pulls, so a slow reader holds the source back: about
 * `queueBytes` + (`inFlight` + 1) × `bufferBytes` are live at most. Cancelling the output cancels
 * the source; an error of either (or of `work`) ends the output with it, and the pieces after it
 * are dropped unseen.
 */
export function recordStream(
  source: ReadableStream<Uint8Array>,
  pipeline: RecordPipeline,
): ReadableStream<Uint8Array> {
  const { size, bufferBytes, inFlight, queueBytes } = pipeline;
  const input = fixedSizeReader(source, size);
  const spare: ArrayBuffer[] = [];
  let begun = false;
  let ended = false;
  let index = 0;
  // Reads run one after another (each needs the previous one's end); the work overlaps.
  let reading: Promise<unknown> = Promise.resolve();
  let lookahead: Promise<Uint8Array<ArrayBuffer>> | undefined;
  const running: Promise<Uint8Array | null>[] = [];

  const read = () => {
    const next = reading.then(() => input.read(spare.pop() ?? new ArrayBuffer(bufferBytes)));
    reading = next;
    return next;
  };

  const start = () => {
    const at = index++;
    const current = lookahead ?? read();
    const following = read();
    lookahead = following;
    const result = Promise.all([current, following]).then(async ([bytes, after]) => {
      // An empty piece after the first one: the previous piece was the last.
      if (bytes.length === 0 && at > 0) {
        spare.push(bytes.buffer);
        return null;
      }
      const last = bytes.length < size || after.length === 0;
      if (last) ended = true;
      const out = await pipeline.work({ bytes, index: at, last });
      spare.push(bytes.buffer);
      return out;
    });
    result.catch(() => {}); // awaited in order by pull; this only silences ones left after an error
    running.push(result);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!begun) {
            begun = true;
            const first = await pipeline.begin(input);
            if (first?.length) {
              controller.enqueue(first);
              return;
            }
          }
          // Loops past empty results: a pull must enqueue or close, or the reader would wait forever.
          for (;;) {
            while (!ended && running.length < inFlight) start();
            const out = await running.shift();
            if (!out) break;
            if (out.length > 0) {
              controller.enqueue(out);
              return;
            }
          }
          ended = true;
          // What still runs was started after the end and yields nothing.
          await Promise.all(running.splice(0));
          controller.close();
        } catch (error) {
          ended = true;
          running.splice(0);
          await input.cancel(error).catch(() => {});
          throw error;
        }
      },
      async cancel(reason) {
        ended = true;
        await input.cancel(reason);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: queueBytes }),
  );
}
