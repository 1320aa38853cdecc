/**
 * A loaded bundle's large parts kept on disk instead of in memory: reviews.json's bytes, the
 * lowercased texts the search confirms against, and the large files with their compressed copies
 * (in memory, they would be a third of the sidecar's at 100,000 reviews). One file per
 * bundle, in STATE_DIR, unlinked as soon as it is open: nothing else can open it by name, a new
 * dist/ cannot change it (each bundle has its own), and the disk space goes when the bundle does.
 * Reads are synchronous `pread`s, served from the page cache (about a microsecond each here).
 *
 * What is read back is checked before it is used: each region keeps the CRC-32 of every block it
 * was written with, and readers of single pieces (a review, a text) keep their own. A read that
 * does not match throws SpillError, and the bundle is loaded again from dist/ (BundleRef).
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { ensureDir } from "./ensure-dir.ts";

/** Where `Region.view` reads to. */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Blocks of a region checked as a whole when it is streamed or read whole. */
export const BLOCK = 256 * 1024;

export class SpillError extends Error {
  override name = "SpillError";
}

/** Closes a spill file once its bundle (and every answer still reading it) is gone. */
const closing = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

export class Spill {
  /** Bytes written so far: the next region's offset. */
  private size = 0;
  /** Without a file: the regions' bytes, held in memory (a read-only STATE_DIR). */
  private readonly held: Buffer[] = [];
  /** Called once when a read does not match what was written (BundleRef loads dist/ again). */
  onFault: (error: SpillError) => void = () => {};
  private faulted = false;

  private constructor(
    private readonly fd: number | undefined,
    /** Where the bytes are: the (unlinked) file's path, or "memory". */
    readonly where: string,
  ) {
    if (fd !== undefined) closing.register(this, fd);
  }

  /** A spill file in `dir` (made if missing), or one held in memory when `dir` is unset or unwritable. */
  static async open(dir: string | undefined): Promise<Spill> {
    if (dir === undefined) return new Spill(undefined, "memory");
    try {
      await ensureDir(dir);
      const path = join(dir, `.bundle-${process.pid}-${randomBytes(6).toString("hex")}`);
      const fd = openSync(path, "wx+", 0o600);
      unlinkSync(path);
      return new Spill(fd, path);
    } catch {
      return new Spill(undefined, "memory");
    }
  }

  /**
   * Write `parts` one after the other as a region, recording each block's CRC-32; its first
   * `hold` bytes are also kept in memory, and read from there.
   */
  write(parts: Buffer | readonly Buffer[], hold = 0): Region {
    const writer = this.writer();
    for (const part of Buffer.isBuffer(parts) ? [parts] : parts) writer.append(part);
    return writer.done(hold);
  }

  /**
   * A region written a part at a time, so that its parts need not all be held at once. Nothing
   * else may be written to the spill until `done`.
   */
  writer(): { append: (part: Buffer) => void; done: (hold?: number) => Region } {
    const at = this.size;
    let length = 0;
    const crcs: number[] = [];
    let crc = 0;
    let filled = 0;
    return {
      append: (part) => {
        if (this.size !== at + length) throw new SpillError("the bundle's spill was written to while a region was being written");
        if (this.fd !== undefined) {
          try {
            for (let done = 0; done < part.length;) done += writeSync(this.fd, part, done, part.length - done, at + length + done);
          } catch (error) {
            throw new SpillError(
              `cannot write the bundle's large parts to ${this.where} (STATE_DIR): ${(error as Error).message}; free some space there`,
            );
          }
        } else this.held.push(part);
        for (let i = 0; i < part.length;) {
          const take = Math.min(BLOCK - filled, part.length - i);
          crc = crc32(part.subarray(i, i + take), crc);
          filled += take;
          i += take;
          if (filled === BLOCK) {
            crcs.push(crc);
            crc = 0;
            filled = 0;
          }
        }
        length += part.length;
        this.size += part.length;
      },
      done: (hold = 0) => {
        if (filled) crcs.push(crc);
        const head = Buffer.allocUnsafe(Math.min(hold, length));
        if (head.length) this.readRaw(at, head.length, head);
        return new Region(this, at, length, Uint32Array.from(crcs), head);
      },
    };
  }

