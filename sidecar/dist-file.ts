/**
 * A large file of the loaded dist/ (reviews.json, insights.json, their copies, the sitemap), served
 * from the file itself rather than from memory. It is opened once, when its bundle is loaded and
 * its bytes are checked against the manifest's hash, and read through that descriptor from then
 * on: the build swaps a new dist/ in with a rename, so the descriptor keeps reading the file that
 * was checked, whatever dist/ holds now. It is closed once nothing refers to it (its bundle and
 * every answer still being sent from it are gone).
 */
import { closeSync, fstatSync, openSync, read, readSync } from "node:fs";

/** The size of the pieces a file is streamed in. */
const PIECE = 64 * 1024;

/** A file that no longer has the bytes it was loaded with: it was cut short in place. */
export class DistFileError extends Error {
  override name = "DistFileError";
}

const closing = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

export class DistFile {
  private constructor(
    private readonly fd: number,
    /** The file's path, for messages. */
    readonly path: string,
    /** The file's length when it was opened. */
    readonly length: number,
  ) {
    closing.register(this, fd, this);
  }

  /** The file at `path`: its bytes when it is smaller than `largeBytes`, else the file kept open. */
  static load(path: string, largeBytes: number): Buffer | DistFile {
    const fd = openSync(path, "r");
    const file = new DistFile(fd, path, fstatSync(fd).size);
    if (file.length >= largeBytes) return file;
    const bytes = file.readAll();
    closing.unregister(file);
    closeSync(fd);
    return bytes;
  }

  /** Bytes [from, from + length) into `into` at `offset`. */
  read(from: number, length: number, into: Uint8Array, offset = 0): void {
    for (let done = 0; done < length;) {
      const got = readSync(this.fd, into, offset + done, length - done, from + done);
      if (got === 0) throw this.shortened();
      done += got;
    }
  }

  /** The whole file. */
  readAll(): Buffer {
    const bytes = Buffer.allocUnsafe(this.length);
    this.read(0, this.length, bytes);
    return bytes;
  }

  /** The file as a stream of pieces, each read when the consumer asks for it (a Streamed body: http/respond.ts). */
  open(): ReadableStream<Uint8Array> {
    let at = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) =>
          new Promise<void>((resolve) => {
            if (at >= this.length) return resolve(controller.close());
            const piece = Buffer.allocUnsafe(Math.min(PIECE, this.length - at));
            read(this.fd, piece, 0, piece.length, at, (error, got) => {
              if (error || got !== piece.length) controller.error(error ?? this.shortened());
              else {
                at += got;
                controller.enqueue(piece);
              }
              resolve();
            });
          }),
      },
      { highWaterMark: 0 },
    );
  }

  private shortened(): DistFileError {
    return new DistFileError(`${this.path} is shorter than when it was loaded: it was changed in place; rebuild, or load dist/ again`);
  }
}
