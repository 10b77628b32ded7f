/** Types for heic-decode (the package ships none): libheif compiled to WebAssembly. */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  interface PendingImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface Decode {
    (input: { buffer: Uint8Array }): Promise<DecodedImage>;
    /** Every picture in the file, sized but not yet decoded; call dispose() when done. */
    all(input: { buffer: Uint8Array }): Promise<PendingImage[] & { dispose(): void }>;
  }
  const decode: Decode;
  export default decode;
}
