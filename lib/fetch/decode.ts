/** Charset-aware decoding of fetched bytes (BOM, then declared charset, then UTF-8). */

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

function decoderFor(label: string | undefined): TextDecoder {
  if (label) {
    try {
      return new TextDecoder(label);
    } catch {
      // Unknown label: fall through to UTF-8 rather than failing the whole document.
    }
  }
  return new TextDecoder("utf-8");
}

/** Decodes text; malformed sequences become U+FFFD instead of throwing. */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  return decoderFor(bomCharset(bytes) ?? charset).decode(bytes);
}

/** The charset an HTML document declares in a <meta> tag within its first 1024 bytes, if any. */
export function sniffHtmlCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9._:-]+)/i.exec(head);
  return m?.[1]?.toLowerCase();
}
