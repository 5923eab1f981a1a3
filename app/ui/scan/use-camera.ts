import { useEffect, useState } from "react";

let cameraCheck: Promise<boolean> | null = null;

/** Whether the device has a camera the page may use; asked once per page load. */
function hasCamera(): Promise<boolean> {
  cameraCheck ??= (async () => {
    try {
      if (!window.isSecureContext || !navigator.mediaDevices?.enumerateDevices || !navigator.mediaDevices.getUserMedia) return false;
      const devices = await navigator.mediaDevices.enumerateDevices();
      return devices.some((d) => d.kind === "videoinput");
    } catch {
      return false;
    }
  })();
  return cameraCheck;
}

/** False on the server, without JavaScript and on a device without a camera. */
export function useHasCamera(): boolean {
  const [camera, setCamera] = useState(false);
  useEffect(() => {
    let live = true;
    void hasCamera().then((yes) => live && setCamera(yes));
    return () => {
      live = false;
    };
  }, []);
  return camera;
}
