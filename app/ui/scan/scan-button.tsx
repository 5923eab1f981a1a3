import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { SCAN_TEXTS } from "./label-code";
import { useHasCamera } from "./use-camera";

const ScannerDialog = lazy(() => import("./scanner-dialog"));

/**
 * "Skanna" beside a bundle field: reads the bundle label's barcode with the
 * phone's camera, checks that the label is this customer's and hands over the bundle
 * number. Absent without JavaScript and on a device without a camera, where typing works
 * as before. The camera and the decoder load only when it is pressed.
 */
export function ScanButton({ customerId, label, onScanned }: { customerId: number; label: string; onScanned: (bundle: number) => void }) {
  const camera = useHasCamera();
  const [open, setOpen] = useState(false);
  const [scanned, setScanned] = useState<number | null>(null);
  const handOver = useRef(onScanned);
  handOver.current = onScanned;
  useEffect(() => {
    if (open || scanned === null) return;
    // After React Aria has given the focus back to this button (a frame after the dialog
    // closed), the page moves it on to the amount.
    const timer = setTimeout(() => {
      setScanned(null);
      handOver.current(scanned);
    }, 60);
    return () => clearTimeout(timer);
  }, [open, scanned]);
  if (!camera) return null;
  return (
    <>
      <button type="button" className="scan-button" aria-label={label} onClick={() => setOpen(true)}>
        {SCAN_TEXTS.button}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ScannerDialog
            customerId={customerId}
            onClose={() => setOpen(false)}
            onScanned={(bundle) => {
              setScanned(bundle);
              setOpen(false);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
