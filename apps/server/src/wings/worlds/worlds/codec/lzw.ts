// The world-data body format the VRChat world SDK reads (shared/compat/world-sdk.md, "Body: plain JSON or
// compressed"): LZW with fixed 14-bit codes, MSB first, no dictionary reset, end code then one padding code.

const CODE_BITS = 14;
const CODE_MASK = (1 << CODE_BITS) - 1;
const FIRST_ENTRY = 256;
/** The last dictionary entry; 16383 is reserved for the end code. */
const LAST_ENTRY = 16382;
const END_CODE = 16383;
/** The SDK's decoder drops the tail when it runs out of input mid-refill, so the encoder writes one more code. */
const PADDING_CODE = 0;

/** Packs 14-bit codes MSB first into a buffer sized for the worst case (one code per input byte). */
class CodeWriter {
  private readonly out: Uint8Array;
  private pos = 0;
  private acc = 0;
  private bits = 0;

  constructor(maxCodes: number) {
    this.out = new Uint8Array(Math.ceil((maxCodes * CODE_BITS) / 8));
  }

  write(code: number): void {
    // acc never holds more than 7 pending bits between calls, so 7 + 14 bits stay well inside 32.
    this.acc = (this.acc << CODE_BITS) | code;
    this.bits += CODE_BITS;
    while (this.bits >= 8) {
      this.bits -= 8;
      this.out[this.pos++] = (this.acc >>> this.bits) & 0xff;
    }
    this.acc &= (1 << this.bits) - 1;
  }

  /** Zero-pads the final partial byte. */
  finish(): Uint8Array {
    if (this.bits > 0) this.out[this.pos++] = (this.acc << (8 - this.bits)) & 0xff;
    return this.out.slice(0, this.pos);
  }
}

export function lzwCompress(input: Uint8Array): Uint8Array {
  const writer = new CodeWriter(input.length + 2);
  // Keyed by prefixCode << 8 | byte: numeric keys are far faster than strings on ~1 MB documents.
  const dictionary = new Map<number, number>();
  let next = FIRST_ENTRY;
  let current = input.length > 0 ? input[0] : -1;
  for (let i = 1; i < input.length; i++) {
    const key = (current << 8) | input[i];
    const known = dictionary.get(key);
    if (known !== undefined) {
      current = known;
      continue;
    }
    writer.write(current);
    // Once full the dictionary is frozen, never reset: the SDK's decoder does the same.
    if (next <= LAST_ENTRY) dictionary.set(key, next++);
    current = input[i];
  }
  if (current !== -1) writer.write(current);
  writer.write(END_CODE);
  writer.write(PADDING_CODE);
  return writer.finish();
}

/** Returns a function yielding the next 14-bit code, or -1 when the input runs out mid-code (as the SDK does). */
function codeReader(input: Uint8Array): () => number {
  let pos = 0;
  let acc = 0;
  let bits = 0;
  return () => {
    while (bits < CODE_BITS) {
      if (pos >= input.length) return -1;
      // Keep only the bits still unread (< 14) plus the new byte, so acc stays small.
      acc = ((acc << 8) | input[pos++]) & 0x3fffff;
      bits += 8;
    }
    bits -= CODE_BITS;
    return (acc >>> bits) & CODE_MASK;
  };
}

/** A growable output buffer that can write a dictionary entry by walking its prefix chain backwards. */
class ByteSink {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(capacity, 64));
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  writeEntry(code: number, prefix: Int16Array, suffix: Uint8Array, size: Int32Array): void {
    this.reserve(size[code]);
    let p = this.length + size[code];
    for (let c = code; c !== -1; c = prefix[c]) this.bytes[--p] = suffix[c];
    this.length += size[code];
  }

  push(byte: number): void {
    this.reserve(1);
    this.bytes[this.length++] = byte;
  }
}

export function lzwDecompress(input: Uint8Array): Uint8Array {
  const prefix = new Int16Array(LAST_ENTRY + 1).fill(-1);
  const suffix = new Uint8Array(LAST_ENTRY + 1);
  const size = new Int32Array(LAST_ENTRY + 1);
  for (let b = 0; b < FIRST_ENTRY; b++) {
    suffix[b] = b;
    size[b] = 1;
  }
  const out = new ByteSink(input.length * 3);
  const read = codeReader(input);
  let next = FIRST_ENTRY;
  let previous = -1;
  for (let code = read(); code !== -1 && code !== END_CODE; code = read()) {
    if (code > next || (code === next && previous === -1)) {
      throw new Error(`Corrupt LZW stream: code ${code} before entry ${next} exists`);
    }
    const start = out.length;
    if (code < next) {
      out.writeEntry(code, prefix, suffix, size);
    } else {
      // KwKwK: the code being defined right now is the previous entry plus its own first byte.
      out.writeEntry(previous, prefix, suffix, size);
      out.push(out.bytes[start]);
    }
    // Full dictionary: stop adding (next would pass 16382), never reset.
    if (previous !== -1 && next <= LAST_ENTRY) {
      prefix[next] = previous;
      suffix[next] = out.bytes[start];
      size[next] = size[previous] + 1;
      next++;
    }
    previous = code;
  }
  return out.bytes.slice(0, out.length);
}

/** One character per byte (U+0000..U+00FF); the SDK reads back the low byte of each UTF-16 code unit. */
export function toTransportText(bytes: Uint8Array): string {
  const chunks: string[] = [];
  // Chunked because String.fromCharCode(...) with a huge spread overflows the call stack.
  for (let i = 0; i < bytes.length; i += 8192) {
    chunks.push(String.fromCharCode(...bytes.subarray(i, i + 8192)));
  }
  return chunks.join('');
}

export function fromTransportText(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/** The body served to worlds: plain JSON, or compressed JSON (which can never start with `{`). */
export function encodeWorldBody(json: string, compress: boolean): string {
  if (!compress) return json;
  return toTransportText(lzwCompress(new TextEncoder().encode(json)));
}

/** Reads a body the way the SDK does: `{` first means plain JSON, anything else is compressed. */
export function decodeWorldBody(text: string): string {
  if (text.startsWith('{')) return text;
  return new TextDecoder().decode(lzwDecompress(fromTransportText(text)));
}
