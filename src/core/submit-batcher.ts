// Submissions that arrive in the same turn of the event loop go to the store together:
// one native call scores their proofs of work in one bit-sliced pass and writes them in
// one RocksDB batch. Each caller still gets its own answer, only after that write.
// Under light load a batch holds one block and costs what a single call would.

/** Sends a batch of blocks; resolves to one outcome per block, in order. */
export type SendBatch<T> = (blocks: Buffer[]) => Promise<T[]>;

/** A batch is cut at this many blocks (the bit-sliced scorer takes 128 lanes a pass). */
const MAX_BATCH = 256;

export class SubmitBatcher<T> {
  private queue: { block: Buffer; resolve: (outcome: T) => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  constructor(private readonly send: SendBatch<T>) {}

  submit(block: Buffer): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ block, resolve, reject });
      if (this.queue.length >= MAX_BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let sent: Promise<T[]>;
    try {
      sent = this.send(batch.map((entry) => entry.block));
    } catch (err) {
      sent = Promise.reject(err);
    }
    sent.then(
      (outcomes) => {
        for (const [i, entry] of batch.entries()) entry.resolve(outcomes[i]);
      },
      (err) => {
        for (const entry of batch) entry.reject(err);
      },
    );
  }
}
