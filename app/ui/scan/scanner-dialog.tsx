import { useEffect, useRef, useState } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { barcodeReader } from "./decode";
import { parseLabelCode, SCAN_TEXTS } from "./label-code";

/**
 * The camera view for "Skanna" (a chunk of its own, with the decoder): React Aria's modal
 * dialog (focus inside, Escape and Avbryt close it, focus back on the button), the back
 * camera's picture, and one status line read by screen readers. A frame is read about
 * five times a second until a label of this customer's is found; the camera stops as soon
 * as the dialog closes.
 */
export default function ScannerDialog({ customerId, onScanned, onClose }: { customerId: number; onScanned: (bundle: number) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<string>(SCAN_TEXTS.starting);
  const done = useRef(onScanned);
  done.current = onScanned;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const canvas = document.createElement("canvas");
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    (async () => {
      try {
        const [media, read] = await Promise.all([
          navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false }),
          barcodeReader(),
        ]);
        stream = media;
        if (stopped) return stop();
        const v = video.current!;
        v.srcObject = media;
        await v.play();
        setStatus(SCAN_TEXTS.aim);
        const tick = async () => {
          if (stopped) return;
          if (v.videoWidth > 0) {
            canvas.width = v.videoWidth;
            canvas.height = v.videoHeight;
            canvas.getContext("2d", { willReadFrequently: true })?.drawImage(v, 0, 0);
            const text = await read(canvas).catch(() => null);
            if (stopped) return;
            if (text !== null) {
              const label = parseLabelCode(text);
              if (!label) setStatus(SCAN_TEXTS.notALabel);
              else if (label.customerId !== customerId) setStatus(SCAN_TEXTS.otherCustomer(label.customerId));
              else {
                stop();
                done.current(label.bundle);
                return;
              }
            }
          }
          timer = setTimeout(tick, 200);
        };
        void tick();
      } catch {
        stop();
        setStatus(SCAN_TEXTS.noCamera);
      }
    })();
    return stop;
  }, [customerId]);

  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="modal-overlay"
    >
      <Modal className="modal scanner">
        <Dialog className="modal-dialog">
          <Heading slot="title" level={2}>
            {SCAN_TEXTS.title}
          </Heading>
          <video ref={video} className="scanner-video" muted playsInline aria-hidden="true" />
          <p role="status" className="scanner-status">
            {status}
          </p>
          <div className="actions">
            <button type="button" onClick={onClose}>
              {SCAN_TEXTS.cancel}
            </button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
