/** Debian's Chromium, as every browser test and benchmark launches it. */
export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Without these Chromium tries to reach Google's services, and the closed network refuses it. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
