import { crc32 } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const dosTime = 0;
const dosDate = ((2025 - 1980) << 9) | (1 << 5) | 1;

/**
 * The fields a file's local header (from byte 6) and its central directory entry (from byte 8) both carry,
 * in the same order: flags, method, time, date, CRC, both sizes (equal when stored), the name's length.
 */
function writeSharedFields(header: Buffer, at: number, crc: number, size: number, nameLength: number): void {
  header.writeUInt16LE(0x0800, at); // UTF-8 names
  header.writeUInt16LE(0, at + 2); // stored
  header.writeUInt16LE(dosTime, at + 4);
  header.writeUInt16LE(dosDate, at + 6);
  header.writeUInt32LE(crc, at + 8);
  header.writeUInt32LE(size, at + 12);
  header.writeUInt32LE(size, at + 16);
  header.writeUInt16LE(nameLength, at + 20);
}

/**
 * A stored (uncompressed) ZIP with fixed timestamps: the same files always give the same bytes,
 * so the listing's zipSHA256 stays stable across restarts and servers.
 */
export function buildZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    writeSharedFields(local, 6, crc, entry.data.length, name.length);
    locals.push(local, name, entry.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    writeSharedFields(central, 8, crc, entry.data.length, name.length);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
