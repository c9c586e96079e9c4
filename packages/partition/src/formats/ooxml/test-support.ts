import { deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';

/**
 * Fixture builders for the office-format tests: hand-made zips whose headers can lie, zip bombs inside
 * otherwise valid packages, and the OLE wrapper Office puts around password-protected files.
 */

/** A one-entry zip written by hand, so tests can lie in its headers. */
export function handMadeZip(
  name: string,
  compressed: Uint8Array,
  declared: { uncompressed: number; method?: number; flags?: number },
): Uint8Array {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30 + nameBytes.length);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(declared.flags ?? 0, 6);
  local.writeUInt16LE(declared.method ?? 8, 8);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(declared.uncompressed >>> 0, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  nameBytes.copy(local, 30);
  const central = Buffer.alloc(46 + nameBytes.length);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(declared.flags ?? 0, 8);
  central.writeUInt16LE(declared.method ?? 8, 10);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(declared.uncompressed >>> 0, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  nameBytes.copy(central, 46);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(local.length + compressed.length, 16);
  return new Uint8Array(Buffer.concat([local, compressed, central, end]));
}

/**
 * A package whose `bombPath` entry declares `declaredBytes` but inflates to `actualBytes` of zeros. With a
 * small declared size this is the classic lying bomb; with a huge one, a bomb caught by its header.
 */
export function zipWithBomb(
  parts: Record<string, Uint8Array>,
  bombPath: string,
  declaredBytes: number,
  actualBytes: number,
): Uint8Array {
  const clean = zipSync(parts);
  const bomb = handMadeZip(bombPath, deflateRawSync(Buffer.alloc(actualBytes)), {
    uncompressed: declaredBytes,
  });
  return mergeZips(clean, bomb);
}

/** Concatenate the entries of two single-disk zips (both written without comments). */
function mergeZips(first: Uint8Array, second: Uint8Array): Uint8Array {
  const read = (zip: Uint8Array) => {
    const buffer = Buffer.from(zip);
    const end = buffer.length - 22;
    const count = buffer.readUInt16LE(end + 10);
    const centralSize = buffer.readUInt32LE(end + 12);
    const centralOffset = buffer.readUInt32LE(end + 16);
    return {
      body: buffer.subarray(0, centralOffset),
      central: buffer.subarray(centralOffset, centralOffset + centralSize),
      count,
    };
  };
  const a = read(first);
  const b = read(second);
  // Shift the second archive's local-header offsets past the first archive's bodies.
  const central = Buffer.from(b.central);
  for (let offset = 0; offset < central.length; ) {
    central.writeUInt32LE(central.readUInt32LE(offset + 42) + a.body.length, offset + 42);
    offset +=
      46 +
      central.readUInt16LE(offset + 28) +
      central.readUInt16LE(offset + 30) +
      central.readUInt16LE(offset + 32);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(a.count + b.count, 8);
  end.writeUInt16LE(a.count + b.count, 10);
  end.writeUInt32LE(a.central.length + central.length, 12);
  end.writeUInt32LE(a.body.length + b.body.length, 16);
  return new Uint8Array(Buffer.concat([a.body, b.body, a.central, central, end]));
}

/** What Office writes for a password-protected docx/xlsx/pptx: an OLE file with an EncryptedPackage stream. */
export function fakeEncryptedOffice(): Uint8Array {
  const header = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  const body = Buffer.alloc(2048);
  Buffer.from('EncryptionInfo', 'utf16le').copy(body, 512);
  Buffer.from('EncryptedPackage', 'utf16le').copy(body, 640);
  return new Uint8Array(Buffer.concat([header, body]));
}
