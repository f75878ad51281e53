import { constants } from 'node:buffer';
import { inflateRawSync } from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { InputError } from '../errors.js';
import { describeBytes, MAX_ARCHIVE_BYTES, MAX_ARCHIVE_ENTRIES, MAX_COMPRESSION_RATIO, RATIO_FREE_ENTRY_BYTES } from '../limits.js';

/*
 * Reading a zip archive's entries by name (an Inspect `.eval` log). Entries are stored, deflated
 * (method 8, older Inspect versions) or zstd-compressed (method 93, newer ones); Node 20's zlib has
 * no zstd, so fzstd decodes it. The central directory is the truth: when a name appears twice the
 * last entry wins (Inspect appends a requeued sample's new record under the same name), and bytes it
 * no longer lists (an edited header's old copy) are never read.
 */

const STORED = 0;
const DEFLATED = 8;
const ZSTD = 93;

export interface ZipArchive {
  /** Every entry name, in central-directory order (each name once). */
  names: string[];
  has(name: string): boolean;
  /** An entry's text (UTF-8). */
  text(name: string): Promise<string>;
  close(): void;
}

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.delete(entry.fileName); // the last entry of a name is the one read, at its place in the directory
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

async function rawBytes(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry, { decodeFileData: false });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

class LargerThanSaid extends Error {}

/** zstd data decoded a chunk at a time, stopping as soon as it outgrows the size the archive says. */
function zstdDecompressed(raw: Buffer, size: number): Buffer {
  const chunks: Buffer[] = [];
  let length = 0;
  const decoder = new ZstdDecompress((chunk) => {
    length += chunk.length;
    if (length > size) throw new LargerThanSaid();
    chunks.push(Buffer.from(chunk)); // a copy: the decoder reuses its window
  });
  decoder.push(raw, true);
  return Buffer.concat(chunks);
}

/**
 * An entry's bytes, decompressed. Never more than the size the central directory gives: an entry
 * whose data says otherwise (a zip bomb) stops there rather than filling the memory.
 */
function decompressed(raw: Buffer, entry: Entry, where: string): Buffer {
  const size = entry.uncompressedSize;
  try {
    switch (entry.compressionMethod) {
      case STORED:
        return raw;
      case DEFLATED:
        return inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
      case ZSTD:
        return zstdDecompressed(raw, size);
    }
  } catch (error) {
    const tooLarge = error instanceof LargerThanSaid || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    throw new InputError(
      where,
      undefined,
      tooLarge ? `decompresses to more than the ${size} bytes the archive says` : `cannot be read: ${(error as Error).message}`,
    );
  }
  throw new InputError(where, undefined, `compression method ${entry.compressionMethod} is not supported (stored, deflate and zstd are)`);
}

/**
 * What an archive's central directory says it holds, held to the bounds (src/limits.ts) before anything
 * is decompressed: a small archive must not cost gigabytes or minutes.
 */
function checkSizes(file: string, entries: Iterable<Entry>): void {
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / entry.compressedSize;
    if (entry.uncompressedSize > RATIO_FREE_ENTRY_BYTES && !(ratio <= MAX_COMPRESSION_RATIO)) {
      throw new InputError(
        `${file} (${entry.fileName})`,
        undefined,
        `decompresses to ${entry.uncompressedSize} bytes from ${entry.compressedSize}: more than the ${MAX_COMPRESSION_RATIO} times its size an entry may (a zip bomb?)`,
      );
    }
  }
  if (total > MAX_ARCHIVE_BYTES) {
    throw new InputError(
      file,
      undefined,
      `decompresses to ${total} bytes in all: more than the ${describeBytes(MAX_ARCHIVE_BYTES)} an archive may`,
    );
  }
}

/** Opens a zip archive; a file that is not one, or one over the bounds on archives, is bad input naming it. */
export async function openZip(file: string): Promise<ZipArchive> {
  let zip: ZipFile;
  let entries: Map<string, Entry>;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === 'ENOENT' ? 'no such file' : `not a readable zip archive: ${(error as Error).message}`);
  }
  try {
    if (zip.entryCount > MAX_ARCHIVE_ENTRIES) {
      throw new InputError(file, undefined, `${zip.entryCount} entries: more than the ${MAX_ARCHIVE_ENTRIES} an archive may hold`);
    }
    entries = await listEntries(zip);
    checkSizes(file, entries.values());
  } catch (error) {
    zip.close();
    if (error instanceof InputError) throw error;
    throw new InputError(file, undefined, `not a readable zip archive: ${(error as Error).message}`);
  }
  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    async text(name) {
      const entry = entries.get(name);
      const where = `${file} (${name})`;
      if (!entry) throw new InputError(where, undefined, 'no such entry in the archive');
      if (Math.max(entry.uncompressedSize, entry.compressedSize) > constants.MAX_STRING_LENGTH) {
        throw new InputError(where, undefined, `${entry.uncompressedSize} bytes: too large to read as text`);
      }
      let raw: Buffer;
      try {
        raw = await rawBytes(zip, entry);
      } catch (error) {
        throw new InputError(where, undefined, `cannot be read: ${(error as Error).message}`);
      }
      const bytes = decompressed(raw, entry, where);
      if (bytes.length !== entry.uncompressedSize) {
        throw new InputError(where, undefined, `${bytes.length} bytes after decompression, the archive says ${entry.uncompressedSize}`);
      }
      return bytes.toString('utf8');
    },
    close: () => zip.close(),
  };
}
