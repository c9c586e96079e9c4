/**
 * PR_RTF_COMPRESSED for test messages (MS-OXRTFCP): an "LZFu" stream made of literal runs only, ended
 * by the reference to the current write position that marks the end. Real Outlook output also uses
 * back-references; readers decode both the same way. The CRC field is left 0 (readers of test data do
 * not check it).
 */
const INITIAL_DICTIONARY_LENGTH = 207;
const LZFU = 0x75465a4c;

export function compressRtf(rtf: string): Uint8Array {
  const raw = Buffer.from(rtf, 'latin1');
  const body: number[] = [];
  let position = INITIAL_DICTIONARY_LENGTH;
  for (let start = 0; ; start += 8) {
    const run = raw.subarray(start, start + 8);
    if (run.length === 8) {
      body.push(0, ...run);
      position += 8;
      continue;
    }
    const end = ((position + run.length) % 4096) << 4;
    body.push(1 << run.length, ...run, end >> 8, end & 0xff);
    break;
  }
  const data = new Uint8Array(16 + body.length);
  const view = new DataView(data.buffer);
  view.setUint32(0, body.length + 12, true);
  view.setUint32(4, raw.length, true);
  view.setUint32(8, LZFU, true);
  data.set(body, 16);
  return data;
}
