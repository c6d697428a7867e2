// E2E needs Debian's Chromium (Playwright's own browser download cannot work here). Fail early and say how.
import fs from "node:fs";

const exe = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!fs.existsSync(exe)) {
  console.error(
    `\nChromium not found at ${exe}. End-to-end tests drive Debian's Chromium. Install it with:\n`,
  );
  console.error("    sudo apt-get update && sudo apt-get install -y chromium\n");
  console.error("(or set CHROMIUM_PATH to another Chromium executable)\n");
  process.exit(1);
}
