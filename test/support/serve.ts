// Starts the scripted LLM and the web fixture as a standalone process (for Playwright / e2e runs
// where the app under test is a separate process). Prints one JSON line with both URLs.
import { startScriptedLlm } from "./llm-server.ts";
import { startWebFixture } from "./web-fixture.ts";

function portFromEnv(name: string): number {
  const raw = process.env[name];
  if (!raw) return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name} must be a port number, got ${raw}`);
  return port;
}

const llm = await startScriptedLlm({ port: portFromEnv("LLM_PORT") });
const web = await startWebFixture({ port: portFromEnv("WEB_PORT") });
process.stdout.write(`${JSON.stringify({ llm: llm.url, web: web.url })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([llm.close(), web.close()]);
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
