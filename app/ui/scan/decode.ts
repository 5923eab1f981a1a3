// Reads a CODE128 barcode from a video frame: the browser's own BarcodeDetector where it
// has one (Android Chrome, Safari), else ZXing compiled to WebAssembly (zxing-wasm),
// served by this site (no CDN; the CSP allows 'wasm-unsafe-eval' for it).
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };
type DetectorClass = { new (options: { formats: string[] }): Detector; getSupportedFormats?: () => Promise<string[]> };

let reader: Promise<(frame: HTMLCanvasElement) => Promise<string | null>> | null = null;

async function nativeReader(): Promise<((frame: HTMLCanvasElement) => Promise<string | null>) | null> {
  const Native = (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const formats = (await Native.getSupportedFormats?.()) ?? [];
    if (!formats.includes("code_128")) return null;
    const detector = new Native({ formats: ["code_128"] });
    return async (frame) => (await detector.detect(frame))[0]?.rawValue ?? null;
  } catch {
    return null;
  }
}

async function wasmReader(): Promise<(frame: HTMLCanvasElement) => Promise<string | null>> {
  const zxing = await import("zxing-wasm/reader");
  try {
    // Fetched and compiled now, beside the camera's start, not on the first frame.
    await zxing.prepareZXingModule({
      overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) },
      fireImmediately: true,
    });
  } catch (error) {
    // A failed load (a dropped connection) is not kept: the next press tries again.
    zxing.purgeZXingModule();
    throw error;
  }
  return async (frame) => {
    const context = frame.getContext("2d", { willReadFrequently: true });
    if (!context) return null;
    const image = context.getImageData(0, 0, frame.width, frame.height);
    const [found] = await zxing.readBarcodes(image, { formats: ["Code128"], tryHarder: true, maxNumberOfSymbols: 1 });
    return found?.isValid ? found.text : null;
  };
}

/** The decoder, made once: native where it reads CODE128, else WebAssembly. */
export function barcodeReader() {
  reader ??= nativeReader()
    .then((native) => native ?? wasmReader())
    .catch((error: unknown) => {
      reader = null;
      throw error;
    });
  return reader;
}