  /** Copy bytes [at, at + length) of the spill into `into` at `offset`, unchecked. */
  readRaw(at: number, length: number, into: Buffer, offset = 0): void {
    if (this.fd === undefined) {
      // The parts held, one after the other; a range may span several.
      let start = 0;
      for (const part of this.held) {
        if (length === 0) return;
        if (at < start + part.length) {
          const copied = part.copy(into, offset, at - start, Math.min(part.length, at - start + length));
          at += copied;
          offset += copied;
          length -= copied;
        }
        start += part.length;
      }
      if (length > 0) throw this.fault(`the bundle's parts end before byte ${at}`);
      return;
    }
    for (let done = 0; done < length;) {
      const got = readSync(this.fd, into, offset + done, length - done, at + done);
      if (got === 0) throw this.fault(`the bundle's spill file ended at byte ${at + done}, before the ${length} bytes asked for`);
      done += got;
    }
  }

  /** A read did not match what was written: say so once, and throw. */
  fault(message: string): SpillError {
    const error = new SpillError(message);
    if (!this.faulted) {
      this.faulted = true;
      this.onFault(error);
    }
    return error;
  }
}

/** Bytes written to a spill in one go, with their blocks' CRC-32s. */
export class Region {
  constructor(
    private readonly spill: Spill,
    private readonly at: number,
    readonly length: number,
    private readonly crcs: Uint32Array,
    /** The region's first bytes, held in memory. */
    private readonly head: Buffer,
  ) {}

  /** Bytes [from, from + length) of the region into `into` at `offset`, unchecked. */
  private readRaw(from: number, length: number, into: Buffer, offset = 0): void {
    if (from + length <= this.head.length) this.head.copy(into, offset, from, from + length);
    else this.spill.readRaw(this.at + from, length, into, offset);
  }

  /**
   * Bytes [from, from + length) of the region, valid until the next call: a view on the bytes
   * held in memory (`read` false), or read from the file into a buffer reused from one call to
   * the next (`read` true: the caller checks them). Reads are synchronous, so one buffer serves.
   */
  view(from: number, length: number): { bytes: Buffer; read: boolean } {
    if (from + length <= this.head.length) return { bytes: this.head.subarray(from, from + length), read: false };
    if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length));
    const bytes = scratch.subarray(0, length);
    this.spill.readRaw(this.at + from, length, bytes);
    return { bytes, read: true };
  }

  /** Throw unless `bytes` has the CRC-32 `crc` (`what` names them in the error). */
  check(bytes: Buffer, crc: number, what: string): Buffer {
    if (crc32(bytes) !== crc)
      throw this.spill.fault(`${what} read back from the bundle's spill (${this.spill.where}) does not match what was written`);
    return bytes;
  }

  /** Block `i` of the region, checked. */
  block(i: number): Buffer {
    const from = i * BLOCK;
    const bytes = Buffer.allocUnsafe(Math.min(BLOCK, this.length - from));
    this.readRaw(from, bytes.length, bytes);
    return this.check(bytes, this.crcs[i]!, `block ${i}`);
  }

  /** The whole region, checked. */
  readAll(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    for (let i = 0; i < this.crcs.length; i++) this.block(i).copy(out, i * BLOCK);
    return out;
  }

  /**
   * The region as a stream of checked blocks, read as the consumer asks for them (a Streamed body:
   * http/respond.ts). The first block is read and checked at once, so that a fault there fails
   * the request (503) before anything is sent; a later one cuts the response short.
   */
  open(): ReadableStream<Uint8Array> {
    let next: Buffer | undefined = this.crcs.length ? this.block(0) : undefined;
    let i = 1;
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          if (next) {
            controller.enqueue(next);
            next = undefined;
            return;
          }
          if (i >= this.crcs.length) return controller.close();
          try {
            controller.enqueue(this.block(i++));
          } catch (error) {
            controller.error(error);
          }
        },
      },
      { highWaterMark: 0 },
    );
  }
}
