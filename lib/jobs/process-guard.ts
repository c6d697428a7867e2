import { log as componentLog } from "../telemetry/log.ts";

/**
 * The standalone worker's guard against stray promise rejections. Node ends the process on an
 * unhandled rejection, which would interrupt every run the worker carries for one lost progress
 * event or a late error of a dropped connection. The runs' own failures are handled where they
 * happen (and end the run with a reason); anything that slips past is logged, to be fixed, and
 * the worker goes on. Uncaught exceptions still end the process: its state may be broken.
 */
export function logUnhandledRejections(
  log: (...args: unknown[]) => void = (message, reason) =>
    componentLog("worker").error({ err: reason }, String(message)),
): void {
  process.on("unhandledRejection", (reason) => {
    log("[deep-research] unhandled promise rejection (the worker keeps running):", reason);
  });
}
